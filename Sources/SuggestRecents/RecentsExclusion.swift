public import SuggestCore

/// Searches that are never remembered: too short, or matching a pattern (a password typed into the wrong field,
/// a card number, an address).
///
/// Patterns are Swift `Regex` syntax, matched case-insensitively anywhere in the search's text and in each token's
/// value (anchor them with `^…$` to match the whole text). Patterns that could backtrack catastrophically are
/// refused; where the `PCRE2` trait is on, the patterns run on PCRE2 with a match limit (a match that reaches it
/// counts as a match), falling back to Swift `Regex` for syntax PCRE2 does not take. Searches stored before a rule
/// was added are forgotten when the provider loads them, and removed from the store at its next write.
public struct RecentsExclusion: Hashable, Sendable {
    /// A pattern that is not a valid regular expression.
    public struct PatternError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The pattern's position in ``RecentsExclusion/patterns``.
        public var index: Int
        public var pattern: String
        /// The regular expression parser's message, or why the pattern could backtrack catastrophically.
        public var message: String

        public var description: String { "invalid pattern \"\(pattern)\": \(message)" }
    }

    /// Searches whose text (trimmed) has fewer characters than this are not remembered, unless they have tokens.
    public var minimumLength: Int
    /// Regular expressions; a search matching any of them is not remembered.
    public let patterns: [String]
    /// The patterns compiled once (they run on every recorded search and on every stored one at start).
    private let compiled: CompiledPatterns

    /// - Throws: ``PatternError`` for the first pattern that does not compile, or that could backtrack
    ///   catastrophically (a repeated group with an unbounded quantifier or an alternation whose branches can match
    ///   the same text: `(a+)+`, `(a|aa)+`, `(.*a){20}`), at its offset.
    public init(minimumLength: Int = 1, patterns: [String] = []) throws(PatternError) {
        self.minimumLength = minimumLength
        self.patterns = patterns
        var regexes: [Regex<AnyRegexOutput>] = []
        for (index, pattern) in patterns.enumerated() {
            do {
                regexes.append(try Regex(pattern).ignoresCase())
            } catch {
                throw PatternError(index: index, pattern: pattern, message: "\(error)")
            }
            // Swift `Regex` has no match limit, and these run on every recorded search and on every start (stored
            // searches are checked again): refuse what could backtrack catastrophically, as token rules do.
            if let risk = BacktrackingCheck.firstRisk(in: pattern) {
                throw PatternError(
                    index: index,
                    pattern: pattern,
                    message: "\(risk.reason) (Swift Regex has no match limit; rewrite it, \"(a+)+\" as \"a+\") "
                        + "at offset \(risk.offset)"
                )
            }
        }
        compiled = CompiledPatterns(regexes, patterns: patterns)
    }

    /// The longest text (UTF-8 bytes) the patterns run on. Patterns that pass the backtracking check can still take
    /// time polynomial in the text (`.*a.*a.*a`), so a search whose text or a token value is longer is not
    /// remembered when there are patterns (nor kept when a store holds one): the engine cuts submitted text to
    /// 1,024 bytes, so only searches recorded directly or stored by older versions are that long.
    public static let maximumMatchedLength = 4_096

    /// No exclusion beyond empty searches.
    public static let none = try! RecentsExclusion()

    /// Whether `query` (already in its display form) must not be remembered. An empty search never is; with
    /// patterns, neither is one longer than ``maximumMatchedLength``.
    public func excludes(_ query: SearchQuery) -> Bool {
        if query.text.isEmpty && query.tokens.isEmpty { return true }
        if query.tokens.isEmpty && query.text.count < minimumLength { return true }
        guard !patterns.isEmpty else { return false }
        if query.text.utf8.count > Self.maximumMatchedLength
            || query.tokens.contains(where: { $0.value.utf8.count > Self.maximumMatchedLength })
        {
            return true
        }
        for index in compiled.regexes.indices {
            if compiled.matches(query.text, index) { return true }
            for token in query.tokens where compiled.matches(token.value, index) { return true }
        }
        return false
    }
}

extension RecentsExclusion {
    /// Equal when the minimum length and the patterns are (the compiled form follows from them).
    public static func == (lhs: RecentsExclusion, rhs: RecentsExclusion) -> Bool {
        lhs.minimumLength == rhs.minimumLength && lhs.patterns == rhs.patterns
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(minimumLength)
        hasher.combine(patterns)
    }
}

/// The compiled exclusion patterns.
///
/// `@unchecked Sendable`: `Regex<AnyRegexOutput>` is not `Sendable` only because its output type (the match record)
/// is not; the compiled program it holds is immutable once lowered, and `init` lowers each one (a match on an empty
/// string) before the value is shared, so concurrent matches only read it (as `SwiftRegexPattern` in SuggestTokens).
private final class CompiledPatterns: @unchecked Sendable {
    let regexes: [Regex<AnyRegexOutput>]
    #if PCRE2
        /// The same patterns on PCRE2, with its match limit; nil where PCRE2 does not take the syntax.
        let pcre2: [PCRE2ExclusionPattern?]
    #endif

    init(_ regexes: [Regex<AnyRegexOutput>], patterns: [String]) {
        self.regexes = regexes
        #if PCRE2
            pcre2 = patterns.map { PCRE2ExclusionPattern($0) }
        #endif
        for regex in regexes { _ = "".firstMatch(of: regex) }
    }

    /// Whether pattern `index` matches `text`: on PCRE2 (bounded by its match limit) where this build has it and
    /// the pattern compiles there, else on Swift `Regex`.
    func matches(_ text: String, _ index: Int) -> Bool {
        #if PCRE2
            if let pattern = pcre2[index] { return pattern.matches(text) }
        #endif
        return text.firstMatch(of: regexes[index]) != nil
    }
}
