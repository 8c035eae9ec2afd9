#if Server
import Foundation
import Suggest
import Synchronization

/// One user's searches for one `"recent"` provider when ``UsersDatabase`` keeps them: a `RecentsStore` that never
/// blocks and never does I/O. A commit (a submit, a recorded selection) queues its changes in the store's outbox,
/// each with an id of its own, and answers from memory at once; ``UsersDatabase`` writes the outbox to PostgreSQL
/// asynchronously (the submit's acknowledgement waits for that write, within a bound) and brings in what other
/// replicas wrote (``UsersDatabase/refresh(user:in:)``).
///
/// What the provider shows is the database's searches as last read with the outbox's changes applied: a change
/// not written yet (the database is down) is suggested all the same.
final class DatabaseRecentsStore: RecentsStore {
    /// A change waiting to be written: its id makes the write idempotent (a retry of a write whose commit was not
    /// confirmed is skipped by the database), its sequence number tells an acknowledgement whether it is written.
    struct Queued: Sendable {
        var id: UUID
        var sequence: Int
        var change: RecentsChange
    }

    struct State: Sendable {
        /// What the provider shows: the last merge's result.
        var view: [RecentSearch] = []
        /// Searches read from the database that the provider has not merged yet (taken by the next commit).
        var fresh: [RecentSearch]? = nil
        /// The database row's version as last read or written; nil: never read (a row may exist).
        var version: Int64? = nil
        /// Changes not written yet, oldest first.
        var outbox: [Queued] = []
        /// The sequence number of the last change queued.
        var lastSequence = 0
        /// Every change up to this sequence number is written.
        var writtenThrough = 0
        /// The sequence number of the last change that found no room in the outbox (0: none): it is never written.
        var lastLost = 0
    }

    let user: String
    let provider: String
    let options: RecentsProvider.Options
    let state = Mutex(State())
    /// Room in all stores' outboxes.
    let budget: QueueBudget
    /// Told when the outbox goes from empty to not empty.
    private let onQueued: @Sendable (DatabaseRecentsStore) -> Void

    init(
        user: String, provider: String, options: RecentsProvider.Options, budget: QueueBudget = QueueBudget(),
        onQueued: @escaping @Sendable (DatabaseRecentsStore) -> Void
    ) {
        self.budget = budget
        self.user = user
        self.provider = provider
        self.options = options
        self.onQueued = onQueued
    }

    func load() throws -> [RecentSearch] {
        state.withLock { state in
            if let fresh = state.fresh {
                state.view = RecentsProvider.merged(fresh, applying: state.outbox.map(\.change), options: options)
                state.fresh = nil
            }
            return state.view
        }
    }

    func commit(_ changes: [RecentsChange], merge: ([RecentSearch]?) throws -> [RecentSearch]) throws
        -> [RecentSearch]
    {
        let wasEmpty = try state.withLock { state -> Bool in
            var base = state.view
            if let fresh = state.fresh {
                // What the database holds now, with the changes not written yet (these changes are the provider's
                // to apply).
                base = RecentsProvider.merged(fresh, applying: state.outbox.map(\.change), options: options)
                state.fresh = nil
            }
            let wasEmpty = state.outbox.isEmpty
            for change in changes {
                state.lastSequence += 1
                if budget.reserve() {
                    state.outbox.append(Queued(id: UUID(), sequence: state.lastSequence, change: change))
                } else {
                    // Shown until the database's searches are read again, never written.
                    state.lastLost = state.lastSequence
                    budget.lose(user: user)
                }
            }
            state.view = try merge(base)
            return wasEmpty && !state.outbox.isEmpty
        }
        if wasEmpty { onQueued(self) }
        return state.withLock { $0.view }
    }

    /// The changes to write now and the sequence number they reach.
    var batch: (changes: [Queued], through: Int) {
        state.withLock { ($0.outbox, $0.outbox.last?.sequence ?? $0.writtenThrough) }
    }

    /// The sequence number of the last change queued.
    var lastSequence: Int { state.withLock { $0.lastSequence } }

    /// Whether every change up to `sequence` is written: never for the last change that found no room, nor for an
    /// earlier one asked about after it (its answer errs towards "not stored").
    func isWritten(through sequence: Int) -> Bool {
        state.withLock { $0.writtenThrough >= sequence && sequence > $0.lastLost }
    }

    /// How many changes wait to be written.
    var queuedCount: Int { state.withLock { $0.outbox.count } }

    /// The database confirmed every change up to `through`; it now holds `searches` at `version`.
    func written(through: Int, version: Int64, searches: [RecentSearch]) {
        state.withLock { state in
            let before = state.outbox.count
            state.outbox.removeAll { $0.sequence <= through }
            budget.release(before - state.outbox.count)
            state.writtenThrough = max(state.writtenThrough, through)
            if state.version.map({ $0 < version }) ?? true {
                state.version = version
                state.fresh = searches
            }
        }
    }

    /// The database holds `searches` at `version` (read by a keystroke's check).
    func read(version: Int64, searches: [RecentSearch]) {
        state.withLock { state in
            guard state.version.map({ $0 < version }) ?? true else { return }
            state.version = version
            state.fresh = searches
        }
    }

    /// The database has no row for this user and provider (nothing written yet).
    func readNothing() {
        state.withLock { state in
            if state.version == nil { state.version = 0 }
        }
    }

    /// Whether searches read from the database wait to be merged into the provider.
    var hasFresh: Bool { state.withLock { $0.fresh != nil } }

    var version: Int64? { state.withLock { $0.version } }
}

/// Room for changes waiting to be written, shared by every ``DatabaseRecentsStore`` of one ``UsersDatabase``
/// (``UsersDatabase/Options/maximumQueuedChanges``), and the changes that found none.
final class QueueBudget: Sendable {
    let limit: Int
    private let used = Atomic<Int>(0)
    private let lostCount = Atomic<Int>(0)
    private let lostUsers = Mutex<Set<String>>([])

    init(limit: Int = .max) { self.limit = limit }

    /// Takes room for one change; false when there is none.
    func reserve() -> Bool {
        var current = used.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = used.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives back the room of `count` written changes.
    func release(_ count: Int) {
        if count > 0 { used.subtract(count, ordering: .relaxed) }
    }

    /// A change of `user`'s found no room.
    func lose(user: String) {
        lostCount.add(1, ordering: .relaxed)
        lostUsers.withLock { _ = $0.insert(user) }
    }

    var queued: Int { used.load(ordering: .relaxed) }
    var lost: Int { lostCount.load(ordering: .relaxed) }
    var usersWithLostChanges: [String] { lostUsers.withLock { Array($0) } }
}
#endif
