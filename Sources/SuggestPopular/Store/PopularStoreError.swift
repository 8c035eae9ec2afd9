/// Why a popular-searches store could not be read or written: the file and, for what is in it, the line.
public struct PopularStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file (or store) at fault.
    public let path: String
    /// 1-based; nil for problems with the whole file (unreadable, cannot be written).
    public let line: Int?
    /// What is wrong: the parser's message, the system's error text.
    public let message: String

    public init(path: String, line: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `popular.json:12: "users" must be an integer of 1 or more, found string "five"`.
    public var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}
