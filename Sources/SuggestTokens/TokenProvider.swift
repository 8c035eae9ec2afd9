public import SuggestCore

/// Turns what a person types into search tokens (`"type": "tokens"`): text before a delimiter, vocabulary words
/// followed by a space, and rule matches (`from:alice`) become tokens and leave the text; a partly typed token
/// (`from:al`, `chi`) is offered as suggested tokens and as suggestions whose completion is a token.
///
/// ```json
/// { "type": "tokens", "delimiters": [","], "convertOnSpace": true,
///   "rules": [ { "kind": "from", "pattern": "\\bfrom:(?<value>\\S+)", "display": "From: $value",
///                "systemImage": "person", "values": ["alice", "alex"] } ],
///   "vocabulary": { "ingredient": ["Chicken", "Beef", "Sweet Potato"], "cuisine": { "file": "cuisines.txt" } } }
/// ```
///
/// The engine calls ``extractTokens(from:submitting:)`` before any provider suggests; the other providers get
/// the remaining text and the tokens. Backspace into a token: ``removingLastToken(from:)``.
public struct TokenProvider: ConfigurableProvider {
    public static let typeName = "tokens"
    /// The kind of a token made from plain text before a delimiter.
    public static let textKind = "text"

    public let id: String
    /// Strings that end a token (default `[","]`).
    public let delimiters: [String]
    /// Whether a vocabulary entry followed by a space becomes a token (default true).
    public let convertOnSpace: Bool
    /// Rules, in order: an earlier rule's match wins over an overlapping later one.
    public let rules: [TokenRule]
    public let vocabulary: TokenVocabulary
    /// At most this many suggested tokens per keystroke (default 8).
    public let maxSuggestedTokens: Int
    /// The delimiters' UTF-8 bytes.
    let delimiterBytes: [[UInt8]]
    /// The last keystroke's suggested tokens, so that `suggest` does not match the rules again on the same text.
    let lastPartials = PartialsCache()

    /// - Parameters:
    ///   - id: the provider's id in results and diagnostics.
    ///   - delimiters: strings that end a token; empty strings are ignored.
    ///   - convertOnSpace: whether a vocabulary entry followed by a space becomes a token.
    ///   - rules: pattern rules, in order of precedence.
    ///   - vocabulary: words and phrases by kind.
    ///   - maxSuggestedTokens: the cap on suggested tokens per keystroke.
    public init(
        id: String = "tokens",
        delimiters: [String] = [","],
        convertOnSpace: Bool = true,
        rules: [TokenRule] = [],
        vocabulary: TokenVocabulary = TokenVocabulary(),
        maxSuggestedTokens: Int = 8
    ) {
        self.id = id
        self.delimiters = delimiters.filter { !$0.isEmpty }
        self.convertOnSpace = convertOnSpace
        self.rules = rules
        self.vocabulary = vocabulary
        self.maxSuggestedTokens = max(0, maxSuggestedTokens)
        self.delimiterBytes = self.delimiters.map { Array($0.utf8) }
    }

    // MARK: SuggestionProvider

    public func extractTokens(from query: SearchQuery, submitting: Bool) throws -> TokenExtraction? {
        guard !query.text.isEmpty else { return nil }
        let analysis = try analyze(query.text, tokens: query.tokens, submitting: submitting)
        if !submitting {
            lastPartials.store(text: analysis.remainingText, tokens: analysis.tokens, partials: analysis.partials)
        }
        guard analysis.changed || !analysis.partials.isEmpty else { return nil }
        return TokenExtraction(
            tokens: analysis.tokens,
            remainingText: analysis.remainingText,
            suggestedTokens: analysis.partials.map(\.token),
            replacedRanges: Self.replacedRanges(analysis.partials, in: query.text, remaining: analysis.remainingText)
        )
    }

    /// Each partial's typed part (from its start to the end of `text`) as a range of `remaining`, where it is the
    /// same suffix (it is, unless tokens were taken from inside it); partials for which it is not get none.
    static func replacedRanges(
        _ partials: [Partial],
        in text: String,
        remaining: String
    ) -> [SearchToken: Range<Int>] {
        guard !partials.isEmpty else { return [:] }
        var text = text
        var remaining = remaining
        var ranges: [SearchToken: Range<Int>] = [:]
        text.withUTF8 { bytes in
            remaining.withUTF8 { kept in
                for partial in partials where ranges[partial.token] == nil {
                    guard partial.start >= 0, partial.start <= bytes.count else { continue }
                    let typed = bytes[partial.start...]
                    guard typed.count <= kept.count, kept[(kept.count - typed.count)...].elementsEqual(typed) else {
                        continue
                    }
                    ranges[partial.token] = (kept.count - typed.count)..<kept.count
                }
            }
        }
        return ranges
    }

    /// Suggestions whose completion is a token, for a token being typed at the end of the (remaining) text.
    public func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        let text = request.query.text
        guard !text.isEmpty, !rules.isEmpty || !vocabulary.isEmpty else { return }
        let partials: [Partial]
        if let cached = lastPartials.partials(text: text, tokens: request.tokens) {
            partials = cached
        } else {
            partials = try analyze(text, tokens: request.tokens, submitting: false).partials
        }
        for partial in partials.prefix(request.limit) {
            output.append(
                SuggestionCandidate(
                    title: partial.token.display,
                    completion: .token(partial.token),
                    matchedRanges: partial.matchedRange.map { [$0] } ?? [],
                    tier: partial.isExact ? .exact : .prefix,
                    systemImage: partial.token.systemImage
                )
            )
        }
    }
}
