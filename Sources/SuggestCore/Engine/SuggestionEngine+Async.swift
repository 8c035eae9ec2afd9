import Logging
import Synchronization

extension SuggestionEngine {
    /// Answers one keystroke with every provider: synchronous ones inline, asynchronous ones concurrently, each
    /// within its deadline. A provider that misses its deadline is reported as cancelled.
    public func suggestions(for query: SearchQuery, session: inout TypingSession) async -> SuggestionResult {
        let start = ContinuousClock.now
        session.generation &+= 1
        var work = begin(query, session: session)
        var remote: [Int] = []
        for (index, slot) in slots.enumerated() {
            if case .asynchronous = slot.provider.execution {
                remote.append(index)
            } else {
                runSynchronous(index, slot, &work, &session)
            }
        }
        if !remote.isEmpty {
            let answers = await runAsynchronous(remote, work: work, states: session.states, generation: session.generation)
            for answer in answers { apply(answer, to: &work, states: &session.states) }
        }
        return finish(work, generation: session.generation, since: start)
    }

    /// Answers a stream of keystrokes, latest wins: for each query it yields the synchronous providers' result at
    /// once, then an update (same ``SuggestionResult/generation``) each time an asynchronous provider answers in
    /// time. Answers for a keystroke that a newer one has replaced are dropped, never shown. The stream buffers only
    /// the newest result, so a slow consumer skips stale ones.
    public func results<Queries: AsyncSequence & Sendable>(
        for queries: Queries
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
            do {
                for try await query in queries {
                    pending?.cancel()
                    let start = ContinuousClock.now
                    session.generation &+= 1
                    let generation = session.generation
                    shared.current.withLock { $0 = generation }
                    session.states = shared.states.withLock { $0 }
                    var work = begin(query, session: session)
                    for (index, slot) in slots.enumerated() {
                        if remote.contains(index) {
                            work.reports[index] = .init(provider: slot.provider.id, micros: 0, outcome: .pending)
                        } else {
                            runSynchronous(index, slot, &work, &session)
                        }
                    }
                    let localStates = session.states
                    shared.states.withLock { all in for index in slots.indices where !remote.contains(index) { all[index] = localStates[index] } }
                    continuation.yield(finish(work, generation: generation, since: start))
                    guard !remote.isEmpty else { continue }
                    let snapshot = work
                    pending = Task {
                        var work = snapshot
                        await withTaskGroup(of: AsyncAnswer.self) { group in
                            for index in remote {
                                group.addTask {
                                    await self.runOne(index, work: snapshot, previousState: shared.states.withLock { $0[index] }, generation: generation)
                                }
                            }
                            for await answer in group {
                                guard shared.current.withLock({ $0 }) == generation, !Task.isCancelled else { return }
                                var all = shared.states.withLock { $0 }
                                apply(answer, to: &work, states: &all)
                                shared.states.withLock { $0 = all }
                                continuation.yield(finish(work, generation: generation, since: start))
                            }
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

    /// True for the first caller only.
    final class Once: Sendable {
        let done = Mutex(false)
        func claim() -> Bool { done.withLock { done in defer { done = true }; return !done } }
    }

    struct AsyncAnswer: Sendable {
        var index: Int
        var output: ProviderOutput?
        var error: String?
        var micros: Double
        var timedOut: Bool
    }

    func runAsynchronous(
        _ indices: [Int],
        work: Work,
        states: [Int: any Sendable],
        generation: UInt64
    ) async -> [AsyncAnswer] {
        await withTaskGroup(of: AsyncAnswer.self) { group in
            for index in indices {
                let state = states[index]
                group.addTask { await self.runOne(index, work: work, previousState: state, generation: generation) }
            }
            var answers: [AsyncAnswer] = []
            for await answer in group { answers.append(answer) }
            return answers.sorted { $0.index < $1.index }
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
        case .none: return AsyncAnswer(index: index, output: nil, error: nil, micros: micros, timedOut: true)
        case .success(let output)?: return AsyncAnswer(index: index, output: output, error: nil, micros: micros, timedOut: false)
        case .failure(let error)?: return AsyncAnswer(index: index, output: nil, error: "\(error)", micros: micros, timedOut: false)
        }
    }

    func apply(_ answer: AsyncAnswer, to work: inout Work, states: inout [Int: any Sendable]) {
        let id = slots[answer.index].provider.id
        if answer.timedOut {
            work.reports[answer.index] = .init(provider: id, micros: answer.micros, outcome: .cancelled(reason: "missed its deadline"))
            log(.notice, "provider cancelled", source: id, "missed its deadline")
        } else if let error = answer.error {
            work.reports[answer.index] = .init(provider: id, micros: answer.micros, outcome: .failed(message: error))
            log(.warning, "provider failed", source: id, error)
        } else if let output = answer.output {
            work.outputs[answer.index] = output.candidates
            for note in output.notes {
                work.providerNotes.append("\(id): \(note)")
                log(.notice, "note", source: id, note)
            }
            states[answer.index] = output.state
            work.reports[answer.index] = .init(provider: id, micros: answer.micros, outcome: .answered(count: output.candidates.count))
        }
    }

    /// Runs `operation` in its own task and returns its result, or nil once `deadline` has passed (the task is then
    /// cancelled and its answer ignored, even if the provider does not check for cancellation).
    static func race<T: Sendable>(
        deadline: Duration,
        _ operation: @escaping @Sendable () async throws -> T
    ) async -> Result<T, any Error>? {
        let once = Once()
        let claim: @Sendable () -> Bool = { once.claim() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>?, Never>) in
            let work = Task {
                let result: Result<T, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                if claim() { continuation.resume(returning: result) }
            }
            Task {
                try? await Task.sleep(for: deadline)
                if claim() {
                    work.cancel()
                    continuation.resume(returning: nil)
                }
            }
        }
    }
}
