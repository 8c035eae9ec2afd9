#if Server
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// The request context of `suggest serve`'s routers: Hummingbird's WebSocket context, plus the connection (its
/// peer address decides whether a user header comes from a trusted proxy; an anonymous client's typing sessions
/// belong to its connection).
struct SuggestRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel
    private let upgrade: UpgradeHandlerSlot

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        upgrade = UpgradeHandlerSlot()
    }

    /// Where the WebSocket router keeps the accepted upgrade's handler until the connection is upgraded; dropped
    /// when the connection closes (see ``UpgradeHandlerSlot``).
    var webSocket: WebSocketHandlerReference<Self> { upgrade.reference(closingWith: channel) }

    var remoteAddress: SocketAddress? { channel.remoteAddress }
}

/// Holds a WebSocket route's handler reference for one request context, and lets it go when the connection closes.
///
/// Hummingbird's WebSocket router stores the request context inside the context's own handler reference, so a
/// context that held the reference directly would keep itself, its connection and the connection's buffers alive
/// after the connection closed (about 6 KB for every WebSocket). Here the context holds this slot; the slot drops the
/// reference when the connection's close future completes, which breaks the cycle. A slot asked after its
/// connection closed hands out a fresh reference that nothing keeps, so the upgrade is not made.
final class UpgradeHandlerSlot: Sendable {
    private struct State {
        var reference: WebSocketHandlerReference<SuggestRequestContext>?
        var closed = false
    }
    private let state = Mutex(State())

    /// How many slots are alive in the process (for tests: a closed connection's slot must go).
    static let live = Atomic<Int>(0)

    init() { Self.live.add(1, ordering: .relaxed) }

    deinit { Self.live.subtract(1, ordering: .relaxed) }

    func reference(closingWith channel: any Channel) -> WebSocketHandlerReference<SuggestRequestContext> {
        // A reference is made once: before the close (watched from then on), or never.
        let (reference, made) = state.withLock { state -> (WebSocketHandlerReference<SuggestRequestContext>, Bool) in
            if state.closed { return (WebSocketHandlerReference(), false) }
            if let reference = state.reference { return (reference, false) }
            let reference = WebSocketHandlerReference<SuggestRequestContext>()
            state.reference = reference
            return (reference, true)
        }
        if made {
            channel.closeFuture.whenComplete { [self] _ in
                state.withLock { state in
                    state.reference = nil
                    state.closed = true
                }
            }
        }
        return reference
    }
}
#endif
