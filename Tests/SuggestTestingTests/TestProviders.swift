import Suggest
import Synchronization

// Providers for the kit's own tests: good ones, and broken ones that each break exactly one check.

/// A well-behaved synchronous provider over a fixed list (what the provider of the "Writing a provider" guide does).
struct GoodListProvider: SuggestionProvider {
    var id = "good"
    var names = ["Apple", "Apricot", "Green Apple", "Avocado", "Banana", "Café Crème", "Ångström"]

    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        var byTier: [MatchTier: Int] = [:]
        for name in names {
            guard let match = request.match(name) else { continue }
            guard byTier[match.tier, default: 0] < request.limit else { continue }
            byTier[match.tier, default: 0] += 1
            output.append(match)
        }
    }
}

/// A well-behaved remote provider: it waits for its "server", which throws as soon as it is cancelled.
struct GoodRemoteProvider: SuggestionProvider {
    var id = "remote"
    var execution: ProviderExecution { .asynchronous(deadline: .seconds(1)) }

    func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
        try await Task.sleep(for: .microseconds(200))
        var output = ProviderOutput()
        try GoodListProvider().suggest(request, into: &output)
        return output
    }
}

/// Breaks one thing; otherwise answers as ``GoodListProvider``.
final class BrokenProvider: SuggestionProvider {
    enum Fault: Sendable {
        case emptyID, throwsOnSearch, suggestsOnEmptyField, ignoresLimit, rangeOutsideTitle, rangeInsideCharacter,
            notANumberPopularity, negativePopularity, alternatesOrder, throwsAfterSubmit, narrowsBlindly,
            rangesOnEmptyField, tooManyOnEmptyField, negativeTypos
    }

    let fault: Fault
    let seen = Mutex<Set<String>>([])
    let submitted = Counter()

    init(_ fault: Fault) { self.fault = fault }

    var id: String { fault == .emptyID ? "" : "broken" }

    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        let good = GoodListProvider()
        switch fault {
        case .throwsOnSearch:
            struct Unavailable: Error {}
            throw Unavailable()
        case .throwsAfterSubmit where submitted.value > 0:
            struct Closed: Error {}
            throw Closed()
        case .suggestsOnEmptyField where request.query.isEmpty:
            output.candidates = good.names.prefix(request.limit).map { SuggestionCandidate(title: $0, tier: .prefix) }
        case .ignoresLimit:
            output.candidates = good.names.compactMap { request.match($0) }
        case .rangeOutsideTitle:
            try good.suggest(request, into: &output)
            for i in output.candidates.indices { output.candidates[i].matchedRanges = [0..<100] }
        case .rangeInsideCharacter:
            // "Café": the é is two UTF-8 bytes (3..<5); a range ending at 4 cuts it.
            if !request.query.isEmpty {
                output.append(SuggestionCandidate(title: "Café", matchedRanges: [0..<4], tier: .prefix))
            }
        case .notANumberPopularity, .negativePopularity:
            try good.suggest(request, into: &output)
            let popularity = fault == .negativePopularity ? -1 : Double.nan
            for i in output.candidates.indices { output.candidates[i].popularity = popularity }
        case .alternatesOrder:
            try good.suggest(request, into: &output)
            // The first answer to a request in the usual order, every later one reversed.
            if !seen.withLock({ $0.insert("\(request.limit) \(request.query.text)").inserted }) {
                output.candidates.reverse()
            }
        case .rangesOnEmptyField where request.query.isEmpty:
            output.candidates = [SuggestionCandidate(title: "Apple", matchedRanges: [0..<1], tier: .unfiltered)]
        case .tooManyOnEmptyField where request.query.isEmpty:
            output.candidates = good.names.map { SuggestionCandidate(title: $0, tier: .unfiltered) }
        case .negativeTypos:
            try good.suggest(request, into: &output)
            for i in output.candidates.indices { output.candidates[i].typos = -1 }
        case .narrowsBlindly:
            // Searches only what the previous keystroke found, even when the text got shorter.
            var narrowed = good
            if let previous = request.previousState as? [String] { narrowed.names = previous }
            try narrowed.suggest(request, into: &output)
            output.state = output.candidates.map(\.title)
        default:
            try good.suggest(request, into: &output)
        }
    }

    func didSubmit(_ query: SearchQuery) { submitted.increment() }
}

/// Shares a scratch value between requests without any care: right when asked serially, wrong when two requests
/// overlap. The kit asks once serially first (the test turns every other check off); each later request waits until
/// a second one is in flight (up to 30 s, a bound on a hang), so the concurrent check sees the overlap whatever the
/// machine's load; once one overlap was seen nobody waits any more.
struct SharedScratchProvider: SuggestionProvider {
    let id = "scratch"
    let calls = Counter()
    let inFlight = Counter()
    let overlapped = Counter()
    var execution: ProviderExecution { .asynchronous(deadline: .seconds(5)) }

    func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
        var output = ProviderOutput()
        try GoodListProvider().suggest(request, into: &output)
        guard !request.query.isEmpty else { return output }
        let serial = calls.increment() == 1
        inFlight.increment()
        defer { inFlight.decrement() }
        let clock = ContinuousClock()
        let start = clock.now
        while !serial && inFlight.value < 2 && overlapped.value == 0 && clock.now - start < .seconds(30) {
            try await Task.sleep(for: .milliseconds(1))
        }
        if inFlight.value > 1 {
            overlapped.increment()
            output.candidates.removeAll()  // "another request overwrote my scratch"
        }
        return output
    }
}

/// Answers normally, but a request cancelled before it starts waits for a reply it no longer needs, until the test
/// releases it.
struct IgnoresCancellationProvider: SuggestionProvider {
    let id = "stubborn"
    let parked = Parking()
    var execution: ProviderExecution { .asynchronous(deadline: .seconds(1)) }

    func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
        if Task.isCancelled { await parked.park() }
        var output = ProviderOutput()
        try GoodListProvider().suggest(request, into: &output)
        return output
    }
}

final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    @discardableResult func increment() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }
    func decrement() { count.withLock { $0 -= 1 } }
}

/// Continuations held until ``releaseAll()``.
final class Parking: Sendable {
    private let waiting = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let released = Mutex(false)

    func park() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let resumeNow = released.withLock { released in
                if released { return true }
                waiting.withLock { $0.append(c) }
                return false
            }
            if resumeNow { c.resume() }
        }
    }

    func releaseAll() {
        let all = released.withLock { released in
            released = true
            return waiting.withLock { w in
                defer { w = [] }; return w
            }
        }
        for c in all { c.resume() }
    }
}
