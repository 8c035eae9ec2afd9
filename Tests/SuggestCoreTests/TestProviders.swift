import Synchronization

@testable import SuggestCore

/// Offers fixed candidates whatever the query.
struct FixedProvider: SuggestionProvider {
    let id: String
    var candidates: [SuggestionCandidate]

    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        output.candidates += candidates
    }
}

/// Always throws.
struct FailingProvider: SuggestionProvider {
    struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
    let id = "failing"
    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws { throw Boom() }
}

/// Counts keystrokes of a typing session in its state, and offers the count as a title.
struct CountingProvider: SuggestionProvider {
    let id = "counting"
    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        let count = (request.previousState as? Int ?? 0) + 1
        output.state = count
        output.append(SuggestionCandidate(title: "count \(count)", tier: .unfiltered))
    }
}

/// Turns a trailing "#word " into a tag token and suggests a tag token for a partial "#wo".
struct HashtagProvider: SuggestionProvider {
    let id = "hashtags"
    func extractTokens(from query: SearchQuery, submitting: Bool) throws -> TokenExtraction? {
        var words = query.text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var tokens = query.tokens
        var changed = false
        for (i, word) in words.enumerated() where word.hasPrefix("#") && word.count > 1 {
            let complete = i < words.count - 1 || submitting
            if complete {
                tokens.append(SearchToken(kind: "tag", value: String(word.dropFirst())))
                words[i] = ""
                changed = true
            }
        }
        let last = words.last ?? ""
        let suggested: [SearchToken] = last.hasPrefix("#") ? [SearchToken(kind: "tag", value: "swift")] : []
        guard changed || !suggested.isEmpty else { return nil }
        return TokenExtraction(
            tokens: tokens,
            remainingText: words.filter { !$0.isEmpty }.joined(separator: " "),
            suggestedTokens: suggested
        )
    }
}

/// Records what it hears.
final class RecordingProvider: SuggestionProvider {
    let id = "recording"
    let submitted = Mutex<[SearchQuery]>([])
    let selected = Mutex<[String]>([])
    func didSubmit(_ query: SearchQuery) { submitted.withLock { $0.append(query) } }
    func didSelect(_ suggestion: Suggestion, for query: SearchQuery) { selected.withLock { $0.append(suggestion.title) } }
}

/// An asynchronous provider that answers after `delay`.
struct SlowProvider: SuggestionProvider {
    let id: String
    let delay: Duration
    let deadline: Duration
    var execution: ProviderExecution { .asynchronous(deadline: deadline) }

    func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
        try await Task.sleep(for: delay)
        return ProviderOutput(candidates: [
            SuggestionCandidate(title: "\(id):\(request.query.text)", tier: .prefix, popularity: 1)
        ])
    }
}

func candidate(_ title: String, _ tier: MatchTier, _ popularity: Double = 1, typos: Int = 0) -> SuggestionCandidate {
    SuggestionCandidate(title: title, tier: tier, typos: typos, popularity: popularity)
}

/// A gate that tests open by key; ``wait(_:)`` returns once the key is open.
final class Gate: Sendable {
    private struct State {
        var open: Set<String> = []
        var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let state = Mutex(State())

    func open(_ key: String) {
        let waiters = state.withLock { state in
            state.open.insert(key)
            return state.waiting.removeValue(forKey: key) ?? []
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait(_ key: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.open.contains(key) { return true }
                state.waiting[key, default: []].append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// An asynchronous provider that answers `"<id>:<text>"` once the test opens the gate for that text, and reports
/// what happens to it as events. With `checksCancellation`, it stops waiting when its task is cancelled, reports
/// `.sawCancellation` and throws `CancellationError`; without, it ignores cancellation (a badly behaved provider).
final class GatedProvider: SuggestionProvider {
    enum Event: Hashable, Sendable {
        case started(String)
        case sawCancellation(String)
        case finished(String)
    }

    let id: String
    let deadline: Duration
    let checksCancellation: Bool
    let gate = Gate()
    let events: AsyncStream<Event>
    private let input: AsyncStream<Event>.Continuation

    init(id: String = "remote", deadline: Duration = .seconds(3_600), checksCancellation: Bool = true) {
        self.id = id
        self.deadline = deadline
        self.checksCancellation = checksCancellation
        (events, input) = AsyncStream.makeStream(of: Event.self)
    }

    var execution: ProviderExecution { .asynchronous(deadline: deadline) }

    func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
        let text = request.query.text
        input.yield(.started(text))
        if checksCancellation {
            let gate = self.gate
            await withTaskCancellationHandler { await gate.wait(text) } onCancel: { gate.open(text) }
            if Task.isCancelled {
                input.yield(.sawCancellation(text))
                throw CancellationError()
            }
        } else {
            await gate.wait(text)
        }
        input.yield(.finished(text))
        return ProviderOutput(candidates: [SuggestionCandidate(title: "\(id):\(text)", tier: .prefix)])
    }
}

extension AsyncStream<GatedProvider.Event>.Iterator {
    /// Reads events until `event` comes; false if the stream ends first.
    mutating func wait(
        for event: GatedProvider.Event,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        while let next = await next(isolation: isolation) {
            if next == event { return true }
        }
        return false
    }
}

/// Remembers submitted searches and offers them (most recent first) on an empty field, and by prefix while typing.
final class HistoryProvider: SuggestionProvider {
    let id = "history"
    let searches = Mutex<[String]>([])
    func didSubmit(_ query: SearchQuery) { searches.withLock { $0.insert(query.text, at: 0) } }
    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        for search in searches.withLock({ $0 }) {
            if request.query.isEmpty {
                output.append(SuggestionCandidate(title: search, tier: .unfiltered))
            } else if let match = request.match(search) {
                output.append(match)
            }
        }
    }
}
