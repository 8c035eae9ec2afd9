/// What the engine answers for one keystroke.
public struct SuggestionResult: Sendable {
    /// A titled group of suggestions ("Recent", "Suggestions").
    public struct Section: Hashable, Sendable {
        public var title: String
        public var suggestions: [Suggestion]

        public init(title: String, suggestions: [Suggestion]) {
            self.title = title
            self.suggestions = suggestions
        }
    }

    /// The keystroke this result answers; a later update for the same keystroke has the same generation.
    public var generation: UInt64
    /// Sections in display order, each best first. Empty sections are left out.
    public var sections: [Section]
    /// The tokens in force after this keystroke: the query's own plus any that typed text turned into.
    public var tokens: [SearchToken]
    /// The text left in the field after token extraction.
    public var remainingText: String
    /// Tokens to offer (SwiftUI's `suggestedTokens`); none already in ``tokens``.
    public var suggestedTokens: [SearchToken]
    /// For a suggested token (or a token completion) offered for the text being typed: the UTF-8 range of
    /// ``remainingText`` that choosing it replaces — `"sweet po"` for Sweet Potato (see
    /// ``TokenExtraction/replacedRanges``).
    public var replacedRanges: [SearchToken: Range<Int>]
    /// The longest text that every top suggestion's completion starts with, when it extends what was typed
    /// (for Tab-to-complete); nil otherwise.
    public var commonCompletion: String?
    /// Timings, errors and notes.
    public var diagnostics: Diagnostics
    /// When the keystroke's text was still being composed by an input method (``SearchQuery/markedRange``): the
    /// marked part of ``remainingText`` (which is then the query's whole text, unchanged), as UTF-8 offsets; nil
    /// otherwise. Such a result answers the committed text with the synchronous providers only.
    public var markedRange: Range<Int>?

    public init(
        generation: UInt64 = 0,
        sections: [Section] = [],
        tokens: [SearchToken] = [],
        remainingText: String = "",
        suggestedTokens: [SearchToken] = [],
        replacedRanges: [SearchToken: Range<Int>] = [:],
        commonCompletion: String? = nil,
        diagnostics: Diagnostics = Diagnostics(),
        markedRange: Range<Int>? = nil
    ) {
        self.generation = generation
        self.sections = sections
        self.tokens = tokens
        self.remainingText = remainingText
        self.suggestedTokens = suggestedTokens
        self.replacedRanges = replacedRanges
        self.commonCompletion = commonCompletion
        self.diagnostics = diagnostics
        self.markedRange = markedRange
    }

    /// True when the keystroke's text was still being composed (``markedRange``): no asynchronous provider was
    /// asked and no text turned into tokens.
    public var isComposing: Bool { markedRange != nil }

    /// All suggestions in display order (sections in their order, each best first).
    public var suggestions: [Suggestion] { sections.flatMap(\.suggestions) }

    /// What happened while answering: per-provider time, provider errors, late or cancelled async providers, notes.
    public struct Diagnostics: Hashable, Sendable {
        /// One provider's part of the keystroke.
        public struct ProviderReport: Hashable, Sendable {
            public enum Outcome: Hashable, Sendable {
                /// Answered with this many candidates.
                case answered(count: Int)
                /// Threw; the keystroke went on without it.
                case failed(message: String)
                /// An async provider that has not answered yet; its answer may come as an update.
                case pending
                /// An async provider that missed its deadline, or whose keystroke was superseded.
                case cancelled(reason: String)
            }

            public var provider: String
            public var micros: Double
            public var outcome: Outcome

            public init(provider: String, micros: Double, outcome: Outcome) {
                self.provider = provider
                self.micros = micros
                self.outcome = outcome
            }
        }

        /// The engine's own time for the keystroke, providers included, in microseconds.
        public var micros: Double
        public var providers: [ProviderReport]
        /// Things worth knowing: a truncated query, a skipped provider.
        public var notes: [String]

        public init(micros: Double = 0, providers: [ProviderReport] = [], notes: [String] = []) {
            self.micros = micros
            self.providers = providers
            self.notes = notes
        }

        /// Errors reported by providers, as "provider: message".
        public var errors: [String] {
            providers.compactMap { report in
                if case .failed(let message) = report.outcome { return "\(report.provider): \(message)" }
                return nil
            }
        }
    }
}
