import Testing

@testable import SuggestCore

/// A provider's ``SuggestionProvider/minimumInterval``: while keystrokes come faster, it is asked only when typing
/// pauses, and always for the last keystroke. Every test runs on a ``ManualClock``: no test waits in real time.
@MainActor
struct MinimumIntervalTests {
    let local = FixedProvider(id: "local", candidates: [candidate("local", .prefix)])

    /// Types `text` one character at a time, `gap` apart on `clock`, and waits after each keystroke until `every`
    /// (a provider asked on every keystroke) has been asked for it.
    func type(
        _ text: String, into session: SearchSession, gap: Duration, clock: ManualClock, every: AskedProvider
    ) async {
        for character in text {
            clock.advance(by: gap)
            session.text.append(character)
            await every.waitUntilAsked(session.text)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func atFullTypingSpeedTheProviderIsAskedAtLeastHalfAsOftenAndTheLastKeystrokeIsAnswered() async {
        let clock = ManualClock()
        let network = AskedProvider(id: "network", minimumInterval: .milliseconds(150))
        let every = AskedProvider(id: "every")
        let session = SearchSession(
            engine: SuggestionEngine(providers: [local, network, every]), showsSuggestionsWhenEmpty: false,
            clock: clock)
        let text = "swift package manager"
        await type(text, into: session, gap: .milliseconds(60), clock: clock, every: every)
        let generation = session.result.generation
        #expect(session.result.suggestions.map(\.title).contains("local"))  // the local answer came at once
        #expect(every.asked.count == text.count)

        clock.advance(by: .milliseconds(150))  // typing pauses
        await session.waitForUpdates()
        #expect(network.asked.count * 2 <= every.asked.count, "\(network.asked)")
        #expect(network.asked.last == text)
        #expect(session.result.generation == generation)
        #expect(session.result.suggestions.map(\.title).contains("network:\(text)"))
    }

    @Test(.timeLimit(.minutes(1)))
    func aKeystrokeAfterAPauseIsAskedAtOnce() async {
        let clock = ManualClock()
        let network = AskedProvider(id: "network", minimumInterval: .milliseconds(100))
        let session = SearchSession(
            engine: SuggestionEngine(providers: [local, network]), showsSuggestionsWhenEmpty: false, clock: clock)
        session.text = "s"  // the first keystroke: no previous one to be too close to
        await session.waitForUpdates()
        clock.advance(by: .milliseconds(100))
        session.text = "sw"
        // Answered without the clock moving: nothing waited.
        await session.waitForUpdates()
        #expect(network.asked == ["s", "sw"])
        #expect(session.result.suggestions.map(\.title).contains("network:sw"))
    }

    @Test(.timeLimit(.minutes(1)))
    func aHeldProviderIsPendingUntilTheIntervalHasPassedSinceTheKeystroke() async throws {
        let clock = ManualClock()
        let network = AskedProvider(id: "network", minimumInterval: .milliseconds(100))
        let session = SearchSession(
            engine: SuggestionEngine(providers: [local, network]), showsSuggestionsWhenEmpty: false, clock: clock)
        session.text = "s"
        await session.waitForUpdates()
        clock.advance(by: .milliseconds(10))
        session.text = "sw"
        await clock.waitForSleepers(1)
        #expect(network.asked == ["s"])
        let report = try #require(session.result.diagnostics.providers.first { $0.provider == "network" })
        #expect(report.outcome == .pending)
        clock.advance(by: .milliseconds(99))
        #expect(clock.sleeperCount == 1)  // 99 ms after the keystroke: still held
        clock.advance(by: .milliseconds(1))
        await session.waitForUpdates()
        #expect(network.asked == ["s", "sw"])
        #expect(session.result.suggestions.map(\.title).contains("network:sw"))
    }

    @Test(.timeLimit(.minutes(1)))
    func aNewerKeystrokeReplacesAHeldOneWhichIsNeverAsked() async {
        let clock = ManualClock()
        let network = AskedProvider(id: "network", minimumInterval: .milliseconds(100))
        let session = SearchSession(
            engine: SuggestionEngine(providers: [local, network]), showsSuggestionsWhenEmpty: false, clock: clock)
        session.text = "s"
        await session.waitForUpdates()
        clock.advance(by: .milliseconds(10))
        session.text = "sw"
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(50))
        session.text = "swi"  // cancels the held "sw"
        clock.advance(by: .milliseconds(100))
        await session.waitForUpdates()
        #expect(network.asked == ["s", "swi"])
    }

    @Test(.timeLimit(.minutes(1)))
    func providersWithoutAnIntervalAreAskedOnEveryKeystroke() async {
        let clock = ManualClock()
        let every = AskedProvider(id: "every")
        let session = SearchSession(
            engine: SuggestionEngine(providers: [local, every]), showsSuggestionsWhenEmpty: false, clock: clock)
        for text in ["s", "sw", "swi"] {
            session.text = text
            await session.waitForUpdates()  // never waits on the clock
        }
        #expect(every.asked == ["s", "sw", "swi"])
    }

    @Test(.timeLimit(.minutes(1)))
    func theStreamHoldsAProviderBackToo() async {
        let clock = ManualClock()
        let network = AskedProvider(id: "network", minimumInterval: .milliseconds(100))
        let every = AskedProvider(id: "every")
        let engine = SuggestionEngine(providers: [local, network, every])
        let (queries, input) = AsyncStream.makeStream(of: SearchQuery.self)
        let results = engine.results(for: queries, clock: KeystrokeClock(clock))
        let text = "swift"
        var typed = ""
        for character in text {
            clock.advance(by: .milliseconds(20))
            typed.append(character)
            input.yield(SearchQuery(text: typed))
            await every.waitUntilAsked(typed)
        }
        clock.advance(by: .milliseconds(100))
        input.finish()
        var last: SuggestionResult? = nil
        for await result in results { last = result }
        #expect(network.asked.count * 2 <= every.asked.count, "\(network.asked)")
        #expect(network.asked.last == text)
        #expect(last?.suggestions.map(\.title).contains("network:swift") == true)
    }
}
