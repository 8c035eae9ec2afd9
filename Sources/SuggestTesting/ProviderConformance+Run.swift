import SuggestCore
import Synchronization

extension ProviderConformance {
    /// The state of one run: what was checked, skipped and found.
    struct Run {
        let provider: any SuggestionProvider
        let options: Options
        var checked: [Check] = []
        var skipped: [Check: String] = [:]
        var failures: [Failure] = []

        init(provider: any SuggestionProvider, options: Options) {
            self.provider = provider
            self.options = options
        }

        /// The limit of the main requests (determinism, concurrency, typing, cancellation): the largest one asked.
        var mainLimit: Int { limits.last ?? 8 }

        mutating func all(queries: [SearchQuery]) async {
            let empties: [SearchQuery] = ["", "   "]
            let typed = queries.filter { !PreparedQuery($0).isEmpty }
            let blanks = queries.filter { PreparedQuery($0).isEmpty }
            if options.limits.contains(where: { $0 < 1 }) {
                fail(.limitPerTier, nil, "the kit's limits must be 1 or more, got \(options.limits)")
            }

            if enabled(.providerID) {
                checked.append(.providerID)
                if provider.id.allSatisfy(\.isWhitespace) {
                    fail(.providerID, nil, "the id is \(provider.id.isEmpty ? "empty" : "blank") (\"\(provider.id)\")")
                }
            }

            // One answer per (query, limit); a thrown error is an `answers` failure and skips the other checks.
            if enabled(.answers) { checked.append(.answers) }
            var serial: [(SearchQuery, ProviderOutput)] = []
            for query in typed + empties + blanks {
                for limit in limits {
                    guard let output = await answer(query, limit: limit) else { continue }
                    if limit == mainLimit { serial.append((query, output)) }
                    let isEmpty = PreparedQuery(query).isEmpty
                    if isEmpty, enabled(.emptyQuery) { checkEmpty(output, query: query, limit: limit) }
                    if enabled(.limitPerTier) { checkLimit(output, query: query, limit: limit) }
                    if enabled(.matchedRanges) { checkRanges(output, query: query) }
                    if enabled(.scores) { checkScores(output, query: query) }
                }
            }
            for check in [Check.emptyQuery, .limitPerTier, .matchedRanges, .scores] where enabled(check) {
                checked.append(check)
            }

            // Asked twice serially; a query whose answers differ here is left out of the concurrent check (its
            // answers would differ there too, for the same reason).
            var stable = serial
            if enabled(.deterministicOrder) {
                checked.append(.deterministicOrder)
                stable = []
                for (query, first) in serial {
                    guard let again = await answer(query, limit: mainLimit) else { continue }
                    if let difference = Self.difference(first, again) {
                        fail(.deterministicOrder, query, "asked twice, the answers differ: \(difference)")
                    } else {
                        stable.append((query, first))
                    }
                }
            }

            if enabled(.concurrentUse) {
                checked.append(.concurrentUse)
                await checkConcurrentUse(stable)
            }

            if enabled(.typingSession) {
                checked.append(.typingSession)
                for (query, _) in serial where !PreparedQuery(query).isEmpty { await checkTypingSession(query) }
            }

            if enabled(.cancellation) {
                if case .asynchronous = provider.execution {
                    checked.append(.cancellation)
                    for query in typed.isEmpty ? empties : typed { await checkCancellation(query) }
                } else {
                    skipped[.cancellation] =
                        "a synchronous provider is not cancelled (the engine calls suggest(_:into:))"
                }
            }

            if enabled(.submitAndSelect) {
                checked.append(.submitAndSelect)
                for (query, output) in serial where !PreparedQuery(query).isEmpty {
                    if let first = output.candidates.first {
                        provider.didSelect(Self.suggestion(from: first, provider: provider.id), for: query)
                    }
                    provider.didSubmit(query)
                }
                // Only the queries it answered before (an `answers` failure is not reported twice).
                for (query, _) in serial where !PreparedQuery(query).isEmpty {
                    do {
                        _ = try await rawAnswer(query, limit: mainLimit)
                    } catch {
                        fail(.submitAndSelect, query, "after didSelect and didSubmit, the provider threw: \(error)")
                    }
                }
            }
        }

        var limits: [Int] {
            var seen = Set<Int>()
            return options.limits.filter { $0 >= 1 && seen.insert($0).inserted }.sorted().nonEmpty ?? [8]
        }

        func enabled(_ check: Check) -> Bool { options.checks.contains(check) }

        mutating func fail(_ check: Check, _ query: SearchQuery?, _ message: String) {
            failures.append(Failure(check: check, query: query, message: message))
        }

        // MARK: Asking

        func rawAnswer(_ query: SearchQuery, limit: Int) async throws -> ProviderOutput {
            try await Self.ask(provider, query: query, limit: limit)
        }

        static func ask(_ provider: any SuggestionProvider, query: SearchQuery, limit: Int) async throws
            -> ProviderOutput
        {
            let request = SuggestionRequest(query: PreparedQuery(query), limit: limit)
            switch provider.execution {
            case .synchronous:
                var output = ProviderOutput()
                try provider.suggest(request, into: &output)
                return output
            case .asynchronous:
                return try await provider.suggestions(for: request)
            }
        }

