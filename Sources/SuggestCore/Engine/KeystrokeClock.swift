/// The clock a search field's keystrokes are timed on, its instants as durations since it was made: what lets
/// ``SearchSession`` and ``SuggestionEngine/results(for:)`` hold back a provider with a
/// ``SuggestionProvider/minimumInterval`` while keystrokes come faster, on any `Clock` (a test's manual one too).
struct KeystrokeClock: Sendable {
    /// Now, as the time since the clock was made.
    let now: @Sendable () -> Duration
    /// Returns once the clock reaches `instant` (a time since it was made); throws `CancellationError` when the
    /// calling task is cancelled first.
    let sleep: @Sendable (_ instant: Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { instant in try await clock.sleep(until: origin.advanced(by: instant), tolerance: nil) }
    }

    /// The pacing of a keystroke made now, after the one made at `previous` (nil: the first); `previous` becomes
    /// now.
    func keystroke(after previous: inout Duration?) -> KeystrokePacing {
        let now = self.now()
        defer { previous = now }
        return KeystrokePacing(at: now, sincePrevious: previous.map { now - $0 }, clock: self)
    }
}

/// When one keystroke came, and how long after the previous one: which asynchronous providers wait for a pause.
struct KeystrokePacing: Sendable {
    /// The keystroke's time on ``clock``.
    let at: Duration
    /// The time since the previous keystroke of the field; nil for the first.
    let sincePrevious: Duration?
    let clock: KeystrokeClock

    /// How long after the keystroke `provider` is asked: its ``SuggestionProvider/minimumInterval`` when the
    /// keystroke came sooner than that after the previous one, else nil (at once).
    func hold(for provider: any SuggestionProvider) -> Duration? {
        let interval = provider.minimumInterval
        guard interval > .zero, let since = sincePrevious, since < interval else { return nil }
        return interval
    }

    /// Waits until `interval` after the keystroke; false when the calling task was cancelled first (a newer
    /// keystroke came: the provider is not asked).
    func wait(_ interval: Duration) async -> Bool {
        do {
            try await clock.sleep(at + interval)
        } catch {
            return false
        }
        return !Task.isCancelled
    }
}
