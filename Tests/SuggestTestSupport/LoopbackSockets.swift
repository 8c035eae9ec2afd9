// Loopback sockets for the tests of the database clients (SuggestPostgresTests, SuggestServerTests): a proxy that
// can take the database away and bring it back, and a port that never answers.
public import Foundation

/// A TCP forwarder on a loopback port to the test database: ``stop()`` closes the port and cuts every forwarded
/// connection (the database "goes down"), ``start()`` listens again on the same port (it "comes back"); ``pause()``
/// holds every byte in both directions, connections staying open, as a stopped database would, until ``resume()``.
public final class TCPProxy: @unchecked Sendable {
    public let port: UInt16
    public let upstreamHost: String
    public let upstreamPort: UInt16
    private let lock = NSLock()
    private var listener: Int32 = -1
    private var sockets: Set<Int32> = []
    private let gate = NSCondition()
    private var paused = false

    public init(upstreamHost: String, upstreamPort: UInt16) throws {
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

    /// The IPv4 loopback address with `port`.
    public static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    public func start() throws {
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

    public func stop() {
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

    /// Holds every byte read from now on (in both directions) until ``resume()``; connections stay open.
    public func pause() {
        gate.withLock { paused = true }
    }

    /// Forwards again what was held, and whatever comes next.
    public func resume() {
        gate.withLock {
            paused = false
            gate.broadcast()
        }
    }

    private func waitWhilePaused() {
        gate.withLock {
            while paused { gate.wait() }
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
            waitWhilePaused()
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

/// A loopback port that accepts TCP connections (the kernel completes them into the backlog) and never answers:
/// a connection attempt to it hangs until the client's own timeout.
public final class SilentListener: Sendable {
    public let port: UInt16
    private let descriptor: Int32

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = TCPProxy.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        descriptor = fd
    }

    deinit { close(descriptor) }
}
