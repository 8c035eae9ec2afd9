#if Server
import NIOCore
import Suggest
import SuggestWire
import Synchronization

/// Whose a typing session is: a user's, or (for an anonymous client) a connection's. The same session id used by
/// two owners names two different sessions.
struct SessionOwner: Sendable {
    /// `u` and the user id, or `c` and the connection's object identity.
    let key: String
    /// The connection of a connection-owned session, held weakly: once it is gone no later connection (even one at
    /// the same address in memory) matches the session.
    weak var connection: (any Channel)?

    static func user(_ user: String) -> SessionOwner { SessionOwner(key: "u" + user, connection: nil) }

    static func connection(_ channel: any Channel) -> SessionOwner {
        SessionOwner(key: "c\(UInt(bitPattern: ObjectIdentifier(channel).hashValue))", connection: channel)
    }

    /// Whether a session stored for `self` may be used by `other` (same key, and for a connection the same live
    /// connection).
    func owns(for other: SessionOwner) -> Bool {
        guard key == other.key else { return false }
        guard let mine = connection else { return other.connection == nil && key.hasPrefix("u") }
        return mine === other.connection
    }
}

/// The typing state of each session (a ``BatchProcessor`` each: typing session, last query and result), keyed by
/// owner and session id, bounded in count (least recently used goes, in O(1): ``LRUTable``) and in idle time. Pure
/// bookkeeping behind a `Mutex`: a request takes a session's processor out, answers without the lock held, and puts
/// it back.
final class SessionTable: Sendable {
    struct Entry: Sendable {
        var owner: SessionOwner
        var processor: BatchProcessor
        var lastUse: ContinuousClock.Instant
    }

    private let entries = Mutex(LRUTable<String, Entry>())
    let maximum: Int
    let idleTimeout: Duration

    init(maximum: Int, idleTimeout: Duration) {
        self.maximum = max(1, maximum)
        self.idleTimeout = idleTimeout
    }

    var count: Int { entries.withLock { $0.count } }

    static func key(_ id: String, _ owner: SessionOwner) -> String { owner.key + "\u{0}" + id }

    /// The session's processor, or a new one over `engine` when the session is new, or belongs to another owner
    /// (another user, or a connection that is gone) or to another engine.
    func checkOut(_ id: String, owner: SessionOwner, engine: SuggestionEngine, now: ContinuousClock.Instant) -> BatchProcessor {
        let key = Self.key(id, owner)
        return entries.withLock { entries in
            if let entry = entries[key], entry.owner.owns(for: owner), entry.processor.engine === engine {
                entries.update(key) { $0.lastUse = now }
                entries.touch(key)
                return entry.processor
            }
            return BatchProcessor(engine: engine)
        }
    }

    /// Stores the session's processor after a request; evicts the least recently used session beyond the maximum.
    func checkIn(_ id: String, owner: SessionOwner, processor: BatchProcessor, now: ContinuousClock.Instant) {
        let key = Self.key(id, owner)
        entries.withLock { entries in
            if entries[key] == nil {
                while entries.count >= maximum, entries.removeLeastRecent() != nil {}
            }
            entries.insert(key, Entry(owner: owner, processor: processor, lastUse: now))
        }
    }

    /// Forgets sessions idle longer than the timeout, and those of connections that are gone.
    /// - Returns: how many were forgotten.
    @discardableResult
    func evictIdle(now: ContinuousClock.Instant) -> Int {
        entries.withLock { entries in
            var forgotten = 0
            for (key, entry) in entries.entries
            where now - entry.lastUse > idleTimeout || (!key.hasPrefix("u") && entry.owner.connection == nil) {
                entries.removeValue(forKey: key)
                forgotten += 1
            }
            return forgotten
        }
    }
}
#endif
