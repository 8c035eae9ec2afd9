public import Logging
import Synchronization

extension SuggestionEngine {
    /// The logger an engine or configuration gets when given none: labelled `swift-suggest`, with the handler the
    /// process bootstrapped (`LoggingSystem.bootstrap`; swift-log's default writes to standard output at `info`).
    public static func makeDefaultLogger() -> Logger { Logger(label: "swift-suggest") }

    /// The last message logged per source (a provider id, or `engine`), so that a note repeated keystroke after
    /// keystroke — a store that cannot be written, a walk cut at its limit — is logged once, until another replaces
    /// it. Only touched when there is something to log.
    package final class LogMemory: Sendable {
        let last = Mutex<[String: String]>([:])

        package init() {}

        /// Whether `message` from `source` differs from the last one logged for it (and remembers it).
        func isNew(_ message: String, from source: String) -> Bool {
            last.withLock { last in
                guard last[source] != message else { return false }
                last[source] = message
                return true
            }
        }
    }

    /// Logs what a keystroke or a submit noted, once per new message (see ``LogMemory``). Callers call it only when
    /// there is a note: a keystroke with nothing to say pays nothing.
    /// - Parameters:
    ///   - source: the provider id, or `engine` for the engine's own notes.
    ///   - event: what happened (`provider failed`, `note`, …), the log message.
    func log(_ level: Logger.Level, _ event: String, source: String, _ detail: String) {
        guard logger.logLevel <= level, logMemory.isNew(event + ": " + detail, from: source) else { return }
        logger.log(
            level: level, "\(event): \(detail)",
            metadata: ["suggest.source": "\(source)"])
    }
}
