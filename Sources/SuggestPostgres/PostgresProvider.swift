#if Server
import Foundation
import Logging
public import PostgresNIO
public import SuggestCore
import SuggestIndex
import Synchronization

/// Completes what was typed from a dictionary table in PostgreSQL (`"type": "postgres"`): exact, prefix and
/// word-prefix matches by weight, and typo matches through `pg_trgm`, with matched ranges, so the engine ranks them
/// with every other provider's.
///
/// ```json
/// { "type": "postgres", "url": "postgres://suggest@localhost:5432/catalogue", "table": "packages",
///   "deadlineMilliseconds": 150, "minIntervalMilliseconds": 100 }
/// ```
/// The table is written by `suggest import --postgres URL dictionary.tsv` (``PostgresImporter``), which folds
/// every entry in Swift exactly as the in-memory providers do.
///
/// The provider is asynchronous (`execution = .asynchronous(deadline:)`): the engine runs it in a task with its
/// deadline, and a late answer is an update of the same keystroke (`SuggestionEngine/results(for:)`). A database
/// that is down or unreachable makes each keystroke's report say so (`failed: database unreachable …`); the other
/// providers answer as usual, and the provider reconnects by itself when the database is back. With
/// `minIntervalMilliseconds` (``minimumInterval``), a search field asks the database for a keystroke that came
/// sooner than that after the previous one only once typing pauses that long, and always for the last keystroke.
///
/// **What clients see.** A keystroke's failure (in its report, which `suggest serve` sends to clients) names no
/// user, host, port, database or table, and carries none of the server's own message text: it says `database
/// unreachable`, `database busy` or `database query failed`, with the SQLSTATE when there is one. The details go
/// to the provider's logger (at `warning`, once until they change).
///
/// **Bounded cost.** The text sent is bounded and normalized (see `KeystrokePlan`): at most 64 bytes of key, and no
/// trigram search for a key without letters or digits. At most `maximumQueries` keystroke queries are under way at
/// once (running or waiting for a connection); a keystroke beyond them answers at once without the database
/// (`database busy`), as does one that would wait past its deadline behind the queries under way.
///
/// **Connections.** The provider made from a configuration (or ``init(id:settings:catalogue:deadline:options:maximumConnections:connectTimeout:wordSimilarityThreshold:probeTimeout:maximumQueries:logger:minimumInterval:)``)
/// owns a `PostgresClient` (a pool of up to `maximumConnections`) and runs its `run()` in a task that ends when
/// the provider is released. A server that manages its services itself (swift-service-lifecycle) passes its own
/// client to ``init(id:client:catalogue:deadline:options:location:maximumQueries:logger:minimumInterval:)`` and runs it in its `ServiceGroup`.
public final class PostgresProvider: ConfigurableProvider {
    /// The provider's keys in a configuration; unknown keys and bad values are errors at their JSON path.
    ///
    /// - `url`: `postgres://user:password@host:port/database?sslmode=disable`; or `urlEnvironment`: the name of an
    ///   environment variable that holds it; or `host`, `port`, `user`, `password`, `database`, `sslmode`.
    /// - `table` (default `"suggestions"`), `deadlineMilliseconds` (1–60000, default 150), `limit` (rows per tier,
    ///   1–1000; default: the engine's limit), `infix` (default true), `typos` (default true),
    ///   `maximumConnections` (1–100, default 4), `maximumQueries` (1–10000, default 4 × `maximumConnections`:
    ///   keystroke queries under way at once, running or waiting for a connection; one more answers `database
    ///   busy` at once), `connectTimeoutMilliseconds` (1–600000, default 5000), `similarity` (0.1–1, default 0.5:
    ///   `pg_trgm.word_similarity_threshold` for typo candidates), `minIntervalMilliseconds` (0–5000, default 0:
    ///   while keystrokes come faster than this, the database is asked only once typing pauses this long, and always
    ///   for the last keystroke).
    public struct Configuration: Decodable, Sendable {
        public var url: String?
        public var urlEnvironment: String?
        public var host: String?
        public var port: Int?
        public var user: String?
        public var password: String?
        public var database: String?
        public var sslmode: String?
        public var table: String
        public var deadlineMilliseconds: Int
        public var limit: Int?
        public var infix: Bool
        public var typos: Bool
        public var maximumConnections: Int
        public var maximumQueries: Int?
        public var connectTimeoutMilliseconds: Int
        public var similarity: Double
        public var minIntervalMilliseconds: Int

