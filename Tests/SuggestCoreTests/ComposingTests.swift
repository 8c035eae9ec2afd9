import Foundation
import Synchronization
import Testing

@testable import SuggestCore

/// Text being composed by an input method (marked text): only the synchronous providers answer, for the committed
/// text; no asynchronous provider is asked and no text turns into tokens.
struct ComposingTests {
    let places = StaticProvider(items: [.init(title: "東京"), .init(title: "東京都"), .init(title: "東京タワー")])

    // MARK: The query

    @Test func theCommittedTextIsTheTextWithoutItsMarkedPart() {
        let query = SearchQuery(text: "東京とう", markedRange: 6..<12)
        #expect(query.isComposing)
        #expect(query.committedText == "東京")
        #expect(query.markedText == "とう")
        let middle = SearchQuery(text: "ab|cd", markedRange: 2..<3)
        #expect(middle.committedText == "abcd")
        #expect(!SearchQuery(text: "tokyo").isComposing)
        #expect(SearchQuery(text: "tokyo").committedText == "tokyo")
    }

    @Test(arguments: [0..<0, 5..<5, 9..<20, -3..<0])
    func anEmptyOrOutsideMarkedRangeIsNothingBeingComposed(range: Range<Int>) {
        let query = SearchQuery(text: "東京", markedRange: range)
        #expect(!query.isComposing)
        #expect(query.committedText == "東京")
        #expect(query.markedText == "")
    }

    @Test func aMarkedRangeThatSplitsACharacterCoversAllOfIt() {
        // "東" is bytes 0..<3, "京" 3..<6: 4..<5 lies inside "京".
        let query = SearchQuery(text: "東京", markedRange: 4..<5)
        #expect(query.markedText == "京")
        #expect(query.committedText == "東")
        #expect(SearchQuery(text: "東京", markedRange: 4..<99).committedText == "東")
    }

