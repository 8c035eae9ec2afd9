#if Server
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of `suggest serve`'s routers: Hummingbird's WebSocket context, plus the connection (its
/// peer address decides whether a user header comes from a trusted proxy; an anonymous client's typing sessions
/// belong to its connection).
struct SuggestRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }

    var remoteAddress: SocketAddress? { channel.remoteAddress }
}
#endif