        private enum CodingKeys: String, CodingKey {
            case url, urlEnvironment, host, port, user, password, database, sslmode, table, deadlineMilliseconds, limit,
                infix, typos, maximumConnections, maximumQueries, connectTimeoutMilliseconds, similarity,
                minIntervalMilliseconds
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            url = try c.decodeIfPresent(String.self, forKey: .url)
            urlEnvironment = try c.decodeIfPresent(String.self, forKey: .urlEnvironment)
            host = try c.decodeIfPresent(String.self, forKey: .host)
            port = try c.decodeIfPresent(Int.self, forKey: .port, in: 1...65_535)
            user = try c.decodeIfPresent(String.self, forKey: .user)
            password = try c.decodeIfPresent(String.self, forKey: .password)
            database = try c.decodeIfPresent(String.self, forKey: .database)
            sslmode = try c.decodeIfPresent(String.self, forKey: .sslmode)
            table = try c.decodeIfPresent(String.self, forKey: .table) ?? "suggestions"
            deadlineMilliseconds = try c.decodeIfPresent(Int.self, forKey: .deadlineMilliseconds, in: 1...60_000) ?? 150
            limit = try c.decodeIfPresent(Int.self, forKey: .limit, in: 1...1_000)
            infix = try c.decodeIfPresent(Bool.self, forKey: .infix) ?? true
            typos = try c.decodeIfPresent(Bool.self, forKey: .typos) ?? true
            maximumConnections = try c.decodeIfPresent(Int.self, forKey: .maximumConnections, in: 1...100) ?? 4
            maximumQueries = try c.decodeIfPresent(Int.self, forKey: .maximumQueries, in: 1...10_000)
            connectTimeoutMilliseconds =
                try c.decodeIfPresent(Int.self, forKey: .connectTimeoutMilliseconds, in: 1...600_000) ?? 5_000
            similarity = try c.decodeIfPresent(Double.self, forKey: .similarity, in: 0.1...1) ?? 0.5
            minIntervalMilliseconds =
                try c.decodeIfPresent(Int.self, forKey: .minIntervalMilliseconds, in: 0...5_000) ?? 0
        }
    }

    /// What to match besides prefixes.
    public struct Options: Hashable, Sendable {
        /// Rows per tier; nil: the engine's limit.
        public var limit: Int?
        /// Match at inner word starts ("york" → "New York").
        public var infix: Bool
        /// Typo matches through `pg_trgm` (one typo from 4 typed characters, two from 8, as the fuzzy provider).
        public var typos: Bool

        public init(limit: Int? = nil, infix: Bool = true, typos: Bool = true) {
            self.limit = limit
            self.infix = infix
            self.typos = typos
        }
    }

    public static let typeName = "postgres"

    /// A catalogue holds fragments as a word list does: exact matches rank among the prefixes, boosted
    /// (`ExactMatchRule/dictionaryDefault`), as with the `prefix` provider.
    public var exactMatch: ExactMatchRule { .dictionaryDefault }

    public let id: String
    public let execution: ProviderExecution
    /// While keystrokes come faster than this, the database is asked only once typing pauses (see
    /// `SuggestionProvider/minimumInterval`); `.zero`: every keystroke.
    public let minimumInterval: Duration
    public let catalogue: PostgresCatalogue
    public let options: Options
    /// The connection pool.
    public let client: PostgresClient
    /// Where the database is, for messages.
    public let location: String
    let health: ConnectionHealth
    /// How long one probe waits for the pool before it gives up and lets the next keystroke start another.
    let probeTimeout: Duration
    /// The pool's size when the provider knows it (it made the pool): admission needs it (see
    /// ``canMeetDeadline(inFlight:connections:queryTime:deadline:)``).
    let connections: Int?
    /// Keystroke queries under way (running or waiting for a connection).
    private let inFlight = Atomic<Int>(0)
    /// The most keystroke queries under way at once; one more answers `database busy` at once.
    public let maximumQueries: Int
    /// Where the details of failures go (clients get generic reasons).
    let logger: Logger
    /// The last detail logged, so that an outage is logged once, not once per keystroke.
    private let lastLogged = Mutex<String?>(nil)
    /// How long a query holds its connection, on average.
    let queryTime = QueryTimer()
    /// The task running ``client``'s `run()` when the provider owns it.
    private let runner: Task<Void, Never>?
    private let sql: String

