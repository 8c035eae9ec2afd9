#if Server
import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import SuggestCore
import SuggestRemote
import Testing

/// The remote provider on its own: its breaker, its configuration, its request, and a server that never answers.
/// (With a real `suggest serve` behind it: SuggestServerTests' `RemoteProviderTests`.)
struct RemoteProviderUnitTests {
    @Test(.timeLimit(.minutes(1)))
    func aServerThatNeverAnswersIsSkippedAfterThreeTimeouts() async throws {
        // A listening socket that never accepts: the kernel completes the connection, nobody reads the request.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                bind(fd, a, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, a, &length) == 0
            }
        }
        try #require(listening)
        let remote = RemoteProvider(url: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))", deadline: .milliseconds(200))
        let engine = SuggestionEngine(providers: [remote])
        var timeouts = 0
        // Three timeouts open it; on a loaded machine the engine's deadline may end a keystroke first (not counted),
        // so up to ten keystrokes.
        for _ in 0..<10 where remote.breaker.state == .closed {
            var session = TypingSession()
            let result = await engine.allSuggestions(for: SearchQuery(text: "py"), session: &session)
            if result.diagnostics.errors.first?.hasSuffix("no answer within the deadline") == true { timeouts += 1 }
        }
        #expect(timeouts == 3)
        #expect(remote.breaker.state != .closed)
        var session = TypingSession()
        let skipped = await engine.allSuggestions(for: SearchQuery(text: "pyth"), session: &session)
        // Skipped: failed at once without asking (a keystroke that asked would time out, not say this).
        #expect(skipped.diagnostics.errors.first?.contains("not asked") == true, "\(skipped.diagnostics.errors)")
    }

    /// A server that was down is asked again after a pause, and the first answer closes the breaker.
    /// The breaker's states, driven by explicit instants.
    @Test func theBreakerOpensPausesTriesAndCloses() {
        let breaker = CircuitBreaker(failuresToOpen: 3, firstPause: .seconds(1), longestPause: .seconds(3))
        let t0 = ContinuousClock.now
        #expect(breaker.decide(now: t0) == .ask(trial: false))
        breaker.failed("refused", trial: false, now: t0)
        breaker.failed("refused", trial: false, now: t0)
        breaker.succeeded()  // an answer in between: the count starts again
        breaker.failed("refused", trial: false, now: t0)
        breaker.failed("refused", trial: false, now: t0)
        #expect(breaker.state == .closed)
        breaker.failed("refused", trial: false, now: t0)
        #expect(breaker.state == .open(until: t0 + .seconds(1)))
        #expect(breaker.decide(now: t0 + .milliseconds(999)) == .skip(lastError: "refused"))
        // One trial after the pause; the others keep skipping while it runs.
        #expect(breaker.decide(now: t0 + .seconds(1)) == .ask(trial: true))
        #expect(breaker.decide(now: t0 + .seconds(1)) == .skip(lastError: "refused"))
        // A failed trial doubles the pause, up to the longest.
        breaker.failed("timed out", trial: true, now: t0 + .seconds(1))
        #expect(breaker.state == .open(until: t0 + .seconds(3)))
        #expect(breaker.decide(now: t0 + .seconds(3)) == .ask(trial: true))
        breaker.failed("timed out", trial: true, now: t0 + .seconds(3))
        #expect(breaker.state == .open(until: t0 + .seconds(6)), "capped at 3 s")
        // A cancelled trial lets the next keystroke try at once.
        #expect(breaker.decide(now: t0 + .seconds(6)) == .ask(trial: true))
        breaker.abandoned(trial: true)
        #expect(breaker.decide(now: t0 + .seconds(6)) == .ask(trial: true))
        breaker.succeeded()
        #expect(breaker.state == .closed)
        #expect(breaker.decide(now: t0 + .seconds(6)) == .ask(trial: false))
    }

    @Test(arguments: [
        (#"{"type": "remote", "url": "ftp://x"}"#, "providers[0].url"),
        (#"{"type": "remote", "url": "http://x", "deadlineMilliseconds": 0}"#, "providers[0].deadlineMilliseconds"),
        (#"{"type": "remote", "url": "http://x", "deadline": 5}"#, "deadline"),
        (
            #"{"type": "remote", "url": "http://x", "minIntervalMilliseconds": -1}"#,
            "providers[0].minIntervalMilliseconds: expected an integer from 0 to 5000, found number -1"
        ),
        (
            #"{"type": "remote", "url": "http://x", "minIntervalMilliseconds": 86400000}"#,
            "providers[0].minIntervalMilliseconds: expected an integer from 0 to 5000, found number 86400000"
        ),
        (
            #"{"type": "remote", "url": "http://x", "minIntervalMilliseconds": 1.5}"#,
            "providers[0].minIntervalMilliseconds: expected an integer from 0 to 5000"
        ),
    ])
    func badConfigurationsAreErrors(_ entry: String, _ mention: String) throws {
        var registry = ProviderRegistry.core
        registry.registerRemote()
        do {
            _ = try EngineConfiguration(json: #"{"version": 1, "providers": [\#(entry)]}"#, registry: registry)
            Issue.record("accepted \(entry)")
        } catch {
            #expect("\(error)".contains(mention), "\(error)")
        }
    }

    @Test func theMinimumIntervalComesFromTheConfigurationAndDefaultsToNone() throws {
        var registry = ProviderRegistry.core
        registry.registerRemote()
        let configured = try EngineConfiguration(
            json: #"{"version": 1, "providers": [{"type": "remote", "url": "http://x", "minIntervalMilliseconds": 120}]}"#,
            registry: registry)
        #expect(configured.slots.first?.provider.minimumInterval == .milliseconds(120))
        let plain = try EngineConfiguration(
            json: #"{"version": 1, "providers": [{"type": "remote", "url": "http://x"}]}"#, registry: registry)
        #expect(plain.slots.first?.provider.minimumInterval == .zero)
        #expect(RemoteProvider(url: "http://x", minimumInterval: .milliseconds(80)).minimumInterval == .milliseconds(80))
        #expect(RemoteProvider(url: "http://x", minimumInterval: .milliseconds(-5)).minimumInterval == .zero)
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
#endif
