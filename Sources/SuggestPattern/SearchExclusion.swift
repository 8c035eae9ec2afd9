public import SuggestCore

/// Searches that are never remembered: too short, or matching a pattern (a password typed into the wrong field,
/// a card number, an address). The recent-searches provider (`RecentsExclusion` is this type) and the
/// popular-searches provider both apply it.
///
/// Patterns are Swift `Regex` syntax, matched case-insensitively anywhere in the search's text and in each token's
/// value (anchor them with `^…$` to match the whole text). Patterns that could backtrack catastrophically are
/// refused; where the `PCRE2` trait is on, the patterns run on PCRE2 with a match limit (a match that reaches it
/// counts as a match), falling back to Swift `Regex` for syntax PCRE2 does not take. Searches stored before a rule
/// was added are forgotten when a provider loads them, and removed from its store at its next write.
public struct SearchExclusion: Hashable, Sendable {
    /// A pattern that is not a valid regular expression.
    public struct PatternError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The pattern's position in ``SearchExclusion/patterns``.
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
    private let filters: [TextFilterPattern]

    /// - Throws: `PatternError` for the first pattern that does not compile, or that could backtrack
    ///   catastrophically (a repeated group with an unbounded quantifier or an alternation whose branches can match
    ///   the same text: `(a+)+`, `(a|aa)+`, `(.*a){20}`), at its offset.
    public init(minimumLength: Int = 1, patterns: [String] = []) throws(PatternError) {
        self.minimumLength = minimumLength
        self.patterns = patterns
        var filters: [TextFilterPattern] = []
        for (index, pattern) in patterns.enumerated() {
            do {
                filters.append(try TextFilterPattern(pattern))
            } catch {
                throw PatternError(index: index, pattern: pattern, message: error.description)
            }
        }
        self.filters = filters
    }

    /// The longest text (UTF-8 bytes) the patterns run on. Patterns that pass the backtracking check can still take
    /// time polynomial in the text (`.*a.*a.*a`), so a search whose text or a token value is longer is not
    /// remembered when there are patterns (nor kept when a store holds one): the engine cuts submitted text to
    /// 1,024 bytes, so only searches recorded directly or stored by older versions are that long.
    public static let maximumMatchedLength = 4_096

    /// No exclusion beyond empty searches.
    public static let none = try! SearchExclusion()

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
        for filter in filters {
            if filter.matches(query.text) { return true }
            for token in query.tokens where filter.matches(token.value) { return true }
        }
        return false
    }
}

extension SearchExclusion {
    /// Equal when the minimum length and the patterns are (the compiled form follows from them).
    public static func == (lhs: SearchExclusion, rhs: SearchExclusion) -> Bool {
        lhs.minimumLength == rhs.minimumLength && lhs.patterns == rhs.patterns
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(minimumLength)
        hasher.combine(patterns)
    }
}
