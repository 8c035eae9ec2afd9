#if Server
import Foundation
import PostgresNIO
import SuggestCore
import SuggestTestSupport
import Testing
@testable import SuggestPostgres

/// Configuration keys, URLs and table names: checked strictly, errors at their JSON path. No database needed.
@Suite struct PostgresConfigurationTests {
    static var registry: ProviderRegistry {
        var registry = ProviderRegistry.core
        registry.register(PostgresProvider.self)
        return registry
    }

    /// The errors of a configuration whose only provider is `entry`.
    static func errors(_ entry: String) -> [String] {
        do {
            _ = try EngineConfiguration(json: #"{"version":1,"providers":[\#(entry)]}"#, registry: registry)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func aValidConfigurationBuildsAnAsynchronousProviderWithItsDeadline() throws {
        let configuration = try EngineConfiguration(
            json: #"{"version":1,"providers":[{"type":"postgres","id":"catalogue","url":"postgres://u:secret@db.example:6543/shop?sslmode=disable","table":"packages","deadlineMilliseconds":80,"limit":5,"infix":false,"typos":false,"maximumConnections":2}]}"#,
            registry: Self.registry)
        let provider = try #require(configuration.slots.first?.provider as? PostgresProvider)
        #expect(provider.id == "catalogue")
        #expect(provider.execution == .asynchronous(deadline: .milliseconds(80)))
        #expect(provider.catalogue.table == "packages")
        #expect(provider.options == .init(limit: 5, infix: false, typos: false))
        #expect(provider.location == "u@db.example:6543/shop")
        #expect(provider.minimumInterval == .zero)
        provider.shutdown()
    }

    @Test func theMinimumIntervalComesFromTheConfiguration() throws {
        let configuration = try EngineConfiguration(
            json: #"{"version":1,"providers":[{"type":"postgres","url":"postgres://u@h/d","minIntervalMilliseconds":100}]}"#,
            registry: Self.registry)
        let provider = try #require(configuration.slots.first?.provider as? PostgresProvider)
        #expect(provider.minimumInterval == .milliseconds(100))
        provider.shutdown()
    }

    @Test func separateKeysWork() throws {
        let configuration = try EngineConfiguration(
            json: #"{"version":1,"providers":[{"type":"postgres","host":"127.0.0.1","port":5433,"user":"me","database":"d","sslmode":"disable"}]}"#,
            registry: Self.registry)
        let provider = try #require(configuration.slots.first?.provider as? PostgresProvider)
        #expect(provider.location == "me@127.0.0.1:5433/d")
        #expect(provider.catalogue.table == "suggestions")
        #expect(provider.execution == .asynchronous(deadline: .milliseconds(150)))
    }

    @Test func unknownKeysAreErrorsWithTheNearestName() {
        let errors = Self.errors(#"{"type":"postgres","url":"postgres://u@h/d","tabel":"x"}"#)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("providers[0]") == true, "\(errors)")
        #expect(errors.first?.contains("\"tabel\"") == true && errors.first?.contains("\"table\"") == true, "\(errors)")
    }

    @Test func badValuesNameTheirKey() {
        #expect(Self.errors(#"{"type":"postgres","url":"http://h/d"}"#)
            == ["providers[0].url: http://h/d: expected a postgres:// or postgresql:// URL"])
        #expect(Self.errors(#"{"type":"postgres","url":"postgres://u:pw@h/d?sslmode=sometimes"}"#)
            == ["providers[0].url: postgres://u:***@h/d?sslmode=sometimes: sslmode \"sometimes\" is not one of disable, prefer, require"])
        #expect(Self.errors(#"{"type":"postgres","url":"postgres://h/d","table":"Drop Table"}"#)
            == ["providers[0].table: \"Drop Table\" is not a table name: expected lowercase letters, digits and _ (starting with a letter or _), at most 40 characters"])
        #expect(Self.errors(#"{"type":"postgres","url":"postgres://h/d","deadlineMilliseconds":0}"#)
            == ["providers[0].deadlineMilliseconds: expected an integer from 1 to 60000, found number 0"])
        #expect(Self.errors(#"{"type":"postgres","url":"postgres://h/d","similarity":2}"#)
            == ["providers[0].similarity: expected a number from 0.1 to 1, found number 2"])
        #expect(Self.errors(#"{"type":"postgres","url":"postgres://h/d","host":"x"}"#)
            == ["providers[0].host: give the connection either as \"url\" or as separate keys, not both"])
        #expect(Self.errors(#"{"type":"postgres","table":"x"}"#)
            == ["providers[0]: missing the database: give \"url\", \"urlEnvironment\" or \"host\""])
        #expect(Self.errors(#"{"type":"postgres","urlEnvironment":"SUGGEST_TEST_NO_SUCH_VARIABLE"}"#)
            == ["providers[0].urlEnvironment: the environment variable SUGGEST_TEST_NO_SUCH_VARIABLE is not set"])
        #expect(Self.errors(#"{"type":"postgres","host":"h","sslmode":"maybe"}"#)
            == ["providers[0].sslmode: expected \"disable\", \"prefer\" or \"require\", found \"maybe\""])
        #expect(Self.errors(#"{"type":"postgres","host":"h","port":70000}"#)
            == ["providers[0].port: expected an integer from 1 to 65535, found number 70000"])
        #expect(Self.errors(#"{"type":"postgres","host":"h","minIntervalMilliseconds":-10}"#)
            == ["providers[0].minIntervalMilliseconds: expected an integer from 0 to 5000, found number -10"])
        #expect(Self.errors(#"{"type":"postgres","host":"h","minIntervalMilliseconds":60000}"#)
            == ["providers[0].minIntervalMilliseconds: expected an integer from 0 to 5000, found number 60000"])
    }

    @Test func urlsAreParsedWithEscapesAndDefaults() throws {
        let s = try PostgresConnectionSettings(url: "postgresql://al%40ce:p%2Fw@db:6000/my%20db?sslmode=require")
        #expect(s == PostgresConnectionSettings(host: "db", port: 6000, user: "al@ce", password: "p/w", database: "my db", tls: .require))
        let plain = try PostgresConnectionSettings(url: "postgres://u@localhost/d")
        #expect(plain.port == 5432 && plain.tls == .prefer && plain.password == nil)
        #expect(throws: PostgresSettingsError.self) { try PostgresConnectionSettings(url: "postgres:///d") }
        #expect(throws: PostgresSettingsError.self) { try PostgresConnectionSettings(url: "postgres://h/d?colour=blue") }
        #expect(PostgresConnectionSettings.redacted("postgres://u:secret@h/d") == "postgres://u:***@h/d")
    }

    @Test func everyConnectionSetsTheTrigramThresholdAndAStatementTimeout() {
        let settings = PostgresConnectionSettings(host: "h")
        let configuration = settings.clientConfiguration(wordSimilarityThreshold: 0.4, statementTimeout: .milliseconds(1500))
        let options = configuration.options.additionalStartupParameters
        // One connection kept: with none, a request queued when every connection closed waited for ever.
        #expect(configuration.options.minimumConnections == 1)
        #expect(options.count == 1)
        #expect(options.first?.0 == "options")
        #expect(options.first?.1 == "-c pg_trgm.word_similarity_threshold=0.4 -c statement_timeout=1500")
        #expect(PostgresProvider.statementTimeout(.milliseconds(150)) == .seconds(1.5))
        #expect(PostgresProvider.statementTimeout(.milliseconds(20)) == .seconds(1))
    }

    @Test func tableNames() {
        for good in ["suggestions", "_t", "pypi_2026"] { #expect(PostgresCatalogue.isValidName(good), "\(good)") }
        for bad in ["", "1t", "T", "a-b", "a.b", "x\"; drop", String(repeating: "a", count: 41)] {
            #expect(!PostgresCatalogue.isValidName(bad), "\(bad)")
        }
    }

    @Test func copyTextIsEscaped() {
        var chunk: [UInt8] = []
        let text = Array("a\\b\tc\nd\re".utf8)
        text.withUnsafeBufferPointer { PostgresImporter.appendEscaped($0, to: &chunk) }
        #expect(String(decoding: chunk, as: UTF8.self) == "a\\\\b\\tc\\nd\\re")
        func weight(_ w: Double) -> String {
            var out: [UInt8] = []
            PostgresImporter.appendWeight(w, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
        #expect(weight(1_000_000) == "1000000")
        #expect(weight(0) == "0")
        #expect(weight(0.5) == "0.5")
        #expect(weight(1e20) == "1e+20")
    }

    /// The pool's failed connection attempts, as postgres-nio logs them, become short messages.
    @Test func connectionFailuresAreShortMessages() {
        let startingUp = "PSQLError(code: server, serverInfo: [sqlState: 57P03, file: postmaster.c, line: 2415, "
            + "message: the database system is starting up, routine: ProcessStartupPacket, localizedSeverity: FATAL, "
            + "severity: FATAL], triggeredFromRequestInFile: nil)"
        #expect(HealthLogHandler.shorten(startingUp) == "the database system is starting up (SQLSTATE 57P03)")
        let refused = "PSQLError(code: connectionError, underlying: Connection errors: SingleConnectionFailure(target: "
            + "[IPv4]127.0.0.1/127.0.0.1:54329, error: connect(descriptor:addr:size:): Connection refused (errno: 111)))"
        #expect(HealthLogHandler.shorten(refused) == "connection refused")
    }

    /// Admission: a keystroke query waits for a connection only when the queries ahead of it leave time to answer
    /// it within the deadline.
    @Test func aKeystrokeWaitsForAConnectionOnlyIfItCanStillMeetItsDeadline() {
        func admits(_ inFlight: Int, _ queryTime: Duration?) -> Bool {
            PostgresProvider.canMeetDeadline(
                inFlight: inFlight, connections: 4, queryTime: queryTime, deadline: .milliseconds(150))
        }
        #expect(admits(1_000, nil), "no query time measured yet: every keystroke tries")
        #expect(admits(4, .seconds(1)), "a free connection: it runs at once, however slow queries are")
        #expect(admits(28, .milliseconds(20)), "24 waiting on 4 connections: 6 rounds + its own, 140 ms")
        #expect(!admits(32, .milliseconds(20)), "28 waiting: 8 rounds of 20 ms, 160 ms")
        #expect(!admits(5, .milliseconds(151)), "one query of more than the deadline ahead")
        let timer = QueryTimer()
        timer.record(.milliseconds(10))
        #expect(timer.average == .milliseconds(10))
        timer.record(.milliseconds(110))
        #expect(timer.average == .milliseconds(20))
    }

    /// The background probe that waits for the database to come back ends at its timeout even when the
    /// connection attempt under it hangs (a server that accepts the connection and never answers), so that the
    /// provider can start another: it never waits on one probe for ever.
    @Test(.timeLimit(.minutes(1)))
    func aProbeEndsAtItsTimeoutWhenTheConnectionAttemptHangs() async throws {
        let hole = try SilentListener()
        let postgres = PostgresProvider(
            settings: PostgresConnectionSettings(host: "127.0.0.1", port: Int(hole.port), user: "nobody", tls: .disable),
            catalogue: try PostgresCatalogue(table: "suggestions"),
            connectTimeout: .seconds(60),
            probeTimeout: .milliseconds(200))
        defer { postgres.shutdown() }
        postgres.health.failed("down")
        postgres.probe()
        #expect(!postgres.health.claimProbe(), "a probe is under way")
        let clock = ContinuousClock()
        let start = clock.now
        var ended = false
        while !ended && clock.now - start < .seconds(20) {
            try await Task.sleep(for: .milliseconds(50))
            ended = postgres.health.claimProbe()
        }
        #expect(ended, "the probe did not end within 20 s (its timeout is 0.2 s; the connect timeout 60 s)")
        #expect(postgres.health.current?.message == "down", "a timed-out probe leaves the known problem")
    }

    /// A database that cannot be reached fails this provider's part of each keystroke with a message that says so;
    /// the keystroke itself, and the other providers, answer as usual.
    @Test func anUnreachableDatabaseIsADiagnosticNotAFailedKeystroke() async throws {
        let proxy = try TCPProxy(upstreamHost: "127.0.0.1", upstreamPort: 9)  // a port nobody listens on: never started
        let postgres = PostgresProvider(
            settings: PostgresConnectionSettings(host: "127.0.0.1", port: Int(proxy.port), user: "nobody", tls: .disable),
            catalogue: try PostgresCatalogue(table: "suggestions"),
            deadline: .milliseconds(300))
        defer { postgres.shutdown() }
        let engine = SuggestionEngine(providers: [StaticProvider(items: [.init(title: "Apple")]), postgres])
        var session = TypingSession()
        var sawUnreachable = false
        // The first keystroke may wait for the first connection attempt (and miss its deadline); from then on the
        // provider knows the database is down and says so at once. Bounded: 50 keystrokes.
        for attempt in 0..<50 where !sawUnreachable {
            let result = await engine.allSuggestions(for: SearchQuery(text: "ap"), session: &session)
            #expect(result.sections.flatMap(\.suggestions).map(\.title) == ["Apple"], "keystroke \(attempt)")
            let report = try #require(result.diagnostics.providers.first { $0.provider == "postgres" })
            switch report.outcome {
            case .failed(let message):
                // Clients see no user, host or port.
                #expect(!message.contains("nobody") && !message.contains("127.0.0.1") && !message.contains("\(proxy.port)"), "\(message)")
                sawUnreachable = message == "database unreachable: connection refused (retrying)"
            case .cancelled: break
            case .answered, .pending: Issue.record("unexpected \(report.outcome)")
            }
        }
        #expect(sawUnreachable)
    }
}
#endif
