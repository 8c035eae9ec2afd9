/// A source of suggestions: a dictionary, recent searches, a token extractor, a remote service, or your own.
///
/// A provider is `Sendable` and answers on the caller's thread when it is local (``execution`` is
/// `.synchronous`, the default): implement ``suggest(_:into:)``. A remote provider says
/// `.asynchronous(deadline:)` and implements ``suggestions(for:)``; the engine runs it with that deadline and
/// shows its late answer as an update of the same keystroke, never of a later one.
///
/// The smallest provider:
/// ```swift
/// struct Colors: SuggestionProvider {
///     let id = "colors"
///     func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
///         for color in ["Red", "Green", "Blue"] {
///             if let match = request.match(color) { output.append(match) }
///         }
///     }
/// }
/// ```
public protocol SuggestionProvider: Sendable {
    /// A readable, unique name ("history", "prefix"); diagnostics and `--explain` show it.
    var id: String { get }

    /// Where the provider runs. Default: `.synchronous`.
    var execution: ProviderExecution { get }

    /// For an asynchronous provider (a network service, a database): the pause in typing after which a search field
    /// asks it. A keystroke that comes sooner than this after the previous one is answered by the other providers
    /// at once, and this provider is asked for it only when no newer keystroke comes within this interval of it: at
    /// full typing speed it is asked once typing pauses, never for keystrokes already replaced, and always for the
    /// last keystroke (its answer arrives as an update of that keystroke). A keystroke after a pause of at least this
    /// interval asks it at once. Default: `.zero` (asked on every keystroke).
    ///
    /// ``SearchSession`` and ``SuggestionEngine/results(for:)`` honour it; the calls that answer one keystroke
    /// completely (``SuggestionEngine/allSuggestions(for:session:)``, `suggest batch`) ask at once.
    var minimumInterval: Duration { get }

    /// Where this provider's exact matches rank unless its slot (the configuration's `exactMatch`) says otherwise.
    /// Default: ``ExactMatchRule/first``.
    var exactMatch: ExactMatchRule { get }

    /// Offers candidates for one keystroke (the synchronous path). Append to `output.candidates`; set
    /// `output.state` to keep something for the next keystroke of the same typing session.
    /// - Throws: any error; the keystroke goes on without this provider and reports the error in diagnostics.
    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws

    /// Offers candidates for one keystroke (the asynchronous path). The default calls ``suggest(_:into:)``.
    func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput

    /// Turns typed text into tokens before any provider suggests (step 2 of a keystroke). Return nil when
    /// nothing changes. `submitting` is true when the person pressed return.
    func extractTokens(from query: SearchQuery, submitting: Bool) throws -> TokenExtraction?

    /// A search was submitted: learn from it.
    func didSubmit(_ query: SearchQuery)

    /// The person chose `suggestion` while `query` was typed.
    func didSelect(_ suggestion: Suggestion, for query: SearchQuery)

    /// The text that backspace into `token` puts back in the field (`from:alice` for the token From: alice), if this
    /// provider made the token and knows better than its value; nil otherwise (the default). See
    /// ``SuggestionEngine/editText(for:)``.
    func editText(for token: SearchToken) -> String?
}

/// Where a provider runs.
public enum ProviderExecution: Hashable, Sendable {
    /// On the caller's thread, inside the keystroke.
    case synchronous
    /// In a task, with a deadline; answers come as updates of the keystroke's result.
    case asynchronous(deadline: Duration)
}

extension SuggestionProvider {
    public var execution: ProviderExecution { .synchronous }
    public var exactMatch: ExactMatchRule { .first }
    public var minimumInterval: Duration { .zero }

    public func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {}

    public func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
        var output = ProviderOutput()
        try suggest(request, into: &output)
        return output
    }

    public func extractTokens(from query: SearchQuery, submitting: Bool) throws -> TokenExtraction? { nil }
    public func didSubmit(_ query: SearchQuery) {}
    public func didSelect(_ suggestion: Suggestion, for query: SearchQuery) {}
    public func editText(for token: SearchToken) -> String? { nil }
}

