/// A compiled pattern: finds every match, with its `value` and `kind` groups, in a part of a text. Token rules
/// compile their patterns to it.
///
/// Two engines implement it (see ``PatternEngine``): PCRE2 with JIT (the default, trait `PCRE2`) and Swift `Regex`
/// (always available; used where libpcre2 is absent, such as iOS apps). Both take the same syntax for what rules
/// need: named groups `(?<value>…)`, `\b`, `\S`, `\w`, classes, alternation, `(?i)`.
public protocol CompiledPattern: Sendable {
    /// The pattern's source text.
    var source: String { get }

    /// Appends every non-overlapping match inside `text`'s UTF-8 range `range` to `matches`, in order.
    /// `range` is treated as the whole subject: `^`, `$` and `\b` see its ends as the text's ends.
    /// - Throws: ``PatternError`` of kind ``PatternError/Kind/matchLimit`` when a match or depth limit is hit.
    /// - Complexity: linear in the range's length for well-behaved patterns; bounded by the match limit for others.
    func appendMatches(
        in text: String,
        utf8Range range: Range<Int>,
        to matches: inout [PatternMatch]
    ) throws(PatternError)
}
