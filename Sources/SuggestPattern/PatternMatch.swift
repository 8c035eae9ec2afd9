/// One match of a pattern, in UTF-8 offsets of the text it was found in.
public struct PatternMatch: Hashable, Sendable {
    /// The whole match.
    public var range: Range<Int>
    /// The group named `value`, if the pattern has one and it took part in the match.
    public var value: Range<Int>?
    /// The group named `kind`, if the pattern has one and it took part in the match.
    public var kind: Range<Int>?

    public init(range: Range<Int>, value: Range<Int>? = nil, kind: Range<Int>? = nil) {
        self.range = range
        self.value = value
        self.kind = kind
    }

    /// `range` (UTF-8 offsets) as a range of `String.Index` in `text`, the string the match was found in.
    public static func indices(of range: Range<Int>, in text: String) -> Range<String.Index> {
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let upper = utf8.index(lower, offsetBy: range.count)
        return lower..<upper
    }
}
