#if Server
import Foundation
import Logging
import PostgresNIO
import SuggestCore
import SuggestIndex
import Synchronization
import SuggestTestSupport
import Testing
@testable import SuggestPostgres

/// A log handler that keeps the messages (tests read them).
final class CapturedLog: LogHandler, Sendable {
    private let stored = Mutex<[String]>([])
    var messages: [String] { stored.withLock { $0 } }
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }
    func log(event: LogEvent) { stored.withLock { $0.append(event.message.description) } }
}

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

    /// Drops the test's table: a cleanup, so a connection refused or reset (a loaded machine, many tests connecting
    /// at once) is tried again, up to three times.
    static func drop(_ catalogue: PostgresCatalogue) async throws {
        var attempt = 1
        while true {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: try TestDatabase.settings().connectionConfiguration(), id: 2,
                    logger: Logger(label: "test"))
                do {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(catalogue.quoted)"), logger: Logger(label: "test"))
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
                return
            } catch {
                guard attempt < 3 else { throw error }
                attempt += 1
                try await Task.sleep(for: .milliseconds(300))
            }
        }
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

    /// A failed query tells the client its SQLSTATE only: never the database's user, host, port or name, nor the
    /// server's message (which names the table); the details go to the provider's log.
    @Test func aDatabaseErrorNamesNoUserHostPortOrDatabase() async throws {
        let settings = try TestDatabase.settings()
        let log = CapturedLog()
        let provider = PostgresProvider(
            settings: settings, catalogue: try PostgresCatalogue(table: "t_no_such_table"), deadline: .seconds(10),
            logger: Logger(label: "test") { _ in log })
        defer { provider.shutdown() }
        let engine = SuggestionEngine(providers: [StaticProvider(items: [.init(title: "Pythonista")]), provider])
        var session = TypingSession()
        let result = await engine.allSuggestions(for: SearchQuery(text: "py"), session: &session)
        #expect(result.diagnostics.errors == ["postgres: database query failed (SQLSTATE 42P01)"])
        // What `suggest serve` sends as the answer's "errors".
        let answer = result.diagnostics.errors.joined(separator: "\n")
        for secret in [settings.user, settings.host, ":\(settings.port)", settings.database ?? settings.user, "t_no_such_table"] {
            #expect(!answer.contains(secret), "\(secret) in \(answer)")
        }
        let logged = log.messages.joined(separator: "\n")
        #expect(logged.contains(settings.displayName) && logged.contains(#"relation "t_no_such_table" does not exist"#), "\(logged)")
        // Logged once, not once per keystroke.
        _ = await engine.allSuggestions(for: SearchQuery(text: "pyt"), session: &session)
        #expect(log.messages.count == 1, "\(log.messages)")
    }

    /// At most `maximumQueries` keystroke queries are under way: one more answers "busy" at once instead of queueing.
    @Test func keystrokesBeyondTheMaximumQueriesAnswerBusyAtOnce() async throws {
        try await Self.withCatalogue("admission") { _, catalogue in
            let provider = PostgresProvider(
                settings: try TestDatabase.settings(), catalogue: catalogue, deadline: .seconds(30),
                maximumConnections: 1, maximumQueries: 2)
            defer { provider.shutdown() }
            // The pool's one connection is held: the keystrokes below wait for it.
            let gate = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await provider.client.withConnection { _ in for await _ in gate.stream {} }
            }
            defer { holder.cancel() }
            let waiting = (0..<2).map { _ in Task { try await Self.ask(provider, "py") } }
            for _ in 0..<500 where provider.queriesUnderWay < 2 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(provider.queriesUnderWay == 2)
            await #expect {
                _ = try await Self.ask(provider, "te")
            } throws: { error in
                "\(error)" == "database busy: 2 queries under way already, so this keystroke did not wait"
            }
            // The two that waited are answered once the connection is free.
            #expect(provider.queriesUnderWay == 2)
            gate.continuation.finish()
            for task in waiting { #expect(try await task.value.map(\.title).first == "python") }
            #expect(try await Self.ask(provider, "te").map(\.title).first == "tensorflow")
        }
    }

    /// The database's own work for a keystroke — rows read by its scans, from `EXPLAIN (ANALYZE)`: a count, not a
    /// time — for pathological texts stays within a small multiple of the most an ordinary keystroke reads. Before
    /// the key was bounded and normalized, a key without letters or digits had its word-prefix and typo parts read
    /// the whole table (the check on the unbounded parameters shows that the measure tells).
    @Test func noKeystrokeReadsMoreThanASmallMultipleOfAnOrdinaryOne() async throws {
        var generator = SplitMix(seed: 7)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        func word() -> String {
            String((0..<(4 + Int(generator.next() % 8))).map { _ in letters[Int(generator.next() % 26)] })
        }
        var entries: [(text: String, weight: Double, scope: String?)] = []
        for i in 0..<40_000 {
            let text =
                switch i % 10 {
                case 0: word() + " " + word()
                case 1: word() + "'" + word()
                case 2: word() + "-" + word() + "-" + word()
                default: word()
                }
            entries.append((text, Double(generator.next() % 100_000), nil))
        }
        let catalogue = try PostgresCatalogue(table: TestDatabase.uniqueTable("cost"))
        let settings = try TestDatabase.settings()
        _ = try await PostgresImporter.load(
            WeightedDictionary(source: "generated", entries: entries), into: catalogue, settings: settings, replace: false)
        let provider = PostgresProvider(settings: settings, catalogue: catalogue, deadline: .seconds(30))
        defer { provider.shutdown() }
        // Statistics now, so that the plans do not change when autovacuum gathers them.
        try await provider.client.query(PostgresQuery(unsafeSQL: "ANALYZE \(catalogue.quoted)"))
        func rowsRead(_ query: PostgresQuery) async throws -> Int {
            let explain = PostgresQuery(unsafeSQL: "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + query.sql, binds: query.binds)
            let json = try await provider.client.withConnection { connection in
                var text = ""
                for try await (row) in try await connection.query(explain, logger: Logger(label: "test")).decode(String.self) {
                    text += row
                }
                return text
            }
            let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
            let plan = try #require(parsed?.first?["Plan"] as? [String: Any])
            // Rows each scan produced or threw away, times its loops, over the whole plan.
            func rowsRead(_ node: [String: Any]) -> Int {
                var total = 0
                if let type = node["Node Type"] as? String, type.hasSuffix("Scan"), !type.hasPrefix("CTE") {
                    let loops = node["Actual Loops"] as? Int ?? 0
                    let rows = (node["Actual Rows"] as? Int ?? 0) + (node["Rows Removed by Filter"] as? Int ?? 0)
                        + (node["Rows Removed by Index Recheck"] as? Int ?? 0)
                    total += rows * loops
                }
                for child in node["Plans"] as? [[String: Any]] ?? [] { total += rowsRead(child) }
                return total
            }
            return rowsRead(plan)
        }
        func rowsRead(_ text: String) async throws -> Int {
            let plan = KeystrokePlan(
                SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10), options: provider.options)
            return try await rowsRead(plan.query(catalogue.keystroke))
        }
        /// The parameters as they were sent before the key was bounded and normalized: the whole key everywhere.
        func unboundedRowsRead(_ key: String) async throws -> Int {
            var binds = PostgresBindings()
            binds.append(key)
            binds.append(key + "%")
            binds.append("% " + key + "%")
            binds.append(Int32(20))
            binds.append(String?.none)
            binds.append(key.unicodeScalars.count >= 4)
            binds.append(Int32(30))
            binds.append(Int32(10))
            binds.append(key)
            return try await rowsRead(PostgresQuery(unsafeSQL: catalogue.keystroke, binds: binds))
        }
        var ordinary: [String: Int] = [:]
        for text in ["p", "q", "x ", "q ", "py", "tens", "abcdefgh", "zzqx", "new yo", "ab cd"] { ordinary[text] = try await rowsRead(text) }
        let most = ordinary.values.max() ?? 0
        var randomText = ""
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 '’…-.,;!?éß中")
        while randomText.utf8.count < 10_000 { randomText.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
        var pathological: [String: Int] = [:]
        for (name, text) in [
            ("one apostrophe", "'"), ("64 apostrophes", String(repeating: "'", count: 64)),
            ("1,024 apostrophes", String(repeating: "'", count: 1024)), ("10 KB random", randomText),
            ("x and 1,023 apostrophes", "x" + String(repeating: "'", count: 1023)),
            ("1,024 ellipses", String(repeating: "…", count: 1024)),
        ] {
            pathological[name] = try await rowsRead(text)
        }
        // The measure tells: the unbounded parameters of one apostrophe cost more than the bound.
        let before = try await unboundedRowsRead("'")
        #expect(before > 2 * most + 100, "unbounded: \(before) rows; ordinary at most \(most)")
        print("rows read: unbounded one apostrophe \(before), ordinary \(ordinary.sorted { $0.key < $1.key }), pathological \(pathological.sorted { $0.key < $1.key })")
        for (name, cost) in pathological {
            #expect(cost <= 2 * most + 100, "\(name): \(cost) rows; ordinary at most \(most) (\(ordinary))")
        }
        try await Self.drop(catalogue)
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
            #expect(message.hasPrefix("database unreachable: "), "\(message)")

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