/// Everything a provider gets for one keystroke.
public struct SuggestionRequest: Sendable {
    /// The prepared query (text after token extraction, folded, split in words).
    public let query: PreparedQuery
    /// How many suggestions the engine will show; a provider should offer at most this many of each tier.
    public let limit: Int
    /// What this provider kept from the previous keystroke of this typing session (`output.state`), if any.
    public let previousState: (any Sendable)?
    /// The keystroke's generation.
    public let generation: UInt64
    /// When set, a candidate of this tier or of a tier ranked after it cannot be shown on this keystroke: the
    /// providers before this one already offer `limit` different completions of better tiers, in sections without a
    /// quota, and the engine ranks tiers first. A provider may skip the work of such tiers (the fuzzy provider's typo
    /// walk and abbreviation scan); what it offers of them would not change the list. The engine sets it for the last
    /// provider of its configuration, when that provider's section has no quota; nil otherwise (every tier may be
    /// shown).
    public var filledBefore: MatchTier? = nil

    public init(query: PreparedQuery, limit: Int, previousState: (any Sendable)? = nil, generation: UInt64 = 0) {
        self.query = query
        self.limit = limit
        self.previousState = previousState
        self.generation = generation
    }

    /// The scope selected in the query.
    public var scope: SearchScope? { query.query.scope }
    /// The tokens in force.
    public var tokens: [SearchToken] { query.query.tokens }

    /// Matches `title` against the typed text by the engine's standard rules (exact, prefix, word-prefix) and
    /// returns a candidate with matched ranges, or nil. An empty query matches nothing. For providers with a
    /// few hundred items; index-backed providers do their own matching.
    public func match(
        _ title: String,
        completion: Suggestion.Completion? = nil,
        popularity: Double = 1,
        subtitle: String? = nil,
        systemImage: String? = nil
    ) -> SuggestionCandidate? {
        let text = NormalizedText(title)
        guard let (tier, ranges) = TextMatcher.match(query, in: text) else { return nil }
        return SuggestionCandidate(
            title: title,
            subtitle: subtitle,
            completion: completion,
            matchedRanges: ranges,
            tier: tier,
            popularity: popularity,
            systemImage: systemImage
        )
    }
}

/// What a provider answers for one keystroke.
public struct ProviderOutput: Sendable {
    public var candidates: [SuggestionCandidate]
    /// Kept for this provider's next keystroke in the same typing session (``SuggestionRequest/previousState``).
    public var state: (any Sendable)?
    /// Things worth knowing about this provider (a store it could not read), shown in the keystroke's
    /// ``SuggestionResult/Diagnostics/notes`` as "provider-id: note". Empty normally.
    public var notes: [String] = []

    public init(candidates: [SuggestionCandidate] = [], state: (any Sendable)? = nil) {
        self.candidates = candidates
        self.state = state
    }

    @inlinable
    public mutating func append(_ candidate: consuming SuggestionCandidate) { candidates.append(candidate) }
}

/// Text turned into tokens by a provider (step 2 of a keystroke).
public struct TokenExtraction: Hashable, Sendable {
    /// All tokens in force afterwards (the query's own first).
    public var tokens: [SearchToken]
    /// The text left in the field.
    public var remainingText: String
    /// Tokens to offer for a partly typed one.
    public var suggestedTokens: [SearchToken]
    /// For a suggested token (or a token completion) offered for text being typed: the UTF-8 range of
    /// ``remainingText`` that choosing it replaces — all of `"sweet po"` for the vocabulary entry Sweet Potato, not
    /// just `"po"`. A token without a range here replaces what ``SearchSession`` guesses (see
    /// ``SearchSession/add(_:)``).
    public var replacedRanges: [SearchToken: Range<Int>]

    public init(
        tokens: [SearchToken],
        remainingText: String,
        suggestedTokens: [SearchToken] = [],
        replacedRanges: [SearchToken: Range<Int>] = [:]
    ) {
        self.tokens = tokens
        self.remainingText = remainingText
        self.suggestedTokens = suggestedTokens
        self.replacedRanges = replacedRanges
    }
}

/// A provider that keeps its state in a store it reads when it starts (recent and popular searches): why that store
/// could not be read, if it could not. `suggest validate` shows it as a warning at the provider's `"store"`.
public protocol StoreReadingProvider: SuggestionProvider {
    /// Why the store could not be read when the provider started, or nil.
    var loadProblem: String? { get }
}
