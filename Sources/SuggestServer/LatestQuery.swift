#if Server
import Suggest
import Synchronization

/// The keystrokes of one WebSocket as the engine reads them, latest wins: it holds at most one keystroke not yet
/// read (a newer one replaces it), so a client that types (or floods) faster than the engine answers costs one
/// computed keystroke at a time, and after ``finish()`` (the socket closed) nothing more is read at all.
///
/// The engine numbers the queries it reads 1, 2, 3… (`SuggestionResult/generation`); ``text(of:)`` gives the text of
/// the query that got a generation, for the answer line.
final class LatestQuery: AsyncSequence, Sendable {
    typealias Element = SearchQuery

    private struct State {
        var pending: (query: SearchQuery, text: String)?
        var waiter: CheckedContinuation<SearchQuery?, Never>?
        var finished = false
        /// How many queries the engine has read (the generation of the last one).
        var read: UInt64 = 0
        /// The text of the last query read.
        var lastText = ""
        /// Keystrokes offered, and how many of them were replaced before the engine read them.
        var offered = 0
        var replaced = 0
    }

    private let state = Mutex(State())

    /// A new keystroke: replaces the one waiting, if any.
    func offer(_ query: SearchQuery, text: String) {
        let waiter = state.withLock { state -> CheckedContinuation<SearchQuery?, Never>? in
            guard !state.finished else { return nil }
            state.offered += 1
            if let waiter = state.waiter {
                state.waiter = nil
                state.read += 1
                state.lastText = text
                return waiter
            }
            if state.pending != nil { state.replaced += 1 }
            state.pending = (query, text)
            return nil
        }
        waiter?.resume(returning: query)
    }

    /// No more keystrokes: the one waiting is dropped and the engine's stream ends.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<SearchQuery?, Never>? in
            state.finished = true
            state.pending = nil
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Whether the result of `generation` is the answer to the newest keystroke (none newer read or waiting).
    func isNewest(_ generation: UInt64) -> Bool {
        state.withLock { $0.pending == nil && $0.read == generation }
    }

    /// The text of the query the engine read as `generation`, if it is the newest one read.
    func text(of generation: UInt64) -> String? {
        state.withLock { $0.read == generation ? $0.lastText : nil }
    }

    /// Keystrokes offered, and how many were replaced before the engine read them.
    var counts: (offered: Int, replaced: Int) { state.withLock { ($0.offered, $0.replaced) } }

    private func next() async -> SearchQuery? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<SearchQuery?, Never>) in
                let ready = state.withLock { state -> SearchQuery?? in
                    if let (query, text) = state.pending {
                        state.pending = nil
                        state.read += 1
                        state.lastText = text
                        return .some(query)
                    }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
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
