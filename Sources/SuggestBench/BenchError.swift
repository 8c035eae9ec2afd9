/// Why a bench cannot run or compare: each names the file or option at fault.
public struct BenchError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) { self.description = description }

    /// The configuration holds no search to type.
    public static func nothingToType(emptyLists: [String]) -> BenchError {
        if emptyLists.isEmpty {
            return BenchError(
                "the configuration has no dictionary and no static items to draw searches from: pass --queries FILE "
                    + "(one search a line)")
        }
        let plural = emptyLists.count == 1 ? "y is" : "ies are"
        return BenchError(
            "the dictionar\(plural) empty (\(emptyLists.joined(separator: ", "))): nothing to draw searches from; "
                + "pass --queries FILE (one search a line)")
    }

    /// A `--queries` file that cannot be used.
    public static func queries(_ path: String, _ problem: String) -> BenchError {
        BenchError("\(path): \(problem)")
    }

    /// A baseline file that cannot be read or compared.
    public static func baseline(_ path: String, _ problem: String) -> BenchError {
        BenchError("baseline \(path): \(problem)")
    }
}