    /// A provider over a client that the caller runs (`client.run()` in a task or a `ServiceGroup`).
    public init(
        id: String = "postgres",
        client: PostgresClient,
        catalogue: PostgresCatalogue,
        deadline: Duration = .milliseconds(150),
        options: Options = Options(),
        location: String = "database",
        maximumQueries: Int = 16,
        logger: Logger = Logger(label: "suggest.postgres"),
        minimumInterval: Duration = .zero
    ) {
        self.id = id
        self.maximumQueries = max(1, maximumQueries)
        self.logger = logger
        self.minimumInterval = max(minimumInterval, .zero)
        self.client = client
        self.catalogue = catalogue
        self.execution = .asynchronous(deadline: deadline)
        self.options = options
        self.location = location
        self.health = ConnectionHealth()
        self.probeTimeout = .seconds(5)
        self.connections = nil
        self.runner = nil
        self.sql = catalogue.keystroke
    }

    /// A provider that owns its connection pool: it starts `run()` now and stops it when the provider is released.
    /// The pool opens one connection at once and keeps one open (it reconnects by itself after an outage).
    /// `probeTimeout` bounds each background probe while the database is down (default: `connectTimeout`, at
    /// least a second).
    public init(
        id: String = "postgres",
        settings: PostgresConnectionSettings,
        catalogue: PostgresCatalogue,
        deadline: Duration = .milliseconds(150),
        options: Options = Options(),
        maximumConnections: Int = 4,
        connectTimeout: Duration = .seconds(5),
        wordSimilarityThreshold: Double = 0.5,
        probeTimeout: Duration? = nil,
        maximumQueries: Int? = nil,
        logger: Logger = Logger(label: "suggest.postgres"),
        minimumInterval: Duration = .zero
    ) {
        let health = ConnectionHealth()
        let poolLogger = Logger(label: "suggest.postgres") { _ in HealthLogHandler(health: health) }
        let client = PostgresClient(
            configuration: settings.clientConfiguration(
                maximumConnections: maximumConnections, connectTimeout: connectTimeout,
                wordSimilarityThreshold: wordSimilarityThreshold, statementTimeout: Self.statementTimeout(deadline)),
            backgroundLogger: poolLogger
        )
        self.id = id
        self.minimumInterval = max(minimumInterval, .zero)
        self.client = client
        self.catalogue = catalogue
        self.execution = .asynchronous(deadline: deadline)
        self.options = options
        self.location = settings.displayName
        self.health = health
        self.probeTimeout = probeTimeout ?? max(connectTimeout, .seconds(1))
        self.connections = maximumConnections
        self.maximumQueries = max(1, maximumQueries ?? 4 * maximumConnections)
        self.logger = logger
        self.runner = Task { await client.run() }
        self.sql = catalogue.keystroke
    }

    public convenience init(configuration: Configuration, context: ProviderContext) throws {
        let settings = try Self.settings(configuration, context: context)
        let catalogue: PostgresCatalogue
        do {
            catalogue = try PostgresCatalogue(table: configuration.table)
        } catch {
            throw context.error(at: "table", error.description)
        }
        self.init(
            id: context.id,
            settings: settings,
            catalogue: catalogue,
            deadline: .milliseconds(configuration.deadlineMilliseconds),
            options: Options(limit: configuration.limit, infix: configuration.infix, typos: configuration.typos),
            maximumConnections: configuration.maximumConnections,
            connectTimeout: .milliseconds(configuration.connectTimeoutMilliseconds),
            wordSimilarityThreshold: configuration.similarity,
            maximumQueries: configuration.maximumQueries,
            minimumInterval: .milliseconds(configuration.minIntervalMilliseconds)
        )
    }

    deinit { runner?.cancel() }

