import Foundation
import Synchronization

/// A one-line progress display on standard error for long work (indexing a big dictionary, loading a big
/// configuration): the phase and the time so far, redrawn in place at most ten times a second, erased at the end.
///
/// Shown only when standard error is a terminal, so a pipe or a log file never gets it; `SUGGEST_PROGRESS=always`
/// forces it (for tests), `never` turns it off.
final class ProgressLine: Sendable {
    /// The longest line an 80-column terminal shows without wrapping.
    static let width = 79
    /// Erases the line the cursor is on: carriage return, then ANSI "erase to end of line".
    static let erase = "\r\u{1B}[K"

    private struct State {
        var phase: String
        var throttle = ProgressThrottle()
        var finished = false
    }

    private let start = ContinuousClock.now
    private let state: Mutex<State>
    private let descriptor: Int32

    /// A progress line on standard error, or nil when it should not be shown.
    static func make(
        _ phase: String,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        descriptor: Int32 = 2
    ) -> ProgressLine? {
        switch environment["SUGGEST_PROGRESS"] {
        case "always": break
        case "never": return nil
        default: guard isatty(descriptor) == 1 else { return nil }
        }
        let line = ProgressLine(phase, descriptor: descriptor)
        line.startTicking()
        return line
    }

    private init(_ phase: String, descriptor: Int32) {
        self.descriptor = descriptor
        self.state = Mutex(State(phase: phase))
        draw()
    }

    /// Says what is being done now (drawn at once unless the last draw was less than 100 ms ago).
    func update(_ phase: String) {
        state.withLock { $0.phase = phase }
        draw()
    }

    /// Erases the line; nothing is drawn after.
    func finish() {
        // Under the lock, so that no draw can land after the erase.
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            Console.write(Self.erase, to: descriptor, newline: false)
        }
    }

    /// Redraws every 250 ms so the time moves during a long step that reports nothing.
    private func startTicking() {
        let thread = Thread { [weak self] in
            while let line = self, !line.state.withLock({ $0.finished }) {
                line.draw()
                usleep(250_000)
            }
        }
        thread.start()
    }

    private func draw() {
        let now = ContinuousClock.now
        state.withLock { state in
            guard !state.finished, state.throttle.shouldDraw(at: now) else { return }
            let (seconds, attoseconds) = (now - start).components
            let tenths = Int(seconds) * 10 + Int(attoseconds / 100_000_000_000_000_000)
            let text = String("\(state.phase)… \(tenths / 10).\(tenths % 10) s".prefix(Self.width))
            Console.write(Self.erase + text, to: descriptor, newline: false)
        }
    }
}

/// At most one draw per `interval` (10 a second by default): the first is at once, later ones wait their turn.
struct ProgressThrottle {
    var interval: Duration = .milliseconds(100)
    private var last: ContinuousClock.Instant? = nil

    /// Whether to draw at `now` (and, if so, remembers it as the last draw).
    mutating func shouldDraw(at now: ContinuousClock.Instant) -> Bool {
        if let last, now - last < interval { return false }
        last = now
        return true
    }
}
