/// A pattern that says whether it occurs anywhere in a text, case-insensitively: what a filter such as "never
/// remember searches that look like a card number" needs.
///
/// The syntax is Swift `Regex`'s. Patterns that could backtrack catastrophically are refused (`BacktrackingCheck`),
/// because Swift `Regex` has no match limit. Where the `PCRE2` trait is on, the pattern runs on PCRE2 with its match
/// and depth limits when PCRE2 takes the syntax (a match that reaches a limit counts as a match: the safe side for a
/// filter), and on Swift `Regex` (default grapheme semantics) otherwise.
///
/// `@unchecked Sendable`: `Regex<AnyRegexOutput>` is not `Sendable` only because its output type (the match record)
/// is not; the compiled program it holds is immutable once lowered, and `init` lowers it (a match on an empty string)
/// before the value is shared, so concurrent matches only read it. The PCRE2 form is itself `Sendable`.
public final class TextFilterPattern: @unchecked Sendable {
    /// The pattern's source text.
    public let source: String
    private let regex: Regex<AnyRegexOutput>
    #if PCRE2
        /// The same pattern on PCRE2, with its match limit; nil where PCRE2 does not take the syntax.
        private let pcre2: PCRE2Pattern?
    #endif

    /// Compiles `pattern`.
    /// - Throws: ``PatternError`` of kind ``PatternError/Kind/compile``: Swift `Regex`'s message for a pattern that
    ///   does not compile; for one that could backtrack catastrophically, the reason and its offset.
    public init(_ pattern: String) throws(PatternError) {
        let compiled: Regex<AnyRegexOutput>
        do {
            compiled = try Regex(pattern).ignoresCase()
        } catch {
            throw PatternError(
                .compile, SwiftRegexPattern.message(of: error), offset: SwiftRegexPattern.offset(of: error, in: pattern))
        }
        if let risk = BacktrackingCheck.firstRisk(in: pattern) {
            throw PatternError(
                .compile,
                "\(risk.reason); a filter pattern must be safe on Swift Regex, which has no match limit (an app built "
                    + "without PCRE2 runs it there): make the group atomic (?>…) or rewrite it (\"(a+)+\" as \"a+\", "
                    + "\"(a|aa)+\" as \"a+\")",
                offset: risk.offset
            )
        }
        source = pattern
        regex = compiled
        #if PCRE2
            pcre2 = try? PCRE2Pattern(pattern, options: .caseInsensitive, limits: PatternLimits())
        #endif
        _ = "".firstMatch(of: regex)
    }

    /// Whether the pattern matches anywhere in `text`. A PCRE2 match that gives up at its limit counts as a match.
    public func matches(_ text: String) -> Bool {
        #if PCRE2
            if let pcre2 { return pcre2.matchesAnywhere(text) }
        #endif
        return text.firstMatch(of: regex) != nil
    }
}
