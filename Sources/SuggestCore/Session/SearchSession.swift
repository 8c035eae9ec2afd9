public import Observation

/// The model a search field binds to — SwiftUI's `.searchable` semantics, every decision made here so that it is the
/// same on every platform and tested without a UI (`SuggestUI` only binds it).
///
/// - **Keystrokes.** Each change of ``text``, ``tokens`` or ``scope`` is a keystroke: the synchronous providers
///   answer at once (``result``), text that turned into tokens moves into ``tokens``; then each asynchronous
///   provider's answer updates ``result`` (same ``SuggestionResult/generation``) when it comes within its deadline.
///   A newer keystroke cancels the older one's asynchronous providers, and an answer for a superseded keystroke never
///   reaches ``result``.
/// - **Tokens.** ``choose(_:)`` applies a suggestion; ``add(_:)`` adds a token and removes the whole partly typed
///   phrase it replaces (`sweet po` for Sweet Potato). When SwiftUI itself appends a tapped suggested token to
///   ``tokens``, the typed fragment goes too. ``deleteBackward()`` on an empty field turns the last token back into
///   editable text (`from:alice`).
/// - **Presentation.** ``isSearching`` binds to `.searchable(isPresented:)`; ``dismiss()`` (or the person's Cancel)
///   ends the typing session and empties the field, as SwiftUI's `dismissSearch` does. ``submit()`` records the
///   search and answers the field as it then is.
/// - **Long text.** Text longer than ``EngineOptions/maxQueryLength`` is cut for matching only: the field keeps
///   what was typed.
/// - **Text being composed.** While an input method composes text (``markedRange``, set with
///   ``setText(_:markedRange:)``), a keystroke is answered for the committed text by the synchronous providers only:
///   no asynchronous provider is asked and the field's text and tokens are left alone
///   (``SuggestionResult/isComposing``).
///   The keystroke that commits the text asks every provider.
/// - **Pauses.** An asynchronous provider with a ``SuggestionProvider/minimumInterval`` is asked for a keystroke that
///   came sooner than that after the previous one only if no newer keystroke comes within the interval (timed on
///   the session's clock): the last keystroke's answer always comes, as an update.
///
/// ```swift
/// @State var search = SearchSession(engine: engine)
/// // SuggestUI: List { … }.searchSession(search)
/// ```
@MainActor
@Observable
public final class SearchSession {
    /// The engine answering keystrokes.
    @ObservationIgnored public let engine: SuggestionEngine

    /// The field's text, including any text an input method is still composing. Setting it runs a keystroke and
    /// commits any text being composed (``markedRange`` becomes nil); ``setText(_:markedRange:)`` sets both.
    public var text: String = "" {
        didSet {
            if !isApplying && text != oldValue {
                markedRange = nil
                edited(from: oldValue)
            }
        }
    }

    /// The part of ``text`` an input method is still composing (marked text), as UTF-8 offsets into ``text``; nil when
    /// none. Set it with ``setText(_:markedRange:)``.
    public private(set) var markedRange: Range<Int>? = nil

    /// The tokens in the field. Setting them runs a keystroke. When the new value is the old one plus a token the
    /// last result offered (SwiftUI appends a tapped suggested token itself), the typed fragment that led to it is
    /// removed from ``text`` as ``add(_:)`` does.
    public var tokens: [SearchToken] = [] {
        didSet { if !isApplying && tokens != oldValue { tokensChanged(from: oldValue) } }
    }

    /// The selected scope. Setting it runs a keystroke.
    public var scope: SearchScope? = nil {
        didSet { if !isApplying && scope != oldValue { keystroke() } }
    }

    /// Whether the search interface is presented (bind it to `.searchable(isPresented:)`). Setting it to true starts
    /// a typing session (the field, empty, shows recent searches); setting it to false — the person's Cancel, or
    /// ``dismiss()`` — ends it: the text and tokens are cleared, as SwiftUI's `dismissSearch` does. Typing sets it
    /// to true.
    public var isSearching: Bool = false {
        didSet { if !isApplying && isSearching != oldValue { isSearching ? present() : end() } }
    }

    /// The scopes a scope bar offers (SwiftUI's `.searchScopes`), after "All" (a ``scope`` of nil); empty (the
    /// default): no scope bar.
    public var scopes: [SearchScope]

    /// The latest keystroke's answer, updated when an asynchronous provider answers it.
    public private(set) var result = SuggestionResult()

