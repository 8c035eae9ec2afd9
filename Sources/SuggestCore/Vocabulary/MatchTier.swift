/// How a suggestion matches the typed text. Suggestions are ranked by tier first, never by adding up scores:
/// an exact match beats every prefix match, a prefix match beats every word-prefix match, and so on, in the order
/// the cases are declared (`allCases`); raw values identify a tier, they do not order it.
public enum MatchTier: Int, Comparable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// The whole (normalized) text equals the query.
    case exact = 0
    /// The text starts with the query (earlier query words matched whole words, the last one as a prefix).
    case prefix = 1
    /// The query matches at the start of a later word inside the text ("york" → "New York").
    case wordPrefix = 2
    /// Every word of the query starts a word of the text, in the query's order but not as one run ("dj re fr" →
    /// "django-rest-framework", "little mer" → "The Little Mermaid" is a ``wordPrefix`` match).
    case wordsInOrder = 8
    /// Every word of the query starts a different word of the text, in another order ("mermaid lit" → "The Little
    /// Mermaid").
    case wordsAnyOrder = 9
    /// The query occurs inside the text, not at a word start.
    case contains = 3
    /// The query's characters occur in order (an abbreviation: "gthb" → "github").
    case subsequence = 4
    /// A prefix or whole-word match with one typo.
    case oneTypo = 5
    /// A prefix or whole-word match with two typos or more (fewer typos first: the suggestion's `typos`).
    case twoTypos = 6
    /// Shown without any text typed (recent searches on an empty field, a static list's defaults).
    case unfiltered = 7

    public static func < (lhs: MatchTier, rhs: MatchTier) -> Bool { lhs.order < rhs.order }

    /// Every tier, in rank order (``order`` is the index).
    static let inRankOrder: [MatchTier] = MatchTier.allCases.sorted { $0.order < $1.order }

    /// The position in the ranking: the declaration order.
    var order: Int {
        switch self {
        case .exact: 0
        case .prefix: 1
        case .wordPrefix: 2
        case .wordsInOrder: 3
        case .wordsAnyOrder: 4
        case .contains: 5
        case .subsequence: 6
        case .oneTypo: 7
        case .twoTypos: 8
        case .unfiltered: 9
        }
    }

    /// The largest raw value.
    static let maximumRawValue = 9

    /// The tier for a typo match with `typos` edits (1 or more).
    public static func typos(_ count: Int) -> MatchTier { count <= 1 ? .oneTypo : .twoTypos }

    public var description: String {
        switch self {
        case .exact: "exact"
        case .prefix: "prefix"
        case .wordPrefix: "word-prefix"
        case .wordsInOrder: "words-in-order"
        case .wordsAnyOrder: "words-any-order"
        case .contains: "contains"
        case .subsequence: "subsequence"
        case .oneTypo: "1-typo"
        case .twoTypos: "2-typos"
        case .unfiltered: "unfiltered"
        }
    }
}
