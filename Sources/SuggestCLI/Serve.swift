#if Server
import ArgumentParser
import CoreMetrics
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Suggest
import SuggestDemo
import SuggestPostgres
import SuggestServer
import Synchronization

/// `suggest serve --config C`: the engine over HTTP and WebSocket (SuggestServer's guide "Serving suggestions over HTTP").
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve suggestions over HTTP and WebSocket (see the SuggestServer article \"Serving suggestions over HTTP\").",
        discussion: """
            GET /suggest?q=…&session=…&scope=…&tokens=[…] answers one keystroke with the `suggest batch` \
            JSON; POST /submit and /select take {"text": …} (Content-Type: application/json); GET /health, \
            GET /ready (503 while draining at shutdown), GET /metrics with --metrics (Prometheus, loopback or \
            --metrics-allow only); every answer carries X-Request-ID; \
            WebSocket /ws takes batch lines; with --demo-page, GET / is a search page on /ws. Who is asking: \
            --jwt-secret-file or --jwks-file (bearer JWTs, `sub` is the user), --user-header with \
            --trusted-proxy, --insecure-user-parameter (user=), or none (anonymous: nothing is learned across \
            clients). Limits (see the guide's "Limits"): --rate-limit per address and per user (default 50/s, \
            bursts of 100; 0 turns it off), request head and body timeouts, connection cap. SIGINT/SIGTERM stop it \
            gracefully (in-flight requests finish, recent and popular searches are saved); exit status 74 when some \
            users' recent searches or the popular searches could not be saved. A "popular" provider is shared by \
            all users and counts identified users' submits (anonymous ones are not counted). --users-database URL \
            keeps recent searches and popular searches in PostgreSQL instead of --users-folder, shared by every \
            replica (see the guide's "Running in production"); exit status 69 when it cannot be read at start for \
            a popular provider.
            """
    )

    @Option(name: .shortAndLong, help: "The JSON configuration file.")
    var config: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0 picks a free one; the chosen port is printed).")
    var port = 8080

    @Option(help: "Typing sessions kept at most.")
    var maxSessions = 10_000

    @Option(help: "Users (per-user engines) kept at most.")
    var maxUsers = 10_000

    @Option(help: "Seconds after which an unused session or user is forgotten (recents saved).")
    var idleTimeout = 600

    @Option(help: "A folder for per-user recent searches (PROVIDER/USER.json) and the popular searches of all users (PROVIDER/popular.json, unless the provider names a store); without it they stay in memory.")
    var usersFolder: String?

    @Option(
        help: ArgumentHelp(
            "Per-user recent searches in PostgreSQL, shared by replicas (postgres://user@host:port/database; the password from PGPASSWORD); not with --users-folder.",
            valueName: "url"))
    var usersDatabase: String?

    @Option(help: "With --users-database: how long a keystroke waits for its user's rows before it answers from memory, in milliseconds.")
    var usersDatabaseWait = 50

    @Option(help: "With --users-database: changes waiting to be written (the database is down) at most, across users; a submit beyond them is acknowledged not stored and never written, and the exit status is 74.")
    var usersDatabaseQueue = 100_000

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    @Flag(help: "Serve a search page at GET / that talks to /ws (off by default: GET / is 404).")
    var demoPage = false
    @Option(help: "Bearer JWTs signed HS256 with the secret in this file (at least 32 bytes); `sub` is the user.")
    var jwtSecretFile: String?

    @Option(help: "Bearer JWTs signed RS256 or ES256 by a key of this JSON Web Key Set; `sub` is the user.")
    var jwksFile: String?

    @Option(help: "The audience a bearer token's `aud` must name.")
    var jwtAudience: String?

    @Option(help: "A header naming the user, set by a reverse proxy that authenticated them (needs --trusted-proxy).")
    var userHeader: String?

    @Option(help: "An address range (CIDR, IPv4 or IPv6) of the proxy whose --user-header is believed; repeatable.")
    var trustedProxy: [String] = []

    @Flag(help: "Believe `user=` in the query string as given (anyone can be anyone: trusted networks and tests only).")
    var insecureUserParameter = false

    @Option(help: "An origin whose pages may call the server (exact, e.g. https://app.example.com); repeatable.")
    var allowOrigin: [String] = []

    @Option(help: "A Host name the server answers to besides localhost (NAME or NAME:PORT, * any); repeatable; needed when --host is not a loopback address.")
    var allowedHost: [String] = []

    @Option(help: "Seconds a client has to send a whole request head (from connecting, or from its first byte after a response); then 408 and close.")
    var headerTimeout: Double = 10

    @Option(help: "Seconds a kept-alive connection may stay silent between requests before it is closed.")
    var keepAliveTimeout: Double = 60

    @Option(help: "Connections held at most; more are answered 503 (default: the open-file limit, raised to its hard limit at start, less a tenth and at least 64).")
    var maxConnections: Int?

    @Option(help: "Seconds a client has to send a whole request body once its head is in; then 408 and close.")
    var bodyTimeout: Double = 10

    @Option(help: "Requests (and WebSocket messages) per second per client address and per user; beyond it 429 with Retry-After, a WebSocket keystroke waits (latest wins). 0: no limit.")
    var rateLimit: Double = 50

    @Option(help: "Requests a client may make at once after a quiet spell (default: twice --rate-limit).")
    var rateBurst: Int?

    @Flag(help: "Serve GET /metrics (Prometheus text) to loopback clients, or to --metrics-allow ranges (off by default: 404).")
    var metrics = false

    @Option(help: "An address range (CIDR) that may read /metrics instead of loopback; repeatable; needs --metrics.")
    var metricsAllow: [String] = []

    @Option(help: "Seconds GET /ready answers 503 at SIGTERM/SIGINT while requests are still served, before the server stops listening.")
    var drainSeconds: Double = 0

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port: expected 0 to 65535, found \(port)") }
        guard maxSessions >= 1, maxUsers >= 1 else { throw ValidationError("--max-sessions and --max-users: at least 1") }
        guard idleTimeout >= 1 else { throw ValidationError("--idle-timeout: at least 1 second") }
        for (name, value) in [
            ("--header-timeout", headerTimeout), ("--keep-alive-timeout", keepAliveTimeout), ("--body-timeout", bodyTimeout),
        ] {
            guard value.isFinite, value > 0, value <= 86_400 else {
                throw ValidationError("\(name): expected seconds above 0 and at most 86400, found \(value)")
            }
        }
        guard rateLimit.isFinite, rateLimit >= 0, rateLimit <= 1_000_000 else {
            throw ValidationError("--rate-limit: expected requests per second from 0 (no limit) to 1000000, found \(rateLimit)")
        }
        if let rateBurst {
            guard rateBurst >= 1, rateBurst <= 1_000_000 else {
                throw ValidationError("--rate-burst: expected 1 to 1000000 requests, found \(rateBurst)")
            }
            guard rateLimit > 0 else { throw ValidationError("--rate-burst: needs a --rate-limit above 0") }
        }
        guard drainSeconds.isFinite, drainSeconds >= 0, drainSeconds <= 3600 else {
            throw ValidationError("--drain-seconds: expected 0 to 3600 seconds, found \(drainSeconds)")
        }
        if !metricsAllow.isEmpty && !metrics { throw ValidationError("--metrics-allow: needs --metrics") }
        for range in metricsAllow {
            do throws(AddressRange.Problem) {
                _ = try AddressRange(range)
            } catch {
                throw ValidationError("--metrics-allow \(error)")
            }
        }
        if let maxConnections, maxConnections < 1 {
            throw ValidationError("--max-connections: at least 1, found \(maxConnections)")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: unknown level \(logLevel)") }
        let modes = [
            jwtSecretFile.map { _ in "--jwt-secret-file" }, jwksFile.map { _ in "--jwks-file" },
            userHeader.map { _ in "--user-header" }, insecureUserParameter ? "--insecure-user-parameter" : nil,
        ].compactMap { $0 }
        guard modes.count <= 1 else {
            throw ValidationError("\(modes.joined(separator: " and ")): choose one way of knowing who is asking")
        }
        if jwtAudience != nil && jwtSecretFile == nil && jwksFile == nil {
            throw ValidationError("--jwt-audience: needs --jwt-secret-file or --jwks-file")
        }
        if let userHeader {
            guard !userHeader.isEmpty, userHeader.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0)
                || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
            else { throw ValidationError("--user-header: \"\(userHeader)\" is not a header name (letters, digits, -)") }
            guard !trustedProxy.isEmpty else {
                throw ValidationError("--user-header: needs --trusted-proxy CIDR (the proxy whose header is believed)")
            }
        } else if !trustedProxy.isEmpty {
            throw ValidationError("--trusted-proxy: needs --user-header NAME")
        }
        for origin in allowOrigin where !ServerOptions.isExactOrigin(origin) {
            throw ValidationError(
                "--allow-origin \(origin): expected an exact origin such as https://app.example.com "
                    + "(scheme, host, optional port; no path)")
        }
        if !ServerOptions.isLoopback(host) && allowedHost.isEmpty {
            throw ValidationError(
                "--host \(host): listening beyond loopback needs --allowed-host NAME (the Host names clients use; "
                    + "* accepts any)")
        }
        if usersFolder != nil && usersDatabase != nil {
            throw ValidationError(
                "--users-folder and --users-database: give one (a folder keeps recent searches on this machine, a "
                    + "database shares them between servers)")
        }
        if let usersDatabase {
            do throws(PostgresSettingsError) {
                _ = try PostgresConnectionSettings(url: usersDatabase)
            } catch {
                throw ValidationError("--users-database: \(error)")
            }
        }
        guard usersDatabaseQueue >= 1 else {
            throw ValidationError("--users-database-queue \(usersDatabaseQueue): expected at least 1")
        }
        guard (1...60_000).contains(usersDatabaseWait) else {
            throw ValidationError("--users-database-wait \(usersDatabaseWait): expected 1 to 60000 milliseconds")
        }
        if let usersFolder {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: usersFolder, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw ValidationError("--users-folder: \(usersFolder) is not a folder") }
        }
    }

    /// Runs the server until it is stopped (SIGINT or SIGTERM: graceful shutdown).
    func run() async throws {
        let identity: Identity
        do {
            identity = try await makeIdentity()
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        // Connections are capped below the open-file limit, so that accepting one never fails for want of a
        // descriptor (which NIO would retry at once, for ever).
        let descriptors = DescriptorLimit.raise()
        if let maxConnections, let descriptors, maxConnections > descriptors - 16 {
            Console.error(
                "error: --max-connections \(maxConnections): the open-file limit is \(descriptors) (leave at least 16 for the rest)")
            throw ExitCode(1)
        }
        let start = ContinuousClock.now
        var configuration = try ConfigurationLoader.load(config)
        let elapsed = ContinuousClock.now - start
        var logger = Logger(label: "suggest.serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        // Reading the configuration built (or loaded) the providers' indexes.
        logger.info("\(LoadReport.line(entries: LoadReport.entryCount(configuration.slots), elapsed: elapsed))")
        // The engines' own messages (a provider that failed, a missed deadline) at the same level.
        var engineLogger = Logger(label: "swift-suggest") { StreamLogHandler.standardError(label: $0) }
        engineLogger.logLevel = logger.logLevel
        configuration.logger = engineLogger
        if insecureUserParameter {
            logger.warning(
                "--insecure-user-parameter: user= is believed as given: any client can read and write any user's recent searches (use on a trusted network or in tests only)"
            )
        }
        let idle = Duration.seconds(idleTimeout)
        let page: DemoPage?
        do {
            page = demoPage ? try DemoPage.bundled() : nil
        } catch {
            Console.error("error: --demo-page: \(error)")
            throw ExitCode(1)
        }
        var database: UsersDatabase? = nil
        if let usersDatabase {
            // Checked by validate().
            let settings = try PostgresConnectionSettings(url: usersDatabase)
            var databaseLogger = logger
            databaseLogger[metadataKey: "database"] = "users"
            database = UsersDatabase(
                settings: settings,
                options: .init(
                    keystrokeWait: .milliseconds(usersDatabaseWait), maximumQueuedChanges: usersDatabaseQueue),
                logger: databaseLogger)
            // Popular searches shared by the replicas: their salt and counts are read before the engines are made.
            do {
                try await database?.preparePopular(configuration)
            } catch {
                database?.shutdown()
                Console.error("error: --users-database: \(error)")
                throw ExitCode(Self.exitCodeUnavailable)
            }
        }
        var options = ServerOptions(
                host: host,
                port: port,
                maximumSessions: maxSessions,
                sessionIdleTimeout: idle,
                users: UserEngines.Options(maximumUsers: maxUsers, idleTimeout: idle, recentsFolder: usersFolder, recentsDatabase: database),
                demoPage: page,
                identity: identity,
                allowedOrigins: allowOrigin,
                allowedHosts: allowedHost,
                headerTimeout: .milliseconds(Int64(headerTimeout * 1000)),
                keepAliveTimeout: .milliseconds(Int64(keepAliveTimeout * 1000)),
                maximumConnections: maxConnections,
                bodyTimeout: .milliseconds(Int64(bodyTimeout * 1000)),
                rateLimit: rateLimit > 0 ? RateLimit(perSecond: rateLimit, burst: rateBurst) : nil
            )
        options.drainPeriod = .milliseconds(Int64(drainSeconds * 1000))
        if metrics {
            let endpoint = MetricsEndpoint(
                allowedClients: metricsAllow.isEmpty ? MetricsEndpoint.loopback : metricsAllow.compactMap { try? AddressRange($0) })
            // The whole process's swift-metrics go to /metrics, the server's own series among them.
            MetricsSystem.bootstrap(endpoint.factory)
            options.metrics = endpoint
        }
        let server = SuggestServer(configuration: configuration, options: options, logger: logger)
        let host = self.host
        var failed = false
        do {
            try await server.runService { port in
                // The one line on standard output: scripts read the port from it.
                Console.out("listening on http://\(host):\(port)")
            }
        } catch {
            Console.error("error: \(error)")
            failed = true
        }
        // The shutdown saved every user's recents (and wrote those queued for the users database); what failed is
        // tried once more here.
        let lost = server.saveBeforeExit()
        if lost > 0 {
            Console.error(
                "error: the recent searches of \(lost) user\(lost == 1 ? "" : "s") could not be saved and are lost "
                    + "(the log above names the files and why)")
        }
        var popularLost = server.savePopularBeforeExit()
        if let unwritten = database?.unwrittenPopularSearches, unwritten > 0 {
            Console.error(
                "error: \(unwritten) popular search count\(unwritten == 1 ? "" : "s") could not be written to the users database and \(unwritten == 1 ? "is" : "are") lost")
            popularLost += 1
        }
        if popularLost > 0 {
            Console.error(
                "error: the popular searches of \(popularLost) provider\(popularLost == 1 ? "" : "s") could not be saved "
                    + "and the counts since the last save are lost (the log above names the files and why)")
        }
        database?.shutdown()
        if lost > 0 || popularLost > 0 { throw ExitCode(Self.exitCodeRecentsLost) }
        if failed { throw ExitCode(1) }
    }

    /// The exit status when some users' recent searches, or popular searches, could not be saved by the end (74,
    /// `EX_IOERR`).
    static let exitCodeRecentsLost: Int32 = 74

    /// The exit status when the users database cannot be read at start for the shared popular searches (69,
    /// EX_UNAVAILABLE).
    static let exitCodeUnavailable: Int32 = 69

    /// A start-up problem with an option's value, named by the option (and the file).
    struct OptionProblem: Error, CustomStringConvertible {
        let description: String
    }

    /// The identity the options ask for; reads and checks the secret or key set.
    func makeIdentity() async throws(OptionProblem) -> Identity {
        func read(_ path: String, _ option: String) throws(OptionProblem) -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: path) else {
                let reason = access(path, R_OK) == 0 ? "not a readable file" : String(cString: strerror(errno))
                throw OptionProblem(description: "\(option) \(path): cannot read: \(reason)")
            }
            return Array(data)
        }
        if let path = jwtSecretFile {
            let secret = try read(path, "--jwt-secret-file")
            do throws(BearerVerifier.Problem) {
                return .bearer(try await BearerVerifier(hs256Secret: secret, audience: jwtAudience))
            } catch {
                throw OptionProblem(description: "--jwt-secret-file \(path): \(error)")
            }
        }
        if let path = jwksFile {
            let json = try read(path, "--jwks-file")
            do throws(BearerVerifier.Problem) {
                return .bearer(try await BearerVerifier(jwks: json, audience: jwtAudience))
            } catch {
                throw OptionProblem(description: "--jwks-file \(path): \(error)")
            }
        }
        if let userHeader {
            var ranges: [AddressRange] = []
            for text in trustedProxy {
                do throws(AddressRange.Problem) {
                    ranges.append(try AddressRange(text))
                } catch {
                    throw OptionProblem(description: "--trusted-proxy \(error)")
                }
            }
            return .userHeader(name: userHeader, trustedProxies: ranges)
        }
        return insecureUserParameter ? .insecureUserParameter : .anonymous
    }
}
#endif
