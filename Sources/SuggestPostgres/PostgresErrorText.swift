#if Server
import Foundation
import PostgresNIO

/// Readable text for postgres-nio's errors (whose `description` hides everything on purpose): the server's message
/// and SQLSTATE, or the connection problem underneath.
package enum PostgresErrorText {
    package static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                var text = message
                if let state = error.serverInfo?[.sqlState] { text += " (SQLSTATE \(state))" }
                return text
            }
            if let underlying = error.underlying { return "\(error.code): \(describe(underlying))" }
            return "\(error.code)"
        }
        return "\(error)"
    }

    /// ` (SQLSTATE 42P01)` for an error the server reported, else nothing.
    package static func sqlStateSuffix(of error: any Error) -> String {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState], isSQLState(state) else {
            return ""
        }
        return " (SQLSTATE \(state))"
    }

    /// What a client may be told about a connection problem: one of a few fixed phrases (with the SQLSTATE when
    /// the server gave one), never the server's message, which may name the user or the database.
    package static func publicReason(connectionProblem detail: String) -> String {
        let lowered = detail.lowercased()
        if let range = detail.range(of: "SQLSTATE ") {
            let state = String(detail[range.upperBound...].prefix(5))
            if isSQLState(state) { return "refused by the server (SQLSTATE \(state))" }
        }
        if lowered.contains("connection refused") { return "connection refused" }
        if lowered.contains("timed out") || lowered.contains("timeout") { return "timed out" }
        if lowered.contains("unreachable") { return "network unreachable" }
        return "connection failed"
    }

    /// Five digits or capital letters.
    package static func isSQLState(_ text: String) -> Bool {
        text.utf8.count == 5 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }
}
#endif
