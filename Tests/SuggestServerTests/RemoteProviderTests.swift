import Foundation
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
        // Port 1: nothing listens there. (AsyncHTTPClient retries a refused connection until the deadline.)
        let fixture = try Fixture()
        let local = try EngineConfiguration(
            slots: try fixture.configuration().slots + [
                ProviderSlot(RemoteProvider(url: "http://127.0.0.1:1", deadline: .milliseconds(300)))
            ]
        ).makeEngine()
        var session = TypingSession()
        let result = await local.allSuggestions(for: SearchQuery(text: "pa"), session: &session)
        #expect(result.suggestions.map(\.title) == ["pandas"])
        // Refused connections are retried until the request's timeout, which is the deadline: on a loaded machine the
        // engine's deadline may come first. Either way the remote is reported, and the keystroke answered.
        let report = try #require(result.diagnostics.providers.first { $0.provider == "remote" })
        switch report.outcome {
        case .failed(let message): #expect(message.contains("127.0.0.1:1"), "\(message)")
        case .cancelled: break
        default: Issue.record("unexpected outcome \(report.outcome)")
        }
    }

    @Test(arguments: [
        (#"{"type": "remote", "url": "ftp://x"}"#, "providers[0].url"),
        (#"{"type": "remote", "url": "http://x", "deadlineMilliseconds": 0}"#, "providers[0].deadlineMilliseconds"),
        (#"{"type": "remote", "url": "http://x", "deadline": 5}"#, "deadline"),
    ])
    func badConfigurationsAreErrors(_ entry: String, _ mention: String) throws {
        var registry = ProviderRegistry.builtIn
        registry.registerRemote()
        do {
            _ = try EngineConfiguration(json: #"{"version": 1, "providers": [\#(entry)]}"#, registry: registry)
            Issue.record("accepted \(entry)")
        } catch {
            #expect("\(error)".contains(mention), "\(error)")
        }
    }

    @Test func theRequestCarriesTextTokensScopeAndUser() {
        let provider = RemoteProvider(url: "http://h:1/", user: "a b")
        let url = provider.url(
            for: SearchQuery(text: "new y&", tokens: [SearchToken(kind: "k", value: "v")], scope: SearchScope("s"))
        )
        #expect(
            url
                == "http://h:1/suggest?q=new%20y%26&scope=s&tokens=%5B%7B%22kind%22%3A%22k%22%2C%22value%22%3A%22v%22%2C%22display%22%3A%22v%22%7D%5D&user=a%20b"
        )
    }
}
