#if Server
public import Suggest

/// The settings of `suggest serve` (see the "Serving suggestions over HTTP" guide).
public struct ServerOptions: Sendable {
    /// The address to listen on (default 127.0.0.1: not reachable from other machines).
    public var host: String
    /// The port (default 8080; 0 picks a free one).
    public var port: Int
    /// Typing sessions kept at most; a new one beyond that ends the least recently used (default 10 000).
    public var maximumSessions: Int
    /// A session unused this long is forgotten (default 10 minutes).
    public var sessionIdleTimeout: Duration
    /// Per-user engines and their recents (`UserEngines/Options`).
    public var users: UserEngines.Options
    /// How often idle sessions and users are swept (default 30 s).
    public var sweepInterval: Duration
    /// The largest request body (POST, WebSocket message) in bytes; more is 413 (default 64 KiB).
    public var maximumBodyBytes: Int
    /// The longest request target (path and query) in bytes; longer is 414 (default 8 KiB).
    public var maximumTargetBytes: Int
    /// The longest `q` (text) in UTF-8 bytes; longer is 414 (default: the engine's maximum query length).
    public var maximumTextBytes: Int?
    /// The longest session id in UTF-8 bytes (default 100, as user ids).
    public var maximumSessionBytes: Int
    /// At graceful shutdown, a connection still reading its first request (a client that sent part of it and
    /// stalled) is closed after this long, so that shutdown always ends (default 10 s).
    public var shutdownGracePeriod: Duration
    /// The page served at `GET /` (`suggest serve --demo-page` serves ``DemoPage/bundled()``); nil, the default,
    /// leaves `GET /` unanswered (404).
    public var demoPage: DemoPage?
    /// Who is asking: bearer JWTs, a trusted proxy's header, `user=` (insecure) or nobody (default: anonymous).
    public var identity: Identity
    /// Exact origins (`https://app.example.com`) whose pages may call the server (CORS) and open its WebSocket,
    /// besides the server's own origin (default: none).
    public var allowedOrigins: [String]
    /// The longest header line (request line or one header field) in bytes; longer is 431 (default 16 KiB).
    public var maximumHeaderLineBytes: Int
    /// The most bytes in a request's head (request line and header fields together); more is 431 (default 32 KiB).
    public var maximumHeaderBytes: Int
    /// The most header fields in a request; more is 431 (default 100).
    public var maximumHeaderCount: Int
    /// A request head must be complete this long after the connection opened (first request) or after its first byte
    /// (later requests); else 408 and the connection is closed (default 10 s; nil: no limit).
    public var headerTimeout: Duration?
    /// A kept-alive connection that sends no byte of a next request for this long is closed (default 60 s; nil: no
    /// limit).
    public var keepAliveTimeout: Duration?
    /// Connections held at most; one more is answered 503 (`Retry-After: 1`) and closed (default nil: derived from
    /// the open-file limit when the server starts, see ``DescriptorLimit/defaultMaximumConnections(descriptors:)``).
    public var maximumConnections: Int?
    /// `Host` names the server answers to besides `localhost`, `127.0.0.1` and `[::1]` on its port (`NAME` with any
    /// port, `NAME:PORT` with that port, `*` any Host); others get 421 (default: none).
    public var allowedHosts: [String]
    /// A request body must be complete this long after its request's head; else 408 and the connection is closed
    /// (default 10 s; nil: no limit).
    public var bodyTimeout: Duration?
    /// Requests per second per client address and per identified user; beyond it HTTP requests get 429 with
    /// `Retry-After`, and WebSocket messages wait (default ``RateLimit/standard``: 50 a second, bursts of 100; nil:
    /// no limit).
    public var rateLimit: RateLimit?
    /// `GET /metrics` and who may read it (default nil: no `/metrics`, 404). See ``MetricsEndpoint``.
    public var metrics: MetricsEndpoint? = nil
    /// At graceful shutdown, how long `GET /ready` answers 503 while every other request is still served, before
    /// the server stops listening (default 0; used by ``SuggestServer/makeService(onServerRunning:)``).
    public var drainPeriod: Duration = .zero

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        maximumSessions: Int = 10_000,
        sessionIdleTimeout: Duration = .seconds(600),
        users: UserEngines.Options = UserEngines.Options(),
        sweepInterval: Duration = .seconds(30),
        maximumBodyBytes: Int = 64 * 1024,
        maximumTargetBytes: Int = 8 * 1024,
        maximumTextBytes: Int? = nil,
        maximumSessionBytes: Int = 100,
        shutdownGracePeriod: Duration = .seconds(10),
        demoPage: DemoPage? = nil,
        identity: Identity = .anonymous,
        allowedOrigins: [String] = [],
        allowedHosts: [String] = [],
        maximumHeaderLineBytes: Int = 16 * 1024,
        maximumHeaderBytes: Int = 32 * 1024,
        maximumHeaderCount: Int = 100,
        headerTimeout: Duration? = .seconds(10),
        keepAliveTimeout: Duration? = .seconds(60),
        maximumConnections: Int? = nil,
        bodyTimeout: Duration? = .seconds(10),
        rateLimit: RateLimit? = .standard
    ) {
        self.host = host
        self.port = port
        self.maximumSessions = max(1, maximumSessions)
        self.sessionIdleTimeout = sessionIdleTimeout
        self.users = users
        self.sweepInterval = sweepInterval
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumTargetBytes = maximumTargetBytes
        self.shutdownGracePeriod = shutdownGracePeriod
        self.maximumTextBytes = maximumTextBytes
        self.maximumSessionBytes = maximumSessionBytes
        self.demoPage = demoPage
        self.identity = identity
        self.allowedOrigins = allowedOrigins
        self.allowedHosts = allowedHosts
        self.maximumHeaderLineBytes = max(1, maximumHeaderLineBytes)
        self.maximumHeaderBytes = max(1, maximumHeaderBytes)
        self.maximumHeaderCount = max(1, maximumHeaderCount)
        self.headerTimeout = headerTimeout
        self.keepAliveTimeout = keepAliveTimeout
        self.maximumConnections = maximumConnections.map { max(1, $0) }
        self.bodyTimeout = bodyTimeout
        self.rateLimit = rateLimit
    }

    /// What each connection is held to (see ``ConnectionGuard``).
    var connectionLimits: ConnectionLimits {
        ConnectionLimits(
            maximumHeaderLineBytes: maximumHeaderLineBytes, maximumHeaderBytes: maximumHeaderBytes,
            maximumHeaderCount: maximumHeaderCount, headerTimeout: headerTimeout, keepAliveTimeout: keepAliveTimeout,
            bodyTimeout: bodyTimeout)
    }

    /// Whether `text` is an exact origin as ``allowedOrigins`` takes it: `http` or `https`, `://`, a host and an
    /// optional port, and nothing else (no path, not even `/`).
    public static func isExactOrigin(_ text: String) -> Bool { BrowserPolicy.isOrigin(text) }

    /// Whether `host` (an address or name to listen on) is a loopback one: `localhost`, `127.x.x.x` or `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        guard let bytes = AddressRange.bytes(of: host) else { return false }
        return bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
    }
}
#endif
