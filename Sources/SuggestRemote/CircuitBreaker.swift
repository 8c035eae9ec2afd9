#if Server
import Synchronization

/// Stops asking a server that is down, and asks it again now and then: the remote provider's circuit breaker.
///
/// - **Closed** (the server answers): every keystroke asks. `failuresToOpen` failures in a row — a refused or
///   failed connection, a request that timed out, a 5xx status — open it.
/// - **Open**: keystrokes do not ask; they fail at once with the last error, instead of each waiting for its
///   deadline. After `pause` one keystroke is let through as a trial.
/// - **Trial** (half-open): that one keystroke asks; the others still fail at once. If it is answered the breaker
///   closes; if not it opens again with the pause doubled, up to `longestPause`.
///
/// The same scheme as Hystrix's and Envoy's outlier ejection, kept small: one trial at a time, no sliding window.
/// Time comes from the caller (`now`), so tests drive it without sleeping.
public final class CircuitBreaker: Sendable {
    public enum State: Hashable, Sendable {
        case closed
        case open(until: ContinuousClock.Instant)
        case trial
    }

    /// What the caller should do with a keystroke.
    public enum Decision: Hashable, Sendable {
        /// Ask the server (`trial` when it is the one keystroke let through).
        case ask(trial: Bool)
        /// Do not ask: the server is known to be down; `lastError` says why.
        case skip(lastError: String)
    }

    struct Storage: Sendable {
        var state: State = .closed
        var failures = 0
        var pause: Duration
        var lastError = ""
    }

    public let failuresToOpen: Int
    public let firstPause: Duration
    public let longestPause: Duration
    private let storage: Mutex<Storage>

    public init(failuresToOpen: Int = 3, firstPause: Duration = .milliseconds(500), longestPause: Duration = .seconds(8)) {
        self.failuresToOpen = max(1, failuresToOpen)
        self.firstPause = firstPause
        self.longestPause = max(firstPause, longestPause)
        self.storage = Mutex(Storage(pause: firstPause))
    }

    public var state: State { storage.withLock { $0.state } }

    /// Whether a keystroke at `now` may ask the server.
    public func decide(now: ContinuousClock.Instant = .now) -> Decision {
        storage.withLock { s in
            switch s.state {
            case .closed:
                return .ask(trial: false)
            case .trial:
                return .skip(lastError: s.lastError)
            case .open(let until):
                guard now >= until else { return .skip(lastError: s.lastError) }
                s.state = .trial
                return .ask(trial: true)
            }
        }
    }

    /// The server answered.
    public func succeeded() {
        storage.withLock { s in
            s.state = .closed
            s.failures = 0
            s.pause = firstPause
        }
    }

    /// The server failed (`trial`: the keystroke was the trial); `error` is kept for the skipped keystrokes.
    public func failed(_ error: String, trial: Bool, now: ContinuousClock.Instant = .now) {
        storage.withLock { s in
            s.lastError = error
            switch s.state {
            case .trial where trial:
                s.pause = min(s.pause * 2, longestPause)
                s.state = .open(until: now + s.pause)
            case .closed:
                s.failures += 1
                if s.failures >= failuresToOpen { s.state = .open(until: now + s.pause) }
            case .open, .trial:
                break  // a keystroke that was asked before the breaker opened: already counted as down
            }
        }
    }

    /// A trial keystroke that ended without an answer or a failure (it was cancelled): let the next one try.
    public func abandoned(trial: Bool) {
        guard trial else { return }
        storage.withLock { s in
            if s.state == .trial { s.state = .open(until: .now) }
        }
    }
}
#endif