    /// The server-side limit of one keystroke's query: ten deadlines, at least one second. The engine stops waiting
    /// at the deadline; this keeps an abandoned query from running on.
    static func statementTimeout(_ deadline: Duration) -> Duration { max(.seconds(1), deadline * 10) }

    /// The connection settings a configuration names, with errors at the key at fault.
    static func settings(_ configuration: Configuration, context: ProviderContext) throws -> PostgresConnectionSettings {
        let separate: [(String, Bool)] = [
            ("host", configuration.host != nil), ("port", configuration.port != nil), ("user", configuration.user != nil),
            ("password", configuration.password != nil), ("database", configuration.database != nil),
            ("sslmode", configuration.sslmode != nil),
        ]
        var url = configuration.url
        var urlKey = "url"
        if let name = configuration.urlEnvironment {
            if configuration.url != nil {
                throw context.error(at: "urlEnvironment", "give either \"url\" or \"urlEnvironment\", not both")
            }
            guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
                throw context.error(at: "urlEnvironment", "the environment variable \(name) is not set")
            }
            url = value
            urlKey = "urlEnvironment"
        }
        if let url {
            if let (key, _) = separate.first(where: { $0.1 }) {
                throw context.error(at: key, "give the connection either as \"\(urlKey)\" or as separate keys, not both")
            }
            do {
                return try PostgresConnectionSettings(url: url)
            } catch {
                throw context.error(at: urlKey, error.description)
            }
        }
        guard let host = configuration.host else {
            throw context.error(at: "", "missing the database: give \"url\", \"urlEnvironment\" or \"host\"")
        }
        var settings = PostgresConnectionSettings(host: host)
        if let port = configuration.port { settings.port = port }
        if let user = configuration.user { settings.user = user }
        settings.password = configuration.password
        settings.database = configuration.database
        if let mode = configuration.sslmode {
            guard let tls = PostgresConnectionSettings.TLSMode(rawValue: mode) else {
                throw context.error(at: "sslmode", "expected \"disable\", \"prefer\" or \"require\", found \"\(mode)\"")
            }
            settings.tls = tls
        }
        return settings
    }

    // MARK: Keystrokes

    /// The synchronous engine call skips asynchronous providers; this answers nothing there.
    public func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {}

    public func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
        guard !request.query.isEmpty else { return ProviderOutput() }
        if let problem = health.current {
            // Known to be down: say so at once (no keystroke waits for the pool), and let one probe wait for the
            // pool to reconnect.
            probe()
            log("\(location) is unreachable: \(problem.message)")
            throw PostgresProviderError(
                "database unreachable: \(PostgresErrorText.publicReason(connectionProblem: problem.message)) (retrying)")
        }
        // Admission: a keystroke that would wait behind the queries under way past its deadline skips the database
        // at once (its other providers answer now, not at the deadline) and takes no connection from those that can
        // still be answered in time.
        let ahead = inFlight.add(1, ordering: .relaxed).newValue
        defer { inFlight.subtract(1, ordering: .relaxed) }
        if ahead > maximumQueries {
            throw PostgresProviderError(
                "database busy: \(maximumQueries) queries under way already, so this keystroke did not wait")
        }
        if let connections, case .asynchronous(let deadline) = execution,
            !Self.canMeetDeadline(inFlight: ahead, connections: connections, queryTime: queryTime.average, deadline: deadline)
        {
            throw PostgresProviderError(
                "database busy: behind the queries under way this keystroke would miss its deadline, so it did not wait")
        }
        let plan = KeystrokePlan(request, options: options)
        let rows: [Row]
        do {
            rows = try await client.withConnection { [queryTime] connection in
                let start = ContinuousClock.now
                var rows: [Row] = []
                let sequence = try await connection.query(plan.query(sql), logger: Self.silent)
                for try await (kind, text, weight, folded) in sequence.decode((Int32, String, Double, String).self) {
                    rows.append(Row(kind: Int(kind), text: text, weight: weight, folded: folded))
                }
                queryTime.record(ContinuousClock.now - start)
                return rows
            }
            health.succeeded()
            lastLogged.withLock { $0 = nil }
        } catch {
            try Task.checkCancellation()
            let message = PostgresErrorText.describe(error)
            if Self.isConnectionProblem(error) {
                health.failed(message)
                probe()
                log("\(location) is unreachable: \(message)")
                throw PostgresProviderError(
                    "database unreachable: \(PostgresErrorText.publicReason(connectionProblem: message)) (retrying)")
            }
            log("\(location): query failed: \(message)")
            throw PostgresProviderError("database query failed\(PostgresErrorText.sqlStateSuffix(of: error))")
        }
        return ProviderOutput(candidates: plan.candidates(from: rows))
    }

    /// Keystroke queries under way now (running or waiting for a connection).
    var queriesUnderWay: Int { inFlight.load(ordering: .relaxed) }

    /// Logs a failure's details (with the database's location and the server's message) once, until they change.
    func log(_ detail: String) {
        let isNew = lastLogged.withLock { last in
            guard last != detail else { return false }
            last = detail
            return true
        }
        if isNew { logger.warning("\(id): \(detail)") }
    }

    /// Starts one background `SELECT 1` (unless one is under way): it waits for the pool to reconnect and clears
    /// the known problem when it succeeds. The probe ends after ``probeTimeout`` even if the query has not: a
    /// cancelled wait for the pool was seen not to return while a connection attempt hung, and the provider must
    /// never wait on one probe for ever (the next keystroke starts another; the abandoned query ends with its
    /// connection attempt, at the pool's connect timeout).
    func probe() {
        guard health.claimProbe() else { return }
        let outcome = ProbeOutcome(health: health)
        let query = Task { [client] in
            do {
                try await client.query("SELECT 1")
                outcome.finish(.success(()))
            } catch {
                outcome.finish(.failure(error))
            }
        }
        Task { [probeTimeout] in
            try? await Task.sleep(for: probeTimeout)
            if outcome.finish(nil) { query.cancel() }
        }
    }

    /// The first of a probe's query and its timeout to finish decides; the probe then ends.
    final class ProbeOutcome: Sendable {
        let health: ConnectionHealth
        let done = Mutex(false)
        init(health: ConnectionHealth) { self.health = health }

        /// `nil`: timed out. Returns whether this call decided.
        @discardableResult
        func finish(_ result: Result<Void, any Error>?) -> Bool {
            guard done.withLock({ done in defer { done = true }; return !done }) else { return false }
            switch result {
            case .success: health.succeeded()
            case .failure(let error):
                if PostgresProvider.isConnectionProblem(error) { health.failed(PostgresErrorText.describe(error)) }
            case nil: break
            }
            health.probeEnded()
            return true
        }
    }

    /// Whether a keystroke query that finds `inFlight` queries under way (itself included) on a pool of
    /// `connections` can be answered within `deadline`, when a query holds its connection for `queryTime` on
    /// average: the queries beyond the pool's size wait, spread over its connections. True until a query time is
    /// known.
    static func canMeetDeadline(inFlight: Int, connections: Int, queryTime: Duration?, deadline: Duration) -> Bool {
        guard let queryTime, inFlight > connections, connections > 0 else { return true }
        let waiting = Double(inFlight - connections) / Double(connections)
        return queryTime * (waiting + 1) <= deadline
    }

    static let silent = Logger(label: "suggest.postgres.query") { _ in SwiftLogNoOpLogHandler() }

    /// Whether `error` is about reaching the database (not about a query).
    package static func isConnectionProblem(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return true }
        if error.serverInfo != nil {
            // 08xxx connection exceptions, 57P0x shutdown and recovery, 53300 too many connections.
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300"
        }
        return true
    }

    /// Closes the pool now (it is closed anyway when the provider is released).
    public func shutdown() { runner?.cancel() }
}

/// A keystroke's failure: the database is unreachable, or the query failed (the server's message).
public struct PostgresProviderError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The average time a keystroke query holds its connection (an exponentially weighted moving average, 1/10 weight to
/// each new query), for admission.
final class QueryTimer: Sendable {
    private let value = Mutex<Duration?>(nil)

    var average: Duration? { value.withLock { $0 } }

    func record(_ time: Duration) {
        value.withLock { average in
            average = average.map { $0 * 0.9 + time * 0.1 } ?? time
        }
    }
}
#endif
