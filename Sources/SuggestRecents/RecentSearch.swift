public import Foundation
public import SuggestCore

/// One remembered search: the query as it was submitted (text, tokens, scope) and how often and how lately it was
/// made.
///
/// Two searches are the same search when their ``key``s are equal: the text folded (case, diacritics, width) with
/// surrounding and repeated whitespace removed, plus the tokens (kind and folded value, in any order). The newest
/// display form is kept.
public struct RecentSearch: Hashable, Sendable, Codable {
    /// The search as submitted, ready to restore: text (trimmed, inner whitespace runs collapsed to one space,
    /// case and diacritics kept), tokens, scope.
    public var query: SearchQuery
    /// When it was first made.
    public var firstUsed: Date
    /// When it was last made.
    public var lastUsed: Date
    /// How many times it was made (submitted, or selected when the provider records selections).
    public var uses: Int
    /// The frecency at ``lastUsed``: every use counts 1 and halves every half-life since.
    public var score: Double

    public init(query: SearchQuery, firstUsed: Date, lastUsed: Date, uses: Int = 1, score: Double = 1) {
        self.query = query
        self.firstUsed = firstUsed
        self.lastUsed = lastUsed
        self.uses = uses
        self.score = score
    }

    /// A single use of `query` at `date`, with the query's text cleaned up (see ``displayForm(of:)``).
    public init(_ query: SearchQuery, at date: Date) {
        self.init(query: Self.displayForm(of: query), firstUsed: date, lastUsed: date)
    }

    /// The identity used to dedupe (see the type's documentation).
    public var key: String { Self.key(for: query) }

    /// The text a suggestion shows: the query's text, or its tokens' display texts when it has no text.
    public var title: String {
        query.text.isEmpty ? query.tokens.map(\.display).joined(separator: ", ") : query.text
    }

    /// What choosing its suggestion does: complete the text (a search without tokens), add the token (a search of
    /// one token and no text), or put the whole search back — text and tokens (any other).
    var suggestionCompletion: Suggestion.Completion {
        if query.tokens.isEmpty { return .text(query.text) }
        if query.text.isEmpty && query.tokens.count == 1 { return .token(query.tokens[0]) }
        return .query(SearchQuery(text: query.text, tokens: query.tokens))
    }

    /// Its suggestion's subtitle: the tokens, when the title does not show them already.
    var suggestionSubtitle: String? {
        guard !query.text.isEmpty, !query.tokens.isEmpty else { return nil }
        return query.tokens.map(\.display).joined(separator: ", ")
    }

    /// `score` kept finite and positive: the largest finite `Double` instead of infinity (and instead of NaN, which
    /// only an infinite score can produce here).
    static func finite(_ score: Double) -> Double {
        score.isFinite ? score : (score.isNaN || score > 0 ? .greatestFiniteMagnitude : .leastNonzeroMagnitude)
    }

    /// The frecency at `date`: ``score`` halved for every `halfLife` seconds since ``lastUsed``.
    public func frecency(at date: Date, halfLife: Double) -> Double {
        score * exp2(-max(0, date.timeIntervalSince(lastUsed)) / halfLife)
    }

    /// The dedupe key of `query` (see the type's documentation).
    public static func key(for query: SearchQuery) -> String {
        var key = collapsedFolded(query.text)
        if !query.tokens.isEmpty {
            let parts = query.tokens.map { "\($0.kind)\u{1E}\(TextNormalizer.normalizedString($0.value))" }.sorted()
            for part in parts {
                key += "\u{1F}"
                key += part
            }
        }
        return key
    }

    /// `query` with its text trimmed and whitespace runs collapsed to one space (case and diacritics kept).
    public static func displayForm(of query: SearchQuery) -> SearchQuery {
        var query = query
        query.text = collapsingWhitespace(query.text)
        return query
    }

    /// `text` folded, trimmed, with whitespace runs collapsed (`TextNormalizer.collapsedKey`).
    static func collapsedFolded(_ text: String) -> String {
        String(decoding: TextNormalizer.collapsedKey(text), as: UTF8.self)
    }

    static func collapsingWhitespace(_ text: String) -> String {
        TextNormalizer.collapsingWhitespace(text)
    }
}
