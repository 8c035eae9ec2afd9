#if Server
import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Hummingbird
import HummingbirdTesting
import Suggest
import SuggestRemote
import SuggestServer
import Testing

struct RemoteProviderTests {
    /// A local engine (its own recents) with a remote provider asking an in-process `suggest serve` (the catalogue).
    @Test func mergesLocalRecentsWithAServersCatalogue() async throws {
        let fixture = try Fixture()
        let catalogue = SuggestServer(configuration: try fixture.configuration(), options: ServerOptions(port: 0))
        try await catalogue.makeApplication().test(.live) { client in
            let port = try #require(client.port)
            var registry = ProviderRegistry.builtIn
            registry.registerRemote()
            let local = try EngineConfiguration(
                json: """
                    {"version": 1, "providers": [{"type": "recent"},
                      {"type": "remote", "url": "http://127.0.0.1:\(port)", "deadlineMilliseconds": 5000}]}
                    """,
                registry: registry
            ).makeEngine()
            local.submit(SearchQuery(text: "pytorch lightning"))
            var session = TypingSession()
            let result = await local.allSuggestions(for: SearchQuery(text: "py"), session: &session)
            #expect(result.diagnostics.errors == [])
            #expect(result.suggestions.map(\.title) == ["pytorch lightning", "python", "pytest"])
            #expect(result.suggestions.map(\.provider) == ["recent", "remote", "remote"])
        }
    }

    @Test func aDownServerIsAProviderErrorNotAFailedKeystroke() async throws {
        // Port 1: nothing listens there. The connection is refused and not retried: the keystroke does not wait for
        // its deadline (5 s here), and after three failures in a row the server is not asked at all.
        let fixture = try Fixture()
        let remote = RemoteProvider(url: "http://127.0.0.1:1", deadline: .seconds(5))
        let local = try EngineConfiguration(slots: try fixture.configuration().slots + [ProviderSlot(remote)])
            .makeEngine()
        var messages: [String] = []
        for text in ["pa", "pan", "pand", "panda"] {
            var session = TypingSession()
            let result = await local.allSuggestions(for: SearchQuery(text: text), session: &session)
            #expect(result.suggestions.map(\.title) == ["pandas"], "\(text)")
            let report = try #require(result.diagnostics.providers.first { $0.provider == "remote" })
            guard case .failed(let message) = report.outcome else {
                Issue.record("\(text): unexpected outcome \(report.outcome)")
                continue
            }
            messages.append(message)
        }
        // No keystroke waited: one that had would report "no answer within the deadline" (the request gives up at
        // 90 % of it) or be cancelled, not these messages. (No wall-clock bound: a busy machine is not a failure.)
        #expect(messages.count == 4)
        for message in messages.prefix(3) {
            #expect(message == "http://127.0.0.1:1/suggest: connection refused", "\(message)")
        }
        #expect(messages.last?.contains("is down") == true, "\(messages)")
        #expect(messages.last?.contains("not asked") == true, "\(messages)")
        guard case .open = remote.breaker.state else {
            Issue.record("the breaker is \(remote.breaker.state)")
            return
        }
    }

    /// A server that takes the connection and never answers costs a keystroke its deadline three times; then the
    /// breaker opens and keystrokes skip it at once.
    @Test(.timeLimit(.minutes(1)))
    func aServerThatIsBackIsAskedAgain() async throws {
        let fixture = try Fixture()
        let catalogue = SuggestServer(configuration: try fixture.configuration(), options: ServerOptions(port: 0))
        try await catalogue.makeApplication().test(.live) { client in
            let port = try #require(client.port)
            let remote = RemoteProvider(url: "http://127.0.0.1:\(port)", deadline: .seconds(5))
            // As if the last three keystrokes had found it down.
            for _ in 0..<3 { remote.breaker.failed("connection refused", trial: false) }
            let engine = SuggestionEngine(providers: [remote])
            var session = TypingSession()
            let skipped = await engine.allSuggestions(for: SearchQuery(text: "py"), session: &session)
            #expect(skipped.diagnostics.errors.first?.contains("not asked") == true, "\(skipped.diagnostics.errors)")
            // The first pause is half a second; the trial keystroke after it is answered.
            try await Task.sleep(for: .milliseconds(600))
            let answered = await engine.allSuggestions(for: SearchQuery(text: "py"), session: &session)
            #expect(answered.diagnostics.errors == [])
            #expect(answered.suggestions.map(\.title) == ["python", "pytest"])
            #expect(remote.breaker.state == .closed)
        }
    }
}
#endif
