#if Server
public import Suggest
import Foundation
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
///   same id and options, keeping its searches in `recentsFolder/USER.json` (see ``storeFileName(for:)``), or in
///   memory only when there is no folder. The engine's selection counts live in the engine, so they are per user too.
///   The configuration's own `"store"` is not used (it would be one file for everybody).
/// - **Bounded:** at most ``Options/maximumUsers`` engines are kept; a new user beyond that evicts the least recently
///   used one (found in O(1)). ``evictIdle(now:)`` evicts users idle longer than ``Options/idleTimeout``. An evicted
///   user's changes not saved yet are saved (`RecentsProvider/synchronize()`) first (a submit or select is saved when
///   it happens; a user who only typed has nothing to save and gets no file); a user who comes back gets their
///   recents back from the store.
///   In memory only, an evicted user's recents are gone: that is the memory bound.
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
        /// The folder of the per-user recents files; nil keeps recents in memory only.
        public var recentsFolder: String?

        public init(maximumUsers: Int = 10_000, idleTimeout: Duration = .seconds(30 * 60), recentsFolder: String? = nil) {
            self.maximumUsers = max(1, maximumUsers)
            self.idleTimeout = idleTimeout
            self.recentsFolder = recentsFolder
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
        var built = 0
        var evicted = 0
    }

    private let table = Mutex(Table())
    /// One log memory for every user's engine: a message (a database that went down) is logged once, not per user.
    private let logMemory = SuggestionEngine.LogMemory()

    /// Users over a shared configuration.
    /// - Parameters:
    ///   - configuration: loaded once; its providers other than `"recent"` are shared by every user.
    ///   - options: the bound on users, their idle timeout and the folder of their recent searches.
    public init(configuration: EngineConfiguration, options: Options = Options()) {
        self.configuration = configuration
        self.options = options
    }

    /// How many users have an engine now.
    public var count: Int { table.withLock { $0.entries.count } }

    /// How many engines were built (a user evicted and back counts twice).
    public var enginesBuilt: Int { table.withLock { $0.built } }

    /// How many users were evicted.
    public var evictions: Int { table.withLock { $0.evicted } }

    /// The users that have an engine now, in no order.
    public var users: [String] { table.withLock { $0.entries.entries.map(\.key) } }

    /// Whether `user` is accepted by ``engine(for:now:)``.
    public static func isValid(user: String) -> Bool {
        let count = user.utf8.count
        return count >= 1 && count <= maximumUserLength && !user.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The file name of `user`'s recents in ``Options/recentsFolder``: the id itself when it is made of ASCII
    /// letters, digits, `-` and `_`; otherwise `x-` and the hexadecimal of its UTF-8 bytes (so no id can name a path
    /// outside the folder, and two ids never share a file).
    public static func storeFileName(for user: String) -> String {
        let plain = user.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
        }
        if plain && !user.hasPrefix("x-") { return user + ".json" }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = Array("x-".utf8)
        for b in user.utf8 {
            hex.append(digits[Int(b >> 4)])
            hex.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self) + ".json"
    }

    /// `user`'s engine, built on first use (their recents read from their store); marks them used at `now`.
    /// Building one beyond ``Options/maximumUsers`` evicts the least recently used user (saving their recents).
    /// - Throws: ``InvalidUser``.
    /// - Complexity: O(1) (the least recently used user is found in O(1)), plus building a new user's engine.
    public func engine(for user: String, now: ContinuousClock.Instant = .now) throws(InvalidUser) -> SuggestionEngine {
        guard Self.isValid(user: user) else { throw InvalidUser(user: user) }
        let known = table.withLock { table -> SuggestionEngine? in
            guard let entry = table.entries[user] else { return nil }
            table.entries.update(user) { $0.lastUse = now }
            table.entries.touch(user)
            return entry.engine
        }
        if let known { return known }
        let built = makeEntry(for: user, now: now)
        var evicted: [(String, Entry)] = []
        let engine = table.withLock { table -> SuggestionEngine in
            if let entry = table.entries[user] {
                // Another task built it meanwhile: keep theirs.
                table.entries.update(user) { $0.lastUse = now }
                table.entries.touch(user)
                return entry.engine
            }
            table.built += 1
            while table.entries.count >= options.maximumUsers, let oldest = table.entries.removeLeastRecent() {
                table.evicted += 1
                evicted.append((oldest.key, oldest.value))
            }
            table.entries.insert(user, built)
            return built.engine
        }
        _ = save(evicted)
        return engine
    }

    /// An engine of nobody's: the configuration's providers with fresh, empty, in-memory recents that no other
    /// engine sees and nothing saves. Not kept in the table (and not counted among the users): it goes when its
    /// holder lets it go. `suggest serve` gives one to each anonymous WebSocket connection.
    public func ephemeralEngine() -> SuggestionEngine {
        makeEntry(for: nil, now: .now).engine
    }

    /// The recents providers of `user`'s engine (one per `"recent"` entry), nil when the user has no engine now.
    public func recents(of user: String) -> [RecentsProvider]? {
        table.withLock { $0.entries[user]?.recents }
    }

    /// Evicts every user unused for longer than ``Options/idleTimeout`` before `now`, saving their recents.
    /// - Returns: the save failures (empty when everything was saved).
    @discardableResult
    public func evictIdle(now: ContinuousClock.Instant = .now) -> [SaveFailure] {
        let idle = table.withLock { table -> [(String, Entry)] in
            let stale = table.entries.entries.filter { now - $0.value.lastUse > options.idleTimeout }
            for (user, _) in stale { table.entries.removeValue(forKey: user) }
            table.evicted += stale.count
            return stale.map { ($0.key, $0.value) }
        }
        return save(idle)
    }

    /// Evicts `user` now, saving their recents.
    /// - Returns: the save failures.
    @discardableResult
    public func evict(_ user: String) -> [SaveFailure] {
        let entry = table.withLock { table -> Entry? in
            guard let entry = table.entries.removeValue(forKey: user) else { return nil }
            table.evicted += 1
            return entry
        }
        return entry.map { save([(user, $0)]) } ?? []
    }

    /// Saves every user's unsaved recents (at shutdown); the users stay.
    /// - Returns: the save failures.
    @discardableResult
    public func saveAll() -> [SaveFailure] {
        save(table.withLock { $0.entries.entries.map { ($0.key, $0.value) } })
    }

    private func save(_ entries: [(String, Entry)]) -> [SaveFailure] {
        var failures: [SaveFailure] = []
        for (user, entry) in entries {
            // Only changes not saved yet: a user who never submitted or selected gets no file (nor lock file).
            for provider in entry.recents where provider.store != nil && provider.unsavedChangeCount > 0 {
                do {
                    try provider.synchronize()
                } catch {
                    failures.append(SaveFailure(user: user, provider: provider.id, message: "\(error)"))
                }
            }
        }
        return failures
    }

    /// `user`'s engine and recents (nil: an ephemeral engine, recents in memory only).
    private func makeEntry(for user: String?, now: ContinuousClock.Instant) -> Entry {
        var recents: [RecentsProvider] = []
        let slots = configuration.slots.map { slot -> ProviderSlot in
            guard let shared = slot.provider as? RecentsProvider else { return slot }
            var store: (any RecentsStore)? = nil
            if let folder = options.recentsFolder, let user {
                let name = Self.storeFileName(for: user)
                // One file per recents provider: the first keeps the plain name.
                let file = recents.isEmpty ? name : "\(shared.id)-\(name)"
                store = JSONFileRecentsStore(path: (folder as NSString).appendingPathComponent(file))
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
