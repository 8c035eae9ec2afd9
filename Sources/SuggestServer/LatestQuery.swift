#if Server
import Suggest
import Synchronization

/// The keystrokes of one WebSocket as the engine reads them, latest wins: it holds at most one keystroke not yet
/// read (a newer one replaces it), so a client that types (or floods) faster than the engine answers costs one
/// computed keystroke at a time, and after ``finish()`` (the socket closed) nothing more is read at all.
///
/// The engine numbers the queries it reads 1, 2, 3… (`SuggestionResult/generation`); keystrokes are numbered as they
/// are offered, 1, 2, 3… on the connection, replaced ones included. ``answered(_:)`` gives the text and the
/// keystroke number of the query that got an engine generation, for the answer line: an answer carries the number of
/// the keystroke it answers, so that a client that numbers what it sends can tell the answer to its newest
/// keystroke from an older one.
///
/// With an admission (the rate limit), the engine's read waits for it once a keystroke is there, and then takes the
/// newest one: keystrokes that come meanwhile replace each other as they would while the engine works, so a client
/// above its rate has its keystrokes coalesced, never queued, and its socket stays open.
final class LatestQuery: AsyncSequence, Sendable {
    typealias Element = SearchQuery

    /// Waits until the next keystroke may be computed (returns early when the task is cancelled).
    let admission: (@Sendable () async -> Void)?

    init(admission: (@Sendable () async -> Void)? = nil) { self.admission = admission }

    private struct State {
        var pending: (query: SearchQuery, text: String, number: UInt64)?
        /// The engine's read, waiting for a keystroke (resumed when one comes or the socket closes).
        var waiter: CheckedContinuation<Void, Never>?
        var finished = false
        /// How many queries the engine has read (the generation of the last one).
        var read: UInt64 = 0
        /// The text and the keystroke number of the last query read.
        var lastText = ""
        var lastNumber: UInt64 = 0
        /// Keystrokes offered, and how many of them were replaced before the engine read them.
        var offered = 0
        var replaced = 0
    }

    private let state = Mutex(State())

    /// A new keystroke: replaces the one waiting, if any.
    func offer(_ query: SearchQuery, text: String) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.finished else { return nil }
            state.offered += 1
            if state.pending != nil { state.replaced += 1 }
            state.pending = (query, text, UInt64(state.offered))
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// No more keystrokes: the one waiting is dropped and the engine's stream ends.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.finished = true
            state.pending = nil
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Whether the result of `generation` is the answer to the newest keystroke (none newer read or waiting).
    func isNewest(_ generation: UInt64) -> Bool {
        state.withLock { $0.pending == nil && $0.read == generation }
    }

    /// The text and the keystroke number of the query the engine read as `generation`, if it is the newest one read.
    func answered(_ generation: UInt64) -> (text: String, keystroke: UInt64)? {
        state.withLock { $0.read == generation ? ($0.lastText, $0.lastNumber) : nil }
    }

    /// Keystrokes offered, and how many were replaced before the engine read them.
    var counts: (offered: Int, replaced: Int) { state.withLock { ($0.offered, $0.replaced) } }

    private func next() async -> SearchQuery? {
        await withTaskCancellationHandler {
            while true {
                // Until a keystroke is there (or the socket closed).
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if state.pending != nil || state.finished || Task.isCancelled { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
                if let admission { await admission() }
                let taken = state.withLock { state -> SearchQuery?? in
                    if state.finished || Task.isCancelled { return .some(nil) }
                    guard let (query, text, number) = state.pending else { return .none }
                    state.pending = nil
                    state.read += 1
                    state.lastText = text
                    state.lastNumber = number
                    return .some(query)
                }
                if let taken { return taken }
            }
        } onCancel: {
            finish()
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: LatestQuery
        mutating func next() async -> SearchQuery? { await source.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}
#endif
