import Logging
import Synchronization

extension SuggestionEngine {
    /// Answers one keystroke with every provider: synchronous ones inline, asynchronous ones concurrently, each
    /// within its deadline. A provider that misses its deadline is reported as cancelled.
    ///
    /// Named apart from the synchronous ``suggestions(for:session:)`` (which skips asynchronous providers) so that
    /// an `async` caller, such as a server handler, never picks one for the other by accident.
    ///
    /// Cancelling the calling task cancels the asynchronous providers' tasks too (they see `Task.isCancelled`, and
    /// `Task.sleep` or `URLSession` calls in them throw `CancellationError`); the call then returns at once with
    /// them reported as cancelled, even if a provider does not check for cancellation.
    /// - Complexity: the synchronous providers' work, then the slowest asynchronous provider or its deadline.
    public func allSuggestions(for query: SearchQuery, session: inout TypingSession) async -> SuggestionResult {
        let start = ContinuousClock.now
        var (work, remote) = keystroke(query, session: &session, asynchronous: .leave)
        if !remote.isEmpty {
            let answers = await runAsynchronous(remote, work: work, states: session.states, generation: session.generation)
            for answer in answers { apply(answer, to: &work, states: &session.states) }
        }
        return finish(work, generation: session.generation, since: start)
    }

    /// Answers one keystroke in two steps, for a search field: the synchronous providers now (the returned
    /// ``PendingKeystroke/result``, asynchronous providers reported `.pending`), then
    /// ``PendingKeystroke/updates(isolation:_:)`` runs the asynchronous ones and hands over the result again each time one of
    /// them answers or misses its deadline. ``SearchSession`` runs every keystroke this way.
    /// - Complexity: the synchronous providers' work plus O(c log c) for c candidates.
    public func startSuggestions(for query: SearchQuery, session: inout TypingSession) -> PendingKeystroke {
        let start = ContinuousClock.now
        let (work, remote) = keystroke(query, session: &session, asynchronous: .markPending)
        let result = finish(work, generation: session.generation, since: start)
        var states: [Int: any Sendable] = [:]
        for index in remote { states[index] = session.states[index] }
        return PendingKeystroke(
            result: result,
            engine: self,
            work: work,
            remote: remote,
            states: states,
            start: start
        )
    }

    /// Answers a stream of keystrokes, latest wins: for each query it yields the synchronous providers' result at
    /// once, then an update (same ``SuggestionResult/generation``) each time an asynchronous provider answers in
    /// time. Answers for a keystroke that a newer one has replaced are dropped, never shown, and its asynchronous
    /// providers' tasks are cancelled. The stream buffers only the newest result, so a slow consumer skips stale
    /// ones.
    public func results<Queries: AsyncSequence & Sendable>(
        for queries: Queries
    ) -> AsyncStream<SuggestionResult> where Queries.Element == SearchQuery {
        results(for: queries, clock: KeystrokeClock(ContinuousClock()))
    }

