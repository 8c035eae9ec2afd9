public import Observation

/// The model a search field binds to: text, tokens and scope in; suggestions, suggested tokens and diagnostics
/// out. Each change of ``text``, ``tokens`` or ``scope`` is a keystroke: the engine answers at once (local
/// providers), text that turned into tokens moves into ``tokens``, and ``result`` changes.
///
/// ```swift
/// @State var search = SearchSession(engine: engine)
/// // .searchable(text: $search.text, tokens: $search.tokens) { token in Text(token.display) }
/// // .searchSuggestions { ForEach(search.result.suggestions, id: \.title) { … } }
/// ```
/// All logic lives here, so it is the same on every platform and testable without a UI.
@MainActor
@Observable
public final class SearchSession {
    /// The engine answering keystrokes.
    @ObservationIgnored public let engine: SuggestionEngine

    /// The field's text. Setting it runs a keystroke.
    public var text: String = "" {
        didSet { if !isApplying && text != oldValue { keystroke() } }
    }

    /// The tokens in the field. Setting them runs a keystroke.
    public var tokens: [SearchToken] = [] {
        didSet { if !isApplying && tokens != oldValue { keystroke() } }
    }

    /// The selected scope. Setting it runs a keystroke.
    public var scope: SearchScope? = nil {
        didSet { if !isApplying && scope != oldValue { keystroke() } }
    }

    /// The latest keystroke's answer.
    public private(set) var result = SuggestionResult()

    @ObservationIgnored private var typing = TypingSession()
    @ObservationIgnored private var isApplying = false

    /// - Parameters:
    ///   - engine: the engine every change of the field asks.
    ///   - showsSuggestionsWhenEmpty: answer once at creation, so an empty field shows recent searches.
    public init(engine: SuggestionEngine, showsSuggestionsWhenEmpty: Bool = true) {
        self.engine = engine
        if showsSuggestionsWhenEmpty { keystroke() }
    }

    /// The query as the field holds it now.
    public var query: SearchQuery { SearchQuery(text: text, tokens: tokens, scope: scope) }

    /// Runs the engine for the current field and applies token extraction to ``text`` and ``tokens``.
    public func keystroke() {
        let answer = engine.suggestions(for: query, session: &typing)
        apply(tokens: answer.tokens, text: answer.remainingText)
        result = answer
    }

    /// The person chose `suggestion`: a text completion replaces the text; a token completion adds the token and
    /// removes the partly typed word that led to it. The engine learns from the choice.
    public func choose(_ suggestion: Suggestion) {
        engine.select(suggestion, for: query)
        switch suggestion.completion {
        case .text(let completion):
            text = completion
        case .token(let token):
            add(token)
        }
    }

    /// Adds a token (a chosen suggested token) and removes the partly typed word that led to it.
    public func add(_ token: SearchToken) {
        var words = text.split(separator: " ", omittingEmptySubsequences: false)
        if let last = words.last, !last.isEmpty { words.removeLast() }
        var kept = words.joined(separator: " ")
        while kept.hasSuffix(" ") { kept.removeLast() }
        apply(tokens: tokens.contains(token) ? tokens : tokens + [token], text: kept)
        keystroke()
    }

    /// Submits the search (return key): text may turn into tokens, providers learn from it, and a new typing session
    /// starts. Returns the query as submitted.
    @discardableResult
    public func submit() -> SearchQuery {
        let submitted = engine.submit(query)
        apply(tokens: submitted.tokens, text: submitted.text)
        typing.reset()
        return submitted
    }

    /// Empties the field and starts a new typing session.
    public func clear() {
        apply(tokens: [], text: "")
        typing.reset()
        keystroke()
    }

    private func apply(tokens newTokens: [SearchToken], text newText: String) {
        isApplying = true
        defer { isApplying = false }
        if newTokens != tokens || newTokens.map(\.display) != tokens.map(\.display) { tokens = newTokens }
        if newText != text { text = newText }
    }
}
