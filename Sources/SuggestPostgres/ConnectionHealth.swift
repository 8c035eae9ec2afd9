#if Server
import Foundation
package import Logging
import Synchronization

/// What the provider knows about its database between keystrokes: the last connection problem the pool reported
/// (postgres-nio logs each failed connection attempt), cleared by the next query that succeeds.
package final class ConnectionHealth: Sendable {
    package struct Problem: Sendable {
        package var message: String
        package var since: ContinuousClock.Instant
    }

    private let problem = Mutex<Problem?>(nil)
    /// Whether a background probe (a `SELECT 1` that waits for the pool to reconnect) is under way.
    private let probing = Mutex(false)

    package init() {}

    package var current: Problem? { problem.withLock { $0 } }

    package func failed(_ message: String) {
        problem.withLock { current in
            if current == nil {
                current = Problem(message: message, since: .now)
            } else {
                current!.message = message
            }
        }
    }

    package func succeeded() { problem.withLock { $0 = nil } }

    /// True for the caller that may start a probe; ``probeEnded()`` lets the next one start.
    func claimProbe() -> Bool { probing.withLock { p in defer { p = true }; return !p } }
    func probeEnded() { probing.withLock { $0 = false } }
}

/// A `swift-log` handler for the pool's background logger: it records failed connection attempts in a
/// ``ConnectionHealth`` (and prints nothing).
package struct HealthLogHandler: LogHandler {
    let health: ConnectionHealth
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info

    package init(health: ConnectionHealth) { self.health = health }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        guard event.message.description == "Connection creation failed" else { return }
        let detail = event.metadata?["psql_error"] ?? event.metadata?["error"]
        health.failed(Self.shorten(detail.map { "\($0)" } ?? "connection failed"))
    }

    /// The useful part of postgres-nio's reflected error: the server's message, or the socket error
    /// (`connect(descriptor:addr:size:): Connection refused (errno: 111)`).
    static func shorten(_ text: String) -> String {
        // The server's own message when there is one ("the database system is starting up", a failed password).
        if let range = text.range(of: "message: ") {
            let rest = text[range.upperBound...]
            let end = rest.firstIndex(where: { $0 == "," || $0 == "]" }) ?? rest.endIndex
            var message = String(rest[..<end]).trimmingQuotes
            if let state = text.range(of: "sqlState: ") {
                let code = text[state.upperBound...].prefix(5)
                if code.count == 5 { message += " (SQLSTATE \(code))" }
            }
            return message
        }
        for marker in ["Connection refused", "No such file or directory", "Network is unreachable", "timed out"]
        where text.contains(marker) {
            return marker == "Connection refused" ? "connection refused" : marker
        }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}

extension StringProtocol {
    var trimmingQuotes: String {
        var s = String(self)
        while s.hasPrefix("\"") { s.removeFirst() }
        while s.hasSuffix("\"") { s.removeLast() }
        return s
    }
}
#endif