    @Test func theMarkedRangeSurvivesCodable() throws {
        let query = SearchQuery(text: "東京と", markedRange: 6..<9)
        let data = try JSONEncoder().encode(query)
        #expect(try JSONDecoder().decode(SearchQuery.self, from: data) == query)
        // A query written before the marked range existed still reads.
        let old = try JSONDecoder().decode(SearchQuery.self, from: Data(#"{"text":"a","tokens":[]}"#.utf8))
        #expect(old == SearchQuery(text: "a"))
    }

    // MARK: The engine

    @Test(.timeLimit(.minutes(1)))
    func whileComposingOnlyLocalProvidersAnswerForTheCommittedText() async {
        let remote = AskedProvider()
        let engine = SuggestionEngine(providers: [places, remote])
        var session = TypingSession()
        let result = await engine.allSuggestions(
            for: SearchQuery(text: "東京とう", markedRange: 6..<12), session: &session)
        #expect(remote.asked.isEmpty)
        #expect(result.suggestions.map(\.title) == ["東京", "東京都", "東京タワー"])
        #expect(result.isComposing)
        #expect(result.markedRange == 6..<12)
        #expect(result.remainingText == "東京とう")  // the field, unchanged
        let report = result.diagnostics.providers.first { $0.provider == "remote" }
        #expect(report?.outcome == .cancelled(reason: SuggestionEngine.notAskedWhileComposing))
        #expect(result.diagnostics.errors.isEmpty)

        let committed = await engine.allSuggestions(for: SearchQuery(text: "東京と"), session: &session)
        #expect(remote.asked == ["東京と"])
        #expect(!committed.isComposing)
        #expect(committed.suggestions.map(\.title).contains("remote:東京と"))
    }

    @Test func theSynchronousAndTwoStepCallsAskNoAsynchronousProviderWhileComposing() {
        let remote = AskedProvider()
        let engine = SuggestionEngine(providers: [places, remote])
        var session = TypingSession()
        let pending = engine.startSuggestions(for: SearchQuery(text: "東とう", markedRange: 3..<9), session: &session)
        #expect(!pending.hasAsynchronousProviders)
        #expect(pending.result.suggestions.count == 3)
        #expect(pending.result.diagnostics.providers.last?.outcome
            == .cancelled(reason: SuggestionEngine.notAskedWhileComposing))
        let sync = engine.suggestions(for: SearchQuery(text: "とう", markedRange: 0..<6), session: &session)
        #expect(sync.isComposing)
        #expect(remote.asked.isEmpty)
    }

    /// The committed text is answered as it would be (`#dinner` is a tag for the providers), but the field is
    /// reported as it is: the tag token comes once the text is committed.
    @Test func noTextTurnsIntoTokensWhileComposing() {
        let engine = SuggestionEngine(providers: [HashtagProvider(), places])
        var session = TypingSession()
        let composing = engine.suggestions(
            for: SearchQuery(text: "#dinner 東京とう", markedRange: 14..<20), session: &session)
        #expect(composing.tokens.isEmpty)
        #expect(composing.remainingText == "#dinner 東京とう")
        #expect(composing.commonCompletion == nil)
        #expect(composing.suggestedTokens.isEmpty)
        #expect(composing.suggestions.map(\.title) == ["東京", "東京都", "東京タワー"])
        let committed = engine.suggestions(for: SearchQuery(text: "#dinner 東京"), session: &session)
        #expect(committed.tokens == [SearchToken(kind: "tag", value: "dinner")])
        #expect(committed.remainingText == "東京")
    }

    @Test(.timeLimit(.minutes(1)))
    func theStreamAsksNoAsynchronousProviderWhileComposing() async {
        let remote = AskedProvider()
        let engine = SuggestionEngine(providers: [places, remote])
        let (queries, input) = AsyncStream.makeStream(of: SearchQuery.self)
        var results = engine.results(for: queries).makeAsyncIterator()
        input.yield(SearchQuery(text: "東とう", markedRange: 3..<9))
        let composing = await results.next()
        #expect(composing?.isComposing == true)
        input.yield(SearchQuery(text: "東京"))
        var last: SuggestionResult? = nil
        while let next = await results.next() {
            last = next
            if next.suggestions.contains(where: { $0.title == "remote:東京" }) { break }
        }
        input.finish()
        #expect(remote.asked == ["東京"])
        #expect(last?.isComposing == false)
    }

    @Test func submittingCommitsTheTextBeingComposed() {
        let recorder = RecordingProvider()
        let engine = SuggestionEngine(providers: [recorder])
        let submitted = engine.submit(SearchQuery(text: "東京と", markedRange: 6..<9))
        #expect(submitted.markedRange == nil)
        #expect(recorder.submitted.withLock { $0 } == [SearchQuery(text: "東京と")])
    }

    // MARK: The session

    @MainActor
    @Test(.timeLimit(.minutes(1)))
    func theSessionShowsTheLocalAnswerWhileComposingAndAsksEveryProviderOnCommit() async {
        let remote = AskedProvider()
        let session = SearchSession(
            engine: SuggestionEngine(providers: [HashtagProvider(), places, remote]), showsSuggestionsWhenEmpty: false)
        let text = "#dinner 東京とう"
        session.setText(text, markedRange: text.range(of: "とう"))
        #expect(session.markedRange == 14..<20)
        #expect(session.query.isComposing)
        #expect(session.isSearching)
        #expect(session.text == text)  // not turned into a token under the input method
        #expect(session.tokens.isEmpty)
        #expect(session.result.isComposing)
        #expect(session.result.suggestions.map(\.title) == ["東京", "東京都", "東京タワー"])
        await session.waitForUpdates()
        #expect(remote.asked.isEmpty)

        session.setText("#dinner 東京", markedRange: nil)
        #expect(session.markedRange == nil)
        #expect(session.tokens == [SearchToken(kind: "tag", value: "dinner")])
        #expect(session.text == "東京")
        await session.waitForUpdates()
        #expect(remote.asked == ["東京"])
        #expect(!session.result.isComposing)
    }

    @MainActor
    @Test func settingTheTextCommitsIt() {
        let session = SearchSession(engine: SuggestionEngine(providers: [places]), showsSuggestionsWhenEmpty: false)
        session.setText("東とう", markedRange: session.text.endIndex..<session.text.endIndex)
        #expect(session.markedRange == nil)  // an empty range: nothing is being composed
        let text = "東とう"
        session.setText(text, markedRange: text.range(of: "とう"))
        #expect(session.markedRange == 3..<9)
        session.text = "東京"
        #expect(session.markedRange == nil)
        #expect(!session.result.isComposing)
        session.setText("東とう", markedRange: "東とう".range(of: "とう"))
        session.submit()
        #expect(session.markedRange == nil)
    }
}
