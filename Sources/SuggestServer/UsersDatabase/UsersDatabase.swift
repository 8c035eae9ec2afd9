#if Server
import Foundation
public import Logging
import PostgresNIO
import Suggest
public import SuggestPostgres
import Synchronization

/// Per-user recent searches in PostgreSQL (`suggest serve --users-database URL`), so that several replicas of the
/// server share them: a search submitted on one replica is suggested by every other at that user's next keystroke.
///
/// ```swift
/// let database = UsersDatabase(settings: try PostgresConnectionSettings(url: "postgres://suggest@db/suggest"))
/// let options = ServerOptions(users: .init(recentsDatabase: database), identity: identity)
/// ```
///
/// - **Schema:** created or migrated at start (``prepare()``) and before the first use, in one transaction under
///   an advisory lock, so that replicas starting together do it once: `suggest_schema_versions` (`users`: 1) and
///   `suggest_user_recents`, one row per user (in Normalization Form C) and `"recent"` provider, made by the
///   user's first submit (a user who never submitted has no row), holding their searches as JSON (at most the
///   provider's `capacity`), a `version` raised by every write, and the ids of the last 1,024 changes written.
/// - **Writes:** a submit (or a selection the provider records) changes the user's engine in memory at once and
///   queues the change, with an id of its own, in the user's `DatabaseRecentsStore`. The acknowledgement then
///   awaits the write (at most ``Options/submitWait``): in one transaction the row is locked, changes whose id it
///   already holds are skipped (a retry of a write whose commit was not confirmed changes nothing), the others
///   merged as the provider merges (`RecentsProvider.merged(_:applying:options:)`) and the row written with its
///   version + 1. `"stored": true` only after that transaction committed.
/// - **Reads:** each keystroke of a user first asks for their rows' versions (one indexed lookup), and reads the
///   searches of a row whose version changed: at most ``Options/keystrokeWait``; past it, or while the database is
///   known to be down, the keystroke answers from memory and its diagnostics say so.
/// - **Down:** submits are queued in memory and acknowledged `"stored": false` (HTTP 202), written in order by a
///   background task every ``Options/retryInterval`` once the database answers again, and at shutdown
///   (``flush(within:)``); what is still queued then makes `suggest serve` exit with status 74.
///
/// No event-loop thread ever waits: every query is `async` on postgres-nio's pool, and the synchronous
/// `RecentsStore` the providers call only queues (see `DatabaseRecentsStore`).
public final class UsersDatabase: Sendable {
    /// Waits and sizes.
    public struct Options: Sendable {
        /// How long a keystroke waits for the check of its user's rows before it answers from memory (default
        /// 50 ms).
        public var keystrokeWait: Duration
        /// How long a submit's acknowledgement waits for the write before it says `"stored": false` (default 2 s;
        /// the write goes on, and is retried, in the background).
        public var submitWait: Duration
        /// How often queued changes are written again while the database is down (default 1 s).
        public var retryInterval: Duration
        /// Connections to the database at most (default 4).
        public var maximumConnections: Int
        /// How long connecting may take (default 5 s).
        public var connectTimeout: Duration
        /// At shutdown, how long writing the queued changes may take before `suggest serve` gives up on them (and
        /// exits with status 74) (default 10 s).
        public var shutdownWait: Duration
        /// Keystroke checks under way at once at most; a keystroke beyond them answers from memory at once (default
        /// 64).
        public var maximumChecks: Int
        /// Changes waiting to be written, across all users, at most (default 100,000). While the database is down
        /// for long, a change beyond them is applied in memory but never written: its submit is acknowledged
        /// `"stored": false`, and `suggest serve` exits with status 74 (``lostChanges``).
        public var maximumQueuedChanges: Int

