/// A saved prefix index that cannot be read or written.
public struct PrefixIndexError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Code: Hashable, Sendable {
        case unreadable
        case unwritable(String)
        case notARegularFile(String)
        case notAnIndex
        case unsupportedVersion(found: UInt32)
        case wrongByteOrder
        case truncated
        case checksumMismatch
        case corrupt(String)
    }

    let code: Code
    /// The index file.
    public let file: String

    init(_ code: Code, file: String) {
        self.code = code
        self.file = file
    }

    /// The file's format version is one this build cannot read (a rebuild fixes it).
    public var isUnsupportedVersion: Bool {
        if case .unsupportedVersion = code { return true }
        return false
    }

    /// The file does not start as a prefix index does: some other file, not a damaged index.
    public var isNotAnIndex: Bool { code == .notAnIndex }

    /// The file is missing or cannot be read.
    public var isUnreadable: Bool { code == .unreadable }

    public var description: String {
        switch code {
        case .unreadable: "\(file): cannot be read"
        case .unwritable(let reason): "\(file): cannot be written (\(reason))"
        case .notARegularFile(let kind): "\(file): cannot be read (not a regular file: \(kind))"
        case .notAnIndex: "\(file): not a swift-suggest prefix index (bad magic bytes)"
        case .unsupportedVersion(let found):
            "\(file): prefix index format version \(found), this build reads version \(PrefixIndex.formatVersion); rebuild it"
        case .wrongByteOrder: "\(file): prefix index written on a machine of the other byte order; rebuild it"
        case .truncated: "\(file): truncated prefix index (the file is shorter than its header says)"
        case .checksumMismatch: "\(file): corrupt prefix index (checksum mismatch)"
        case .corrupt(let what): "\(file): corrupt prefix index (\(what))"
        }
    }
}