    /// ``results(for:)`` with its keystrokes timed on `clock` (for ``SuggestionProvider/minimumInterval``).
    func results<Queries: AsyncSequence & Sendable>(
        for queries: Queries,
        clock: KeystrokeClock
    ) -> AsyncStream<SuggestionResult> where Queries.Element == SearchQuery {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SuggestionResult.self,
            bufferingPolicy: .bufferingNewest(1)
        )
        let shared = StreamState()
        let remote = slots.indices.filter {
            if case .asynchronous = slots[$0].provider.execution { return true }
            return false
        }
        let driver = Task {
            var session = TypingSession()
            var pending: Task<Void, Never>? = nil
            var previousKeystroke: Duration? = nil
            do {
                for try await query in queries {
                    pending?.cancel()
                    let start = ContinuousClock.now
                    let pacing = clock.keystroke(after: &previousKeystroke)
                    // The generation `keystroke` gives this query, made current before the local providers run so
                    // that an older keystroke's late answers stop at once.
                    let generation = session.generation &+ 1
                    shared.current.withLock { $0 = generation }
                    session.states = shared.states.withLock { $0 }
                    let (work, asked) = keystroke(query, session: &session, asynchronous: .markPending)
                    let localStates = session.states
                    shared.states.withLock { all in
                        for index in slots.indices where !remote.contains(index) { all[index] = localStates[index] }
                    }
                    continuation.yield(finish(work, generation: generation, since: start))
                    // None is asked while text is being composed.
                    guard !asked.isEmpty else { continue }
                    let snapshot = work
                    pending = Task {
                        var work = snapshot
                        let states = shared.states.withLock { $0 }
                        await askAsynchronous(
                            asked, work: snapshot, states: states, generation: generation, pacing: pacing
                        ) { answer in
                            guard shared.current.withLock({ $0 }) == generation, !Task.isCancelled else { return false }
                            var all = shared.states.withLock { $0 }
                            apply(answer, to: &work, states: &all)
                            shared.states.withLock { $0 = all }
                            continuation.yield(finish(work, generation: generation, since: start))
                            return true
                        }
                    }
                }
            } catch {
                // The query sequence failed: end the stream.
            }
            await pending?.value
            continuation.finish()
        }
        continuation.onTermination = { _ in driver.cancel() }
        return stream
    }

    // MARK: Internals

    /// The latest generation and the providers' states, shared by a stream's tasks.
    final class StreamState: Sendable {
        let current = Mutex<UInt64>(0)
        let states = Mutex<[Int: any Sendable]>([:])
    }

    struct AsyncAnswer: Sendable {
        enum Outcome: Sendable {
            case answered(ProviderOutput)
            case failed(String)
            case timedOut
            case cancelled
        }

        var index: Int
        var outcome: Outcome
        var micros: Double
    }

    func runAsynchronous(
        _ indices: [Int],
        work: Work,
        states: [Int: any Sendable],
        generation: UInt64
    ) async -> [AsyncAnswer] {
        var answers: [AsyncAnswer] = []
        await askAsynchronous(indices, work: work, states: states, generation: generation) { answer in
            answers.append(answer)
            return true
        }
        return answers.sorted { $0.index < $1.index }
    }

    /// The one fan-out of a keystroke's asynchronous slots: each asked concurrently within its deadline
    /// (``runOne(_:work:previousState:generation:)``); `receive` gets each answer as it arrives and returns false to
    /// stop taking answers (a newer keystroke, a cancelled task), which cancels those still under way.
    ///
    /// With `pacing`, a provider with a ``SuggestionProvider/minimumInterval`` longer than the time since the
    /// previous keystroke is asked only once that interval has passed since this keystroke (reported `.pending`
    /// until then); cancelled before, it is not asked.
    func askAsynchronous(
        _ indices: [Int],
        work: Work,
        states: [Int: any Sendable],
        generation: UInt64,
        pacing: KeystrokePacing? = nil,
        isolation: isolated (any Actor)? = #isolation,
        receive: (AsyncAnswer) -> Bool
    ) async {
        await withTaskGroup(of: AsyncAnswer.self, isolation: isolation) { group in
            // Capturing the isolation makes this body (and `receive`) run on the caller's actor.
            _ = isolation
            for index in indices {
                let state = states[index]
                let hold = pacing?.hold(for: slots[index].provider)
                group.addTask {
                    if let pacing, let hold, await !pacing.wait(hold) {
                        return AsyncAnswer(index: index, outcome: .cancelled, micros: 0)
                    }
                    return await self.runOne(index, work: work, previousState: state, generation: generation)
                }
            }
            for await answer in group {
                guard receive(answer) else { return group.cancelAll() }
            }
        }
    }

    func runOne(_ index: Int, work: Work, previousState: (any Sendable)?, generation: UInt64) async -> AsyncAnswer {
        let provider = slots[index].provider
        let request = SuggestionRequest(
            query: work.prepared,
            limit: options.limit,
            previousState: previousState,
            generation: generation
        )
        let deadline: Duration
        if case .asynchronous(let d) = provider.execution { deadline = d } else { deadline = .seconds(1) }
        let t0 = ContinuousClock.now
        let outcome = await Self.race(deadline: deadline) { try await provider.suggestions(for: request) }
        let micros = Self.micros(since: t0)
        switch outcome {
        case .finished(.success(let output)): return AsyncAnswer(index: index, outcome: .answered(output), micros: micros)
        case .finished(.failure(let error)):
            if error is CancellationError, Task.isCancelled {
                return AsyncAnswer(index: index, outcome: .cancelled, micros: micros)
            }
            return AsyncAnswer(index: index, outcome: .failed("\(error)"), micros: micros)
        case .timedOut: return AsyncAnswer(index: index, outcome: .timedOut, micros: micros)
        case .cancelled: return AsyncAnswer(index: index, outcome: .cancelled, micros: micros)
        }
    }

    func apply(_ answer: AsyncAnswer, to work: inout Work, states: inout [Int: any Sendable]) {
        let id = slots[answer.index].provider.id
        switch answer.outcome {
        case .timedOut:
            work.reports[answer.index] = .init(
                provider: id,
                micros: answer.micros,
                outcome: .cancelled(reason: "missed its deadline")
            )
            log(.notice, "provider cancelled", source: id, "missed its deadline")
        case .cancelled:
            work.reports[answer.index] = .init(
                provider: id,
                micros: answer.micros,
                outcome: .cancelled(reason: "the keystroke was cancelled")
            )
        case .failed(let error):
            work.reports[answer.index] = .init(provider: id, micros: answer.micros, outcome: .failed(message: error))
            log(.warning, "provider failed", source: id, error)
        case .answered(let output):
            work.outputs[answer.index] = output.candidates
            for note in output.notes {
                work.providerNotes.append("\(id): \(note)")
                log(.notice, "note", source: id, note)
            }
            states[answer.index] = output.state
            work.reports[answer.index] = .init(
                provider: id,
                micros: answer.micros,
                outcome: .answered(count: output.candidates.count)
            )
        }
    }

    /// How a raced operation ended.
    enum RaceOutcome<T: Sendable>: Sendable {
        case finished(Result<T, any Error>)
        case timedOut
        case cancelled
    }

    /// Runs `operation` in a task of its own and returns its result — or `.timedOut` once `deadline` has passed, or
    /// `.cancelled` as soon as the calling task is cancelled; in both cases the operation's task is cancelled and its
    /// answer ignored.
    ///
    /// Why not a task group racing the operation against a sleep: a group waits for all its children before it
    /// returns, so a provider that never checks for cancellation would hold the keystroke past its deadline. Here the
    /// operation runs in an unstructured task, and `withTaskCancellationHandler` forwards the caller's cancellation
    /// to it (a superseded keystroke's provider sees `Task.isCancelled`); the caller resumes at the deadline or on
    /// cancellation whatever the provider does.
    static func race<T: Sendable>(
        deadline: Duration,
        _ operation: @escaping @Sendable () async throws -> T
    ) async -> RaceOutcome<T> {
        let race = Race<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<RaceOutcome<T>, Never>) in
                race.start(continuation, deadline: deadline, operation)
            }
        } onCancel: {
            race.end(.cancelled)
        }
    }

    /// The state of one ``race(deadline:_:)``: the first of the operation, the deadline and the caller's
    /// cancellation to end it resumes the caller and cancels the other tasks.
    final class Race<T: Sendable>: Sendable {
        struct State {
            var continuation: CheckedContinuation<RaceOutcome<T>, Never>?
            var ended: RaceOutcome<T>?
            var work: Task<Void, Never>?
            var timer: Task<Void, Never>?
        }

        let state = Mutex(State())

        func start(
            _ continuation: CheckedContinuation<RaceOutcome<T>, Never>,
            deadline: Duration,
            _ operation: @escaping @Sendable () async throws -> T
        ) {
            let ended = state.withLock { state -> RaceOutcome<T>? in
                if state.ended == nil { state.continuation = continuation }
                return state.ended
            }
            // Cancelled before it started.
            if let ended { return continuation.resume(returning: ended) }
            let work = Task {
                let result: Result<T, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                self.end(.finished(result))
            }
            let timer = Task {
                do { try await Task.sleep(for: deadline) } catch { return }
                self.end(.timedOut)
            }
            let alreadyEnded = state.withLock { state in
                guard state.ended == nil else { return true }
                state.work = work
                state.timer = timer
                return false
            }
            if alreadyEnded {
                work.cancel()
                timer.cancel()
            }
        }

        /// Ends the race with `outcome` unless it has ended already.
        func end(_ outcome: RaceOutcome<T>) {
            let (continuation, work, timer) = state.withLock { state in
                guard state.ended == nil else {
                    return (CheckedContinuation<RaceOutcome<T>, Never>?.none, Task<Void, Never>?.none, Task<Void, Never>?.none)
                }
                state.ended = outcome
                defer {
                    state.continuation = nil
                    state.work = nil
                    state.timer = nil
                }
                return (state.continuation, state.work, state.timer)
            }
            work?.cancel()
            timer?.cancel()
            continuation?.resume(returning: outcome)
        }
    }
}

