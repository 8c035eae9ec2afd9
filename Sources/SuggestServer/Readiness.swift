#if Server
import Hummingbird
import Logging
public import ServiceLifecycle
import Synchronization
import UnixSignals

/// Whether the server has begun to drain (shutdown began): `GET /ready` then answers 503.
final class Readiness: Sendable {
    private let draining = Atomic<Bool>(false)

    var isDraining: Bool { draining.load(ordering: .relaxed) }

    func beginDraining() { draining.store(true, ordering: .relaxed) }
}

extension SuggestServer {
    /// Whether the server takes new work: true from the start (the engine is loaded before the server is made)
    /// until it begins to drain (``beginDraining()``, graceful shutdown). `GET /ready` answers 200 while it is
    /// true, 503 after.
    public var isReady: Bool { !readiness.isDraining && !Task.isShuttingDownGracefully }

    /// Makes `GET /ready` answer 503 from now on, so that a load balancer sends no new work; every other request
    /// is still served. Graceful shutdown calls it (see ``makeService(onServerRunning:)``).
    public func beginDraining() { readiness.beginDraining() }

    /// ``makeApplication(onServerRunning:)`` with a drain period before it stops: at graceful shutdown
    /// (SIGINT/SIGTERM with `runService`, or the parent service group's), `GET /ready` answers 503 at once while
    /// everything else is served as before for ``ServerOptions/drainPeriod``; then the application shuts down
    /// gracefully (it stops listening, lets in-flight requests finish, saves recent searches).
    ///
    /// ```swift
    /// try await ServiceGroup(configuration: .init(
    ///     services: [server.makeService(), otherService], gracefulShutdownSignals: [.sigterm], logger: logger)).run()
    /// ```
    /// (``runService(onServerRunning:)`` does this with SIGTERM and SIGINT and no other service.)
    /// - Parameter onServerRunning: called with the bound port once the server listens.
    public func makeService(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some Service {
        // A service group shuts its services down last to first, each after the one after it has ended: the drain
        // period ends before the application is told.
        ServiceGroup(
            configuration: .init(
                services: [makeApplication(onServerRunning: onServerRunning), DrainPeriod(server: self)],
                logger: logger))
    }

    /// Runs ``makeService(onServerRunning:)`` until SIGTERM or SIGINT, which stop it gracefully (drain period,
    /// requests in flight finished, recent searches saved), as `suggest serve` does.
    /// - Parameter onServerRunning: called with the bound port once the server listens.
    public func runService(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await ServiceGroup(
            configuration: .init(
                services: [makeService(onServerRunning: onServerRunning)], gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger)
        ).run()
    }

    /// `GET /ready`: `{"status":"ready"}` (200) or `{"status":"draining"}` (503).
    func readyResponse() -> Response {
        isReady ? .json(#"{"status":"ready"}"#) : .json(#"{"status":"draining"}"#, status: .serviceUnavailable)
    }
}

/// Waits for graceful shutdown, then marks the server draining and waits ``ServerOptions/drainPeriod`` (less if
/// cancelled).
struct DrainPeriod: Service {
    let server: SuggestServer

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return  // cancelled: no drain
        }
        server.beginDraining()
        let period = server.options.drainPeriod
        guard period > .zero else { return }
        server.logger.info("draining: GET /ready answers 503 for \(ConnectionGuard.seconds(period)) s, then the server stops")
        try? await Task.sleep(for: period)
    }
}
#endif
