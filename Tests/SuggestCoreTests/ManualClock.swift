import Synchronization

@testable import SuggestCore

/// A clock that moves only when a test calls ``advance(by:)``: a sleeper wakes when the clock reaches its deadline,
/// or throws `CancellationError` when its task is cancelled. Tests of timing use it so that nothing depends on how
/// fast the machine is.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var cancelled: Set<UInt64> = []
        var watchers: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on the clock.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, watchers) = state.withLock {
                    state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (nil, Self.dueWatchers(&state))
                }
                for watcher in watchers { watcher.resume() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return Sleeper?.none
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on and wakes the sleepers whose deadlines it reaches.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Returns once at least `count` tasks are sleeping on the clock, or when the calling task is cancelled (a test's
    /// time limit: the test then fails on what it expected next instead of hanging).
    func waitForSleepers(_ count: Int) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.sleepers.count >= count || state.cancelled.remove(id) != nil { return true }
                    state.watchers.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let watcher = state.withLock { state in
                guard let index = state.watchers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return CheckedContinuation<Void, Never>?.none
                }
                return state.watchers.remove(at: index).continuation
            }
            watcher?.resume()
        }
    }

    private static func dueWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let due = state.watchers.filter { $0.count <= count }.map(\.continuation)
        state.watchers.removeAll { $0.count <= count }
        return due
    }
}

/// An asynchronous provider that answers `"<id>:<text>"` at once and records each text it was asked for, in order;
/// ``waitUntilAsked(_:)`` returns once it has been asked for a text.
final class AskedProvider: SuggestionProvider {
    let id: String
    let minimumInterval: Duration
    private struct State {
        var asked: [String] = []
        /// (text, waiter, continuation)
        var waiting: [(String, String, CheckedContinuation<Void, Never>)] = []
        var cancelled: Set<String> = []
    }

    private let state = Mutex(State())

    init(id: String = "remote", minimumInterval: Duration = .zero) {
        self.id = id
        self.minimumInterval = minimumInterval
    }

    var execution: ProviderExecution { .asynchronous(deadline: .seconds(3_600)) }

    /// The texts it was asked for, in order.
    var asked: [String] { state.withLock { $0.asked } }

    func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
        let text = request.query.query.text
        let ready = state.withLock { state in
            state.asked.append(text)
            let ready = state.waiting.filter { $0.0 == text }.map(\.2)
            state.waiting.removeAll { $0.0 == text }
            return ready
        }
        for waiter in ready { waiter.resume() }
        return ProviderOutput(candidates: [SuggestionCandidate(title: "\(id):\(text)", tier: .prefix)])
    }

    /// Returns once the provider has been asked for `text`, or when the calling task is cancelled.
    func waitUntilAsked(_ text: String) async {
        let waiter = "\(text)\u{0}\(UInt64.random(in: 0...UInt64.max))"
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.asked.contains(text) || state.cancelled.remove(waiter) != nil { return true }
                    state.waiting.append((text, waiter, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { state in
                guard let index = state.waiting.firstIndex(where: { $0.1 == waiter }) else {
                    state.cancelled.insert(waiter)
                    return CheckedContinuation<Void, Never>?.none
                }
                return state.waiting.remove(at: index).2
            }
            continuation?.resume()
        }
    }
}
