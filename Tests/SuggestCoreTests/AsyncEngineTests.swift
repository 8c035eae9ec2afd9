import Testing

@testable import SuggestCore

struct AsyncEngineTests {
    @Test func includesAsyncProvidersThatAnswerInTime() async {
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "local", candidates: [candidate("local", .prefix)]),
            SlowProvider(id: "remote", delay: .milliseconds(5), deadline: .seconds(5)),
        ])
        var session = TypingSession()
        let result = await engine.suggestions(for: "q", session: &session)
        #expect(Set(result.suggestions.map(\.title)) == ["local", "remote:q"])
    }

    @Test func cancelsAsyncProvidersThatMissTheirDeadline() async {
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "local", candidates: [candidate("local", .prefix)]),
            SlowProvider(id: "remote", delay: .seconds(30), deadline: .milliseconds(20)),
        ])
        var session = TypingSession()
        let start = ContinuousClock.now
        let result = await engine.suggestions(for: "q", session: &session)
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(result.suggestions.map(\.title) == ["local"])
        let report = result.diagnostics.providers.first { $0.provider == "remote" }
        #expect(report?.outcome == .cancelled(reason: "missed its deadline"))
    }

    @Test func theSynchronousCallSkipsAsyncProvidersAndSaysSo() {
        let engine = SuggestionEngine(providers: [SlowProvider(id: "remote", delay: .zero, deadline: .seconds(1))])
        let result = engine.suggestions(for: "q")
        #expect(result.suggestions.isEmpty)
        if case .cancelled = result.diagnostics.providers.first?.outcome {} else {
            Issue.record("expected the async provider to be reported as skipped")
        }
    }

    @Test func theStreamShowsLocalResultsAtOnceAndLateAnswersOnlyForTheCurrentKeystroke() async {
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "local", candidates: [candidate("local", .prefix)]),
            SlowProvider(id: "remote", delay: .milliseconds(50), deadline: .seconds(5)),
        ])
        let (queries, input) = AsyncStream.makeStream(of: SearchQuery.self)
        var seen: [SuggestionResult] = []
        let results = engine.results(for: queries)
        input.yield("a")
        input.yield("ab")
        var iterator = results.makeAsyncIterator()
        // Wait until the remote answer for "ab" arrives.
        while let result = await iterator.next() {
            seen.append(result)
            if result.suggestions.contains(where: { $0.title.hasPrefix("remote:") }) { break }
        }
        input.finish()
        let remote = seen.last!
        #expect(remote.suggestions.map(\.title).contains("remote:ab"))
        #expect(remote.generation == 2)
        // Nothing from the superseded keystroke "a" was ever shown with a remote answer.
        #expect(!seen.contains { $0.suggestions.contains { $0.title == "remote:a" } })
    }
}
