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
        let local = EngineConfiguration(slots: try fixture.configuration().slots + [ProviderSlot(remote)])
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
            let engine = SuggestionEngine(providers: [remote])
            var session = TypingSession()
            // As if the last three keystrokes had found it down; the next keystroke comes right after.
            for _ in 0..<3 { remote.breaker.failed("connection refused", trial: false) }
            let opened = ContinuousClock.now
            let skipped = await engine.allSuggestions(for: SearchQuery(text: "py"), session: &session)
            // Within the first pause (half a second) it is not asked; a machine so loaded that the keystroke came
            // later would rightly have asked it (the trial), which the rest of the test covers.
            if ContinuousClock.now - opened < .milliseconds(400) {
                #expect(skipped.diagnostics.errors.first?.contains("not asked") == true, "\(skipped.diagnostics.errors)")
            }
            // The first pause is half a second; the trial keystroke after it is answered.
            try await Task.sleep(for: .milliseconds(600))
            let answered = await engine.allSuggestions(for: SearchQuery(text: "py"), session: &session)
            #expect(answered.diagnostics.errors == [])
            #expect(answered.suggestions.map(\.title) == ["python", "pytest"])
            #expect(remote.breaker.state == .closed)
        }
    }

    /// `tokenFile`: the bearer token a server started with `--jwt-secret-file` requires, read from a file.
    @Test func sendsTheBearerTokenOfItsTokenFile() async throws {
        let fixture = try Fixture()
        try Tokens.secret.write(toFile: fixture.folder + "/secret", atomically: true, encoding: .utf8)
        let server = try await SpawnedServer(fixture, ["--jwt-secret-file", fixture.folder + "/secret"])
        let token = try await Tokens.hs256("catalogue-reader")
        try (token + "\n").write(toFile: fixture.folder + "/remote.token", atomically: true, encoding: .utf8)
        var registry = ProviderRegistry.builtIn
        registry.registerRemote()
        func engine(_ extra: String) throws -> SuggestionEngine {
            let path = fixture.folder + "/local.suggest.json"
            try """
                {"version": 1, "providers": [
                  {"type": "remote", "url": "\(server.base)", "deadlineMilliseconds": 5000\(extra)}]}
                """.write(toFile: path, atomically: true, encoding: .utf8)
            return try EngineConfiguration(contentsOf: path, registry: registry).makeEngine()
        }
        // Relative to the configuration file; the trailing line break is not part of the token.
        var session = TypingSession()
        let answered = try await engine(#", "tokenFile": "remote.token""#)
            .allSuggestions(for: SearchQuery(text: "py"), session: &session)
        #expect(answered.diagnostics.errors == [])
        #expect(answered.suggestions.map(\.title) == ["python", "pytest"])
        // Without the token the server refuses.
        var other = TypingSession()
        let refused = try await engine("").allSuggestions(for: SearchQuery(text: "py"), session: &other)
        #expect(refused.suggestions.isEmpty)
        let report = try #require(refused.diagnostics.providers.first { $0.provider == "remote" })
        guard case .failed(let message) = report.outcome else {
            Issue.record("unexpected outcome \(report.outcome)")
            return
        }
        #expect(message.contains("status 401"), "\(message)")
        #expect(!message.contains(token))
    }

    @Test(arguments: [
        (#", "tokenFile": "missing.token""#, "missing.token: cannot be read"),
        (#", "tokenFile": "empty.token""#, "empty.token: the file is empty"),
        (#", "tokenFile": "spaced.token""#, "a bearer token is visible ASCII only"),
        (#", "tokenFile": """#, "tokenFile: expected a file path, found an empty string"),
        (#", "tokenFile": "spaced.token", "user": "alice""#, "user: not with tokenFile"),
    ])
    func aTokenFileThatCannotBeUsedIsAnErrorNamingIt(_ extra: String, _ expected: String) throws {
        let fixture = try Fixture()
        try "  \n\t\n".write(toFile: fixture.folder + "/empty.token", atomically: true, encoding: .utf8)
        try "two words".write(toFile: fixture.folder + "/spaced.token", atomically: true, encoding: .utf8)
        var registry = ProviderRegistry.builtIn
        registry.registerRemote()
        let path = fixture.folder + "/local.suggest.json"
        try """
            {"version": 1, "providers": [{"type": "remote", "url": "http://127.0.0.1:1"\(extra)}]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try EngineConfiguration(contentsOf: path, registry: registry)
            Issue.record("loaded: \(extra)")
        } catch {
            let text = "\(error)"
            #expect(text.contains(expected), "\(text)")
            #expect(text.contains(expected.hasPrefix("user") ? "providers[0].user" : "providers[0].tokenFile"), "\(text)")
        }
    }
}
#endif
