#if Server
import Foundation
import Logging
import NIOWebSocket
import ServiceLifecycle
import Suggest
import SuggestServer
import Synchronization
import Testing
import WSClient

/// A blocking loopback TCP connection, for what an HTTP client does not do on purpose (connect and send nothing,
/// or send a request and read to the end of the connection). Reads run on a dispatch thread.
final class LoopbackConnection: Sendable {
    let descriptor: Int32

    /// A connection to 127.0.0.1:`port`; from `source` (another loopback address, such as 127.0.0.2: Linux routes
    /// all of 127/8 to the loopback interface) when given, so that the server sees another client address.
    init(port: Int, from source: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr = in_addr(s_addr: inet_addr(source))
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(descriptor)
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Reads until the peer closes the connection (`closed` true) or until nothing came for `timeout` seconds.
    func readToEnd(timeout: Int = 10) async -> (text: String, closed: Bool) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [descriptor] in
                var limit = timeval(tv_sec: timeout, tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                var data: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 4096)
                var closed = false
                while true {
                    let n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 { closed = errno == ECONNRESET; break }  // EAGAIN: the time limit
                    if n == 0 { closed = true; break }
                    data += chunk[0..<n]
                }
                continuation.resume(returning: (String(decoding: data, as: UTF8.self), closed))
            }
        }
    }
}

/// `server`'s application running in a service group of its own (no signal handling, as in `suggest serve` but
/// triggered by the test), and its port.
struct RunningServer {
    let group: ServiceGroup
    let run: Task<Void, any Error>
    let port: Int

    init(_ server: SuggestServer) async throws {
        let (ports, found) = AsyncStream.makeStream(of: Int.self)
        let group = ServiceGroup(
            services: [server.makeApplication { found.yield($0) }],
            logger: Logger(label: "test")
        )
        self.group = group
        run = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        self.port = port
    }

    /// Triggers graceful shutdown; whether the group then ended within `limit`. If not, the group is cancelled and
    /// left behind (a server stuck on a connection does not end on cancellation either: Hummingbird's connection
    /// task waits for the upgrade result, a future).
    func stopsGracefully(within limit: Duration = .seconds(10)) async -> Bool {
        await group.triggerGracefulShutdown()
        let run = self.run
        let first = FirstAnswer()
        let stopped = await withCheckedContinuation { continuation in
            first.continuation.withLock { $0 = continuation }
            Task {
                _ = await run.result
                first.resume(true)
            }
            Task {
                try? await Task.sleep(for: limit)
                first.resume(false)
            }
        }
        if !stopped { run.cancel() }
        return stopped
    }
}

/// The first of two tasks to finish resumes the continuation; the other's answer is dropped.
final class FirstAnswer: Sendable {
    let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)
    func resume(_ value: Bool) { continuation.withLock { $0.take() }?.resume(returning: value) }
}

/// Graceful shutdown (SIGINT/SIGTERM in `suggest serve`) with connections in every state: it must always end.
struct GracefulShutdownTests {
    /// A connection that has sent nothing is closed: it used to keep the server from stopping until the client
    /// closed it (its pipeline did not answer the quiesce event before its first request).
    @Test(.timeLimit(.minutes(1)))
    func aConnectionThatSentNothingDoesNotHoldUpShutdown() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration(), options: ServerOptions(port: 0))
        let running = try await RunningServer(server)
        let idle = try LoopbackConnection(port: running.port)
        // A request on a second connection, accepted after the first: once it is answered, the server has taken
        // the idle connection in too.
        let other = try LoopbackConnection(port: running.port)
        other.send("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(await other.readToEnd().text.hasPrefix("HTTP/1.1 200"))

        #expect(await running.stopsGracefully())
        let (text, closed) = await idle.readToEnd()
        #expect(text == "" && closed)
    }

    /// A client that sent part of its first request and stalled is closed after the grace period: shutdown ends.
    @Test(.timeLimit(.minutes(1)))
    func aStalledFirstRequestIsClosedAfterTheGracePeriod() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(
            configuration: try fixture.configuration(),
            options: ServerOptions(port: 0, shutdownGracePeriod: .milliseconds(300)))
        let running = try await RunningServer(server)
        let stalled = try LoopbackConnection(port: running.port)
        stalled.send("GET /health HTTP/1.1\r\nHost: loc")
        // A whole request on another connection, accepted after the first: the server has read the partial one.
        let other = try LoopbackConnection(port: running.port)
        other.send("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(await other.readToEnd().text.hasPrefix("HTTP/1.1 200"))

        #expect(await running.stopsGracefully())
        #expect(await stalled.readToEnd().closed)
    }

    /// A request under way at shutdown is answered, then its keep-alive connection closes and the server stops.
    @Test(.timeLimit(.minutes(1)))
    func aRequestUnderWayIsAnsweredThenTheConnectionCloses() async throws {
        let gated = GatedProvider()
        let server = SuggestServer(
            configuration: EngineConfiguration(slots: [ProviderSlot(gated)]),
            options: ServerOptions(port: 0)
        )
        let running = try await RunningServer(server)
        let connection = try LoopbackConnection(port: running.port)
        connection.send("GET /suggest?q=slow HTTP/1.1\r\nHost: localhost\r\n\r\n")
        while gated.gate.withLock({ ($0?.count ?? 0) == 0 }) { try await Task.sleep(for: .milliseconds(5)) }

        async let stopped = running.stopsGracefully()
        try await Task.sleep(for: .milliseconds(50))  // lets the shutdown begin before the answer (else: no test)
        gated.open()
        let (text, closed) = await connection.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 200"), "\(text)")
        #expect(text.contains("answer to slow"), "\(text)")
        #expect(closed)
        #expect(await stopped)
    }

    /// A WebSocket client connected at shutdown gets a close frame and the server stops.
    @Test(.timeLimit(.minutes(1)))
    func aConnectedWebSocketIsClosedAndTheServerStops() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration(), options: ServerOptions(port: 0))
        let running = try await RunningServer(server)
        let (answered, answer) = AsyncStream.makeStream(of: String.self)
        let client = Task {
            try await WebSocketClient.connect(url: "ws://127.0.0.1:\(running.port)/ws", logger: Logger(label: "test")) {
                inbound, outbound, _ in
                try await outbound.write(.text(#"{"text": "py"}"#))
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                answer.yield(try await nextText(&messages))
                // Then stays connected, reading, until the server closes.
                while try await messages.next() != nil {}
            }
        }
        var answers = answered.makeAsyncIterator()
        let first = await answers.next() ?? ""
        #expect(texts(first) == ["python", "pytest"], "\(first)")

        #expect(await running.stopsGracefully())
        let close = try await client.value
        #expect(close?.closeCode == .normalClosure)
    }
}
#endif
