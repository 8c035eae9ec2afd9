#if Server
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import SuggestCore
import SuggestWire

extension HTTPServerBuilder {
    /// `.http1WebSocketUpgrade(webSocketRouter:)` whose connections all close at graceful shutdown, including the
    /// ones that have not sent their first request yet (see ``QuiescingUpgradeChannel``).
    /// `limits` bound every request head (decoder limits, timeouts: see ``ConnectionGuard``); `maximumMessageBytes`
    /// is the largest WebSocket frame and message.
    static func http1WebSocketUpgradeQuiescing(
        webSocketRouter: Router<SuggestRequestContext>,
        gracePeriod: Duration = .seconds(10),
        limits: ConnectionLimits = ConnectionLimits(),
        maximumMessageBytes: Int = 64 * 1024,
        connections: ConnectionCounter? = nil
    ) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        var http1 = HTTP1Channel.Configuration()
        http1.httpDecoder = .init(
            maxHeaderFieldSize: limits.maximumHeaderLineBytes,
            maxHeaderListSize: limits.maximumHeaderBytes,
            maxHeaderFieldCount: limits.maximumHeaderCount
        )
        // Text messages must be UTF-8 (else the socket closes with 1007); a frame may be as large as a message.
        let webSocket = WebSocketServerConfiguration(maxFrameSize: maximumMessageBytes, validateUTF8: true)
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(http1: http1, ws: webSocket)
        return HTTPServerBuilder { responder in
            QuiescingUpgradeChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    webSocketResponder: webSocketResponder,
                    configuration: configuration
                ),
                gracePeriod: gracePeriod,
                limits: limits,
                connections: connections
            )
        }
    }
}

/// Hummingbird's HTTP/1 + WebSocket upgrade channel, with graceful shutdown for connections that have not finished
/// their first request.
///
/// Until a connection's first request has been read, its pipeline is NIO's upgrade handler, which decides between
/// HTTP and WebSocket; the handler that answers `ChannelShouldQuiesceEvent` (Hummingbird's
/// `HTTPConnectionStateHandler`: close now if idle, else after the response) is added only once that request was
/// found not to be an upgrade. The quiesce event sent at graceful shutdown is lost on such a connection, which then
/// stays open, and the server waits for it for ever: a client that opened a connection and sent nothing (an HTTP
/// client's connection pool does this when it opens a connection for a request that another connection then took)
/// kept `suggest serve` from exiting after SIGINT/SIGTERM until the client closed it.
///
/// ``QuiesceBeforeFirstRequestHandler``, first in the pipeline, closes a connection that has received no byte yet,
/// and re-sends the event, once the pipeline has been set up, to one whose first request was under way.
struct QuiescingUpgradeChannel: ServerChildChannel {
    let base: HTTP1WebSocketUpgradeChannel
    /// How long a connection whose first request is under way at shutdown may take to answer it before it is closed.
    var gracePeriod: Duration = .seconds(10)
    var limits = ConnectionLimits()
    /// Counts connections against their maximum (nil: no maximum).
    var connections: ConnectionCounter? = nil

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        let gate = ConnectionGate(counter: connections)
        do {
            try channel.pipeline.syncOperations.addHandler(QuiesceBeforeFirstRequestHandler(gracePeriod: gracePeriod), position: .first)
            try channel.pipeline.syncOperations.addHandler(gate, position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let limits = self.limits
        let connections = self.connections
        return base.setup(channel: channel, logger: logger).assumeIsolated().flatMapThrowing { value in
            // Right after the request decoder, before the upgrade handler: it sees the decoder's errors first.
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let handler = ConnectionGuard(limits: limits, counter: connections)
            try operations.addHandler(handler, position: .after(decoder))
            gate.watch(handler, context: try operations.context(handler: handler))
            return value
        }.nonisolated()
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// See ``QuiescingUpgradeChannel``. Passes bytes through both ways untouched.
final class QuiesceBeforeFirstRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// Whether the peer has sent anything.
    private var received = false
    /// Whether a response has been written (the first request was read in full).
    private var responded = false
    let gracePeriod: Duration

    init(gracePeriod: Duration = .seconds(10)) { self.gracePeriod = gracePeriod }
    /// A quiesce event came while the first request was being read and the handlers after the upgrade handler
    /// (which would answer it) may not be there yet: re-send it with the first response, when they are.
    private var resendQuiesce = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received = true
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if !received {
            // No request will be read from this connection any more. Said as "input closed" first, so that the
            // upgrade handler gives up the way it does when a client closes an unused connection (its result
            // fails with `inputClosed`, which Hummingbird logs at trace level; a bare close fails it with an error
            // that Hummingbird logs at error level), then closed in any case.
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
            context.close(promise: nil)
        } else {
            resendQuiesce = !responded
            context.fireUserInboundEventTriggered(event)
            if !responded {
                // A first request that never completes (a client that stalled in the middle of it) must not hold
                // up shutdown for ever: closed after the grace period unless it was answered by then.
                let (seconds, attoseconds) = gracePeriod.components
                let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: delay) {
                    let (handler, context) = loopBound.value
                    if !handler.responded { context.close(promise: nil) }
                }
            }
        }
    }

    /// The whole HTTP response refusing the first request (a WebSocket upgrade), sent instead of what the pipeline
    /// writes for it (Hummingbird's bare 400 for an upgrade not made); see ``UpgradeRefusal``.
    private var refusal: ByteBuffer?
    private var refusalSent = false

    /// Makes the connection answer its first request (an upgrade being refused) with `problem`'s status, headers and
    /// JSON body, then close. Returns once the connection's handler has it. No effect on a connection without this
    /// handler.
    static func refuse(_ channel: any Channel, with problem: RequestProblem) async {
        var head = "HTTP/1.1 \(problem.status.code) \(problem.status.reasonPhrase)\r\n"
        head += "Content-Type: application/json; charset=utf-8\r\n"
        for field in problem.headers { head += "\(field.name.rawName): \(field.value)\r\n" }
        let body = JSONWriter.error(problem.message)
        let bytes = ByteBuffer(string: head + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: QuiesceBeforeFirstRequestHandler.self).refusal = bytes
        }.get()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let refusal {
            // The refused upgrade's own answer goes instead of the pipeline's; the rest of that answer is dropped
            // (the connection closes after it).
            if !refusalSent {
                refusalSent = true
                responded = true
                context.write(wrapOutboundOut(.byteBuffer(refusal)), promise: promise)
            } else {
                promise?.succeed(())
            }
            return
        }
        // The first response is written by the pipeline set up for the first request (HTTP, or the WebSocket
        // upgrade's 101): the event now reaches the handler that answers it. Sent once more at most.
        if resendQuiesce {
            resendQuiesce = false
            context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        responded = true
        context.write(data, promise: promise)
    }
}
#endif
