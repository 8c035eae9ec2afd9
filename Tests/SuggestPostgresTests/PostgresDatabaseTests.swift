#if Server
import Foundation
import Logging
import PostgresNIO
import SuggestCore
import SuggestIndex
import Testing
@testable import SuggestPostgres

/// Fails the suite when CI asks for PostgreSQL (`SUGGEST_REQUIRE_POSTGRES=1`) and none is given or reachable.
@Suite struct PostgresRequirementTests {
    @Test(.enabled(if: TestDatabase.isRequired, "SUGGEST_REQUIRE_POSTGRES is not 1: the PostgreSQL tests may be skipped"))
    func theRequiredDatabaseIsThere() async throws {
        let url = try #require(TestDatabase.url, "SUGGEST_REQUIRE_POSTGRES=1 but SUGGEST_TEST_POSTGRES_URL is not set")
        let settings = try PostgresConnectionSettings(url: url)
        let connection = try await PostgresConnection.connect(
            configuration: try settings.connectionConfiguration(), id: 1, logger: Logger(label: "test"))
        let rows = try await connection.query("SELECT 1", logger: Logger(label: "test"))
        var count = 0
        for try await _ in rows { count += 1 }
        #expect(count == 1)
        try await connection.close()
    }
}

/// Import, keystrokes and reconnection against a real PostgreSQL (`SUGGEST_TEST_POSTGRES_URL`).
@Suite(.enabled(if: TestDatabase.isAvailable, TestDatabase.skipReason), .serialized)
struct PostgresDatabaseTests {
    static let entries: [(text: String, weight: Double, scope: String?)] = [
        ("Café de Flore", 50, nil), ("cafe", 10, nil), ("CAFE", 5, nil), ("Straße", 7, nil), ("New York", 100, nil),
        ("new-york-times", 40, nil), ("tensorflow", 900, nil), ("tensorflow-io", 300, nil), ("tensile", 3, nil),
        ("python", 1000, "code"), ("python-dateutil", 500, "code"), ("pytest", 400, "code"), ("Python Monty", 20, "films"),
        ("requests", 800, nil), ("back\\slash\tx", 1, nil),
    ]

    static func dictionary() -> WeightedDictionary { WeightedDictionary(source: "test", entries: entries) }

    /// A provider on a freshly imported table of its own; the table is dropped afterwards.
    static func withCatalogue<T>(
        _ stem: String,
        settings: PostgresConnectionSettings? = nil,
        deadline: Duration = .seconds(5),
        _ body: (PostgresProvider, PostgresCatalogue) async throws -> T
    ) async throws -> T {
        let catalogue = try PostgresCatalogue(table: TestDatabase.uniqueTable(stem))
        let direct = try TestDatabase.settings()
        _ = try await PostgresImporter.load(dictionary(), into: catalogue, settings: direct, replace: false)
        let provider = PostgresProvider(settings: settings ?? direct, catalogue: catalogue, deadline: deadline)
        do {
            let value = try await body(provider, catalogue)
            provider.shutdown()
            do { try await drop(catalogue) } catch { throw PostgresSettingsError("drop: " + String(reflecting: error)) }
            return value
        } catch {
            provider.shutdown()
            try? await drop(catalogue)
            throw PostgresSettingsError(String(reflecting: error))
        }
    }

