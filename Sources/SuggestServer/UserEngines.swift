#if Server
public import Suggest
import Foundation
import Logging
import Synchronization

/// One engine per user (or session id) over one loaded configuration: each user has their own recent searches and
/// selection learning, while the dictionaries, indexes and every other provider are shared (the same instances).
///
/// ```swift
/// let shared = try EngineConfiguration(contentsOf: "app.suggest.json", registry: .builtIn)
/// let users = UserEngines(configuration: shared, options: .init(maximumUsers: 10_000, recentsFolder: "/var/lib/suggest"))
/// let engine = try users.engine(for: "alice")
/// engine.submit(SearchQuery(text: "python"))   // alice's recents only
/// ```
///
/// - **Per user:** each `"recent"` provider of the configuration is replaced by a new `RecentsProvider` with the
///   same id and options, keeping its searches in `recentsFolder/PROVIDER/USER.json` (see ``storePath(user:provider:)``
///   and <doc:UserState>), or in PostgreSQL with ``Options/recentsDatabase`` (``UsersDatabase``), or in memory only
///   when there is neither. The engine's selection counts live in the engine,
///   so they are per user too. The configuration's own `"store"` is not used (it would be one file for everybody).
/// - **One user, one id:** user ids are put in Unicode Normalization Form C (``normalized(user:)``) before they name
///   anything, in memory or on disk: `é` written as one scalar or as `e` and U+0301 is one user.
/// - **Bounded:** at most ``Options/maximumUsers`` engines are kept; a new user beyond that evicts the least recently
///   used one (found in O(1)). ``evictIdle(now:)`` evicts users idle longer than ``Options/idleTimeout``. An evicted
///   user's changes not saved yet are saved (`RecentsProvider/synchronize()`) first (a submit or select is saved when
///   it happens; a user who only typed has nothing to save and gets no file); a user who comes back gets their
///   recents back from the store. An evicted user whose recents cannot be saved is held (``unsavedUsers``), saving
///   retried at every ``evictIdle(now:)`` and ``saveAll()``, and given back their own engine if they return; beyond
///   ``Options/maximumUsers`` such users the oldest is dropped and counted in ``usersLost``.
///   In memory only, an evicted user's recents are gone: that is the memory bound.
/// - **Popular searches:** each `"popular"` provider is one provider for all users, each user's engine counting
///   their submitted searches for them (anonymous engines count nothing); see ``popularProviders``.
/// - **Shared:** the configuration's other providers are used as they are, so a dictionary is loaded (and indexed)
///   once however many users there are.
///
/// Safe to use from many tasks at once: the table lives behind a `Mutex`; building a user's engine (which reads their
/// store) and saving an evicted user happen outside it.
public final class UserEngines: Sendable {
    /// Limits and storage.
    public struct Options: Sendable {
        /// How many users' engines are kept at most (default 10 000; at least 1).
        public var maximumUsers: Int
        /// A user unused for this long is evicted by ``UserEngines/evictIdle(now:)`` (default 30 minutes).
        public var idleTimeout: Duration
        /// The folder of the per-user recents files (and of the shared popular searches, when their provider names
        /// no store); nil keeps them in memory only (default nil).
        public var recentsFolder: String?
        /// The PostgreSQL database of the per-user recents, shared by several servers (default nil). When set,
        /// ``recentsFolder`` is not used (`suggest serve` refuses both at once).
        public var recentsDatabase: UsersDatabase?

        public init(
            maximumUsers: Int = 10_000, idleTimeout: Duration = .seconds(30 * 60), recentsFolder: String? = nil,
            recentsDatabase: UsersDatabase? = nil
        ) {
            self.maximumUsers = max(1, maximumUsers)
            self.idleTimeout = idleTimeout
            self.recentsFolder = recentsFolder
            self.recentsDatabase = recentsDatabase
        }
    }

    /// Why a user id was refused.
    public struct InvalidUser: Error, Hashable, Sendable, CustomStringConvertible {
        public let user: String
        public var description: String {
            "invalid user id (expected 1 to \(UserEngines.maximumUserLength) UTF-8 bytes, no control characters)"
        }
    }

