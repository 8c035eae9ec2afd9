#if Server
import HummingbirdWebSocket
import Logging
import Suggest
import SuggestWire
import Synchronization

/// One WebSocket connection: a typing field. Each text message is a `suggest batch` line. Keystrokes (`{"text": …}`)
/// go to the engine's `SuggestionEngine/results(for:)` stream, latest wins (``LatestQuery``): at most one keystroke
/// waits while the engine works on another, a newer one replaces it, and when the socket closes the waiting one is
/// dropped. Every answer is a batch answer line, the synchronous providers' first and then an update (same
/// `generation`) per asynchronous provider in time; no answer for a keystroke that a newer one has replaced is sent.
/// An answer's `generation` is the number of the keystroke it answers on the connection (1, 2, 3…, counting the
/// keystrokes replaced before the engine read them).
/// `submit`, `select` and `reset` are answered in order with their batch acknowledgement (a submit's says whether it
/// is written: ``SubmitReceipt``); a keystroke's notes and errors name no server path (``ClientText``); a bad line gets
/// `{"error": …}` and the connection goes on. A text message that is not UTF-8 closes the socket with 1007, one
/// longer than ``maximumMessageBytes`` with 1009.
///
/// The rate limit (``admission``) never closes the socket: a keystroke waits for it in ``LatestQuery`` (newer
/// keystrokes replace it meanwhile), and `submit`, `select` and `reset` wait for it before they are answered.
///
/// Each message has a request id, ``messageID(_:)``: the connection's id (the upgrade request's `X-Request-ID` when
/// it is sane, else 32 random hex digits) and the message's number on the connection from 1, as `CONNECTION-N`.
/// Every line logged about a message carries it in the metadata key `hb.request.id`, as an HTTP request's lines do:
/// `ws text`, `ws submit`, `ws select`, `ws reset` or `ws refused` at debug level once the message is handled (what
/// was typed is not logged), and a submit's failure to write the user's recents.
struct WebSocketSession: Sendable {
    let engine: SuggestionEngine
    let metrics: ServerMetrics
    let maximumMessageBytes: Int
    /// The connection's id, the first part of each message's request id.
    let connectionID: String
    /// The server's logger; each message's lines carry its request id.
    let logger: Logger
    /// Waits until the client may send its next message (nil: no rate limit).
    var admission: (@Sendable () async -> Void)? = nil
    /// What a `submit` acknowledgement says about the user's recents (``SubmitReceipt``), logging through the given
    /// logger.
    let receipt: @Sendable (Logger) async -> SubmitReceipt
    /// Before each keystroke (a users database's check for other replicas' writes): a note for the diagnostics of
    /// the answers that follow, nil when there is nothing to say.
    var beforeKeystroke: (@Sendable () async -> String?)? = nil
    /// After a `select` (a users database's write of a recorded selection).
    var afterSelect: (@Sendable () async -> Void)? = nil

    /// The request id of the connection's message number `number` (from 1): `CONNECTION-N`.
    func messageID(_ number: Int) -> String { connectionID + "-" + String(number) }

    /// The logger of the message number `number`.
    func logger(forMessage number: Int) -> Logger {
        var logger = self.logger
        logger[metadataKey: "hb.request.id"] = .string(messageID(number))
        return logger
    }

    /// What the reader and the writer share.
    struct Shared: Sendable {
        /// The last answer sent and its query (for `select`).
        var lastQuery = SearchQuery()
        var lastResult: SuggestionResult? = nil
        /// ``beforeKeystroke``'s last note.
        var note: String? = nil
    }

    final class Box: Sendable {
        let state = Mutex(Shared())
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let shared = Box()
        let queries = LatestQuery(admission: admission)
        let results = engine.results(for: queries)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await result in results {
                    // Latest wins: a result for an older keystroke than the newest one is dropped here too (the
                    // engine drops those it knows are stale; this covers one still in its buffer).
                    guard queries.isNewest(result.generation), let (text, keystroke) = queries.answered(result.generation)
                    else { continue }
                    shared.state.withLock { $0.lastResult = result }
                    metrics.providers(of: result)
                    var shown = ClientText.redacted(result) ?? result
                    // Keystroke n on the connection has generation n, however many the engine skipped.
                    shown.generation = keystroke
                    if let note = shared.state.withLock({ $0.note }) { shown.diagnostics.notes.append(note) }
                    try await outbound.write(.text(JSONWriter.result(shown, text: text)))
                }
            }
            defer { queries.finish() }
            var processor = BatchProcessor(engine: engine)
            var number = 0
            for try await message in inbound.messages(maxSize: maximumMessageBytes) {
                number += 1
                let log = logger(forMessage: number)
                guard case .text(let line) = message else {
                    log.debug("ws refused: not a text message")
                    try await outbound.write(.text(JSONWriter.error("expected a text message (one JSON line)")))
                    continue
                }
                let command: BatchCommand
                do throws(BatchCommand.Problem) {
                    command = try BatchCommand.parse(Array(line.utf8))
                } catch {
                    log.debug("ws refused: not a valid line")
                    try await outbound.write(.text(JSONWriter.error(error.message)))
                    continue
                }
                if case .text(let text) = command.action {
                    if let beforeKeystroke {
                        let note = await beforeKeystroke()
                        shared.state.withLock { $0.note = note }
                    }
                    let query = command.query
                    shared.state.withLock { $0.lastQuery = query }
                    queries.offer(query, text: text)
                    log.debug("ws text")
                    continue
                }
                if let admission { await admission() }
                (processor.lastQuery, processor.lastResult) = shared.state.withLock { ($0.lastQuery, $0.lastResult) }
                var out = JSONBytes(capacity: 64)
                await processor.answer(command, into: &out)
                if case .submit(let text) = command.action {
                    let acknowledgement = await receipt(log)
                    log.debug("ws submit \(acknowledgement.isStored ? "stored" : "not stored")")
                    try await outbound.write(.text(acknowledgement.json(submitted: text)))
                    continue
                }
                switch command.action {
                case .select:
                    log.debug("ws select")
                    if let afterSelect { await afterSelect() }
                case .reset: log.debug("ws reset")
                default: break
                }
                try await outbound.write(.text(out.bytes.string))
            }
            queries.finish()
            group.cancelAll()
        }
    }
}
#endif
