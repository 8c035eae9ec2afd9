#if Server
import NIOCore
import NIOEmbedded
@testable import SuggestServer
import Testing

/// Records the quiesce events that reach it.
final class QuiesceRecorder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    var quiesceEvents = 0

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { quiesceEvents += 1 }
        context.fireUserInboundEventTriggered(event)
    }
}

/// `QuiesceBeforeFirstRequestHandler` on its own (the server tests cover it in place).
struct QuiescingUpgradeChannelTests {
    /// Nothing received: the connection is closed at once.
    @Test func aConnectionThatSentNothingIsClosed() throws {
        let recorder = QuiesceRecorder()
        let channel = EmbeddedChannel(handlers: [QuiesceBeforeFirstRequestHandler(), recorder])
        try channel.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).wait()
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(!channel.isActive)
        #expect(recorder.quiesceEvents == 0)
    }

    /// A request under way: the event is passed on, and passed on again with the first response (the handler that
    /// answers it is added to the pipeline once the first request has been read), once.
    @Test func aRequestUnderWayGetsTheEventAgainWithItsFirstResponse() throws {
        let recorder = QuiesceRecorder()
        let channel = EmbeddedChannel(handlers: [QuiesceBeforeFirstRequestHandler(), recorder])
        try channel.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(ByteBuffer(string: "GET /suggest?q=p HTTP/1.1\r\n"))
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(channel.isActive)
        #expect(recorder.quiesceEvents == 1)
        try channel.writeOutbound(IOData.byteBuffer(ByteBuffer(string: "HTTP/1.1 200 OK\r\n")))
        #expect(recorder.quiesceEvents == 2)
        try channel.writeOutbound(IOData.byteBuffer(ByteBuffer(string: "content-length: 0\r\n\r\n")))
        #expect(recorder.quiesceEvents == 2)
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "GET /suggest?q=p HTTP/1.1\r\n"))
        _ = try channel.finish()
    }
}
#endif
