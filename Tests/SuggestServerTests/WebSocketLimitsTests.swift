#if Server
import Foundation
import Testing

/// A WebSocket over a raw loopback connection: the handshake, then masked client frames, sent without waiting for
/// answers (a flood), and the server's frames read back.
final class RawWebSocket: Sendable {
    let connection: LoopbackConnection

    init(port: Int) async throws {
        connection = try LoopbackConnection(port: port)
        connection.send(
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        let head = await connection.readResponse()
        guard head.status == 101 else { throw Refused(response: head) }
    }

    struct Refused: Error { var response: RawResponse }

    /// A masked client frame (`opcode` 1 text, 8 close).
    static func frame(_ payload: [UInt8], opcode: UInt8 = 1) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            bytes.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65_536 {
            bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        bytes += mask
        for (i, byte) in payload.enumerated() { bytes.append(byte ^ mask[i % 4]) }
        return bytes
    }

    func sendText(_ text: String) { connection.send(bytes: Self.frame(Array(text.utf8))) }

    /// Reads frames until `count` text frames came or a close frame (its code) or the end of the connection.
    func read(texts count: Int, timeout: Int = 10) async -> (texts: [String], closeCode: Int?) {
        await read(timeout: timeout) { $0.count >= count }
    }

    /// Reads frames until `done` holds for the text frames read, or a close frame (its code) or the end of the
    /// connection.
    func read(timeout: Int = 10, until done: @escaping @Sendable ([String]) -> Bool) async
        -> (texts: [String], closeCode: Int?)
    {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [descriptor = connection.descriptor] in
                var limit = timeval(tv_sec: timeout, tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                var buffer: [UInt8] = []
                var texts: [String] = []
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while true {
                    // Parse whole frames (the server's are unmasked).
                    while buffer.count >= 2 {
                        var length = Int(buffer[1] & 0x7F), offset = 2
                        if length == 126 {
                            guard buffer.count >= 4 else { break }
                            length = Int(buffer[2]) << 8 | Int(buffer[3])
                            offset = 4
                        } else if length == 127 {
                            guard buffer.count >= 10 else { break }
                            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                            offset = 10
                        }
                        guard buffer.count >= offset + length else { break }
                        let opcode = buffer[0] & 0x0F
                        let payload = Array(buffer[offset..<offset + length])
                        buffer.removeFirst(offset + length)
                        if opcode == 8 {
                            let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
                            continuation.resume(returning: (texts, code))
                            return
                        }
                        if opcode == 1 { texts.append(String(decoding: payload, as: UTF8.self)) }
                        if done(texts) {
                            continuation.resume(returning: (texts, nil))
                            return
                        }
                    }
                    let n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    buffer += chunk[0..<n]
                }
                continuation.resume(returning: (texts, nil))
            }
        }
    }
}