/// A keystroke answered by its synchronous providers, its asynchronous providers still to ask (from
/// ``SuggestionEngine/startSuggestions(for:session:)``).
public struct PendingKeystroke: Sendable {
    /// The synchronous providers' result; asynchronous providers are reported `.pending`.
    public let result: SuggestionResult
    let engine: SuggestionEngine
    let work: SuggestionEngine.Work
    let remote: [Int]
    let states: [Int: any Sendable]
    let start: ContinuousClock.Instant

    /// Whether asynchronous providers are still to answer (then call ``updates(isolation:_:)``).
    public var hasAsynchronousProviders: Bool { !remote.isEmpty }

    /// Runs the asynchronous providers concurrently, each within its deadline, and calls `update` (on the caller's
    /// actor) with the keystroke's result — same ``SuggestionResult/generation`` — each time one of them answers,
    /// fails or misses its deadline. Returns when all have, or as soon as the calling task is cancelled (then
    /// `update` is not called again and the providers' tasks are cancelled: a new keystroke cancels the old one's).
    public func updates(
        isolation: isolated (any Actor)? = #isolation, _ update: (SuggestionUpdate) -> Void
    ) async {
        await updates(pacing: nil, isolation: isolation, update)
    }

    /// ``updates(isolation:_:)``, each provider with a ``SuggestionProvider/minimumInterval`` held back as `pacing`
    /// says (``SearchSession`` times its keystrokes).
    func updates(
        pacing: KeystrokePacing?,
        isolation: isolated (any Actor)? = #isolation,
        _ update: (SuggestionUpdate) -> Void
    ) async {
        guard !remote.isEmpty else { return }
        let generation = result.generation
        var work = self.work
        await engine.askAsynchronous(
            remote, work: work, states: states, generation: generation, pacing: pacing, isolation: isolation
        ) { answer in
            guard !Task.isCancelled else { return false }
            var answered: [Int: any Sendable] = [:]
            engine.apply(answer, to: &work, states: &answered)
            let result = engine.finish(work, generation: generation, since: start)
            update(SuggestionUpdate(result: result, slot: answer.index, state: answered[answer.index]))
            return true
        }
    }
}

/// An asynchronous provider's answer to a keystroke: the keystroke's result with it, and what the provider keeps for
/// the typing session's next keystroke (``TypingSession/record(_:)``).
public struct SuggestionUpdate: Sendable {
    /// The keystroke's result with every answer so far.
    public let result: SuggestionResult
    let slot: Int
    let state: (any Sendable)?
}
