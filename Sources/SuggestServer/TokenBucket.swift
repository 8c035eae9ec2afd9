#if Server
/// A token bucket: it holds up to ``capacity`` tokens, gains ``rate`` tokens per second, and each request takes one.
/// A client that stays under the rate is never refused; one above it gets ``capacity`` requests at once (the burst),
/// then ``rate`` per second. Pure arithmetic on the instants it is given (no clock of its own), so tests drive it
/// with made-up instants.
struct TokenBucket: Sendable, Hashable {
    /// Tokens gained per second (above 0).
    let rate: Double
    /// The most tokens held: the largest burst (at least 1).
    let capacity: Double
    /// Tokens held at ``updated``.
    private(set) var tokens: Double
    private(set) var updated: ContinuousClock.Instant

    /// A full bucket.
    init(rate: Double, capacity: Int, now: ContinuousClock.Instant) {
        self.rate = rate
        self.capacity = Double(max(1, capacity))
        self.tokens = self.capacity
        self.updated = now
    }

    /// Adds what was gained since the last update (never beyond ``capacity``; an instant earlier than the last one
    /// gains nothing).
    mutating func refill(now: ContinuousClock.Instant) {
        guard now > updated else { return }
        let elapsed = now - updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(capacity, tokens + seconds * rate)
        updated = now
    }

    /// Takes a token when there is one.
    /// - Returns: nil when a token was taken; otherwise how long until one is there (nothing is taken).
    mutating func take(now: ContinuousClock.Instant) -> Duration? {
        refill(now: now)
        guard tokens >= 1 else { return .nanoseconds(Int64(((1 - tokens) / rate * 1e9).rounded(.up))) }
        tokens -= 1
        return nil
    }
}
#endif