        public init(
            keystrokeWait: Duration = .milliseconds(50),
            submitWait: Duration = .seconds(2),
            retryInterval: Duration = .seconds(1),
            maximumConnections: Int = 4,
            connectTimeout: Duration = .seconds(5),
            shutdownWait: Duration = .seconds(10),
            maximumChecks: Int = 64,
            maximumQueuedChanges: Int = 100_000
        ) {
            self.shutdownWait = shutdownWait
            self.keystrokeWait = keystrokeWait
            self.submitWait = submitWait
            self.retryInterval = retryInterval
            self.maximumConnections = max(1, maximumConnections)
            self.connectTimeout = connectTimeout
            self.maximumChecks = max(1, maximumChecks)
            self.maximumQueuedChanges = max(1, maximumQueuedChanges)
        }
    }

    /// The schema version this code writes: 1 the users' recents, 2 the popular searches too.
    static let schemaVersion: Int32 = 2
    /// How many change ids a row remembers: a retry is recognised as long as fewer changes than this were written
    /// for the same user and provider in between.
    static let rememberedChanges = 1_024
    /// The advisory lock taken while the schema is made (any 64-bit number; this one spells "suggest").
    static let schemaLock: Int64 = 0x7375_6767_6573_74

    public let options: Options
    /// `user@host:port/database`, for the log (never sent to clients).
    public let location: String
    /// The pool (run by the database itself until ``shutdown()``).
    let client: PostgresClient
    let health: ConnectionHealth
    let logger: Logger
    private let runner: Task<Void, Never>
    private let retrier = Mutex<Task<Void, Never>?>(nil)
    private let schemaReady = Mutex(false)
    /// Stores with changes not written yet, by user and provider.
    private let queued = Mutex<[String: DatabaseRecentsStore]>([:])
    /// Room in the stores' outboxes (``Options/maximumQueuedChanges``).
    let queueBudget: QueueBudget
    /// The popular providers shared through the database, and their searches not written yet.
    let popularShare = Mutex(PopularShare())
    private let checksUnderWay = Atomic<Int>(0)
    private let lastLogged = Mutex<String?>(nil)