    static func drop(_ catalogue: PostgresCatalogue) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: try TestDatabase.settings().connectionConfiguration(), id: 2, logger: Logger(label: "test"))
        try await connection.query(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(catalogue.quoted)"), logger: Logger(label: "test"))
        try await connection.close()
    }

    static func ask(_ provider: PostgresProvider, _ text: String, scope: String? = nil, limit: Int = 10) async throws
        -> [SuggestionCandidate]
    {
        let query = PreparedQuery(SearchQuery(text: text, scope: scope.map { SearchScope($0) }))
        return try await provider.suggestions(for: SuggestionRequest(query: query, limit: limit)).candidates
    }

    @Test func theFoldedColumnIsTheInMemoryKey() async throws {
        try await Self.withCatalogue("folded") { _, catalogue in
            let connection = try await PostgresConnection.connect(
                configuration: try TestDatabase.settings().connectionConfiguration(), id: 3, logger: Logger(label: "test"))
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT text, folded FROM \(catalogue.quoted)"), logger: Logger(label: "test"))
            var seen = 0
            for try await (text, folded) in rows.decode((String, String).self) {
                #expect(folded == String(decoding: IndexKey.key(text), as: UTF8.self), "\(text)")
                seen += 1
            }
            try await connection.close()
            #expect(seen == Self.entries.count)
        }
    }

    @Test func tiersRangesAndPopularity() async throws {
        try await Self.withCatalogue("tiers") { provider, _ in
            // Folding: case, accents; one suggestion per folded key (the most popular spelling).
            let cafe = try await Self.ask(provider, "CAFÉ")
            #expect(cafe.map(\.title) == ["cafe", "Café de Flore"])
            #expect(cafe.map(\.tier) == [.exact, .prefix])
            #expect(cafe[1].matchedRanges == [0..<5])  // "Café" is 5 UTF-8 bytes
            #expect(cafe[1].popularity == 50)
            #expect(try await Self.ask(provider, "strasse").map(\.title) == ["Straße"])
            // Separators: "new york" matches "new-york-times"; a later word start is a word-prefix match.
            let york = try await Self.ask(provider, "york")
            #expect(york.map(\.title) == ["New York", "new-york-times"])
            #expect(york.map(\.tier) == [.wordPrefix, .wordPrefix])
            #expect(york[0].matchedRanges == [4..<8])
            #expect(try await Self.ask(provider, "new yo").map(\.title) == ["New York", "new-york-times"])
            // By weight inside a tier, at most `limit`.
            #expect(try await Self.ask(provider, "py", limit: 2).map(\.title) == ["python", "python-dateutil"])
            // Scopes: that scope's entries and unscoped ones.
            #expect(try await Self.ask(provider, "py", scope: "films").map(\.title) == ["Python Monty"])
            // Escaped text survives the COPY.
            #expect(try await Self.ask(provider, "back").map(\.title) == ["back\\slash\tx"])
        }
    }

    @Test func typosThroughTrigrams() async throws {
        try await Self.withCatalogue("typos") { provider, _ in
            let typo = try await Self.ask(provider, "tenserflow")
            #expect(typo.map(\.title) == ["tensorflow", "tensorflow-io"])
            #expect(typo.map(\.tier) == [.oneTypo, .oneTypo])
            #expect(typo.map(\.typos) == [1, 1])
            #expect(typo[0].matchedRanges == [0..<10])
            // Below 4 typed characters no typo is looked for.
            #expect(try await Self.ask(provider, "tez").isEmpty)
        }
    }

    @Test func theEngineRanksItWithTheOthers() async throws {
        try await Self.withCatalogue("engine") { provider, _ in
            let engine = SuggestionEngine(providers: [StaticProvider(items: [.init(title: "Pythonista")]), provider])
            var session = TypingSession()
            let result = await engine.allSuggestions(for: SearchQuery(text: "pyth"), session: &session)
            // `pytest` is one typo away from "pyth" (4 letters: one typo allowed), below every prefix match.
            #expect(
                result.sections.flatMap(\.suggestions).map(\.title)
                    == ["python", "python-dateutil", "Python Monty", "Pythonista", "pytest"])
            #expect(result.diagnostics.providers.map(\.outcome) == [.answered(count: 1), .answered(count: 4)])
        }
    }

    @Test func importingIntoAnExistingTableNeedsReplace() async throws {
        try await Self.withCatalogue("replace") { provider, catalogue in
            let settings = try TestDatabase.settings()
            await #expect {
                _ = try await PostgresImporter.load(Self.dictionary(), into: catalogue, settings: settings, replace: false)
            } throws: { error in
                "\(error)".contains("already exists") && "\(error)".contains("--replace")
            }
            let small = WeightedDictionary(source: "small", entries: [("zebra", 1, nil)])
            let report = try await PostgresImporter.load(small, into: catalogue, settings: settings, replace: true)
            #expect(report.rows == 1)
            #expect(try await Self.ask(provider, "zeb").map(\.title) == ["zebra"])
            #expect(try await Self.ask(provider, "py").isEmpty)
        }
    }

    @Test func aMissingTableIsTheServersMessage() async throws {
        let provider = PostgresProvider(
            settings: try TestDatabase.settings(), catalogue: try PostgresCatalogue(table: "t_no_such_table"))
        defer { provider.shutdown() }
        await #expect {
            _ = try await Self.ask(provider, "py")
        } throws: { error in
            "\(error)".contains("relation \"t_no_such_table\" does not exist")
        }
    }

    /// The database goes away and comes back: meanwhile each keystroke reports the provider failed, never the
    /// keystroke; afterwards it answers again. The outage is a TCP proxy in front of the database that closes its
    /// port and cuts the connections — or, with `SUGGEST_TEST_POSTGRES_CTL` (e.g. `bash .ci/postgres.sh`), the real
    /// server stopped (`$CTL pause`) and started again (`$CTL resume`); run this test alone then
    /// (`--filter itReconnects`), as other tests would see the server gone.
    @Test func itReconnectsWhenTheDatabaseIsBack() async throws {
        let direct = try TestDatabase.settings()
        let control = ProcessInfo.processInfo.environment["SUGGEST_TEST_POSTGRES_CTL"].flatMap { $0.isEmpty ? nil : $0 }
        let proxy = try TCPProxy(upstreamHost: direct.host, upstreamPort: UInt16(direct.port))
        var settings = direct
        if control == nil {
            try proxy.start()
            settings.host = "127.0.0.1"
            settings.port = Int(proxy.port)
        }
        func outage(_ begins: Bool) throws {
            guard let control else {
                if begins { proxy.stop() } else { try proxy.start() }
                return
            }
            // posix_spawn and waitpid, not Foundation's Process: the restarted server inherits the descriptors
            // Process watches, and `waitUntilExit` never returns.
            let status = TestDatabase.shell(control + (begins ? " pause" : " resume") + " </dev/null >/dev/null 2>&1")
            #expect(status == 0, "\(control) \(begins ? "pause" : "resume")")
        }
        try await Self.withCatalogue("reconnect", settings: settings, deadline: .milliseconds(500)) { provider, _ in
            let engine = SuggestionEngine(providers: [StaticProvider(items: [.init(title: "Pythonista")]), provider])
            var session = TypingSession()
            func keystroke() async -> (titles: [String], outcome: SuggestionResult.Diagnostics.ProviderReport.Outcome?) {
                let result = await engine.allSuggestions(for: SearchQuery(text: "pyth"), session: &session)
                return (result.sections.flatMap(\.suggestions).map(\.title),
                        result.diagnostics.providers.first { $0.provider == "postgres" }?.outcome)
            }
            #expect(await keystroke().titles.contains("python"))

            try outage(true)
            var failures = 0
            var message = ""
            for _ in 0..<50 where failures < 3 {
                let (titles, outcome) = await keystroke()
                #expect(titles.contains("Pythonista"))  // the other provider answers
                if case .failed(let text) = outcome {
                    failures += 1
                    message = text
                }
                if case .answered = outcome { Issue.record("answered while the database was away") }
            }
            #expect(failures == 3)
            #expect(message.contains("is unreachable"), "\(message)")

            try outage(false)
            // The pool retries with a growing backoff (100 ms × 1.25ⁿ): a few seconds here. Bounded: 300 keystrokes
            // 100 ms apart.
            var back = false
            for _ in 0..<300 where !back {
                let (titles, outcome) = await keystroke()
                if case .answered = outcome, titles.contains("python") { back = true } else {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            #expect(back)
        }
        proxy.stop()
    }
}
#endif
