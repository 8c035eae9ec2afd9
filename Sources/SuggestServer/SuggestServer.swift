#if Server
public import CoreMetrics
import Foundation
public import Hummingbird
import HummingbirdWebSocket
public import Logging
import NIOCore
import ServiceLifecycle
public import Suggest
import SuggestWire
import Synchronization

/// `suggest serve`: one configuration's engine over HTTP and WebSocket, with per-session typing state and per-user
/// recents (`UserEngines`). See the "Serving suggestions over HTTP" guide for the protocol.
///
/// ```swift
/// let server = SuggestServer(configuration: try EngineConfiguration(contentsOf: path, registry: .builtIn))
/// try await server.makeApplication().runService()   // SIGINT/SIGTERM: graceful shutdown, recents saved
/// ```
public final class SuggestServer: Sendable {
    public let configuration: EngineConfiguration
    public let options: ServerOptions
    /// The engine of requests without `user=`: the configuration's own providers (its recents store included).
    public let sharedEngine: SuggestionEngine
    /// The engines of requests with `user=`.
    public let users: UserEngines
    let sessions: SessionTable
    let metrics: ServerMetrics
    public let logger: Logger

    /// - Parameters:
    ///   - configuration: loaded once; every user's engine is made from it.
    ///   - options: the address, the bounds on sessions and users, and the request limits.
    ///   - logger: where the server logs its own events (the engines log through the configuration's logger).
    ///   - metricsFactory: where metrics go; nil uses the process's `MetricsSystem`.
    public init(
        configuration: EngineConfiguration,
        options: ServerOptions = ServerOptions(),
        logger: Logger = Logger(label: "suggest.serve"),
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.configuration = configuration
        self.options = options
        self.sharedEngine = configuration.makeEngine()
        self.users = UserEngines(configuration: configuration, options: options.users)
        self.sessions = SessionTable(maximum: options.maximumSessions, idleTimeout: options.sessionIdleTimeout)
        self.metrics = ServerMetrics(factory: metricsFactory)
        self.logger = logger
    }

    /// The number of typing sessions kept now.
    public var sessionCount: Int { sessions.count }

    /// The longest accepted `q`.
    var maximumTextBytes: Int { options.maximumTextBytes ?? configuration.options.maxQueryLength }

    /// The HTTP and WebSocket application, with the sweeper service (idle sessions and users; recents saved at
    /// shutdown) in its service group. Shutdown order: the server stops taking requests and lets in-flight ones
    /// finish, then the sweeper saves every user's recents.
    /// - Parameter onServerRunning: called with the bound port once the server listens (port 0 picks one).
    public func makeApplication(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.add(middleware: RequestTimer(metrics: metrics, maximumTargetBytes: options.maximumTargetBytes))
        router.add(middleware: JSONErrorMiddleware())
        addRoutes(to: router)
        let webSocketRouter = Router(context: BasicWebSocketRequestContext.self)
        webSocketRouter.add(middleware: JSONErrorMiddleware())
        addWebSocketRoute(to: webSocketRouter)
        return Application(
            router: router,
            server: .http1WebSocketUpgradeQuiescing(
                webSocketRouter: webSocketRouter, gracePeriod: options.shutdownGracePeriod),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "suggest"),
            services: [Sweeper(server: self)],
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    // MARK: Requests

    static let suggestParameters = ["q", "session", "user", "scope", "tokens"]
    static let postParameters = ["session", "user"]

    func addRoutes(to router: Router<BasicWebSocketRequestContext>) {
        if let page = options.demoPage {
            router.get("/") { request, _ -> Response in page.response(to: request) }
        }
        router.get("/health") { _, _ -> Response in
            .json("{\"status\":\"ok\",\"sessions\":\(self.sessions.count),\"users\":\(self.users.count)}")
        }
        router.get("/suggest") { request, _ -> Response in
            let parameters = try QueryParameters(request.uri.query, allowed: Self.suggestParameters)
            guard let text = parameters["q"] else { throw RequestProblem(.badRequest, "missing parameter \"q\"") }
            guard text.utf8.count <= self.maximumTextBytes else {
                throw RequestProblem(.uriTooLong, "q: longer than \(self.maximumTextBytes) UTF-8 bytes")
            }
            var tokens: [SearchToken] = []
            if let raw = parameters["tokens"] {
                do throws(BatchCommand.Problem) {
                    tokens = try BatchCommand.tokens(json: Array(raw.utf8))
                } catch {
                    throw RequestProblem(.badRequest, error.message)
                }
            }
            let command = BatchCommand(action: .text(text), tokens: tokens, scope: parameters["scope"].map { SearchScope($0) })
            return try await self.answer(command, parameters)
        }
        router.post("/submit") { request, _ -> Response in
            try await self.post(request) { .submit($0) }
        }
        router.post("/select") { request, _ -> Response in
            try await self.post(request) { .select($0) }
        }
        router.post("/reset") { request, _ -> Response in
            let parameters = try QueryParameters(request.uri.query, allowed: Self.postParameters)
            return try await self.answer(BatchCommand(action: .reset), parameters)
        }
    }

    /// Answers `POST /submit` or `/select`.
    func post(_ request: Request, _ action: (String) -> BatchCommand.Action) async throws -> Response {
        let parameters = try QueryParameters(request.uri.query, allowed: Self.postParameters)
        let body = try await request.body.collect(upTo: options.maximumBodyBytes)
        let command = try Self.command(body: Array(buffer: body), action: action)
        return try await answer(command, parameters)
    }

    /// A POST body: `{"text": string, "tokens"?: [...], "scope"?: string}`, read as `suggest batch` reads a line.
    static func command(body: [UInt8], action: (String) -> BatchCommand.Action) throws(RequestProblem) -> BatchCommand {
        do {
            return try BatchCommand.parse(body: body, action: action)
        } catch {
            throw RequestProblem(.badRequest, error.message)
        }
    }

    /// The engine of `user` (nil: the shared one).
    func engine(for user: String?) throws(RequestProblem) -> SuggestionEngine {
        guard let user else { return sharedEngine }
        do {
            return try users.engine(for: user)
        } catch {
            throw RequestProblem(.badRequest, "user: \(error)")
        }
    }

    /// Runs `command` in the request's session (or a fresh one) and answers its JSON.
    func answer(_ command: BatchCommand, _ parameters: QueryParameters) async throws(RequestProblem) -> Response {
        let user = parameters["user"]
        let session = parameters["session"]
        if let session, session.isEmpty || session.utf8.count > options.maximumSessionBytes
            || session.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            throw RequestProblem(
                .badRequest,
                "session: invalid session id (expected 1 to \(options.maximumSessionBytes) UTF-8 bytes, no control characters)"
            )
        }
        let engine = try engine(for: user)
        let now = ContinuousClock.now
        var processor =
            session.map { sessions.checkOut($0, user: user, engine: engine, now: now) } ?? BatchProcessor(engine: engine)
        var out = JSONBytes(capacity: 1024)
        await processor.answer(command, into: &out)
        if case .text = command.action, let result = processor.lastResult { metrics.providers(of: result) }
        if let session { sessions.checkIn(session, user: user, processor: processor, now: now) }
        return .json(out)
    }

