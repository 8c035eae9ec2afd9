import Testing

@testable import SuggestCore

struct AsyncEngineTests {
    @Test(.timeLimit(.minutes(1)))
    func includesAsyncProvidersThatAnswerInTime() async {
        let remote = GatedProvider()
        remote.gate.open("q")  // answers as soon as asked; its deadline is an hour
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "local", candidates: [candidate("local", .prefix)]), remote,
        ])
        var session = TypingSession()
        let result = await engine.allSuggestions(for: "q", session: &session)
        #expect(Set(result.suggestions.map(\.title)) == ["local", "remote:q"])
    }

    @Test func cancelsAsyncProvidersThatMissTheirDeadline() async {
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "local", candidates: [candidate("local", .prefix)]),
            SlowProvider(id: "remote", delay: .seconds(30), deadline: .milliseconds(20)),
        ])
        var session = TypingSession()
        // No wall-clock assertion (a loaded machine can starve the deadline's timer): that the call returns at all
        // while the provider sleeps 30 s is the point; see also theDeadlineHoldsForAProviderThatIgnoresCancellation.
        let result = await engine.allSuggestions(for: "q", session: &session)
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

    @Test(.timeLimit(.minutes(1)))
    func theStreamShowsLocalResultsAtOnceAndLateAnswersOnlyForTheCurrentKeystroke() async {
        // A provider that ignores cancellation, so that the stream itself must drop the answer for "a".
        let remote = GatedProvider(checksCancellation: false)
        remote.gate.open("ab")
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "local", candidates: [candidate("local", .prefix)]), remote,
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
        let last = seen.last!
        #expect(last.suggestions.map(\.title).contains("remote:ab"))
        #expect(last.generation == 2)
        // Now let the provider answer "a" too, end the queries and read the stream to its end.
        remote.gate.open("a")
        input.finish()
        while let result = await iterator.next() { seen.append(result) }
        // Nothing from the superseded keystroke "a" was ever shown with a remote answer.
        #expect(!seen.contains { $0.suggestions.contains { $0.title == "remote:a" } })
    }

    // MARK: Cancellation reaches the provider

    @Test(.timeLimit(.minutes(1)))
    func cancellingTheCallCancelsTheProvidersTask() async throws {
        let remote = GatedProvider()
        var events = remote.events.makeAsyncIterator()
        let engine = SuggestionEngine(providers: [remote])
        let call = Task {
            var session = TypingSession()
            return await engine.allSuggestions(for: "q", session: &session)
        }
        try #require(await events.wait(for: .started("q")))
        call.cancel()
        try #require(await events.wait(for: .sawCancellation("q")))
        let result = await call.value
        #expect(result.suggestions.isEmpty)
        #expect(result.diagnostics.providers.first?.outcome == .cancelled(reason: "the keystroke was cancelled"))
    }

    @Test(.timeLimit(.minutes(1)))
    func aCancelledCallReturnsEvenIfTheProviderIgnoresCancellation() async throws {
        let remote = GatedProvider(checksCancellation: false)
        var events = remote.events.makeAsyncIterator()
        let engine = SuggestionEngine(providers: [remote])
        let call = Task {
            var session = TypingSession()
            return await engine.allSuggestions(for: "q", session: &session)
        }
        try #require(await events.wait(for: .started("q")))
        call.cancel()
        let result = await call.value  // the gate is still shut: the provider has not answered
        #expect(result.diagnostics.providers.first?.outcome == .cancelled(reason: "the keystroke was cancelled"))
        remote.gate.open("q")
    }

    @Test(.timeLimit(.minutes(1)))
    func theDeadlineHoldsForAProviderThatIgnoresCancellation() async {
        let remote = GatedProvider(deadline: .milliseconds(10), checksCancellation: false)
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "local", candidates: [candidate("local", .prefix)]), remote,
        ])
        var session = TypingSession()
        let result = await engine.allSuggestions(for: "q", session: &session)  // the gate never opens
        #expect(result.suggestions.map(\.title) == ["local"])
        #expect(result.diagnostics.providers.last?.outcome == .cancelled(reason: "missed its deadline"))
        remote.gate.open("q")
    }

    @Test(.timeLimit(.minutes(1)))
    func theStreamCancelsTheSupersededKeystrokesProvider() async throws {
        let remote = GatedProvider()
        var events = remote.events.makeAsyncIterator()
        let engine = SuggestionEngine(providers: [remote])
        let (queries, input) = AsyncStream.makeStream(of: SearchQuery.self)
        var results = engine.results(for: queries).makeAsyncIterator()
        input.yield("a")
        try #require(await events.wait(for: .started("a")))
        input.yield("ab")
        try #require(await events.wait(for: .sawCancellation("a")))
        remote.gate.open("ab")
        var shown: [String] = []
        while let result = await results.next() {
            shown += result.suggestions.map(\.title)
            if shown.contains("remote:ab") { break }
        }
        input.finish()
        #expect(!shown.contains("remote:a"))
    }

    @Test(.timeLimit(.minutes(1)))
    func startSuggestionsAnswersLocallyThenUpdatesTheSameKeystroke() async {
        let remote = GatedProvider()
        let engine = SuggestionEngine(providers: [
            FixedProvider(id: "local", candidates: [candidate("local", .prefix)]), remote,
        ])
        var session = TypingSession()
        let keystroke = engine.startSuggestions(for: "q", session: &session)
        #expect(keystroke.result.suggestions.map(\.title) == ["local"])
        #expect(keystroke.result.diagnostics.providers.last?.outcome == .pending)
        #expect(keystroke.hasAsynchronousProviders)
        remote.gate.open("q")
        var updates: [SuggestionResult] = []
        await keystroke.updates { update in
            session.record(update)
            updates.append(update.result)
        }
        #expect(updates.count == 1)
        #expect(Set(updates.last?.suggestions.map(\.title) ?? []) == ["local", "remote:q"])
        #expect(updates.last?.generation == keystroke.result.generation)
    }
}
