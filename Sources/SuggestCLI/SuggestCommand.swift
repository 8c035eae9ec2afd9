import ArgumentParser
import Foundation
import Logging
import Suggest

/// `suggest`: run the swift-suggest engine from a terminal or as a JSON-lines process.
///
/// Exit codes: 0 success; 1 an invalid configuration or a file that cannot be read (every problem is listed on
/// standard error); 64 a usage error (unknown option, missing argument).
@main
struct SuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Search-as-you-type suggestions from a JSON configuration.",
        discussion: """
            Exit codes: 0 success; 1 invalid configuration or unreadable file (all problems are listed on \
            standard error); 64 usage error.
            """,
        version: SuggestVersion.current,
        subcommands: everyday + serverSide
    )

    /// The commands every build has.
    static let everyday: [any ParsableCommand.Type] = [
        Query.self, Batch.self, Validate.self, Demo.self, Index.self, Recents.self,
    ]

    /// `import` and `serve`: in a build without the `Server` trait, hidden commands that say how to get them.
    #if Server
        static let serverSide: [any ParsableCommand.Type] = [Import.self, Serve.self]
    #else
        static let serverSide: [any ParsableCommand.Type] = [ImportUnavailable.self, ServerSideUnavailable.self]
    #endif

    /// Sends the engine's log to standard error (standard output carries the answers), at the level
    /// `SUGGEST_LOG_LEVEL` names (`trace` … `critical`; default `warning`), then runs the command.
    static func main() {
        let level = ProcessInfo.processInfo.environment["SUGGEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level ?? .warning
            return handler
        }
        main(nil)
    }
}