    /// The longest user id accepted, in UTF-8 bytes.
    public static let maximumUserLength = 100

    /// A user's recents could not be saved when they were evicted or at ``saveAll()``.
    public struct SaveFailure: Sendable, CustomStringConvertible {
        public let user: String
        public let provider: String
        public let message: String
        public var description: String { "\(user): \(provider): recent searches not saved: \(message)" }
    }

    public let configuration: EngineConfiguration
    public let options: Options

    struct Entry: Sendable {
        var engine: SuggestionEngine
        var recents: [RecentsProvider]
        var lastUse: ContinuousClock.Instant
    }

    struct Table: Sendable {
        var entries = LRUTable<String, Entry>()
        /// Evicted users whose recents are being saved, or could not be saved: held until a save succeeds, and
        /// given back to the user if they return (so their unsaved changes are never read over from the store).
        var leaving = LRUTable<String, Entry>()
        var built = 0
        var evicted = 0
        var lost = 0
    }

    private let table = Mutex(Table())
    /// The configuration's `"popular"` providers as every user's engine shares them, by id (see
    /// ``popularProviders``).
    let popular: [String: PopularProvider]
    /// One log memory for every user's engine: a message (a database that went down) is logged once, not per user.
    private let logMemory = SuggestionEngine.LogMemory()

    /// Users over a shared configuration.
    /// - Parameters:
    ///   - configuration: loaded once; its providers other than `"recent"` are shared by every user.
    ///   - options: the bound on users, their idle timeout and the folder of their recent searches.
    public init(configuration: EngineConfiguration, options: Options = Options()) {
        self.configuration = configuration
        self.options = options
        self.popular = Self.sharedPopular(
            configuration, folder: options.recentsFolder, database: options.recentsDatabase)
    }

    /// How many users have an engine now.
    public var count: Int { table.withLock { $0.entries.count } }

    /// How many engines were built (a user evicted and back counts twice).
    public var enginesBuilt: Int { table.withLock { $0.built } }

    /// How many users were evicted.
    public var evictions: Int { table.withLock { $0.evicted } }

    /// The users that have an engine now (in Normalization Form C), in no order.
    public var users: [String] { table.withLock { $0.entries.entries.map(\.key) } }

    /// How many evicted users' recents are not saved yet: held in memory, saving retried by ``evictIdle(now:)`` and
    /// ``saveAll()``.
    public var unsavedUsers: Int { table.withLock { $0.leaving.count } }

    /// How many evicted users' unsaved recents were dropped: more than ``Options/maximumUsers`` users' recents could
    /// not be saved, and the oldest went (each drop is logged through the configuration's logger).
    public var usersLost: Int { table.withLock { $0.lost } }

    /// Whether `user` is accepted by ``engine(for:now:)``: 1 to ``maximumUserLength`` UTF-8 bytes once in
    /// Normalization Form C, no control characters.
    public static func isValid(user: String) -> Bool {
        isValid(normalized: normalized(user: user))
    }

