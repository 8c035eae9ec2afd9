#if Server
import Synchronization

/// The rate limits of `suggest serve` (see the "Limits" section of the guide): a ``TokenBucket`` per client address
/// and one per identified user, held in an ``LRUTable`` of at most ``RateLimit/maximumClients`` buckets (the least
/// recently used goes, in O(1); a client whose bucket went comes back with a full one).
final class RateLimiter: Sendable {
    /// Whose bucket: a peer address, or a user id.
    enum Client: Hashable, Sendable {
        case address(String)
        case user(String)
    }

    let limit: RateLimit
    /// The instant "now"; tests pass their own.
    let clock: @Sendable () -> ContinuousClock.Instant
    private let buckets = Mutex(LRUTable<Client, TokenBucket>())

    init(limit: RateLimit, clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.limit = limit
        self.clock = clock
    }

    /// The number of buckets held.
    var count: Int { buckets.withLock { $0.count } }

    /// Takes a token from `client`'s bucket (made full on first use).
    /// - Returns: nil when the request may go on; otherwise how long until it may (nothing was taken).
    /// - Complexity: O(1) on average.
    func take(_ client: Client, now: ContinuousClock.Instant? = nil) -> Duration? {
        let now = now ?? clock()
        return buckets.withLock { buckets in
            if buckets[client] == nil {
                while buckets.count >= limit.maximumClients, buckets.removeLeastRecent() != nil {}
                buckets.insert(client, TokenBucket(rate: limit.perSecond, capacity: limit.burst, now: now))
            } else {
                buckets.touch(client)
            }
            var wait: Duration? = nil
            buckets.update(client) { wait = $0.take(now: now) }
            return wait
        }
    }

    /// Waits until `client`'s bucket has a token and takes it (a WebSocket keystroke waits rather than being
    /// refused). Returns early, without a token, when the task is cancelled.
    func waitForToken(_ client: Client) async {
        while let wait = take(client) {
            do { try await Task.sleep(for: wait) } catch { return }
        }
    }

    /// `Retry-After`'s value for a wait: whole seconds, rounded up, at least 1.
    static func retryAfterSeconds(_ wait: Duration) -> Int {
        let (seconds, attoseconds) = wait.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }
}

/// How many requests a client may make: ``perSecond`` on average, ``burst`` at once (see `TokenBucket`). Each
/// HTTP request to `/suggest`, `/submit`, `/select`, `/reset` and `/ws`, and each WebSocket message, takes one
/// token from its address's bucket and, when the caller is identified, one from its user's.
public struct RateLimit: Sendable, Hashable {
    /// Requests per second, on average (above 0).
    public var perSecond: Double
    /// Requests at once after a quiet spell (at least 1).
    public var burst: Int
    /// Buckets held at most (addresses and users together); beyond it the least recently used goes (default
    /// 100 000: a few MB).
    public var maximumClients: Int

    /// The default of `suggest serve`: 50 requests a second per address and per user, bursts of 100.
    public static let standard = RateLimit(perSecond: 50, burst: 100)

    /// A rate as text: `50`, `0.5`.
    static func describe(_ rate: Double) -> String {
        rate == rate.rounded() && rate < 1e15 ? String(Int(rate)) : String(rate)
    }

    public init(perSecond: Double, burst: Int? = nil, maximumClients: Int = 100_000) {
        self.perSecond = perSecond > 0 ? perSecond : 1
        self.burst = max(1, burst ?? Int((2 * self.perSecond).rounded(.up)))
        self.maximumClients = max(1, maximumClients)
    }
}
#endif
