/// How a pattern matches, beyond its own syntax.
public struct PatternOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Letters match regardless of case (PCRE2's `CASELESS`, Swift `Regex`'s `ignoresCase()`).
    public static let caseInsensitive = PatternOptions(rawValue: 1 << 0)
}