    /// Whether an id already in Normalization Form C is accepted.
    static func isValid(normalized user: String) -> Bool {
        let count = user.utf8.count
        return count >= 1 && count <= maximumUserLength && !user.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// `user`'s engine, built on first use (their recents read from their store); marks them used at `now`.
    /// Building one beyond ``Options/maximumUsers`` evicts the least recently used user (saving their recents).
    /// - Parameters:
    ///   - user: the user's id in any Unicode form; it is put in Normalization Form C first.
    ///   - now: when the user is marked used.
    /// - Throws: ``InvalidUser``.
    /// - Complexity: O(1) (the least recently used user is found in O(1)), plus building a new user's engine.
    public func engine(for user: String, now: ContinuousClock.Instant = .now) throws(InvalidUser) -> SuggestionEngine {
        let given = user
        let user = Self.normalized(user: user)
        guard Self.isValid(normalized: user) else { throw InvalidUser(user: given) }
        var evicted: [(String, Entry)] = []
        let known = table.withLock { table -> SuggestionEngine? in
            if table.entries[user] != nil {
                table.entries.update(user) { $0.lastUse = now }
                table.entries.touch(user)
            } else if var back = table.leaving.removeValue(forKey: user) {
                // Evicted but not saved (yet): the same engine, so that its unsaved changes stay.
                back.lastUse = now
                evicted = admit(user, back, into: &table)
            }
            return table.entries[user]?.engine
        }
        if let known {
            settle(save(evicted))
            return known
        }
        let built = makeEntry(for: user, given: given, now: now)
        let engine = table.withLock { table -> SuggestionEngine in
            if let entry = table.entries[user] {
                // Another task built it meanwhile: keep theirs.
                table.entries.update(user) { $0.lastUse = now }
                table.entries.touch(user)
                return entry.engine
            }
            table.built += 1
            evicted = admit(user, built, into: &table)
            return built.engine
        }
        settle(save(evicted))
        return engine
    }

    /// Inserts `entry`, evicting the least recently used users beyond the maximum into `leaving` (when they have a
    /// store: their recents are saved next). Returns the evicted users to save.
    private func admit(_ user: String, _ entry: Entry, into table: inout Table) -> [(String, Entry)] {
        var evicted: [(String, Entry)] = []
        while table.entries.count >= options.maximumUsers, let oldest = table.entries.removeLeastRecent() {
            table.evicted += 1
            evicted.append((oldest.key, oldest.value))
            hold(oldest.key, oldest.value, in: &table)
        }
        table.entries.insert(user, entry)
        return evicted
    }

    /// Keeps an evicted user's entry in `leaving` until it is saved (only when it has something to save).
    private func hold(_ user: String, _ entry: Entry, in table: inout Table) {
        guard entry.recents.contains(where: { $0.store != nil }) else { return }
        while table.leaving.count >= options.maximumUsers, let oldest = table.leaving.removeLeastRecent() {
            table.lost += 1
            configuration.logger.error(
                "\(oldest.key): recent searches lost: more than \(options.maximumUsers) evicted users' recent searches could not be saved"
            )
        }
        table.leaving.insert(user, entry)
    }

    /// After saving evicted users: those saved leave `leaving`; those not stay there (logged).
    private func settle(_ outcome: (saved: [(String, Entry)], failures: [SaveFailure])) {
        guard !outcome.saved.isEmpty || !outcome.failures.isEmpty else { return }
        table.withLock { table in
            for (user, entry) in outcome.saved where table.leaving[user]?.engine === entry.engine {
                table.leaving.removeValue(forKey: user)
            }
        }
        for failure in outcome.failures { configuration.logger.error("\(failure)") }
    }

    /// An engine of nobody's: the configuration's providers with fresh, empty, in-memory recents that no other
    /// engine sees and nothing saves. Not kept in the table (and not counted among the users): it goes when its
    /// holder lets it go. `suggest serve` gives one to each anonymous WebSocket connection.
    public func ephemeralEngine() -> SuggestionEngine {
        makeEntry(for: nil, now: .now).engine
    }

    /// The recents providers of `user`'s engine (one per `"recent"` entry), nil when the user has no engine now.
    public func recents(of user: String) -> [RecentsProvider]? {
        let user = Self.normalized(user: user)
        return table.withLock { $0.entries[user]?.recents }
    }

    /// Evicts every user unused for longer than ``Options/idleTimeout`` before `now`, saving their recents, and
    /// tries again to save the evicted users whose recents could not be saved before.
    /// - Returns: the save failures (empty when everything was saved); they are logged too.
    @discardableResult
    public func evictIdle(now: ContinuousClock.Instant = .now) -> [SaveFailure] {
        let idle = table.withLock { table -> [(String, Entry)] in
            let waiting = table.leaving.entries.map { ($0.key, $0.value) }
            let stale = table.entries.entries.filter { now - $0.value.lastUse > options.idleTimeout }
            for (user, entry) in stale {
                table.entries.removeValue(forKey: user)
                hold(user, entry, in: &table)
            }
            table.evicted += stale.count
            return waiting + stale.map { ($0.key, $0.value) }
        }
        let outcome = save(idle)
        settle(outcome)
        return outcome.failures
    }

    /// Evicts `user` now, saving their recents.
    /// - Returns: the save failures (logged too).
    @discardableResult
    public func evict(_ user: String) -> [SaveFailure] {
        let user = Self.normalized(user: user)
        let entry = table.withLock { table -> Entry? in
            guard let entry = table.entries.removeValue(forKey: user) else { return nil }
            table.evicted += 1
            hold(user, entry, in: &table)
            return entry
        }
        guard let entry else { return [] }
        let outcome = save([(user, entry)])
        settle(outcome)
        return outcome.failures
    }

    /// Saves every user's unsaved recents (at shutdown), those of evicted users not saved yet included; the users
    /// stay.
    /// - Returns: the save failures: these users' searches are in memory only.
    @discardableResult
    public func saveAll() -> [SaveFailure] {
        let all = table.withLock { table in
            table.entries.entries.map { ($0.key, $0.value) } + table.leaving.entries.map { ($0.key, $0.value) }
        }
        let outcome = save(all)
        table.withLock { table in
            for (user, entry) in outcome.saved where table.leaving[user]?.engine === entry.engine {
                table.leaving.removeValue(forKey: user)
            }
        }
        return outcome.failures
    }

    /// Saves each entry's unsaved changes. Only changes not saved yet: a user who never submitted or selected gets
    /// no file (nor lock file).
    private func save(_ entries: [(String, Entry)]) -> (saved: [(String, Entry)], failures: [SaveFailure]) {
        guard !entries.isEmpty else { return ([], []) }
        // A provider folder that was missing or could not be made before (a full or read-only disk since fixed).
        if options.recentsFolder != nil && options.recentsDatabase == nil { makeProviderFolders() }
        var saved: [(String, Entry)] = []
        var failures: [SaveFailure] = []
        for (user, entry) in entries {
            var failed = false
            for provider in entry.recents where provider.store != nil && provider.unsavedChangeCount > 0 {
                do {
                    try provider.synchronize()
                } catch {
                    failed = true
                    failures.append(SaveFailure(user: user, provider: provider.id, message: "\(error)"))
                }
            }
            if !failed { saved.append((user, entry)) }
        }
        return (saved, failures)
    }

    /// `user`'s engine and recents (nil: an ephemeral engine, recents in memory only). `user` is normalized;
    /// `given` is the form the caller gave (a file of the earlier layout may be named after it).
    private func makeEntry(for user: String?, given: String? = nil, now: ContinuousClock.Instant) -> Entry {
        var recents: [RecentsProvider] = []
        let slots = configuration.slots.map { slot -> ProviderSlot in
            if let popular = slot.provider as? PopularProvider { return popularSlot(slot, popular, user: user) }
            guard let shared = slot.provider as? RecentsProvider else { return slot }
            var store: (any RecentsStore)? = nil
            if let database = options.recentsDatabase, let user {
                // Read by the user's first keystroke (`UsersDatabase.refresh(user:in:)`), never here: this is
                // synchronous.
                store = database.store(user: user, provider: shared.id, options: shared.options)
            } else if let folder = options.recentsFolder, let user {
                let path = Self.storePath(user: user, provider: shared.id, in: folder)
                Self.makeFolder(Self.providerFolder(shared.id, in: folder))
                migrate(
                    Self.legacyStorePaths(
                        user: user, given: given ?? user, provider: shared.id, isFirst: recents.isEmpty, in: folder),
                    to: path)
                store = JSONFileRecentsStore(path: path)
            }
            let own = RecentsProvider(id: shared.id, store: store, options: shared.options)
            recents.append(own)
            var slot = slot
            slot.provider = own
            return slot
        }
        let engine = SuggestionEngine(
            slots: slots, options: configuration.options, logger: configuration.logger, logMemory: logMemory)
        return Entry(engine: engine, recents: recents, lastUse: now)
    }
}
#endif
