#if Server
import Foundation
import PostgresNIO
public import Suggest
import SuggestPostgres
import Synchronization

/// Popular searches shared by replicas through the users database.
///
/// - **One row per search** in `suggest_popular_queries` (provider, key): its text, how many people made it, its
///   decayed score, when it was last counted, the salted hashes of the last people who made it, and a change number
///   from the sequence `suggest_popular_changes`. The salt is one per provider, in `suggest_popular_salts`, made by
///   the first replica that starts, so that every replica hashes a person alike.
/// - **Counting:** a counted search changes the replica's provider at once and is queued; the background task (every
///   `UsersDatabase.Options.retryInterval`) writes the queue, each search as one upsert that counts it as the
///   provider's own counting does (a person among the row's remembered hashes is not counted again, which also makes
///   a retried write harmless), in one transaction that first takes an advisory lock so that change numbers are
///   committed in the order they are taken (a reader never passes the numbers of a write still open), and then
///   reads the rows other replicas changed since (`change` above the last one read) into the provider (`PopularProvider.absorb(_:)`). So a search counted on A is shown on B at most about
///   two retry intervals later.
/// - **Bounded:** the queue shares `maximumQueuedChanges`; a search beyond it is counted on this replica only. Rows
///   beyond the provider's capacity, the least popular, are deleted now and then.
/// - **At shutdown** the queue is written (``UsersDatabase/flush(within:)``); what could not be is reported by
///   ``UsersDatabase/unwrittenPopularSearches`` (and makes `suggest serve` exit with status 74).
struct PopularShare: Sendable {
    /// What a provider needs to count in SQL as it counts in memory.
    struct Provider: Sendable {
        var provider: PopularProvider?
        var snapshot: PopularSnapshot
        var lastChange: Int64
        var halfLife: Double
        var userMemory: Int
        var capacity: Int
    }

    struct Pending: Sendable {
        var provider: String
        var search: PopularProvider.CountedSearch
        /// Its place in the queue (increasing): a write removes what it wrote by it.
        var sequence: UInt64 = 0
    }

    var providers: [String: Provider] = [:]
    var outbox: [Pending] = []
    var lastSequence: UInt64 = 0
    /// When the write under way started (nil: none). A write that did not answer in time is not given up on: it
    /// still holds this until it ends (its transaction may yet commit, and a second write of the same searches
    /// would count a person again once more people than a row remembers made them), or until
    /// ``UsersDatabase/abandonedPopularWrite`` has passed (a write that never returns does not stop sharing).
    var writingSince: ContinuousClock.Instant?
    var lost = 0
    var rounds = 0

    /// Whether a write under way (and not abandoned) keeps others from writing at `now`.
    func isWriting(at now: ContinuousClock.Instant) -> Bool {
        writingSince.map { now - $0 < UsersDatabase.abandonedPopularWrite } ?? false
    }
}

/// A popular provider's store when replicas share it through the users database: what the database held at start
/// (read by ``UsersDatabase/preparePopular(_:)``); saving is the database's writes of each counted search, so
/// ``save(_:)`` does nothing.
struct SharedPopularStore: PopularStore {
    let provider: String
    let snapshot: PopularSnapshot?

    func load() throws -> PopularSnapshot? {
        guard let snapshot else {
            throw PopularStoreError(
                path: "users database", message: "the popular searches of \(provider) were not read at start")
        }
        return snapshot
    }

    func save(_ snapshot: PopularSnapshot) throws {}
}

extension UsersDatabase {
    /// The schema of shared popular searches (version 2).
    static let popularSchema: [PostgresQuery] = [
        """
        CREATE TABLE IF NOT EXISTS suggest_popular_salts (
            provider text PRIMARY KEY,
            salt text NOT NULL)
        """,
        "CREATE SEQUENCE IF NOT EXISTS suggest_popular_changes",
        """
        CREATE TABLE IF NOT EXISTS suggest_popular_queries (
            provider text NOT NULL,
            key text NOT NULL,
            text text NOT NULL,
            users bigint NOT NULL,
            score double precision NOT NULL,
            last_used double precision NOT NULL,
            user_hashes bigint[] NOT NULL,
            change bigint NOT NULL,
            PRIMARY KEY (provider, key))
        """,
        "CREATE INDEX IF NOT EXISTS suggest_popular_queries_change ON suggest_popular_queries (provider, change)",
    ]