/// The CPU time (user + system) a process has used, in seconds, from /proc/PID/stat.
func cpuSeconds(of pid: Int32) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let end = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    // After the command: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// WebSocket limits of the built `suggest serve`: latest wins, nothing computed after close, message size, UTF-8.
@Suite(.timeLimit(.minutes(2)))
struct WebSocketLimitsTests {
    /// A fixture whose dictionary is large enough, and searched fuzzily, so that a keystroke costs real time.
    static func largeFixture() throws -> Fixture {
        let fixture = try Fixture(extraProviders: #", {"type": "fuzzy", "dictionary": "words.tsv"}"#)
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var lines = ""
        for i in 0..<60_000 {
            let word = String((0..<Int.random(in: 4...12, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
            lines += "\(word)\t\(60_000 - i)\n"
        }
        try lines.write(toFile: fixture.folder + "/words.tsv", atomically: true, encoding: .utf8)
        return fixture
    }

    /// 20,000 keystrokes sent at once, then the socket closes: the server stops spending CPU on them at once.
    @Test func floodStopsCostingCPUOnceTheSocketCloses() async throws {
        let fixture = try Self.largeFixture()
        let server = try await SpawnedServer(fixture, [])
        let pid = server.process.processIdentifier
        let socket = try await RawWebSocket(port: server.port)
        var flood: [UInt8] = []
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for i in 0..<20_000 {
            let text = String((0..<8).map { letters[($0 * 7 + i) % 26] })
            flood += RawWebSocket.frame(Array(#"{"text":"\#(text)"}"#.utf8))
        }
        socket.connection.send(bytes: flood)
        // At least one answer came: the keystrokes are being computed.
        let (answers, _) = await socket.read(texts: 1)
        #expect(answers.count == 1)
        shutdown(socket.connection.descriptor, Int32(SHUT_RDWR))
        // The keystroke under way when the socket closed may finish (a debug build on a machine busy with the other
        // tests' servers: up to a few seconds); the queued ones must not run. Computing them would keep a core busy
        // for minutes (about 2 CPU seconds in every 2 s), so within 10 s a 2-second window must use less than 0.5.
        try await Task.sleep(for: .seconds(1))
        var windows: [Double] = []
        for _ in 0..<5 {
            let before = try #require(cpuSeconds(of: pid))
            try await Task.sleep(for: .seconds(2))
            let after = try #require(cpuSeconds(of: pid))
            windows.append(after - before)
            if after - before < 0.5 { break }
        }
        #expect(windows.last.map { $0 < 0.5 } == true, "CPU seconds in each 2 s window after close: \(windows)")
        #expect(try await server.get("/health").status == 200)
    }

    /// Keystrokes faster than the engine: only the newest waiting one is computed, and the last keystroke is always
    /// answered.
    @Test func latestKeystrokeWinsAndIsAnswered() async throws {
        let fixture = try Self.largeFixture()
        let server = try await SpawnedServer(fixture, [])
        let socket = try await RawWebSocket(port: server.port)
        var flood: [UInt8] = []
        for i in 0..<2_000 { flood += RawWebSocket.frame(Array(#"{"text":"k\#(i)"}"#.utf8)) }
        flood += RawWebSocket.frame(Array(#"{"text":"py"}"#.utf8))
        socket.connection.send(bytes: flood)
        let (seen, close) = await socket.read(timeout: 30) { texts in
            texts.last.map { object($0)["text"] as? String } == "py"
        }
        #expect(close == nil)
        #expect((seen.last.map { object($0)["text"] as? String }) == "py")
        #expect(seen.count < 2_001, "\(seen.count) answers: each keystroke was computed")
        // Keystroke n on the connection has generation n, the ones never computed counted too: a client that
        // numbers its keystrokes knows which one an answer is for.
        for answer in seen {
            let fields = object(answer)
            let text = try #require(fields["text"] as? String)
            let expected = text == "py" ? 2_001 : try #require(Int(text.dropFirst())) + 1
            #expect(fields["generation"] as? Int == expected, "\(text): generation \(fields["generation"] ?? "none")")
        }
    }

    /// A text message of 64 KiB is read (the documented limit); one byte more closes the socket with 1009.
    @Test func messageLimitIsTheDocumented64KiB() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, [])
        let socket = try await RawWebSocket(port: server.port)
        let filler = String(repeating: " ", count: 64 * 1024 - #"{"reset":true}"#.utf8.count)
        socket.sendText(#"{"reset":true}"# + filler)
        let (texts, close) = await socket.read(texts: 1)
        #expect(close == nil)
        #expect(texts.count == 1, "\(texts)")
        socket.sendText(#"{"reset":true}"# + filler + " ")
        let (_, tooLarge) = await socket.read(texts: 1)
        #expect(tooLarge == 1009)
    }

    /// A text message that is not UTF-8 closes the socket with 1007.
    @Test func invalidUTF8TextClosesWith1007() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, [])
        let socket = try await RawWebSocket(port: server.port)
        socket.connection.send(bytes: RawWebSocket.frame(Array(#"{"text":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)))
        let (texts, close) = await socket.read(texts: 1)
        #expect(texts.isEmpty, "\(texts)")
        #expect(close == 1007)
    }
}
#endif