    /// The result's suggested tokens, settable for SwiftUI's `suggestedTokens:` binding (SwiftUI removes the token
    /// it adds to ``tokens``; the session answers again anyway).
    public var suggestedTokens: [SearchToken] {
        get { result.suggestedTokens }
        set { result.suggestedTokens = newValue }
    }

    @ObservationIgnored private var typing = TypingSession()
    @ObservationIgnored private var isApplying = false
    /// The tokens the latest result offered (suggested tokens and token completions), whatever SwiftUI did to
    /// ``suggestedTokens`` since.
    @ObservationIgnored private var offered: [SearchToken] = []
    /// The task running the latest keystroke's asynchronous providers.
    @ObservationIgnored private var pending: Task<Void, Never>? = nil
    /// The clock keystrokes are timed on (for ``SuggestionProvider/minimumInterval``).
    @ObservationIgnored private let clock: KeystrokeClock
    /// When the previous keystroke came, on ``clock``.
    @ObservationIgnored private var previousKeystroke: Duration? = nil

    /// - Parameters:
    ///   - engine: the engine every change of the field asks.
    ///   - scopes: the scopes a scope bar offers (none: no scope bar).
    ///   - showsSuggestionsWhenEmpty: answer once at creation, so an empty field shows recent searches.
    public init(engine: SuggestionEngine, scopes: [SearchScope] = [], showsSuggestionsWhenEmpty: Bool = true) {
        self.engine = engine
        self.scopes = scopes
        self.clock = KeystrokeClock(ContinuousClock())
        if showsSuggestionsWhenEmpty { keystroke() }
    }

    /// A session whose keystrokes are timed on `clock` — a test's manual clock, to check what a provider's
    /// ``SuggestionProvider/minimumInterval`` holds back without waiting in real time. The other parameters are
    /// ``init(engine:scopes:showsSuggestionsWhenEmpty:)``'s.
    public init(
        engine: SuggestionEngine,
        scopes: [SearchScope] = [],
        showsSuggestionsWhenEmpty: Bool = true,
        clock: some Clock<Duration>
    ) {
        self.engine = engine
        self.scopes = scopes
        self.clock = KeystrokeClock(clock)
        if showsSuggestionsWhenEmpty { keystroke() }
    }

    /// A session that is thrown away (its view is gone) cancels its keystroke's asynchronous providers at once
    /// instead of leaving them running to their deadlines.
    deinit { pending?.cancel() }

    /// The query as the field holds it now.
    public var query: SearchQuery { SearchQuery(text: text, tokens: tokens, scope: scope, markedRange: markedRange) }

    /// Sets the field's text and the part of it an input method is still composing, as one keystroke — what a field
    /// that knows its marked text (UIKit's `markedTextRange`, AppKit's `markedRange()`) reports on each change.
    /// While `markedRange` is not empty, the keystroke is answered for the committed text by the synchronous
    /// providers only, and the field is not changed; nil commits the text (every provider is asked).
    /// - Parameters:
    ///   - text: the field's whole text, the marked part included.
    ///   - markedRange: the marked part, a range of `text`'s indices; nil when nothing is being composed.
    public func setText(_ text: String, markedRange: Range<String.Index>?) {
        let utf8 = text.utf8
        let marked = markedRange.map { range in
            utf8.distance(from: utf8.startIndex, to: range.lowerBound)..<utf8.distance(
                from: utf8.startIndex, to: range.upperBound)
        }
        let newMarked = marked?.isEmpty == false ? marked : nil
        guard text != self.text || newMarked != self.markedRange else { return }
        isApplying = true
        self.text = text
        self.markedRange = newMarked
        isApplying = false
        // Typing (an input method's change), never a chosen completion: no selection is learnt.
        if !isSearching { apply(isSearching: true) }
        keystroke()
    }

    // MARK: Keystrokes

    /// Runs the engine for the current field: the synchronous providers' answer becomes ``result`` now and token
    /// extraction applies to ``text`` and ``tokens`` (unless the text is longer than the engine's
    /// ``EngineOptions/maxQueryLength``: then the field stays as typed); asynchronous providers' answers follow
    /// as updates of ``result``. Cancels the previous keystroke's asynchronous providers.
    public func keystroke() {
        pending?.cancel()
        pending = nil
        let typed = query
        let pacing = clock.keystroke(after: &previousKeystroke)
        let keystroke = engine.startSuggestions(for: typed, session: &typing)
        let answer = keystroke.result
        if fitsQueryLength(typed.text) && !answer.isComposing {
            apply(tokens: answer.tokens, text: answer.remainingText)
        }
        show(answer)
        guard keystroke.hasAsynchronousProviders else { return }
        let generation = answer.generation
        pending = Task { [weak self] in
            await keystroke.updates(pacing: pacing) { update in
                guard let self, !Task.isCancelled, self.typing.generation == generation else { return }
                self.typing.record(update)
                self.show(update.result)
            }
        }
    }

