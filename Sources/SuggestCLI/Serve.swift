#if Server
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Suggest
import SuggestServer
import Synchronization

/// `suggest serve --config C`: the engine over HTTP and WebSocket (SuggestServer's guide "Serving suggestions over HTTP").
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve suggestions over HTTP and WebSocket (see README: Servers).",
        discussion: """
            GET /suggest?q=…&session=…&user=…&scope=…&tokens=[…] answers one keystroke with the `suggest batch` \
            JSON; POST /submit and /select take {"text": …}; GET /health; WebSocket /ws takes batch lines; \
            with --demo-page, GET / is a search page on /ws (open /?user=NAME for that user's recent searches). \
            SIGINT/SIGTERM stop it gracefully (in-flight requests finish, recent searches are saved).
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

    @Option(help: "A folder for per-user recent searches (USER.json); without it they stay in memory.")
    var usersFolder: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    @Flag(help: "Serve a search page at GET / that talks to /ws (off by default: GET / is 404).")
    var demoPage = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port: expected 0 to 65535, found \(port)") }
        guard maxSessions >= 1, maxUsers >= 1 else { throw ValidationError("--max-sessions and --max-users: at least 1") }
        guard idleTimeout >= 1 else { throw ValidationError("--idle-timeout: at least 1 second") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: unknown level \(logLevel)") }
        if let usersFolder {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: usersFolder, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw ValidationError("--users-folder: \(usersFolder) is not a folder") }
        }
    }

    /// Runs the server until it is stopped (SIGINT or SIGTERM: graceful shutdown).
    func run() async throws {
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
        let idle = Duration.seconds(idleTimeout)
        let page: DemoPage?
        do {
            page = demoPage ? try DemoPage.bundled() : nil
        } catch {
            Console.error("error: --demo-page: \(error)")
            throw ExitCode(1)
        }
        let server = SuggestServer(
            configuration: configuration,
            options: ServerOptions(
                host: host,
                port: port,
                maximumSessions: maxSessions,
                sessionIdleTimeout: idle,
                users: UserEngines.Options(maximumUsers: maxUsers, idleTimeout: idle, recentsFolder: usersFolder),
                demoPage: page
            ),
            logger: logger
        )
        let host = self.host
        do {
            let app = server.makeApplication { port in
                // The one line on standard output: scripts read the port from it.
                Console.out("listening on http://\(host):\(port)")
            }
            try await app.runService()
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
    }
}
#endif