    /// The most rows one refresh reads.
    static let popularRefreshRows = 10_000

    /// Reads, before the server is made, every `"popular"` provider of `configuration` that names no store: its
    /// salt (made now by the first replica) and its searches. Waits at most `Options/connectTimeout`.
    /// - Throws: when the database cannot be read (the server does not start: its popular searches would not be
    ///   shared).
    public func preparePopular(_ configuration: EngineConfiguration) async throws {
        let providers = configuration.slots.compactMap { $0.provider as? PopularProvider }.filter { $0.store == nil }
        guard !providers.isEmpty else { return }
        let outcome = await Self.within(options.connectTimeout) { () -> [String: PopularShare.Provider] in
            try await self.ensureSchema()
            var read: [String: PopularShare.Provider] = [:]
            for popular in providers {
                read[popular.id] = try await self.readPopular(popular)
            }
            return read
        }
        switch outcome {
        case .success(let read)?:
            popularShare.withLock { share in
                for (id, provider) in read { share.providers[id] = provider }
            }
        case .failure(let error)?:
            noteFailure(error)
            throw PopularShareError(description: "the popular searches could not be read: \(describe(error))")
        case nil:
            throw PopularShareError(
                description: "the popular searches could not be read: no answer within \(options.connectTimeout)")
        }
    }

    struct PopularShareError: Error, CustomStringConvertible {
        var description: String
    }

    private func readPopular(_ popular: PopularProvider) async throws -> PopularShare.Provider {
        let id = popular.id
        let newSalt = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await Self.run(
            client,
            "INSERT INTO suggest_popular_salts (provider, salt) VALUES (\(id), \(newSalt)) ON CONFLICT DO NOTHING")
        var salt = newSalt
        for try await stored in try await client.query(
            "SELECT salt FROM suggest_popular_salts WHERE provider = \(id)", logger: Self.silent
        ).decode(String.self) {
            salt = stored
        }
        let (queries, lastChange) = try await popularRows(provider: id, after: -1, limit: Int.max)
        let (seconds, attoseconds) = popular.options.halfLife.components
        return PopularShare.Provider(
            provider: nil, snapshot: PopularSnapshot(salt: salt, queries: queries), lastChange: lastChange,
            halfLife: max(1e-3, Double(seconds) + Double(attoseconds) / 1e18),
            userMemory: popular.options.userMemory, capacity: max(1, popular.options.capacity))
    }

    /// The rows of `provider` changed after `change`, oldest change first, and the last change read.
    private func popularRows(provider: String, after change: Int64, limit: Int) async throws
        -> ([PopularQuery], Int64)
    {
        let rows = try await client.query(
            """
            SELECT text, users, score, last_used, user_hashes, change FROM suggest_popular_queries
            WHERE provider = \(provider) AND change > \(change) ORDER BY change LIMIT \(Int64(min(limit, Int(Int64.max))))
            """, logger: Self.silent)
        var queries: [PopularQuery] = []
        var last = max(change, 0)
        for try await (text, users, score, lastUsed, hashes, rowChange) in rows.decode(
            (String, Int64, Double, Double, [Int64], Int64).self)
        {
            queries.append(
                PopularQuery(
                    text: text, users: Int(clamping: users), score: score,
                    lastUsed: Date(timeIntervalSince1970: lastUsed),
                    userHashes: hashes.map { UInt32(truncatingIfNeeded: $0) }))
            last = max(last, rowChange)
        }
        return (queries, last)
    }

    /// The store of the shared provider `id`: what ``preparePopular(_:)`` read.
    func popularStore(for id: String) -> SharedPopularStore {
        SharedPopularStore(provider: id, snapshot: popularShare.withLock { $0.providers[id]?.snapshot })
    }