        mutating func answer(_ query: SearchQuery, limit: Int) async -> ProviderOutput? {
            do {
                return try await rawAnswer(query, limit: limit)
            } catch {
                if enabled(.answers) { fail(.answers, query, "limit \(limit): the provider threw: \(error)") }
                return nil
            }
        }

        // MARK: Checks of one answer

        mutating func checkEmpty(_ output: ProviderOutput, query: SearchQuery, limit: Int) {
            let filtered = output.candidates.filter { $0.tier != .unfiltered }
            if !filtered.isEmpty {
                let titles = filtered.prefix(3).map { "\"\($0.title)\" (\($0.tier))" }.joined(separator: ", ")
                fail(
                    .emptyQuery, query,
                    "an empty field may show only unfiltered candidates; got \(filtered.count) others: \(titles)")
            }
            if output.candidates.count > limit {
                fail(.emptyQuery, query, "limit \(limit): \(output.candidates.count) candidates on an empty field")
            }
            if let ranged = output.candidates.first(where: { !$0.matchedRanges.isEmpty }) {
                fail(
                    .emptyQuery, query,
                    "\"\(ranged.title)\" has matched ranges \(ranged.matchedRanges) though nothing was typed")
            }
        }

        mutating func checkLimit(_ output: ProviderOutput, query: SearchQuery, limit: Int) {
            var counts: [MatchTier: Int] = [:]
            for candidate in output.candidates { counts[candidate.tier, default: 0] += 1 }
            for tier in MatchTier.allCases {
                if let count = counts[tier], count > limit {
                    fail(
                        .limitPerTier, query,
                        "limit \(limit): \(count) candidates in tier \(tier) (at most \(limit) per tier)")
                }
            }
        }

        mutating func checkRanges(_ output: ProviderOutput, query: SearchQuery) {
            for candidate in output.candidates where !candidate.matchedRanges.isEmpty {
                let title = candidate.title
                let length = title.utf8.count
                var boundaries = Set(title.indices.map { title.utf8.distance(from: title.startIndex, to: $0) })
                boundaries.insert(length)
                for range in candidate.matchedRanges {
                    let place = "\"\(title)\": range \(range)"
                    if range.lowerBound < 0 || range.upperBound > length {
                        fail(.matchedRanges, query, "\(place) is outside the title (\(length) UTF-8 bytes)")
                    } else if range.isEmpty {
                        fail(.matchedRanges, query, "\(place) is empty")
                    } else if !boundaries.contains(range.lowerBound) || !boundaries.contains(range.upperBound) {
                        fail(.matchedRanges, query, "\(place) does not start and end on character boundaries")
                    }
                }
            }
        }

        mutating func checkScores(_ output: ProviderOutput, query: SearchQuery) {
            for candidate in output.candidates {
                if !candidate.popularity.isFinite || candidate.popularity < 0 {
                    fail(
                        .scores, query,
                        "\"\(candidate.title)\": popularity \(candidate.popularity) (must be finite, 0 or more)")
                }
                if candidate.typos < 0 {
                    fail(.scores, query, "\"\(candidate.title)\": typos \(candidate.typos) (must be 0 or more)")
                }
            }
        }

        /// What two answers disagree on (order, titles, completions, tiers, ranges), or nil when they agree.
        static func difference(_ a: ProviderOutput, _ b: ProviderOutput) -> String? {
            let x = a.candidates.map(Shape.init)
            let y = b.candidates.map(Shape.init)
            guard x != y else { return nil }
            if x.count != y.count { return "\(x.count) candidates, then \(y.count)" }
            let i = x.indices.first { x[$0] != y[$0] } ?? 0
            return "candidate \(i) was \(x[i]), then \(y[i])"
        }

        /// A candidate without its popularity (which may follow a clock).
        struct Shape: Hashable, CustomStringConvertible {
            var title: String
            var completion: Suggestion.Completion
            var tier: MatchTier
            var typos: Int
            var ranges: [Range<Int>]
            init(_ c: SuggestionCandidate) {
                (title, completion, tier, typos, ranges) = (c.title, c.completion, c.tier, c.typos, c.matchedRanges)
            }
            var description: String { "\"\(title)\" (\(tier), \(ranges))" }
        }

        static func suggestion(from candidate: SuggestionCandidate, provider: String) -> Suggestion {
            Suggestion(
                title: candidate.title,
                subtitle: candidate.subtitle,
                completion: candidate.completion,
                matchedRanges: candidate.matchedRanges,
                providers: [provider],
                tier: candidate.tier,
                typos: candidate.typos,
                popularity: candidate.popularity,
                systemImage: candidate.systemImage
            )
        }

        // MARK: Typing session

