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
import HTTPTypes

/// `suggest serve`: one configuration's engine over HTTP and WebSocket, with per-session typing state and per-user
/// recents (`UserEngines`) for the users that ``ServerOptions/identity`` verifies. See the "Serving suggestions over
/// HTTP" guide for the protocol, who is asking, and the rules for browsers.
///
/// ```swift
/// let server = SuggestServer(configuration: try EngineConfiguration(contentsOf: path, registry: .builtIn))
/// try await server.runService()   // SIGINT/SIGTERM: drain period, graceful shutdown, recents saved
/// ```
public final class SuggestServer: Sendable {
    public let configuration: EngineConfiguration
    public let options: ServerOptions
    /// The engine of anonymous HTTP requests: the configuration's providers with empty in-memory recents (its own
    /// recents store is not used). It never learns: anonymous `POST /submit` and `/select` are refused.
    public let sharedEngine: SuggestionEngine
    /// The engines of identified users.
    public let users: UserEngines
    let sessions: SessionTable
    let metrics: ServerMetrics
    let browser: BrowserPolicy
    let connections: ConnectionCounter
    /// The rate limits' buckets (nil: no rate limit).
    let rateLimiter: RateLimiter?
    let readiness = Readiness()
    public let logger: Logger

    /// - Parameters:
    ///   - configuration: loaded once; every user's engine is made from it.
    ///   - options: the address, the bounds on sessions and users, and the request limits.
    ///   - logger: where the server logs its own events (the engines log through the configuration's logger).
    ///   - metricsFactory: where metrics go besides ``ServerOptions/metrics``'s registry; nil: that registry alone,
    ///     or the process's `MetricsSystem` without ``ServerOptions/metrics``.
    public init(
        configuration: EngineConfiguration,
        options: ServerOptions = ServerOptions(),
        logger: Logger = Logger(label: "suggest.serve"),
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.configuration = configuration
        self.options = options
        self.users = UserEngines(configuration: configuration, options: options.users)
        self.sharedEngine = users.ephemeralEngine()
        self.browser = BrowserPolicy(options: options)
        self.sessions = SessionTable(maximum: options.maximumSessions, idleTimeout: options.sessionIdleTimeout)
        let metrics = ServerMetrics(factory: Self.factory(metricsFactory, options.metrics))
        self.metrics = metrics
        let descriptors = DescriptorLimit.current() ?? 1024
        let maximumConnections =
            options.maximumConnections ?? DescriptorLimit.defaultMaximumConnections(descriptors: descriptors)
        self.connections = ConnectionCounter(
            maximum: maximumConnections,
            evictionSlack: DescriptorLimit.evictionSlack(descriptors: descriptors, maximum: maximumConnections),
            onRefusal: { metrics.connectionRefused() }, onEviction: { metrics.connectionEvicted() })
        self.rateLimiter = options.rateLimit.map { RateLimiter(limit: $0) }
        self.logger = logger
    }

