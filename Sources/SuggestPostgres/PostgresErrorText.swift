#if Server
import PostgresNIO

/// Readable text for postgres-nio's errors (whose `description` hides everything on purpose): the server's message
/// and SQLSTATE, or the connection problem underneath.
enum PostgresErrorText {
    static func describe(_ error: any Error) -> String {
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
}
#endif