        /// Types `query`'s text a character at a time, then erases it back to one character, passing each
        /// keystroke's state to the next; every answer must equal a fresh one.
        mutating func checkTypingSession(_ query: SearchQuery) async {
            let text = query.text
            var prefixes = text.indices.dropFirst().map { String(text[..<$0]) } + [text]
            prefixes += prefixes.dropLast().reversed()
            var state: (any Sendable)? = nil
            for (step, prefix) in prefixes.enumerated() {
                var keystroke = query
                keystroke.text = prefix
                let request = SuggestionRequest(query: PreparedQuery(keystroke), limit: mainLimit, previousState: state)
                let output: ProviderOutput
                do {
                    switch provider.execution {
                    case .synchronous:
                        var o = ProviderOutput()
                        try provider.suggest(request, into: &o)
                        output = o
                    case .asynchronous:
                        output = try await provider.suggestions(for: request)
                    }
                } catch {
                    fail(.typingSession, query, "keystroke \(step + 1) (\"\(prefix)\"): the provider threw: \(error)")
                    return
                }
                state = output.state
                guard let fresh = try? await rawAnswer(keystroke, limit: mainLimit) else { continue }
                if let difference = Self.difference(fresh, output) {
                    let typed = step < text.count ? "typed" : "erased back to"
                    let what = "\(typed) \"\(prefix)\" with the previous keystroke's state"
                    fail(.typingSession, query, "\(what), the answer differs from a fresh one: \(difference)")
                    return
                }
            }
        }

        // MARK: Concurrency

        mutating func checkConcurrentUse(_ serial: [(SearchQuery, ProviderOutput)]) async {
            guard !serial.isEmpty else { return }
            let provider = self.provider
            let limit = mainLimit
            let queries = serial.map(\.0)
            let tasks = max(2, options.concurrentTasks)
            // Each task asks every query, starting at a different one, so that different queries overlap.
            let answers = await withTaskGroup(of: [(Int, Result<ProviderOutput, any Error>)].self) { group in
                for t in 0..<tasks {
                    group.addTask {
                        var answers: [(Int, Result<ProviderOutput, any Error>)] = []
                        for k in 0..<queries.count {
                            let i = (t + k) % queries.count
                            do {
                                answers.append(
                                    (i, .success(try await Self.ask(provider, query: queries[i], limit: limit))))
                            } catch {
                                answers.append((i, .failure(error)))
                            }
                        }
                        return answers
                    }
                }
                var all: [(Int, Result<ProviderOutput, any Error>)] = []
                for await answers in group { all += answers }
                return all
            }
            var reported = Set<Int>()
            for (i, result) in answers where !reported.contains(i) {
                let (query, expected) = serial[i]
                switch result {
                case .failure(let error):
                    reported.insert(i)
                    fail(.concurrentUse, query, "asked from \(tasks) tasks at once, the provider threw: \(error)")
                case .success(let output):
                    if let difference = Self.difference(expected, output) {
                        reported.insert(i)
                        fail(
                            .concurrentUse, query,
                            "asked from \(tasks) tasks at once, an answer differs from the serial one: \(difference)")
                    }
                }
            }
        }

        // MARK: Cancellation

        mutating func checkCancellation(_ query: SearchQuery) async {
            let provider = self.provider
            let request = SuggestionRequest(query: PreparedQuery(query), limit: mainLimit)
            // Cancelled before it is called, then cancelled after it was called (when it had time to start).
            for started in [false, true] {
                // Detached: not on the caller's actor (a test on the main actor), so that a provider that blocks
                // its thread cannot stop the timer below.
                let task = Task.detached {
                    if !started { withUnsafeCurrentTask { $0?.cancel() } }
                    return try await provider.suggestions(for: request)
                }
                if started {
                    for _ in 0..<10 { await Task.yield() }
                    try? await Task.sleep(for: .milliseconds(10))
                }
                task.cancel()
                let finished = await Self.finishes(task, within: options.cancellationWait)
                if !finished {
                    let when = started ? "after it was called" : "before it was called"
                    let wait = options.cancellationWait
                    fail(.cancellation, query, "cancelled \(when), suggestions(for:) had neither returned nor thrown after \(wait)")
                    return
                }
            }
        }

        /// Whether `task` ends within `wait`. A task that does not is left running (it cannot be stopped).
        static func finishes(_ task: Task<ProviderOutput, any Error>, within wait: Duration) async -> Bool {
            let gate = Gate()
            return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                gate.arm(continuation)
                let timer = Task.detached {
                    try? await Task.sleep(for: wait)
                    gate.resume(false)
                }
                Task.detached {
                    _ = await task.result
                    gate.resume(true)
                    timer.cancel()
                }
            }
        }
    }

    /// Resumes a continuation once, with whichever answer comes first.
    final class Gate: Sendable {
        let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)

        func arm(_ c: CheckedContinuation<Bool, Never>) {
            continuation.withLock { $0 = c }
        }

        func resume(_ value: Bool) {
            let c = continuation.withLock { c -> CheckedContinuation<Bool, Never>? in
                defer { c = nil }
                return c
            }
            c?.resume(returning: value)
        }
    }
}

extension Array {
    fileprivate var nonEmpty: Self? { isEmpty ? nil : self }
}
