#if Server
import Foundation
import NIOCore
import NIOHTTP1
import SuggestCore
import SuggestWire
import Synchronization

/// The limits a connection is held to before and between its requests (see the "Limits" section of the guide).
struct ConnectionLimits: Sendable {
    /// The longest header line (the request line, or one header field) in bytes; more is 431.
    var maximumHeaderLineBytes: Int = 16 * 1024
    /// The most bytes of all of a request's header lines together; more is 431.
    var maximumHeaderBytes: Int = 32 * 1024
    /// The most header fields in a request; more is 431.
    var maximumHeaderCount: Int = 100
    /// A request head (request line and headers) must be complete this long after the connection opened, or after
    /// its first byte on a connection that has answered a request; else 408 and close (nil: no limit).
    var headerTimeout: Duration? = .seconds(10)
    /// A kept-alive connection that sends no byte of a next request for this long is closed (nil: no limit).
    var keepAliveTimeout: Duration? = .seconds(60)
    /// A request's body must be complete this long after its head was read; else 408 and close (nil: no limit).
    var bodyTimeout: Duration? = .seconds(10)
}

/// Sits right after NIO's HTTP request decoder in every connection's pipeline, until the connection is upgraded to a
/// WebSocket (it removes itself when the 101 goes out).
///
/// - A request the decoder cannot parse (bad request line, bad header, `Transfer-Encoding` with `Content-Length`, …)
///   is answered 400, one whose header lines go beyond ``ConnectionLimits`` 431, and the connection is closed at
///   once. A response under way is finished first. The decoder's error goes no further (Hummingbird would answer it
///   with an empty 400 after its first request and not at all before it, then keep the connection open).
/// - The header, body and keep-alive timeouts of ``ConnectionLimits``: a head, or a body, not complete in time is
///   answered 408 and the connection closed (a body still coming after its request was answered: closed); a
///   kept-alive connection silent for too long is closed.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    enum Phase {
        /// Waiting for the first byte of a request (a new connection, or one whose responses are all written).
        case idle
        /// A request's first bytes came, its head is not complete.
        case readingHead
        /// Heads read whose responses are not all written.
        case busy
        /// Closing: nothing more is read or written.
        case closing
    }

    let limits: ConnectionLimits
    private(set) var phase = Phase.idle
    /// Requests whose head was read and whose response has not ended.
    private var pending = 0
    /// Whether a response head was written and its end not yet.
    private var responseUnderway = false
    /// A parse error came while a response was under way: close once it ends.
    private var closeAfterResponse = false
    /// Whether any request was read on this connection (the first one's head is timed from the connection's start).
    private var answeredOne = false
    /// A request's head was read and its end not yet: the body timer runs.
    private var readingBody = false
    private var timer: Scheduled<Void>?
    /// Whether the handler left the pipeline (after a WebSocket upgrade).
    private(set) var removed = false
    /// The 101 went out: everything passes untouched until the handler leaves (at the next flush).
    private var upgraded = false

    /// Told when the connection's first request head is read (it keeps its place from then on).
    let counter: ConnectionCounter?

    init(limits: ConnectionLimits, counter: ConnectionCounter? = nil) {
        self.limits = limits
        self.counter = counter
    }

    // MARK: Timers

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startTimer(context, limits.headerTimeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if timer == nil && phase == .idle { startTimer(context, limits.headerTimeout) }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
        timer?.cancel()
        timer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        phase = .closing
        context.fireChannelInactive()
    }

    /// Called by ``ConnectionGate`` (before the decoder) whenever bytes arrive.
    func bytesReceived(context: ChannelHandlerContext) {
        guard phase == .idle else { return }
        phase = .readingHead
        // A new connection's first head is timed from the connection's start (the timer runs already).
        if answeredOne { startTimer(context, limits.headerTimeout) }
    }

    private func startTimer(_ context: ChannelHandlerContext, _ duration: Duration?) {
        timer?.cancel()
        timer = nil
        guard let duration else { return }
        let (seconds, attoseconds) = duration.components
        let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: delay) {
            let (handler, context) = loopBound.value
            handler.timerFired(context: context)
        }
    }

    private func timerFired(context: ChannelHandlerContext) {
        timer = nil
        switch phase {
        case .readingHead:
            refuse(context, .requestTimeout, "request head not complete within \(Self.seconds(limits.headerTimeout)) s")
        case .idle:
            // Nothing was asked: no answer to give, the connection just ends.
            close(context)
        case .busy where readingBody:
            let message = "request body not complete within \(Self.seconds(limits.bodyTimeout)) s"
            if responseUnderway {
                closeAfterResponse = true
            } else if pending == 0 {
                // Its request was answered already: nothing more to say.
                close(context)
            } else {
                refuse(context, .requestTimeout, message)
            }
        case .busy, .closing:
            break
        }
    }

    static func seconds(_ duration: Duration?) -> String {
        guard let duration else { return "∞" }
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds)" }
        return String(format: "%g", Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The connection was chosen to make room for a new one (``ConnectionCounter``): unless a whole request head
    /// came meanwhile (it keeps its place then), it is answered 408 and closed. A client whose request was on its
    /// way learns why it was closed; an idle one may ignore the answer.
    func evicted(context: ChannelHandlerContext, _ eviction: ConnectionEviction) {
        switch phase {
        case .idle where answeredOne, .busy, .closing:
            // Its head came between the choice and this event (it may even be answered already): it keeps its place.
            return
        case .idle, .readingHead:
            refuse(
                context, .requestTimeout,
                "closed to make room for a new connection: the server holds its most connections "
                    + "(\(eviction.maximum)) and this one had not sent a whole request head")
        }
    }

    // MARK: Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !upgraded else { return context.fireChannelRead(data) }
        guard phase != .closing else { return }
        switch unwrapInboundIn(data) {
        case .head:
            pending += 1
            if !answeredOne { counter?.proven(context.channel) }
            answeredOne = true
            phase = .busy
            readingBody = true
            startTimer(context, limits.bodyTimeout)
        case .end:
            if readingBody {
                readingBody = false
                timer?.cancel()
                timer = nil
                // Answered before its body was all read: the connection waits for a next request now.
                if pending == 0 && phase == .busy {
                    phase = .idle
                    startTimer(context, limits.keepAliveTimeout)
                }
            }
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let parseError: HTTPParserError?
        switch error {
        case let error as HTTPParserError: parseError = error
        case let error as ByteToMessageDecoderError:
            // More bytes after a parse error: the answer went out already (or goes out when the response ends).
            if case .dataReceivedInErrorState(let error as HTTPParserError, _) = error {
                parseError = error
            } else {
                parseError = nil
            }
        default: parseError = nil
        }
        guard let parseError else {
            context.fireErrorCaught(error)
            return
        }
        guard phase != .closing, !closeAfterResponse else { return }
        let (status, message) = Self.answer(to: parseError, limits: limits)
        if responseUnderway {
            closeAfterResponse = true
        } else {
            refuse(context, status, message)
        }
    }

    /// The status and message answering a parse error.
    static func answer(to error: HTTPParserError, limits: ConnectionLimits) -> (HTTPResponseStatus, String) {
        switch error {
        case .headerOverflow:
            return (
                .requestHeaderFieldsTooLarge,
                "request header fields too large (at most \(limits.maximumHeaderCount) fields, "
                    + "\(limits.maximumHeaderLineBytes) bytes per line, \(limits.maximumHeaderBytes) bytes in all)"
            )
        case .unexpectedContentLength:
            return (.badRequest, "malformed request: Content-Length with Transfer-Encoding")
        default:
            return (.badRequest, "malformed request: \(error)")
        }
    }

    // MARK: Responses

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !upgraded else { return context.write(data, promise: promise) }
        guard phase != .closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status == .switchingProtocols:
            // A WebSocket: the HTTP handlers go, and so does this one, once the 101 is flushed (a write and its
            // flush may come as one call, whose flush would be lost if the handler left in between).
            context.write(data, promise: promise)
            timer?.cancel()
            timer = nil
            upgraded = true
        case .head(let head) where head.status.code < 200:
            context.write(data, promise: promise)
        case .head:
            responseUnderway = true
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            context.write(data, promise: promise)
            responseUnderway = false
            pending = max(0, pending - 1)
            if closeAfterResponse {
                context.flush()
                close(context)
            } else if pending == 0 && phase == .busy && !readingBody {
                phase = .idle
                startTimer(context, limits.keepAliveTimeout)
            }
        }
    }

    func flush(context: ChannelHandlerContext) {
        context.flush()
        if upgraded && !removed {
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    /// Answers `status` with a JSON error and `Connection: close`, then closes.
    func refuse(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ message: String) {
        guard phase != .closing else { return }
        let body = JSONWriter.error(message)
        let headers = HTTPHeaders([
            ("Content-Type", "application/json; charset=utf-8"), ("Content-Length", "\(body.utf8.count)"),
            ("Connection", "close"),
        ])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        close(context)
    }

    /// Closes the connection. Said as "input closed" to the handlers after this one first: NIO's upgrade handler
    /// (before the first request is read) then ends the way it does when a client goes, which Hummingbird logs at
    /// trace level rather than as an error.
    func close(_ context: ChannelHandlerContext) {
        guard phase != .closing else { return }
        phase = .closing
        timer?.cancel()
        timer = nil
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        context.close(promise: nil)
    }
}

/// Counts the open connections against a maximum, and keeps the ones that have not sent a whole request yet.
///
/// At the maximum, a new connection takes the place of the oldest connection that has not sent a whole request
/// head (one that sent nothing, or a slowloris head): that one is answered 408 and closed, the new one admitted. So
/// idle and slowloris sockets cannot keep new clients out; connections that sent a request (kept-alive ones,
/// WebSockets) keep their places. When every connection has sent a request, or while evicted ones are still closing
/// (at most ``evictionSlack`` beyond the maximum), a new connection is refused (503).
///
/// (Evicting connections that sent nothing before those with a head under way measured worse under attack: slowloris
/// heads then kept their places until the header timeout, and requests whose client was slow to send its first
/// bytes were evicted instead.)
final class ConnectionCounter: Sendable {
    let maximum: Int
    /// How many connections beyond the maximum may be open while evicted ones close.
    let evictionSlack: Int
    private let open = Atomic<Int>(0)
    /// Connections that have not sent a whole request head yet, in their order of arrival.
    private let waiting = Mutex(ArrivalQueue())
    /// Called for each connection beyond the maximum that is refused.
    let onRefusal: @Sendable () -> Void
    /// Called for each connection closed to make room for a new one.
    let onEviction: @Sendable () -> Void

    init(
        maximum: Int, evictionSlack: Int = 16, onRefusal: @escaping @Sendable () -> Void = {},
        onEviction: @escaping @Sendable () -> Void = {}
    ) {
        self.maximum = max(1, maximum)
        self.evictionSlack = max(0, evictionSlack)
        self.onRefusal = onRefusal
        self.onEviction = onEviction
    }

    var count: Int { open.load(ordering: .relaxed) }

    /// How many admitted connections have not sent a whole request head yet.
    var waitingCount: Int { waiting.withLock { $0.count } }

    /// Counts a new connection; false when it is refused (it is counted anyway, until ``closed(_:)``). Beyond the
    /// maximum, the connection that has waited longest without sending a whole request head is closed to make room,
    /// if there is one.
    func opened(_ channel: any Channel) -> Bool {
        let count = open.wrappingAdd(1, ordering: .relaxed).newValue
        if count > maximum {
            let evicted =
                count <= maximum + evictionSlack
                ? waiting.withLock { $0.takeOldest() } : nil
            guard let evicted else {
                onRefusal()
                return false
            }
            onEviction()
            // Answered 408 and closed on its own event loop (``ConnectionGate``), so that a request whose bytes
            // are on their way still gets a status.
            evicted.pipeline.fireUserInboundEventTriggered(ConnectionEviction(maximum: maximum))
        }
        waiting.withLock { $0.append(channel) }
        return true
    }

    /// `channel` sent a whole request head: it keeps its place from now on.
    func proven(_ channel: any Channel) {
        waiting.withLock { $0.remove(ObjectIdentifier(channel)) }
    }

    /// A counted connection closed.
    func closed(_ channel: any Channel) {
        open.wrappingSubtract(1, ordering: .relaxed)
        proven(channel)
    }
}

/// Told to a connection closed to make room for a new one (``ConnectionCounter``).
struct ConnectionEviction: Sendable {
    let maximum: Int
}

/// Channels in their order of arrival: append, remove any, take the oldest, each O(1) amortized.
struct ArrivalQueue: Sendable {
    private var next: UInt64 = 0
    private var oldest: UInt64 = 0
    private var byID: [ObjectIdentifier: UInt64] = [:]
    private var byOrder: [UInt64: any Channel] = [:]

    var count: Int { byID.count }

    mutating func append(_ channel: any Channel) {
        byID[ObjectIdentifier(channel)] = next
        byOrder[next] = channel
        next += 1
    }

    /// Removes `id`; false when it was not here.
    @discardableResult
    mutating func remove(_ id: ObjectIdentifier) -> Bool {
        guard let order = byID.removeValue(forKey: id) else { return false }
        byOrder[order] = nil
        skipHoles()
        return true
    }

    mutating func takeOldest() -> (any Channel)? {
        skipHoles()
        guard oldest < next, let channel = byOrder.removeValue(forKey: oldest) else { return nil }
        byID[ObjectIdentifier(channel)] = nil
        oldest += 1
        skipHoles()
        return channel
    }

    private mutating func skipHoles() {
        while oldest < next && byOrder[oldest] == nil { oldest += 1 }
    }
}

/// First in every connection's pipeline. Counts the connection (``ConnectionCounter``): one refused beyond the
/// maximum is answered 503 with `Retry-After` and closed before anything else is read from it. Tells the connection's
/// ``ConnectionGuard`` when bytes arrive (the guard, after the HTTP decoder, sees whole request parts only). Passes
/// bytes through both ways untouched.
final class ConnectionGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let counter: ConnectionCounter?
    private var counted = false
    private var refused = false
    /// The guard and its context, once the pipeline is set up; nil after a WebSocket upgrade.
    private var guarded: (ConnectionGuard, ChannelHandlerContext)?

    init(counter: ConnectionCounter?) { self.counter = counter }

    func watch(_ handler: ConnectionGuard, context: ChannelHandlerContext) { guarded = (handler, context) }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { count(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        count(context)
        context.fireChannelActive()
    }

    private func count(_ context: ChannelHandlerContext) {
        guard let counter, !counted else { return }
        counted = true
        if !counter.opened(context.channel) {
            refused = true
            let body = JSONWriter.error("too many connections (at most \(counter.maximum)); try again later")
            let response =
                "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: response)), promise: nil)
            // Said as "input closed" first, so that the handlers after this one end the way they do when a client
            // goes (see `ConnectionGuard.close`).
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if counted {
            counted = false
            counter?.closed(context.channel)
        }
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if counted {
            counted = false
            counter?.closed(context.channel)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let eviction = event as? ConnectionEviction else {
            return context.fireUserInboundEventTriggered(event)
        }
        if let (handler, guardContext) = guarded, !handler.removed {
            handler.evicted(context: guardContext, eviction)
        } else if !refused {
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if let (handler, guardContext) = guarded {
            if !handler.removed {
                handler.bytesReceived(context: guardContext)
            } else {
                guarded = nil
            }
        }
        context.fireChannelRead(data)
    }
}
#endif
