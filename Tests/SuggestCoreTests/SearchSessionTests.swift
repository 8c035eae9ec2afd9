import Dispatch
import Observation
import Synchronization
import Testing

@testable import SuggestCore

@MainActor
struct SearchSessionTests {
    let fruits = StaticProvider(items: [
        .init(title: "Apple"), .init(title: "Apricot"),
        .init(title: "Chicken", completion: .token(SearchToken(kind: "ingredient", value: "Chicken"))),
    ], showWhenEmpty: 1)

    @Test func everyChangeOfTextIsAKeystroke() {
        let session = SearchSession(engine: SuggestionEngine(providers: [fruits]))
        #expect(session.result.suggestions.map(\.title) == ["Apple"])  // shown on the empty field
        session.text = "apr"
        #expect(session.result.suggestions.map(\.title) == ["Apricot"])
        #expect(session.result.generation == 2)
    }

    @Test func typedTextTurnsIntoTokensAndChoosingATokenReplacesThePartialWord() throws {
        let session = SearchSession(engine: SuggestionEngine(providers: [HashtagProvider(), fruits]))
        session.text = "#dinner chi"
        #expect(session.tokens == [SearchToken(kind: "tag", value: "dinner")])
        #expect(session.text == "chi")
        let chicken = try #require(session.result.suggestions.first { $0.completion.token != nil })
        session.choose(chicken)
        #expect(session.tokens.map(\.value) == ["dinner", "Chicken"])
        #expect(session.text == "")
        #expect(session.result.suggestions.isEmpty)
    }

    @Test func choosingATextCompletionReplacesTheText() {
        let session = SearchSession(engine: SuggestionEngine(providers: [fruits]))
        session.text = "ap"
        session.choose(session.result.suggestions[0])
        #expect(session.text == "Apple")
    }

    @Test func submitTellsProvidersAndClearStartsOver() {
        let recorder = RecordingProvider()
        let session = SearchSession(engine: SuggestionEngine(providers: [recorder, fruits]))
        session.text = "apple"
        session.submit()
        #expect(recorder.submitted.withLock { $0.map(\.text) } == ["apple"])
        session.clear()
        #expect(session.text.isEmpty && session.tokens.isEmpty)
    }

    @Test func observersSeeTheResultChange() {
        let session = SearchSession(engine: SuggestionEngine(providers: [fruits]))
        let changed = Mutex(false)
        withObservationTracking { _ = session.result } onChange: { changed.withLock { $0 = true } }
        session.text = "a"
        #expect(changed.withLock { $0 })
    }

    // MARK: Asynchronous providers

    @Test(.timeLimit(.minutes(1)))
    func asyncAnswersUpdateTheSameKeystroke() async {
        let remote = GatedProvider()
        let local = FixedProvider(id: "local", candidates: [candidate("local", .prefix)])
        let session = SearchSession(engine: SuggestionEngine(providers: [local, remote]))
        session.text = "a"
        let generation = session.result.generation
        #expect(session.result.suggestions.map(\.title) == ["local"])  // at once, without waiting for the remote
        #expect(session.result.diagnostics.providers.last?.outcome == .pending)
        remote.gate.open("a")
        await session.waitForUpdates()
        #expect(Set(session.result.suggestions.map(\.title)) == ["local", "remote:a"])
        #expect(session.result.generation == generation)
    }

