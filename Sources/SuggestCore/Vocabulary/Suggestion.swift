/// One suggestion as the search field shows it: a title (with the matched parts to bold), what choosing it does
/// (complete the text, or add a token), and why it sits where it does.
public struct Suggestion: Hashable, Sendable, Identifiable {
    /// A suggestion's identity in a result: its completion (the engine shows one suggestion per completion), so a
    /// SwiftUI `ForEach` over a result's suggestions needs no `id:` argument.
    public var id: Completion { completion }

    /// What choosing a suggestion does, like SwiftUI's `.searchCompletion(_:)`.
    public enum Completion: Hashable, Sendable, CustomStringConvertible {
        /// Replace the field's text with this text.
        case text(String)
        /// Add this token to the field (and clear the text that led to it).
        case token(SearchToken)
        /// Put this whole query back in the field: its text and its tokens (a recent search that had tokens). It
        /// merges with other completions as its text does (or, with no text, as its first token).
        case query(SearchQuery)

        public var description: String {
            switch self {
            case .text(let text): text
            case .token(let token): token.description
            case .query(let query):
                query.tokens.map(\.description).joined(separator: " ")
                    + (query.tokens.isEmpty || query.text.isEmpty ? "" : " ") + query.text
            }
        }

        /// The token, if this completion adds one.
        public var token: SearchToken? {
            if case .token(let token) = self { return token }
            return nil
        }

        /// The text this completion puts in the field: the text of `.text` and of `.query`; nil for `.token`.
        public var text: String? {
            switch self {
            case .text(let text): text
            case .token: nil
            case .query(let query): query.text
            }
        }
    }

    /// The text shown.
    public var title: String
    /// A second line, if any.
    public var subtitle: String?
    /// What choosing it does.
    public var completion: Completion
    /// The parts of ``title`` that matched the typed text, as UTF-8 offset ranges into ``title`` (use
    /// ``matchedStringRanges`` for `String.Index` ranges).
    public var matchedRanges: [Range<Int>]
    /// Every provider that offered this completion, best match first.
    public var providers: [String]
    /// How it matched; suggestions are ranked by tier first.
    public var tier: MatchTier
    /// Number of typos forgiven (0 unless ``tier`` is a typo tier).
    public var typos: Int
    /// The popularity the provider reported (a dictionary weight, a frecency).
    public var popularity: Double
    /// The provider's configured weight.
    public var weight: Double
    /// Rank inside the tier: weight × popularity × (1 + times selected before).
    public var score: Double
    /// The section it is shown in ("Recent", "Suggestions").
    public var section: String
    /// An SF Symbol name.
    public var systemImage: String?
    /// The synonym it was found through, when only a synonym's rewritten query found it (it then ranks below
    /// every direct match).
    public var synonym: Synonyms.Match?
    /// How much the kinds of its typos changed ``popularity`` (see ``SuggestionCandidate/typoKindFactor``; 1 when
    /// not weighed).
    public var typoKindFactor: Double = 1
    /// A typo match whose words are in another order than the typed one (see
    /// ``SuggestionCandidate/wordsOutOfOrder``; it does not change the rank).
    public var wordsOutOfOrder = false

    public init(
        title: String,
        subtitle: String? = nil,
        completion: Completion,
        matchedRanges: [Range<Int>] = [],
        providers: [String] = [],
        tier: MatchTier = .prefix,
        typos: Int = 0,
        popularity: Double = 0,
        weight: Double = 1,
        score: Double = 0,
        section: String = SuggestionEngine.defaultSection,
        systemImage: String? = nil,
        synonym: Synonyms.Match? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.completion = completion
        self.matchedRanges = matchedRanges
        self.providers = providers
        self.tier = tier
        self.typos = typos
        self.popularity = popularity
        self.weight = weight
        self.score = score
        self.section = section
        self.systemImage = systemImage
        self.synonym = synonym
    }

    /// The provider that offered the best match.
    public var provider: String { providers.first ?? "" }

    /// A piece of ``title``: matched text (to bold) or not.
    public struct TitleRun: Hashable, Sendable {
        public var text: Substring
        public var isMatched: Bool

        public init(text: Substring, isMatched: Bool) {
            self.text = text
            self.isMatched = isMatched
        }
    }

    /// ``title`` cut into runs, in order, each matched or not (overlapping or unordered ``matchedRanges`` merged;
    /// ranges outside the title or inside a character ignored): what a search field shows with the matched parts
    /// in bold (`SuggestUI` builds an `AttributedString` from it).
    public var titleRuns: [TitleRun] {
        var ranges = matchedStringRanges.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<String.Index>] = []
        for range in ranges where !range.isEmpty {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        ranges = merged
        var runs: [TitleRun] = []
        var cursor = title.startIndex
        for range in ranges {
            // Whole characters only: a range that starts or ends inside one widens to it.
            let lower = max(cursor, Self.characterStart(title, range.lowerBound))
            let upper = Self.characterEnd(title, range.upperBound)
            guard lower < upper else { continue }
            if cursor < lower { runs.append(TitleRun(text: title[cursor..<lower], isMatched: false)) }
            runs.append(TitleRun(text: title[lower..<upper], isMatched: true))
            cursor = upper
        }
        if cursor < title.endIndex { runs.append(TitleRun(text: title[cursor...], isMatched: false)) }
        return runs
    }

    /// The start of the character that contains `index`.
    static func characterStart(_ text: String, _ index: String.Index) -> String.Index {
        var start = text.startIndex
        var i = text.startIndex
        while i < text.endIndex && i <= index {
            start = i
            i = text.index(after: i)
        }
        return start
    }

    /// The end of the character that contains the position just before `index` (`index` itself on a boundary).
    static func characterEnd(_ text: String, _ index: String.Index) -> String.Index {
        var i = text.startIndex
        while i < text.endIndex && i < index { i = text.index(after: i) }
        return i
    }

    /// ``matchedRanges`` as ranges of `String.Index` in ``title``.
    public var matchedStringRanges: [Range<String.Index>] {
        let utf8 = title.utf8
        return matchedRanges.compactMap { range in
            guard range.lowerBound >= 0, range.upperBound <= utf8.count else { return nil }
            let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
            let upper = utf8.index(utf8.startIndex, offsetBy: range.upperBound)
            return lower..<upper
        }
    }
}
