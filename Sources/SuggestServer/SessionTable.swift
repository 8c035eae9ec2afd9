#if Server
import Suggest
import SuggestWire
import Synchronization

/// The typing state of each session id (a ``BatchProcessor`` each: typing session, last query and result), bounded
/// in count (least recently used goes) and in idle time. Pure bookkeeping behind a `Mutex`: a request takes a
/// session's processor out, answers without the lock held, and puts it back.
final class SessionTable: Sendable {
    struct Entry: Sendable {
        var user: String?
        var processor: BatchProcessor
        var lastUse: ContinuousClock.Instant
    }

    private let entries = Mutex<[String: Entry]>([:])
    let maximum: Int
    let idleTimeout: Duration

    init(maximum: Int, idleTimeout: Duration) {
        self.maximum = max(1, maximum)
        self.idleTimeout = idleTimeout
    }

    var count: Int { entries.withLock { $0.count } }

    /// The session's processor, or a new one over `engine` when the session is new or was for another user.
    func checkOut(_ id: String, user: String?, engine: SuggestionEngine, now: ContinuousClock.Instant) -> BatchProcessor {
        entries.withLock { entries in
            if let entry = entries[id], entry.user == user, entry.processor.engine === engine {
                entries[id]!.lastUse = now
                return entry.processor
            }
            return BatchProcessor(engine: engine)
        }
    }

    /// Stores the session's processor after a request; evicts the least recently used session beyond the maximum.
    func checkIn(_ id: String, user: String?, processor: BatchProcessor, now: ContinuousClock.Instant) {
        entries.withLock { entries in
            if entries[id] == nil {
                while entries.count >= maximum, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                    entries[oldest.key] = nil
                }
            }
            entries[id] = Entry(user: user, processor: processor, lastUse: now)
        }
    }

    /// Forgets sessions idle longer than the timeout.
    /// - Returns: how many were forgotten.
    @discardableResult
    func evictIdle(now: ContinuousClock.Instant) -> Int {
        entries.withLock { entries in
            let before = entries.count
            entries = entries.filter { now - $0.value.lastUse <= idleTimeout }
            return before - entries.count
        }
    }
}
#endif