    // MARK: WebSocket

    func addWebSocketRoute(to router: Router<BasicWebSocketRequestContext>) {
        router.ws("/ws") { request, _ in
            let parameters = try QueryParameters(request.uri.query, allowed: ["user"])
            _ = try self.engine(for: parameters["user"])
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let parameters = try QueryParameters(context.request.uri.query, allowed: ["user"])
            let engine = try self.engine(for: parameters["user"])
            try await WebSocketSession(engine: engine, metrics: self.metrics, maximumMessageBytes: self.options.maximumBodyBytes)
                .run(inbound: inbound, outbound: outbound)
        }
    }

    // MARK: Housekeeping

    /// Forgets idle sessions and evicts idle users (saving their recents).
    public func sweep(now: ContinuousClock.Instant = .now) {
        let forgotten = sessions.evictIdle(now: now)
        let failures = users.evictIdle(now: now)
        for failure in failures { logger.error("\(failure)") }
        if forgotten > 0 { logger.debug("forgot \(forgotten) idle sessions") }
    }

    /// Saves every user's recents and the shared engine's.
    /// - Returns: the problems, also logged.
    @discardableResult
    public func saveAll() -> [String] {
        var problems = users.saveAll().map(\.description)
        for case let provider as RecentsProvider in sharedEngine.providers where provider.store != nil {
            do { try provider.synchronize() } catch { problems.append("\(provider.id): recent searches not saved: \(error)") }
        }
        for problem in problems { logger.error("\(problem)") }
        return problems
    }
}

/// Sweeps idle sessions and users every ``ServerOptions/sweepInterval``; at graceful shutdown (after the HTTP server
/// has stopped, being before it in the service group) saves every user's recents.
struct Sweeper: Service {
    let server: SuggestServer

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: server.options.sweepInterval) }
            } catch {
                break
            }
            server.sweep()
        }
        server.saveAll()
        server.logger.debug("recent searches saved")
    }
}

/// Times each request (`suggest_request_duration`) and refuses a request target longer than the limit (414).
struct RequestTimer<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let maximumTargetBytes: Int

    @concurrent
    func handle(
        _ request: Request,
        context: Context,
        next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        if (request.head.path?.utf8.count ?? 0) > maximumTargetBytes {
            response = .json(
                JSONWriter.error("request target longer than \(maximumTargetBytes) bytes"),
                status: .uriTooLong
            )
        } else {
            response = try await next(request, context)
        }
        let elapsed = ContinuousClock.now - start
        let (seconds, attoseconds) = elapsed.components
        metrics.request(
            route: context.endpointPath ?? "unmatched",
            status: response.status.code,
            nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        )
        return response
    }
}
#endif