    /// The most connections held at once (``ServerOptions/maximumConnections``, or the default derived from the
    /// open-file limit when the server was made).
    public var maximumConnections: Int { connections.maximum }

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
        let router = Router(context: SuggestRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: RequestTimer(metrics: metrics, maximumTargetBytes: options.maximumTargetBytes))
        router.add(middleware: BrowserGate(policy: browser))
        router.add(middleware: JSONErrorMiddleware())
        addRoutes(to: router)
        let webSocketRouter = Router(context: SuggestRequestContext.self)
        webSocketRouter.add(middleware: UpgradeRefusal(policy: browser))
        addWebSocketRoute(to: webSocketRouter)
        return Application(
            router: router,
            server: .http1WebSocketUpgradeQuiescing(
                webSocketRouter: webSocketRouter, gracePeriod: options.shutdownGracePeriod,
                limits: options.connectionLimits, maximumMessageBytes: options.maximumBodyBytes,
                connections: connections),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "suggest"),
            services: [Sweeper(server: self)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                self.browser.port.store(port, ordering: .relaxed)  // the Host check's port
                await onServerRunning(port)
            },
            logger: logger
        )
    }

    // MARK: Requests

    static let suggestParameters = ["q", "composing", "session", "scope", "tokens"]
    static let postParameters = ["session"]

    /// The query's parameters: `allowed`, and `user` with ``Identity/insecureUserParameter`` only.
    func parameters(_ request: Request, _ allowed: [String]) throws(RequestProblem) -> QueryParameters {
        let parameters = try QueryParameters(request.uri.query, allowed: allowed + ["user"])
        if parameters["user"] != nil && !options.identity.acceptsUserParameter {
            let how =
                switch options.identity {
                case .bearer: "this server identifies users by bearer token"
                case .userHeader(let name, _): "this server identifies users by the proxy's \(name) header"
                default: "this server is anonymous"
                }
            throw RequestProblem(
                .badRequest, "parameter \"user\" is not accepted: \(how) (user= only with --insecure-user-parameter)")
        }
        return parameters
    }

    func addRoutes(to router: Router<SuggestRequestContext>) {
        if let page = options.demoPage {
            router.get("/") { request, _ -> Response in page.response(to: request) }
        }
        router.get("/health") { _, _ -> Response in
            .json("{\"status\":\"ok\",\"sessions\":\(self.sessions.count),\"users\":\(self.users.count)}")
        }
        router.get("/ready") { _, _ -> Response in self.readyResponse() }
        if let endpoint = options.metrics {
            router.get("/metrics") { request, context -> Response in
                if let problem = endpoint.problem(peer: context.remoteAddress?.ipAddress, headers: request.headers) {
                    throw problem
                }
                self.sampleGauges()
                return endpoint.response()
            }
        }
        router.get("/suggest") { request, context -> Response in
            let parameters = try self.parameters(request, Self.suggestParameters)
            guard let text = parameters["q"] else { throw RequestProblem(.badRequest, "missing parameter \"q\"") }
            let composing = parameters["composing"]
            guard text.utf8.count + (composing?.utf8.count ?? 0) <= self.maximumTextBytes else {
                throw RequestProblem(
                    .uriTooLong,
                    (composing == nil ? "q" : "q and composing") + ": longer than \(self.maximumTextBytes) UTF-8 bytes")
            }
            var tokens: [SearchToken] = []
            if let raw = parameters["tokens"] {
                do throws(BatchCommand.Problem) {
                    tokens = try BatchCommand.tokens(json: Array(raw.utf8))
                } catch {
                    throw RequestProblem(.badRequest, error.message)
                }
            }
            let command = BatchCommand(
                action: .text(text), tokens: tokens, scope: parameters["scope"].map { SearchScope($0) },
                composing: composing)
            let caller = try await self.admittedCaller(of: request, context: context, parameters: parameters)
            return try await self.answer(command, parameters, caller: caller, context: context)
        }
        router.post("/submit") { request, context -> Response in
            try await self.post(request, context) { .submit($0) }
        }
        router.post("/select") { request, context -> Response in
            try await self.post(request, context) { .select($0) }
        }
        router.post("/reset") { request, context -> Response in
            let parameters = try self.parameters(request, Self.postParameters)
            let caller = try await self.admittedCaller(of: request, context: context, parameters: parameters)
            return try await self.answer(BatchCommand(action: .reset), parameters, caller: caller, context: context)
        }
        // A GET /ws that asks for no upgrade: the same checks, then 426.
        router.get("/ws") { request, context -> Response in
            let parameters = try self.parameters(request, [])
            _ = try await self.admittedCaller(of: request, context: context, parameters: parameters, webSocket: true)
            throw RequestProblem(
                .upgradeRequired, "/ws is a WebSocket endpoint", headers: [HTTPField.Name("Upgrade")!: "websocket"])
        }
    }

    /// Answers `POST /submit` or `/select`: the caller is verified before the body is read; an anonymous one is
    /// refused (nothing is learned without an identity).
    func post(_ request: Request, _ context: SuggestRequestContext, _ action: (String) -> BatchCommand.Action)
        async throws -> Response
    {
        let parameters = try self.parameters(request, Self.postParameters)
        let caller = try await self.admittedCaller(of: request, context: context, parameters: parameters)
        guard caller != .anonymous else {
            throw RequestProblem(
                .forbidden,
                "anonymous requests cannot submit or select: nothing is learned without an identity "
                    + "(a WebSocket connection keeps its own recents)")
        }
        let body = try await request.body.collect(upTo: options.maximumBodyBytes)
        let command = try Self.command(body: Array(buffer: body), action: action)
        return try await answer(command, parameters, caller: caller, context: context)
    }

    /// A POST body: `{"text": string, "tokens"?: [...], "scope"?: string}`, read as `suggest batch` reads a line.
    static func command(body: [UInt8], action: (String) -> BatchCommand.Action) throws(RequestProblem) -> BatchCommand {
        do {
            return try BatchCommand.parse(body: body, action: action)
        } catch {
            throw RequestProblem(.badRequest, error.message)
        }
    }

    /// The engine of `user`.
    func engine(for user: String) throws(RequestProblem) -> SuggestionEngine {
        do {
            return try users.engine(for: user)
        } catch {
            throw RequestProblem(.badRequest, "user: \(error)")
        }
    }

    /// Runs `command` in the caller's session (or a fresh one) and answers its JSON. A user's sessions are theirs;
    /// an anonymous caller's belong to its connection.
    func answer(_ command: BatchCommand, _ parameters: QueryParameters, caller: Caller, context: SuggestRequestContext)
        async throws(RequestProblem) -> Response
    {
        let session = parameters["session"]
        if let session, session.isEmpty || session.utf8.count > options.maximumSessionBytes
            || session.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            throw RequestProblem(
                .badRequest,
                "session: invalid session id (expected 1 to \(options.maximumSessionBytes) UTF-8 bytes, no control characters)"
            )
        }
        let engine: SuggestionEngine
        let owner: SessionOwner
        switch caller {
        case .user(let user):
            engine = try self.engine(for: user)
            owner = .user(user)
        case .anonymous:
            engine = sharedEngine
            owner = .connection(context.channel)
        }
        // With a users database: what other replicas wrote for this user, before the keystroke (bounded wait).
        var note: String? = nil
        if case .text = command.action, case .user(let user) = caller, let database = users.options.recentsDatabase {
            note = await database.refresh(user: user, in: users)
        }
        let now = ContinuousClock.now
        var processor =
            session.map { sessions.checkOut($0, owner: owner, engine: engine, now: now) } ?? BatchProcessor(engine: engine)
        var out = JSONBytes(capacity: 1024)
        await processor.answer(command, into: &out)
        if case .text = command.action, let result = processor.lastResult { metrics.providers(of: result) }
        if let session { sessions.checkIn(session, owner: owner, processor: processor, now: now) }
        switch command.action {
        case .submit(let text):
            let acknowledgement = await receipt(forSubmitOn: engine, user: caller.userID, logger: context.logger)
            return .json(acknowledgement.json(submitted: text), status: acknowledgement.isUnsaved ? .accepted : .ok)
        case .text(let text):
            if let result = processor.lastResult {
                var shown = ClientText.redacted(result)
                if let note {
                    var noted = shown ?? result
                    noted.diagnostics.notes.append(note)
                    shown = noted
                }
                if let shown { return .json(JSONWriter.result(shown, text: text)) }
            }
        case .select:
            // A selection the recents record (`recordSelections`) is written as a submit is; its answer says nothing
            // about storage.
            if caller.userID != nil { _ = await writeQueued(of: engine) }
        default: break
        }
        return .json(out)
    }

    // MARK: Rate limits

    /// The buckets a request from `caller` on this connection takes from: its address's, unless the peer is a
    /// trusted proxy (one address for many users: its users' own buckets limit them), and its user's when known.
    func rateLimitedClients(caller: Caller?, context: SuggestRequestContext) -> [RateLimiter.Client] {
        var clients: [RateLimiter.Client] = []
        if let address = context.remoteAddress?.ipAddress, !isTrustedProxy(address) {
            clients.append(.address(address))
        }
        if case .user(let user) = caller { clients.append(.user(user)) }
        return clients
    }

    func isTrustedProxy(_ address: String) -> Bool {
        guard case .userHeader(_, let proxies) = options.identity else { return false }
        return proxies.contains { $0.contains(address) }
    }

    /// Takes a token from `client`'s bucket.
    /// - Throws: 429 with `Retry-After` (whole seconds, at least 1) when the bucket is empty.
    func admit(_ client: RateLimiter.Client) throws(RequestProblem) {
        guard let limiter = rateLimiter, let wait = limiter.take(client) else { return }
        let seconds = RateLimiter.retryAfterSeconds(wait)
        let limit = limiter.limit
        let whose: String =
            switch client {
            case .address: "per address"
            case .user: "per user"
            }
        metrics.rateLimited(
            scope: {
                switch client {
                case .address: "address"
                case .user: "user"
                }
            }())
        throw RequestProblem(
            .tooManyRequests,
            "too many requests: at most \(RateLimit.describe(limit.perSecond)) a second \(whose) (bursts of "
                + "\(limit.burst)); try again in \(seconds) s",
            headers: [.retryAfter: "\(seconds)"])
    }

    /// ``caller(of:context:parameters:webSocket:)`` within the rate limits: the address's bucket first (before a
    /// token is verified), then the user's.
    func admittedCaller(
        of request: Request, context: SuggestRequestContext, parameters: QueryParameters, webSocket: Bool = false
    ) async throws(RequestProblem) -> Caller {
        if rateLimiter != nil, let address = context.remoteAddress?.ipAddress, !isTrustedProxy(address) {
            try admit(.address(address))
        }
        let caller = try await self.caller(of: request, context: context, parameters: parameters, webSocket: webSocket)
        if rateLimiter != nil, case .user(let user) = caller { try admit(.user(user)) }
        return caller
    }

    // MARK: WebSocket

    /// `GET /ws`: upgraded once the caller is verified (a browser's token may come as the subprotocol entry
    /// `bearer.JWT` beside `suggest`, which the server then selects). A user's connection uses their engine; an
    /// anonymous one gets an engine of its own whose recents end with the connection.
    func addWebSocketRoute(to router: Router<SuggestRequestContext>) {
        router.ws("/ws") { request, context in
            let parameters = try self.parameters(request, [])
            if case .user(let user) = try await self.admittedCaller(
                of: request, context: context, parameters: parameters, webSocket: true)
            {
                _ = try self.engine(for: user)
            }
            return .upgrade(Self.offersSuggestProtocol(request) ? [.secWebSocketProtocol: Self.webSocketProtocol] : [:])
        } onUpgrade: { inbound, outbound, context in
            let parameters = try self.parameters(context.request, [])
            let caller = try await self.caller(
                of: context.request, context: context.requestContext, parameters: parameters, webSocket: true)
            let engine: SuggestionEngine
            switch caller {
            case .user(let user): engine = try self.engine(for: user)
            case .anonymous: engine = self.users.ephemeralEngine()
            }
            var session = WebSocketSession(
                engine: engine, metrics: self.metrics, maximumMessageBytes: self.options.maximumBodyBytes,
                connectionID: SuggestRequestID.accepting(context.request.headers[SuggestRequestID.header])
                    ?? SuggestRequestID.make(),
                logger: self.logger,
                receipt: { logger in await self.receipt(forSubmitOn: engine, user: caller.userID, logger: logger) })
            if case .user(let user) = caller, let database = self.users.options.recentsDatabase {
                session.beforeKeystroke = { await database.refresh(user: user, in: self.users) }
                session.afterSelect = { _ = await self.writeQueued(of: engine) }
            }
            if let limiter = self.rateLimiter {
                let clients = self.rateLimitedClients(caller: caller, context: context.requestContext)
                session.admission = {
                    for client in clients { await limiter.waitForToken(client) }
                }
            }
            try await session.run(inbound: inbound, outbound: outbound)
        }
    }

    // MARK: Housekeeping

    /// Forgets idle sessions, evicts idle users (saving their recents), writes popular searches not written yet, and
    /// gives memory freed since the last sweep back to the system (glibc's `malloc_trim`).
    public func sweep(now: ContinuousClock.Instant = .now) {
        let forgotten = sessions.evictIdle(now: now)
        let failures = users.evictIdle(now: now)
        savePopular()
        returnFreedMemory()
        sampleGauges()
        for failure in failures { logger.error("\(failure)") }
        if forgotten > 0 { logger.debug("forgot \(forgotten) idle sessions") }
    }

    /// Saves every user's recents (anonymous recents are never saved) and the popular searches.
    /// - Returns: the problems, also logged.
    @discardableResult
    public func saveAll() -> [String] {
        let problems = users.saveAll().map(\.description)
        for problem in problems { logger.error("\(problem)") }
        return problems + savePopular()
    }
}