    /// Waits until the latest keystroke's asynchronous providers have all answered, failed or missed their deadlines
    /// (or the keystroke was superseded). For tests and previews; a field never needs to wait.
    public func waitForUpdates() async {
        while let task = pending {
            await task.value
            if pending == task { return }
        }
    }

    // MARK: Choosing

    /// The person chose `suggestion`: a text completion replaces the text; a token completion adds the token and
    /// removes the partly typed phrase that led to it (``add(_:)``); a query completion (a recent search with
    /// tokens) puts its text and tokens back in the field. The engine learns from the choice.
    public func choose(_ suggestion: Suggestion) {
        engine.select(suggestion, for: query)
        switch suggestion.completion {
        case .text(let completion):
            apply(tokens: tokens, text: completion)
            keystroke()
        case .token(let token):
            add(token, title: suggestion.title)
        case .query(let restored):
            apply(tokens: restored.tokens, text: restored.text)
            keystroke()
        }
    }

    /// Adds a token (a chosen suggested token) and removes the partly typed phrase it replaces:
    /// 1. the range the token's provider reported (``SuggestionResult/replacedRanges``: `sweet po` for the vocabulary
    ///    entry Sweet Potato, `from:al` for From: alice);
    /// 2. else the longest run of whole words at the end of the text that, folded, starts a word of the token's
    ///    display text or value (`sweet po`, or `po`, for Sweet Potato);
    /// 3. else, if the latest result offered the token (a typo match), the last word;
    /// 4. else nothing: a token from elsewhere (a filter button) leaves the text alone.
    public func add(_ token: SearchToken) {
        add(token, title: nil)
    }

    private func add(_ token: SearchToken, title: String?) {
        let kept = text(removingFragmentFor: token, title: title)
        apply(tokens: tokens.contains(token) ? tokens : tokens + [token], text: kept)
        keystroke()
    }

    /// Backspace: deletes the last character of the text; on an empty field, turns the last token back into text
    /// (``SuggestionEngine/editText(for:)``: a token rule's `editText` such as `from:alice`, else the token's
    /// value), which stays text until the person types a space or a delimiter after it. Does nothing on an empty
    /// field without tokens.
    public func deleteBackward() {
        if !text.isEmpty {
            text.removeLast()
        } else if let last = tokens.last {
            apply(tokens: Array(tokens.dropLast()), text: engine.editText(for: last))
            keystroke()
        }
    }

    // MARK: Submitting and dismissing

    /// Submits the search (return key): text may turn into tokens, providers learn from it, a new typing session
    /// starts and ``result`` answers the field as it now is (the submitted search among the recent ones). Returns
    /// the query as submitted (cut to the engine's maximum query length; the field keeps what was typed).
    @discardableResult
    public func submit() -> SearchQuery {
        markedRange = nil
        let typed = query
        let submitted = engine.submit(typed)
        if fitsQueryLength(typed.text) { apply(tokens: submitted.tokens, text: submitted.text) }
        typing.reset()
        keystroke()
        return submitted
    }

    /// Empties the field (text and tokens) and starts a new typing session; the scope and ``isSearching`` stay.
    public func clear() {
        apply(tokens: [], text: "")
        typing.reset()
        keystroke()
    }

    /// Ends the search interaction, as SwiftUI's `dismissSearch` does: ``isSearching`` becomes false, the field is
    /// emptied and the typing session ends (the asynchronous providers still running are cancelled).
    public func dismiss() {
        isSearching = false
    }

    // MARK: Private

    private func present() {
        typing.reset()
        keystroke()
    }

    private func end() {
        apply(tokens: [], text: "")
        typing.reset()
        keystroke()
    }

    /// The text changed (the person typed, or SwiftUI wrote a chosen completion): the search is presented.
    private func edited(from old: String) {
        if !isSearching { apply(isSearching: true) }
        // SwiftUI's `.searchCompletion(_:)` writes a chosen text completion into the text itself: learn from it as
        // `choose` does — unless it was one character typed or deleted at the end, which is typing.
        let typed =
            (text.hasPrefix(old) && text.count == old.count + 1) || (old.hasPrefix(text) && old.count == text.count + 1)
        if !typed, let chosen = result.suggestions.first(where: { $0.completion == .text(text) }) {
            engine.select(chosen, for: SearchQuery(text: old, tokens: tokens, scope: scope))
        }
        keystroke()
    }

