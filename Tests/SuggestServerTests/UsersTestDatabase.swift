#if Server
import Foundation
import Logging
import PostgresNIO
import SuggestPostgres
import Testing

/// The test database: `SUGGEST_TEST_POSTGRES_URL` (e.g. from `eval "$(bash .ci/postgres.sh start)"`). Without it
/// the users database tests are skipped with that reason (`make test-server` sets it, and
/// `SUGGEST_REQUIRE_POSTGRES=1`, whose check is in SuggestPostgresTests).
enum UsersTestDatabase {
    static let variable = "SUGGEST_TEST_POSTGRES_URL"
    static var url: String? {
        guard let url = ProcessInfo.processInfo.environment[variable], !url.isEmpty else { return nil }
        return url
    }
    static var isAvailable: Bool { url != nil }
    static let skipReason: Comment =
        "SUGGEST_TEST_POSTGRES_URL is not set: run `eval \"$(bash .ci/postgres.sh start)\"` (or `make test-server`) to run the users database tests"

    static func settings() throws -> PostgresConnectionSettings { try PostgresConnectionSettings(url: url!) }

    /// Runs `body` with a client of the test database of its own (not the code under test's).
    @discardableResult
    static func withClient<T: Sendable>(_ body: (PostgresClient) async throws -> T) async throws -> T {
        let client = PostgresClient(
            configuration: try settings().clientConfiguration(maximumConnections: 2),
            backgroundLogger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let runner = Task { await client.run() }
        defer { runner.cancel() }
        return try await body(client)
    }

    /// The searches stored for `user` and `provider` (nil: no row): each search's text and uses.
    static func stored(user: String, provider: String = "recent", client: PostgresClient) async throws
        -> [String: Int]?
    {
        let rows = try await client.query(
            "SELECT searches::text FROM suggest_user_recents WHERE user_id = \(user) AND provider = \(provider)")
        var found: [String: Int]? = nil
        for try await json in rows.decode(String.self) {
            let entries = (try JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: Any]] ?? []
            var uses: [String: Int] = [:]
            for entry in entries {
                let text = entry["text"] as? String ?? ""
                uses[text, default: 0] += entry["uses"] as? Int ?? 0
                #expect(uses[text] == entry["uses"] as? Int, "\(text) stored in two entries")
            }
            found = uses
        }
        return found
    }
}

/// A TCP forwarder on a loopback port to the test database: ``stop()`` closes the port and cuts every forwarded
/// connection (the database "goes down"), ``start()`` listens again on the same port (it "comes back").
final class TCPProxy: @unchecked Sendable {
    let port: UInt16
    let upstreamHost: String
    let upstreamPort: UInt16
    private let lock = NSLock()
    private var listener: Int32 = -1
    private var sockets: Set<Int32> = []

    init(upstreamHost: String, upstreamPort: UInt16) throws {
        self.upstreamHost = upstreamHost
        self.upstreamPort = upstreamPort
        // A free port: bind to 0, read it, close (start() binds it again with SO_REUSEADDR).
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        close(probe)
    }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    func start() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: port)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EADDRINUSE)
        }
        lock.withLock { listener = fd }
        Thread.detachNewThread { [self] in acceptLoop(fd) }
    }

    func stop() {
        lock.withLock {
            if listener >= 0 {
                shutdown(listener, Int32(SHUT_RDWR))
                close(listener)
                listener = -1
            }
            // The pumps see the end of their sockets and close them.
            for s in sockets { shutdown(s, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop(_ fd: Int32) {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 { return }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: upstreamPort)
            address.sin_addr.s_addr = inet_addr(upstreamHost == "localhost" ? "127.0.0.1" : upstreamHost)
            let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            let open = lock.withLock { () -> Bool in
                guard listener == fd, connected == 0 else { return false }
                sockets.insert(client)
                sockets.insert(upstream)
                return true
            }
            guard open else {
                close(client)
                close(upstream)
                continue
            }
            Thread.detachNewThread { [self] in pump(from: client, to: upstream) }
            Thread.detachNewThread { [self] in pump(from: upstream, to: client) }
        }
    }

    private func pump(from source: Int32, to target: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            while offset < n {
                let w = buffer.withUnsafeBytes { write(target, $0.baseAddress! + offset, n - offset) }
                if w <= 0 { break }
                offset += w
            }
            if offset < n { break }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(target, Int32(SHUT_RDWR))
        lock.withLock {
            if sockets.remove(source) != nil { close(source) }
            if sockets.remove(target) != nil { close(target) }
        }
    }

    deinit { stop() }
}

#endif