    /// Takes `provider` (made with ``popularStore(for:)``) as the one whose counted searches are shared.
    func attach(_ provider: PopularProvider) {
        popularShare.withLock { $0.providers[provider.id]?.provider = provider }
    }

    /// Queues `search`, counted by the shared provider `provider`, for the database.
    func enqueue(_ search: PopularProvider.CountedSearch, provider: String) {
        guard queueBudget.reserve() else {
            popularShare.withLock { $0.lost += 1 }
            return
        }
        popularShare.withLock { share in
            share.lastSequence += 1
            share.outbox.append(PopularShare.Pending(provider: provider, search: search, sequence: share.lastSequence))
        }
    }

    /// Counted searches not written yet (and those that found no room in the queue).
    public var unwrittenPopularSearches: Int { popularShare.withLock { $0.outbox.count + $0.lost } }

    /// Writes the counted searches queued before the call (the first 1,000), then reads what other replicas changed
    /// (the background task, and tests): a write already under way is waited for (at most `submitWait`), so that
    /// what this replica counted before the call is in the database after it, unless the database did not answer
    /// in time.
    func synchronizePopular() async {
        guard popularShare.withLock({ !$0.providers.isEmpty }) else { return }
        let deadline = ContinuousClock.now + options.submitWait
        while popularShare.withLock({ $0.isWriting(at: .now) }), ContinuousClock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
        }
        if deadline - .now >= .milliseconds(100) { await writePopular(within: deadline - .now) }
        await refreshPopular()
    }

    /// How long a popular write that did not end keeps others from writing (above the pool's 30 s statement
    /// timeout).
    static let abandonedPopularWrite: Duration = .seconds(60)

    /// Writes the queue until it is empty or `deadline` has passed (at shutdown).
    func flushPopular(until deadline: ContinuousClock.Instant) async {
        while popularShare.withLock({ !$0.outbox.isEmpty }), ContinuousClock.now < deadline {
            let before = popularShare.withLock { $0.outbox.count }
            await writePopular(within: min(deadline - .now, options.submitWait))
            if popularShare.withLock({ $0.outbox.count }) >= before { try? await Task.sleep(for: .milliseconds(100)) }
        }
    }

    /// Writes the queued searches in one transaction (one at a time: a second caller returns at once). The write
    /// removes what it wrote from the queue when it commits, even after `limit` (it is then not waited for, but
    /// it keeps others from writing until it ends: see `PopularShare.writingSince`).
    private func writePopular(within limit: Duration) async {
        let now = ContinuousClock.now
        let (batch, settings): ([PopularShare.Pending], [String: PopularShare.Provider]) = popularShare.withLock {
            share in
            guard !share.isWriting(at: now), !share.outbox.isEmpty else { return ([], [:]) }
            share.writingSince = now
            return (Array(share.outbox.prefix(1_000)), share.providers)
        }
        guard let through = batch.last?.sequence else { return }
        let outcome = await Self.within(limit) {
            // Ends the claim of this write only (a write abandoned long ago must not end a newer one's).
            defer { self.popularShare.withLock { if $0.writingSince == now { $0.writingSince = nil } } }
            try await self.ensureSchema()
            try await self.client.withTransaction(logger: Self.silent) { connection in
                try await Self.lockPopularChanges(on: connection)
                for pending in batch {
                    guard let provider = settings[pending.provider] else { continue }
                    try await Self.count(pending, provider, on: connection)
                }
            }
            let removed = self.popularShare.withLock { share in
                let before = share.outbox.count
                share.outbox.removeAll { $0.sequence <= through }
                return before - share.outbox.count
            }
            self.queueBudget.release(removed)
        }
        switch outcome {
        case .success?:
            health.succeeded()
        case .failure(let error)?:
            noteFailure(error)
            log("popular searches not written to \(location) yet: \(describe(error))")
        case nil:
            log("popular searches not written to \(location) yet: no answer within \(limit)")
        }
    }

    /// Takes the lock that orders the writers of counted searches, held until the transaction ends.
    ///
    /// A reader takes every row whose change number is above the last one it read, so a transaction must not commit
    /// change numbers below those of one that committed before it: its rows would never be read. Writers holding
    /// this lock take their numbers only after the previous writer has committed, so the numbers a reader sees are
    /// committed in order.
    static func lockPopularChanges(on connection: PostgresConnection) async throws {
        try await run(connection, "SELECT pg_advisory_xact_lock(\(popularChangesLock))")
    }

    /// The advisory lock key of ``lockPopularChanges(on:)`` (the bytes "suggpop1").
    static let popularChangesLock: Int64 = 0x7375_6767_706F_7031

    /// One counted search as the provider counts it (`PopularLedger.record`): a person among the row's remembered
    /// hashes changes nothing; otherwise one more person, the score decayed to the later of the two dates plus the
    /// search's own worth then, the newer text, the person's hash appended (the last `userMemory` kept).
    static func count(
        _ pending: PopularShare.Pending, _ provider: PopularShare.Provider, on connection: PostgresConnection
    ) async throws {
        let search = pending.search
        let key = PopularQuery.key(for: search.text)
        guard !key.isEmpty else { return }
        let hash = Int64(search.userHash)
        let at = search.date.timeIntervalSince1970
        let halfLife = provider.halfLife
        let memory = Int64(provider.userMemory)
        try await run(
            connection,
            """
            INSERT INTO suggest_popular_queries AS q (provider, key, text, users, score, last_used, user_hashes, change)
            VALUES (\(pending.provider), \(key), \(search.text), 1, 1, \(at), ARRAY[\(hash)]::bigint[],
                    nextval('suggest_popular_changes'))
            ON CONFLICT (provider, key) DO UPDATE SET
                users = q.users + 1,
                score = q.score * power(2::double precision, -(greatest(q.last_used, \(at)) - q.last_used) / \(halfLife))
                    + power(2::double precision, -(greatest(q.last_used, \(at)) - \(at)) / \(halfLife)),
                text = CASE WHEN \(at) >= q.last_used THEN EXCLUDED.text ELSE q.text END,
                last_used = greatest(q.last_used, \(at)),
                user_hashes = (q.user_hashes || \(hash))[greatest(1, cardinality(q.user_hashes) + 2 - \(memory)):],
                change = nextval('suggest_popular_changes')
            WHERE NOT (\(hash) = ANY(q.user_hashes))
            """)
    }

    /// Reads the rows changed since the last read into each shared provider; every 60th round also deletes, per
    /// provider, the rows beyond its capacity (the least popular).
    private func refreshPopular() async {
        let (providers, prune) = popularShare.withLock { share -> ([(String, PopularShare.Provider)], Bool) in
            share.rounds += 1
            return (share.providers.map { ($0.key, $0.value) }, share.rounds % 60 == 0)
        }
        for (id, shared) in providers {
            guard let provider = shared.provider else { continue }
            let outcome = await Self.within(options.submitWait) { () -> ([PopularQuery], Int64) in
                if prune { try await self.prunePopular(id, shared) }
                return try await self.popularRows(
                    provider: id, after: shared.lastChange, limit: Self.popularRefreshRows)
            }
            switch outcome {
            case .success(let (queries, last))?:
                provider.absorb(queries)
                popularShare.withLock { share in
                    if let known = share.providers[id]?.lastChange, known < last { share.providers[id]?.lastChange = last }
                }
            case .failure(let error)?:
                noteFailure(error)
            case nil:
                break
            }
        }
    }

    /// Deletes the rows of `id` beyond its capacity, the least popular now (popularity compared as
    /// `log2(score) + last_used / halfLife`, the same order as `score · 2^-(now − last_used)/halfLife`).
    private func prunePopular(_ id: String, _ provider: PopularShare.Provider) async throws {
        try await Self.run(
            client,
            """
            DELETE FROM suggest_popular_queries WHERE provider = \(id) AND key IN (
                SELECT key FROM suggest_popular_queries WHERE provider = \(id)
                ORDER BY log(2::double precision, greatest(score, 1e-300)) + last_used / \(provider.halfLife) DESC
                OFFSET \(Int64(provider.capacity)))
            """)
    }
}
#endif