    /// The session is main-actor isolated: an asynchronous provider's answer must change ``SearchSession/result``
    /// on the main actor (the main queue), never on the thread the provider's task ended on, or a UI reading the
    /// result races with it.
    @Test(.timeLimit(.minutes(1)))
    func asyncAnswersReachTheResultOnTheMainActor() async {
        let mainQueue = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: mainQueue, value: true)
        let remote = GatedProvider()
        let session = SearchSession(engine: SuggestionEngine(providers: [remote]))
        session.text = "a"
        let changedOnMain = Mutex<Bool?>(nil)
        withObservationTracking {
            _ = session.result
        } onChange: {
            changedOnMain.withLock { $0 = DispatchQueue.getSpecific(key: mainQueue) == true }
        }
        remote.gate.open("a")
        await session.waitForUpdates()
        #expect(session.result.suggestions.map(\.title) == ["remote:a"])
        #expect(changedOnMain.withLock { $0 } == true)
    }

    @Test(.timeLimit(.minutes(1)))
    func aSupersededKeystrokesAnswerNeverReachesTheResult() async throws {
        // A provider that ignores cancellation and answers anyway: the session must drop its late answer.
        let remote = GatedProvider(checksCancellation: false)
        var events = remote.events.makeAsyncIterator()
        let session = SearchSession(engine: SuggestionEngine(providers: [remote]))
        var shown: [String] = []
        session.text = "a"
        try #require(await events.wait(for: .started("a")))
        session.text = "ab"
        try #require(await events.wait(for: .started("ab")))
        remote.gate.open("a")
        try #require(await events.wait(for: .finished("a")))
        shown += session.result.suggestions.map(\.title)
        remote.gate.open("ab")
        await session.waitForUpdates()
        shown += session.result.suggestions.map(\.title)
        #expect(session.result.suggestions.map(\.title) == ["remote:ab"])
        #expect(!shown.contains("remote:a"))
    }

    @Test(.timeLimit(.minutes(1)))
    func aNewKeystrokeCancelsTheOldOnesProvider() async throws {
        let remote = GatedProvider()
        var events = remote.events.makeAsyncIterator()
        let session = SearchSession(engine: SuggestionEngine(providers: [remote]))
        session.text = "a"
        try #require(await events.wait(for: .started("a")))
        session.text = "ab"
        try #require(await events.wait(for: .sawCancellation("a")))
        remote.gate.open("ab")
        await session.waitForUpdates()
        #expect(session.result.suggestions.map(\.title) == ["remote:ab"])
    }

    @Test(.timeLimit(.minutes(1)))
    func aSessionThrownAwayCancelsItsProviders() async throws {
        let remote = GatedProvider()
        var events = remote.events.makeAsyncIterator()
        var session: SearchSession? = SearchSession(engine: SuggestionEngine(providers: [remote]))
        session?.text = "a"
        try #require(await events.wait(for: .started("a")))
        session = nil
        try #require(await events.wait(for: .sawCancellation("a")))
    }

    @Test(.timeLimit(.minutes(1)))
    func dismissingCancelsTheProvidersAndEmptiesTheField() async throws {
        let remote = GatedProvider()
        var events = remote.events.makeAsyncIterator()
        let session = SearchSession(engine: SuggestionEngine(providers: [HashtagProvider(), remote]))
        session.isSearching = true
        session.text = "#dinner a"
        #expect(session.tokens.map(\.value) == ["dinner"])
        try #require(await events.wait(for: .started("a")))
        session.dismiss()
        try #require(await events.wait(for: .sawCancellation("a")))
        #expect(!session.isSearching)
        #expect(session.text.isEmpty && session.tokens.isEmpty)
    }

    // MARK: Presentation

    @Test func typingPresentsTheSearchAndCancelClearsIt() {
        let session = SearchSession(engine: SuggestionEngine(providers: [HashtagProvider(), fruits]))
        #expect(!session.isSearching)
        session.text = "#dinner ap"
        #expect(session.isSearching)
        session.isSearching = false  // the person pressed Cancel (SwiftUI writes the isPresented binding)
        #expect(session.text.isEmpty && session.tokens.isEmpty)
        #expect(session.result.suggestions.map(\.title) == ["Apple"])  // the empty field's suggestions, ready
        session.isSearching = true
        #expect(session.result.suggestions.map(\.title) == ["Apple"])
        #expect(session.scope == nil)
    }

    @Test func dismissKeepsTheScope() {
        let session = SearchSession(engine: SuggestionEngine(providers: [fruits]))
        session.scope = "Fruits"
        session.text = "ap"
        session.dismiss()
        #expect(!session.isSearching && session.text.isEmpty)
        #expect(session.scope == "Fruits")
    }

    // MARK: Submit

    @Test func theResultAnswersTheFieldAfterSubmit() {
        let history = HistoryProvider()
        let session = SearchSession(engine: SuggestionEngine(providers: [history]))
        session.text = "apple pie"
        #expect(session.result.suggestions.isEmpty)
        let before = session.result.generation
        session.submit()
        #expect(session.result.generation > before)
        #expect(session.result.suggestions.map(\.title) == ["apple pie"])  // the search just submitted
        session.clear()
        #expect(session.result.suggestions.map(\.title) == ["apple pie"])  // an empty field shows it
    }

    // MARK: Long text

    @Test func textLongerThanTheMaximumIsNeverRewritten() {
        var options = EngineOptions()
        options.maxQueryLength = 8
        let recorder = RecordingProvider()
        let session = SearchSession(engine: SuggestionEngine(providers: [HashtagProvider(), recorder], options: options))
        let typed = "#dinner #lunch apples and pears"
        session.text = typed
        #expect(session.text == typed)
        #expect(session.tokens.isEmpty)
        #expect(session.result.diagnostics.notes.contains { $0.contains("truncated") })
        session.text += " "
        #expect(session.text == typed + " ")
        session.submit()
        #expect(session.text == typed + " ")
        #expect(recorder.submitted.withLock { $0.first?.text.utf8.count ?? 0 } <= 8)
    }

    // MARK: Tokens

    @Test func choosingATokenCompletionRemovesTheWholePhraseItCompletes() throws {
        let potato = SearchToken(kind: "ingredient", value: "Sweet Potato")
        let items = StaticProvider(items: [.init(title: "Sweet Potato", completion: .token(potato))])
        let session = SearchSession(engine: SuggestionEngine(providers: [items]))
        session.text = "sweet po"
        let suggestion = try #require(session.result.suggestions.first)
        session.choose(suggestion)
        #expect(session.tokens == [potato])
        #expect(session.text == "")  // not "sweet"
    }

    @Test func addingATokenUsesTheRangeItsProviderReported() {
        let tag = SearchToken(kind: "tag", value: "x")
        let session = SearchSession(engine: SuggestionEngine(providers: [RangeProvider(token: tag)]))
        session.text = "one two three"
        #expect(session.result.replacedRanges[tag] == 4..<13)
        session.add(tag)
        #expect(session.text == "one ")
        #expect(session.tokens == [tag])
    }

    @Test func aTokenFromElsewhereLeavesTheText() {
        let session = SearchSession(engine: SuggestionEngine(providers: [fruits]))
        session.text = "ap"
        session.add(SearchToken(kind: "filter", value: "Vegan"))
        #expect(session.text == "ap")
        #expect(session.tokens.map(\.value) == ["Vegan"])
    }

    @Test func swiftUIAppendingASuggestedTokenClearsTheTypedFragment() {
        let session = SearchSession(engine: SuggestionEngine(providers: [HashtagProvider(), fruits]))
        session.text = "apple #sw"
        let swift = SearchToken(kind: "tag", value: "swift")
        #expect(session.suggestedTokens == [swift])
        session.suggestedTokens.removeAll { $0 == swift }  // SwiftUI takes it out of the suggestions…
        session.tokens.append(swift)  // …and appends it to the tokens binding
        #expect(session.tokens == [swift])
        #expect(session.text == "apple ")
        #expect(session.suggestedTokens.isEmpty)
    }

    @Test func backspaceDeletesACharacterThenTurnsTheLastTokenBackIntoText() {
        let session = SearchSession(engine: SuggestionEngine(providers: [HashtagProvider(), fruits]))
        session.text = "#dinner a"
        #expect(session.tokens.map(\.value) == ["dinner"])
        session.deleteBackward()
        #expect(session.text.isEmpty && session.tokens.count == 1)
        session.deleteBackward()
        #expect(session.tokens.isEmpty)
        #expect(session.text == "dinner")  // the token's value: no provider has an edit text for it
        session.clear()
        session.deleteBackward()  // nothing to delete
        #expect(session.text.isEmpty && session.tokens.isEmpty)
    }

    @Test func completionsSwiftUIWritesItselfAreLearnt() {
        let recorder = RecordingProvider()
        let session = SearchSession(engine: SuggestionEngine(providers: [recorder, HashtagProvider(), fruits]))
        session.text = "ap"
        session.text = "Apple"  // `.searchCompletion("Apple")` tapped: SwiftUI writes the text binding
        #expect(recorder.selected.withLock { $0 } == ["Apple"])
        session.text = "Appl"  // backspace, then typing the last letter again: typing, not choosing
        session.text = "Apple"
        #expect(recorder.selected.withLock { $0 } == ["Apple"])
        session.text = "chi"
        session.tokens.append(SearchToken(kind: "ingredient", value: "Chicken"))  // `.searchCompletion(token)`
        #expect(recorder.selected.withLock { $0 } == ["Apple", "Chicken"])
        #expect(session.text.isEmpty)
    }

    @Test func choosingATextCompletionIsLearntOnce() {
        let recorder = RecordingProvider()
        let session = SearchSession(engine: SuggestionEngine(providers: [recorder, fruits]))
        session.text = "ap"
        session.choose(session.result.suggestions[0])
        #expect(recorder.selected.withLock { $0 } == ["Apple"])
    }

    @Test func scopesAreWhatTheAppOffers() {
        let session = SearchSession(engine: SuggestionEngine(providers: [fruits]), scopes: ["Fruits", "Recipes"])
        #expect(session.scopes == ["Fruits", "Recipes"])
        #expect(session.scope == nil)  // "All"
        #expect(SearchSession(engine: SuggestionEngine(providers: [fruits])).scopes.isEmpty)
    }

    @Test func titleRunsMarkTheMatchedParts() {
        let session = SearchSession(engine: SuggestionEngine(providers: [fruits]))
        session.text = "ap"
        let runs = session.result.suggestions[0].titleRuns
        #expect(runs == [.init(text: "Ap", isMatched: true), .init(text: "ple", isMatched: false)])
        let odd = Suggestion(title: "café au lait", completion: .text("x"), matchedRanges: [9..<13, 0..<4, 2..<3, 40..<50])
        #expect(odd.titleRuns.map(\.text) == ["café", " au ", "lait"])
        #expect(odd.titleRuns.map(\.isMatched) == [true, false, true])
        let inside = Suggestion(title: "café", completion: .text("x"), matchedRanges: [0..<4])  // ends inside "é"
        #expect(inside.titleRuns == [.init(text: "café", isMatched: true)])
    }

    @Test func choosingAQueryCompletionRestoresTextAndTokens() {
        let tokens = [SearchToken(kind: "tag", value: "dinner"), SearchToken(kind: "tag", value: "quick")]
        let restored = SearchQuery(text: "soup", tokens: tokens)
        let session = SearchSession(engine: SuggestionEngine(providers: [fruits]))
        session.text = "so"
        session.choose(Suggestion(title: "soup", subtitle: "dinner, quick", completion: .query(restored)))
        #expect(session.text == "soup")
        #expect(session.tokens == tokens)
    }
}

/// Suggests `token` for any text of more than one word, replacing all but the first word.
struct RangeProvider: SuggestionProvider {
    let id = "range"
    let token: SearchToken
    func extractTokens(from query: SearchQuery, submitting: Bool) throws -> TokenExtraction? {
        guard let space = query.text.utf8.firstIndex(of: 0x20) else { return nil }
        let start = query.text.utf8.distance(from: query.text.utf8.startIndex, to: space) + 1
        return TokenExtraction(
            tokens: query.tokens,
            remainingText: query.text,
            suggestedTokens: [token],
            replacedRanges: [token: start..<query.text.utf8.count]
        )
    }
}
