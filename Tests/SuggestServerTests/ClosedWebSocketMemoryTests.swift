#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import Logging
@testable import SuggestServer
import Synchronization
import Testing
import WSClient

/// A closed WebSocket leaves nothing behind: its request context (and with it the connection) is released.
///
/// The count of live request-context slots is process-wide, so `make test-server` runs this suite by itself.
@Suite(.timeLimit(.minutes(2)))
struct ClosedWebSocketMemoryTests {
    @Test func contextsOfClosedWebSocketsAreReleased() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(
            configuration: try fixture.configuration(), options: ServerOptions(port: 0, rateLimit: nil),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let before = UpgradeHandlerSlot.live.load(ordering: .relaxed)
        let sockets = 60
        try await server.makeApplication().test(.live) { client in
            for _ in 0..<sockets {
                _ = try await client.ws("/ws") { inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    try await outbound.write(.text(#"{"reset": true}"#))
                    _ = try await nextText(&messages)
                }
            }
            // The last connections may still be closing on the server's side.
            var waited = 0
            while UpgradeHandlerSlot.live.load(ordering: .relaxed) > before, waited < 100 {
                try await Task.sleep(for: .milliseconds(100))
                waited += 1
            }
            let left = UpgradeHandlerSlot.live.load(ordering: .relaxed) - before
            #expect(left <= 0, "\(left) of \(sockets) closed WebSockets' contexts are still alive")
        }
    }

    /// The sweep gives freed memory back to the system with glibc's `malloc_trim`, found at run time.
    @Test func theSweepCanReturnFreedMemory() throws {
        #if canImport(Glibc)
        let trim = try #require(SuggestServer.mallocTrim)
        _ = trim(0)
        #endif
        let server = SuggestServer(
            configuration: try Fixture().configuration(), options: ServerOptions(port: 0),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        server.sweep()
    }
}
#endif