    private func tokensChanged(from old: [SearchToken]) {
        if tokens.count == old.count + 1, let added = tokens.last, tokens.dropLast().elementsEqual(old),
            offered.contains(added)
        {
            // SwiftUI appended a tapped suggested token (or a `.searchCompletion(token)`): the fragment typed for it
            // goes, and the engine learns from the choice as `choose` does.
            if let chosen = result.suggestions.first(where: { $0.completion == .token(added) }) {
                engine.select(chosen, for: SearchQuery(text: text, tokens: old, scope: scope))
            }
            apply(tokens: tokens, text: text(removingFragmentFor: added, title: nil))
        }
        if !isSearching && !tokens.isEmpty { apply(isSearching: true) }
        keystroke()
    }

    private func show(_ answer: SuggestionResult) {
        result = answer
        var offered = answer.suggestedTokens
        for suggestion in answer.suggestions {
            if let token = suggestion.completion.token, !offered.contains(token) { offered.append(token) }
        }
        self.offered = offered
    }

    private func fitsQueryLength(_ text: String) -> Bool {
        text.utf8.count <= engine.options.maxQueryLength
    }

    /// ``text`` without the fragment `token` replaces (see ``add(_:)``), joined as ``joined(_:_:)`` says.
    private func text(removingFragmentFor token: SearchToken, title: String?) -> String {
        let utf8 = text.utf8
        if result.remainingText == text, let range = result.replacedRanges[token], range.lowerBound >= 0,
            range.upperBound <= utf8.count
        {
            let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
            let upper = utf8.index(utf8.startIndex, offsetBy: range.upperBound)
            return Self.joined(text[..<lower], text[upper...])
        }
        let names = [token.display, token.value] + (title.map { [$0] } ?? [])
        if let start = Self.fragmentStart(in: text, startingAWordOf: names) {
            return Self.joined(text[..<start], "")
        }
        if offered.contains(token) || title != nil {
            // Offered for what was typed, but not by prefix (a typo): the last word.
            let end = text.endIndex
            var start = end
            while start > text.startIndex, !text[text.index(before: start)].isWhitespace {
                start = text.index(before: start)
            }
            return Self.joined(text[..<start], text[end...])
        }
        return text
    }

    /// The start of the longest run of whole words at the end of `text` whose folded text starts a word of one of
    /// `names`, folded; nil if none does.
    static func fragmentStart(in text: String, startingAWordOf names: [String]) -> String.Index? {
        let foldedNames = names.map { TextNormalizer.normalizedString($0) }.filter { !$0.isEmpty }
        var index = text.startIndex
        while index < text.endIndex {
            let startsWord = index == text.startIndex || text[text.index(before: index)].isWhitespace
            if startsWord && !text[index].isWhitespace {
                let fragment = TextNormalizer.normalizedString(String(text[index...]))
                for name in foldedNames where startsAWord(fragment, of: name) { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// Whether `name` has a word (at its start or after a space) that `fragment` is a prefix of.
    static func startsAWord(_ fragment: String, of name: String) -> Bool {
        guard !fragment.isEmpty else { return false }
        var rest = Substring(name)
        while true {
            if rest.hasPrefix(fragment) { return true }
            guard let space = rest.firstIndex(of: " ") else { return false }
            rest = rest[rest.index(after: space)...]
        }
    }

    /// `head` and `tail` joined by one space where both have text; `head` alone keeps one trailing space (the next
    /// word typed stays a word of its own: "spicy " after Sweet Potato replaced "sweet po"); other whitespace at
    /// the ends trimmed.
    static func joined(_ head: Substring, _ tail: Substring) -> String {
        var head = head
        while head.last?.isWhitespace == true { head = head.dropLast() }
        var tail = tail
        while tail.first?.isWhitespace == true { tail = tail.dropFirst() }
        while tail.last?.isWhitespace == true { tail = tail.dropLast() }
        if head.isEmpty { return String(tail) }
        if tail.isEmpty { return head + " " }
        return head + " " + tail
    }

    /// Sets the field's tokens and text without a keystroke; a text the session writes is committed text.
    private func apply(tokens newTokens: [SearchToken], text newText: String) {
        isApplying = true
        defer { isApplying = false }
        if newTokens != tokens || newTokens.map(\.display) != tokens.map(\.display) { tokens = newTokens }
        if newText != text { text = newText }
        if markedRange != nil { markedRange = nil }
    }

    private func apply(isSearching newValue: Bool) {
        isApplying = true
        defer { isApplying = false }
        isSearching = newValue
    }
}
