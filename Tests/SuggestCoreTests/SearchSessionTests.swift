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
}