extension SuggestServer {
    /// Gives the memory the process has freed back to the system (glibc's `malloc_trim`; nothing elsewhere).
    ///
    /// glibc keeps freed memory in per-thread arenas for reuse, so without this the resident size stays at the
    /// peak of a burst of connections long after they closed. A closed WebSocket's last memory is freed only when
    /// its cancelled ping and close timers reach their deadlines (at most 30 s after the close), so the sweep after
    /// that brings the resident size back near where it was.
    func returnFreedMemory() {
        #if canImport(Glibc)
        guard let trim = Self.mallocTrim else { return }
        let start = ContinuousClock.now
        if trim(0) != 0 { logger.debug("freed memory returned to the system in \(ContinuousClock.now - start)") }
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `int malloc_trim(size_t pad)`, looked up at run time (Swift's Glibc module does not declare it); nil
    /// with another C library.
    static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif
}

/// Sweeps idle sessions and users every ``ServerOptions/sweepInterval``; at graceful shutdown (after the HTTP server
/// has stopped, being before it in the service group) saves every user's recents, and writes the changes queued for
/// a users database (waiting at most `UsersDatabase.Options.shutdownWait`).
struct Sweeper: Service {
    let server: SuggestServer

    func run() async throws {
        // The users database's schema, made or migrated at start without holding up the service (a failure is
        // logged, and the schema is tried again before the first read or write).
        if let database = server.users.options.recentsDatabase { Task { await database.prepare() } }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: server.options.sweepInterval) }
            } catch {
                break
            }
            server.sweep()
        }
        server.saveAll()
        if let database = server.users.options.recentsDatabase {
            let unwritten = await server.flushUsersDatabase(within: database.options.shutdownWait)
            if !unwritten.isEmpty {
                server.logger.error("recent searches not written to the users database at shutdown: \(unwritten.count) users")
            }
        }
        server.logger.debug("recent and popular searches saved")
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
                SuggestRequestID.errorJSON("request target longer than \(maximumTargetBytes) bytes"),
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
