#if Server
import HummingbirdWebSocket
import Suggest
import SuggestWire
import Synchronization

/// One WebSocket connection: a typing field. Each text message is a `suggest batch` line. Keystrokes (`{"text": …}`)
/// go to the engine's `SuggestionEngine/results(for:)` stream, latest wins: every answer is a batch answer line,
/// the synchronous providers' first and then an update (same `generation`) per asynchronous provider in time, and no
/// answer for a keystroke that a newer one has replaced is sent. `submit`, `select` and `reset` are answered in
/// order with their batch acknowledgement; a bad line gets `{"error": …}` and the connection goes on.
struct WebSocketSession: Sendable {
    let engine: SuggestionEngine
    let metrics: ServerMetrics
    let maximumMessageBytes: Int

    /// What the reader and the writer share.
    struct Shared: Sendable {
        /// The generation of the newest keystroke sent to the engine (keystroke n has generation n).
        var newest: UInt64 = 0
        /// The text of each keystroke not answered yet, by generation.
        var texts: [UInt64: String] = [:]
        /// The last answer sent and its query (for `select`).
        var lastQuery = SearchQuery()
        var lastResult: SuggestionResult? = nil
    }

    final class Box: Sendable {
        let state = Mutex(Shared())
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let shared = Box()
        // Unbounded: every keystroke reaches the engine's stream, whose n-th query has generation n (the engine
        // cancels the asynchronous work of a replaced one); only results are dropped, never queries.
        let (queries, feed) = AsyncStream.makeStream(of: SearchQuery.self)
        let results = engine.results(for: queries)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await result in results {
                    // Latest wins: a result for an older keystroke than the newest one read is dropped here too
                    // (the engine drops those it knows are stale; this covers one still in its buffer).
                    let text = shared.state.withLock { state -> String? in
                        guard result.generation >= state.newest, let text = state.texts[result.generation] else {
                            return nil
                        }
                        state.texts = state.texts.filter { $0.key >= result.generation }
                        state.lastResult = result
                        return text
                    }
                    guard let text else { continue }
                    metrics.providers(of: result)
                    try await outbound.write(.text(JSONWriter.result(result, text: text)))
                }
            }
            defer { feed.finish() }
            var processor = BatchProcessor(engine: engine)
            for try await message in inbound.messages(maxSize: maximumMessageBytes) {
                guard case .text(let line) = message else {
                    try await outbound.write(.text(JSONWriter.error("expected a text message (one JSON line)")))
                    continue
                }
                let command: BatchCommand
                do throws(BatchCommand.Problem) {
                    command = try BatchCommand.parse(Array(line.utf8))
                } catch {
                    try await outbound.write(.text(JSONWriter.error(error.message)))
                    continue
                }
                if case .text(let text) = command.action {
                    let query = command.query
                    shared.state.withLock { state in
                        state.newest += 1
                        state.texts[state.newest] = text
                        state.lastQuery = query
                    }
                    feed.yield(query)
                    continue
                }
                (processor.lastQuery, processor.lastResult) = shared.state.withLock { ($0.lastQuery, $0.lastResult) }
                var out = JSONBytes(capacity: 64)
                await processor.answer(command, into: &out)
                try await outbound.write(.text(out.bytes.string))
            }
            feed.finish()
            group.cancelAll()
        }
    }
}
#endif