    /// A database of users' recents at `settings`; its pool starts connecting now, and queued changes are retried
    /// every ``Options/retryInterval`` until ``shutdown()``.
    public init(
        settings: PostgresConnectionSettings, options: Options = Options(),
        logger: Logger = Logger(label: "suggest.users-database")
    ) {
        let health = ConnectionHealth()
        let poolLogger = Logger(label: "suggest.users-database") { _ in HealthLogHandler(health: health) }
        let client = PostgresClient(
            configuration: settings.clientConfiguration(
                maximumConnections: options.maximumConnections, connectTimeout: options.connectTimeout,
                statementTimeout: .seconds(30)),
            backgroundLogger: poolLogger)
        self.client = client
        self.health = health
        self.options = options
        self.queueBudget = QueueBudget(limit: options.maximumQueuedChanges)
        self.location = settings.displayName
        self.logger = logger
        self.runner = Task { await client.run() }
        let interval = options.retryInterval
        retrier.withLock {
            $0 = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self else { return }
                    await self.retry()
                }
            }
        }
    }

    deinit {
        retrier.withLock { $0?.cancel() }
        runner.cancel()
    }

    /// Stops retrying and closes the pool.
    public func shutdown() {
        retrier.withLock { $0?.cancel() }
        runner.cancel()
    }

    // MARK: Schema

    /// Makes or migrates the schema now (waiting at most ``Options/connectTimeout``); a failure is logged and the
    /// schema is tried again before the next read or write.
    /// - Returns: whether the schema is ready.
    @discardableResult
    public func prepare() async -> Bool {
        switch await Self.within(options.connectTimeout, { try await self.ensureSchema() }) {
        case .success?: return true
        case .failure(let error)?:
            log("the users database's schema could not be made: \(describe(error))")
            noteFailure(error)
            return false
        case nil:
            log("the users database's schema could not be made: no answer within \(options.connectTimeout)")
            return false
        }
    }

    /// Makes the schema unless it is known to be there: under an advisory lock, in one transaction.
    func ensureSchema() async throws {
        if schemaReady.withLock({ $0 }) { return }
        try await client.withTransaction(logger: Self.silent) { connection in
            try await Self.run(connection, "SELECT pg_advisory_xact_lock(\(Self.schemaLock))")
            try await Self.run(
                connection,
                """
                CREATE TABLE IF NOT EXISTS suggest_schema_versions (
                    component text PRIMARY KEY,
                    version integer NOT NULL,
                    migrated timestamptz NOT NULL DEFAULT now())
                """)
            var current: Int32 = 0
            let rows = try await connection.query(
                "SELECT version FROM suggest_schema_versions WHERE component = 'users'", logger: Self.silent)
            for try await version in rows.decode(Int32.self) { current = version }
            if current > Self.schemaVersion {
                throw SchemaError(
                    description:
                        "the users database's schema is version \(current), newer than this suggest knows (\(Self.schemaVersion)): upgrade suggest"
                )
            }
            if current < 1 {
                try await Self.run(
                    connection,
                    """
                    CREATE TABLE IF NOT EXISTS suggest_user_recents (
                        user_id text NOT NULL,
                        provider text NOT NULL,
                        version bigint NOT NULL,
                        searches jsonb NOT NULL,
                        applied uuid[] NOT NULL,
                        updated timestamptz NOT NULL DEFAULT now(),
                        PRIMARY KEY (user_id, provider))
                    """)
            }
            if current < 2 {
                for statement in Self.popularSchema { try await Self.run(connection, statement) }
            }
            if current < Self.schemaVersion {
                try await Self.run(
                    connection,
                    """
                    INSERT INTO suggest_schema_versions (component, version) VALUES ('users', \(Self.schemaVersion))
                    ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version, migrated = now()
                    """)
            }
        }
        schemaReady.withLock { $0 = true }
    }

    struct SchemaError: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: Stores

    /// The store of `user`'s searches for the `"recent"` provider `provider`: the one that still holds changes not
    /// written (the user was evicted meanwhile), else a new one (read by the user's next keystroke).
    func store(user: String, provider: String, options: RecentsProvider.Options) -> DatabaseRecentsStore {
        let key = Self.key(user: user, provider: provider)
        return queued.withLock { queued in
            if let store = queued[key] { return store }
            return DatabaseRecentsStore(user: user, provider: provider, options: options, budget: queueBudget) {
                [weak self] store in
                self?.queued.withLock { $0[key] = store }
            }
        }
    }

    static func key(user: String, provider: String) -> String { user + "\u{0}" + provider }

    /// The users whose changes are not all written, in no order.
    public var usersWithQueuedChanges: [String] { Array(Set(queued.withLock { $0.values.map(\.user) })) }

    /// How many changes wait to be written.
    public var queuedChanges: Int { queued.withLock { $0.values.reduce(0) { $0 + $1.queuedCount } } }

    /// How many changes were never queued because ``Options/maximumQueuedChanges`` were waiting: they are lost to
    /// the database (their submits were acknowledged `"stored": false`).
    public var lostChanges: Int { queueBudget.lost }

    /// The users who lost changes that way, in no order.
    public var usersWithLostChanges: [String] { queueBudget.usersWithLostChanges }

    /// Forgets a store whose changes are all written (unless one was queued meanwhile).
    private func settle(_ store: DatabaseRecentsStore) {
        let key = Self.key(user: store.user, provider: store.provider)
        queued.withLock { queued in
            if queued[key] === store && store.queuedCount == 0 { queued[key] = nil }
        }
    }

    // MARK: Writing

    /// Writes `store`'s queued changes unless those up to `sequence` are written already; waits at most
    /// ``Options/submitWait`` (not at all while the database is known to be down).
    /// - Returns: whether every change up to `sequence` is written (committed).
    func write(_ store: DatabaseRecentsStore, through sequence: Int) async -> Bool {
        if store.isWritten(through: sequence) { return true }
        guard health.current == nil else { return false }
        await write(store, within: options.submitWait)
        return store.isWritten(through: sequence)
    }

    /// Writes `store`'s queued changes, waiting at most `limit` (the write goes on after it).
    private func write(_ store: DatabaseRecentsStore, within limit: Duration) async {
        let (batch, through) = store.batch
        guard !batch.isEmpty else { return }
        let outcome = await Self.within(limit) {
            try await self.ensureSchema()
            return try await self.writeRow(store, batch)
        }
        switch outcome {
        case .success(let (version, searches))?:
            store.written(through: through, version: version, searches: searches)
            health.succeeded()
            lastLogged.withLock { $0 = nil }
            settle(store)
        case .failure(let error)?:
            noteFailure(error)
            log("\(store.user): \(store.provider): recent searches not written to \(location) yet: \(describe(error))")
        case nil:
            log(
                "\(store.user): \(store.provider): recent searches not written to \(location) yet: no answer within \(limit)"
            )
        }
    }

    /// One write: locks the row (made empty first when missing), skips the changes it already holds, merges the
    /// others and writes it with its version + 1.
    private func writeRow(_ store: DatabaseRecentsStore, _ batch: [DatabaseRecentsStore.Queued]) async throws
        -> (Int64, [RecentSearch])
    {
        let user = store.user
        let provider = store.provider
        let options = store.options
        return try await client.withTransaction(logger: Self.silent) { connection -> (Int64, [RecentSearch]) in
            try await Self.run(
                connection,
                """
                INSERT INTO suggest_user_recents (user_id, provider, version, searches, applied)
                VALUES (\(user), \(provider), 0, '[]'::jsonb, '{}'::uuid[]) ON CONFLICT DO NOTHING
                """)
            let rows = try await connection.query(
                """
                SELECT version, searches::text, applied FROM suggest_user_recents
                WHERE user_id = \(user) AND provider = \(provider) FOR UPDATE
                """, logger: Self.silent)
            var found: (Int64, String, [UUID])? = nil
            for try await row in rows.decode((Int64, String, [UUID]).self) { found = row }
            guard let (version, json, applied) = found else {
                throw SchemaError(description: "the row of \(user), \(provider) vanished during its write")
            }
            let stored: [RecentSearch]
            do {
                stored = try StoredSearch.decode(json)
            } catch {
                throw StoredSearch.Problem(description: "suggest_user_recents row (\(user), \(provider)): \(error)")
            }
            let known = Set(applied)
            let new = batch.filter { !known.contains($0.id) }
            guard !new.isEmpty else { return (version, stored) }
            let merged = RecentsProvider.merged(stored, applying: new.map(\.change), options: options)
            let ids = Array((applied + new.map(\.id)).suffix(Self.rememberedChanges))
            try await Self.run(
                connection,
                """
                UPDATE suggest_user_recents
                SET version = version + 1, searches = \(StoredSearch.encode(merged))::jsonb, applied = \(ids),
                    updated = now()
                WHERE user_id = \(user) AND provider = \(provider)
                """)
            return (version + 1, merged)
        }
    }

    /// Writes every queued change (the background retry): when the database is known to be down, a `SELECT 1`
    /// first tells whether it is back.
    func retry() async {
        let stores = queued.withLock { Array($0.values) }
        if health.current != nil {
            let limit = options.connectTimeout
            switch await Self.within(limit, { try await Self.run(self.client, "SELECT 1") }) {
            case .success?: health.succeeded()
            case .failure(let error)?:
                noteFailure(error)
                return
            case nil: return
            }
        }
        for store in stores { await write(store, within: options.submitWait) }
        await synchronizePopular()
    }

    /// Writes every queued change, trying again until `limit` has passed (at shutdown).
    /// - Returns: the users whose changes are still not all written.
    @discardableResult
    public func flush(within limit: Duration = .seconds(10)) async -> [String] {
        let deadline = ContinuousClock.now + limit
        await flushPopular(until: deadline)
        while true {
            let stores = queued.withLock { Array($0.values) }
            if stores.isEmpty { return [] }
            for store in stores {
                let left = deadline - .now
                guard left > .zero else { break }
                await write(store, within: min(left, options.submitWait))
            }
            guard ContinuousClock.now < deadline else { break }
            if !queued.withLock({ $0.isEmpty }) { try? await Task.sleep(for: .milliseconds(100)) }
        }
        return usersWithQueuedChanges
    }

    // MARK: Reading

    /// What a keystroke's diagnostics say when it answered from memory.
    enum Note {
        static let unreachable =
            "recent searches from this server's memory: the users database is unreachable (retrying)"
        static let busy = "recent searches from this server's memory: too many users database checks under way"
        static let failed = "recent searches from this server's memory: the users database check failed"
        static func late(_ wait: Duration) -> String {
            "recent searches from this server's memory: the users database did not answer within \(milliseconds(wait)) ms"
        }
        static func milliseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            return seconds * 1000 + attoseconds / 1_000_000_000_000_000
        }
    }

    /// Before a keystroke of `user`: brings in what other replicas wrote for them since this replica last read or
    /// wrote, waiting at most ``Options/keystrokeWait``.
    /// - Returns: nil when the user's recents are as the database holds them (with this replica's queued changes);
    ///   else a note for the keystroke's diagnostics (the keystroke answers from memory). Names no user, host or
    ///   database.
    public func refresh(user: String, in users: UserEngines) async -> String? {
        let pairs = (users.recents(of: user) ?? []).compactMap { provider in
            (provider.store as? DatabaseRecentsStore).map { (provider, $0) }
        }
        guard !pairs.isEmpty else { return nil }
        let note = await read(pairs)
        for (provider, store) in pairs where store.hasFresh {
            // In memory only (the store's commit never fails): the provider merges the searches read.
            try? provider.synchronize()
        }
        return note
    }

    private func read(_ pairs: [(RecentsProvider, DatabaseRecentsStore)]) async -> String? {
        if health.current != nil { return Note.unreachable }
        guard checksUnderWay.add(1, ordering: .relaxed).newValue <= options.maximumChecks else {
            checksUnderWay.subtract(1, ordering: .relaxed)
            return Note.busy
        }
        let stores = pairs.map(\.1)
        let outcome = await Self.within(options.keystrokeWait) {
            defer { self.checksUnderWay.subtract(1, ordering: .relaxed) }
            try await self.ensureSchema()
            return try await self.readRows(stores)
        }
        switch outcome {
        case .success(let rows)?:
            health.succeeded()
            for store in stores {
                if let row = rows[store.provider] {
                    if let searches = row.searches { store.read(version: row.version, searches: searches) }
                } else {
                    store.readNothing()
                }
            }
            return nil
        case .failure(let error)?:
            noteFailure(error)
            log("recent searches not read from \(location): \(describe(error))")
            return health.current != nil ? Note.unreachable : Note.failed
        case nil:
            return Note.late(options.keystrokeWait)
        }
    }

    /// A row's version, and its searches when they were read.
    typealias ReadRow = (version: Int64, searches: [RecentSearch]?)

    /// The versions of the user's rows, with the searches of those whose version differs from what the stores
    /// know (a second query, only then).
    private func readRows(_ stores: [DatabaseRecentsStore]) async throws -> [String: ReadRow] {
        guard let user = stores.first?.user else { return [:] }
        var rows: [String: ReadRow] = [:]
        let versions = try await client.query(
            "SELECT provider, version FROM suggest_user_recents WHERE user_id = \(user)", logger: Self.silent)
        for try await (provider, version) in versions.decode((String, Int64).self) { rows[provider] = (version, nil) }
        let changed = stores.filter { store in rows[store.provider].map { $0.version != store.version } ?? false }
            .map(\.provider)
        guard !changed.isEmpty else { return rows }
        let searches = try await client.query(
            """
            SELECT provider, version, searches::text FROM suggest_user_recents
            WHERE user_id = \(user) AND provider = ANY(\(changed))
            """, logger: Self.silent)
        for try await (provider, version, json) in searches.decode((String, Int64, String).self) {
            do {
                rows[provider] = (version, try StoredSearch.decode(json))
            } catch {
                throw StoredSearch.Problem(description: "suggest_user_recents row (\(user), \(provider)): \(error)")
            }
        }
        return rows
    }

    // MARK: Support

    /// Records a connection problem (a query's error is not one).
    func noteFailure(_ error: any Error) {
        let error = Self.underlying(error)
        if error is StoredSearch.Problem || error is SchemaError { return }
        if PostgresProvider.isConnectionProblem(error) { health.failed(PostgresErrorText.describe(error)) }
    }

    func describe(_ error: any Error) -> String { PostgresErrorText.describe(Self.underlying(error)) }

    /// The error inside a transaction's error.
    static func underlying(_ error: any Error) -> any Error {
        guard let error = error as? PostgresTransactionError else { return error }
        return error.closureError ?? error.commitError ?? error.beginError ?? error
    }

    /// Logs a detail (with the database's location) once, until it changes.
    func log(_ detail: String) {
        let isNew = lastLogged.withLock { last in
            guard last != detail else { return false }
            last = detail
            return true
        }
        if isNew { logger.warning("\(detail)") }
    }

    /// Runs a statement and reads its rows to the end.
    static func run(_ connection: PostgresConnection, _ query: PostgresQuery) async throws {
        for try await _ in try await connection.query(query, logger: silent) {}
    }

    static func run(_ client: PostgresClient, _ query: PostgresQuery) async throws {
        for try await _ in try await client.query(query, logger: silent) {}
    }

    static let silent = Logger(label: "suggest.users-database.query") { _ in SwiftLogNoOpLogHandler() }

    /// Runs `operation` in a task of its own and waits for it at most `limit`: nil when it did not end in time (it
    /// is cancelled, and goes on until it notices). A cancelled wait for the pool was seen not to return while a
    /// connection attempt hung, so the caller never awaits the operation itself.
    static func within<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async
        -> Result<T, any Error>?
    {
        let first = FirstOutcome<T>()
        return await withCheckedContinuation { continuation in
            first.wait(continuation)
            let work = Mutex<Task<Void, Never>?>(nil)
            let timer = Task {
                try? await Task.sleep(for: limit)
                if first.finish(nil) { work.withLock { $0?.cancel() } }
            }
            work.withLock {
                $0 = Task {
                    do {
                        first.finish(.success(try await operation()))
                    } catch {
                        first.finish(.failure(error))
                    }
                    timer.cancel()
                }
            }
        }
    }

    /// The first of an operation and its time limit to finish resumes the waiter.
    final class FirstOutcome<T: Sendable>: Sendable {
        private let state = Mutex<(CheckedContinuation<Result<T, any Error>?, Never>?, Bool)>((nil, false))

        func wait(_ continuation: CheckedContinuation<Result<T, any Error>?, Never>) {
            state.withLock { $0.0 = continuation }
        }

        /// Returns whether this call decided.
        @discardableResult
        func finish(_ outcome: Result<T, any Error>?) -> Bool {
            let continuation = state.withLock { state -> CheckedContinuation<Result<T, any Error>?, Never>? in
                guard !state.1 else { return nil }
                state.1 = true
                defer { state.0 = nil }
                return state.0
            }
            guard let continuation else { return false }
            continuation.resume(returning: outcome)
            return true
        }
    }
}
#endif
