import ArgumentParser
import Foundation
import Logging
import Suggest

/// `suggest`: run the swift-suggest engine from a terminal or as a JSON-lines process.
///
/// Exit codes: 0 success; 1 an invalid configuration or a file that cannot be read (every problem is listed on
/// standard error), or a provider that failed in `query`; 64 a usage error (unknown option, missing argument).
struct SuggestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Search-as-you-type suggestions from a JSON configuration.",
        discussion: """
            Exit codes: 0 success; 1 invalid configuration or unreadable file (all problems are listed on \
            standard error), or a provider that failed (query); 64 usage error.
            """,
        version: SuggestVersion.current,
        subcommands: everyday + serverSide
    )

    /// The commands every build has.
    static let everyday: [any ParsableCommand.Type] = [
        Query.self, Batch.self, Validate.self, Demo.self, Interactive.self, Index.self, Recents.self, Popular.self,
        Bench.self,
    ]

    /// `import` and `serve`: in a build without the `Server` trait, hidden commands that say how to get them.
    #if Server
        static let serverSide: [any ParsableCommand.Type] = [Import.self, Serve.self]
    #else
        static let serverSide: [any ParsableCommand.Type] = [ImportUnavailable.self, ServeUnavailable.self]
    #endif

}

/// The process's entry point: keeps closed standard streams closed, sends the engine's log to standard error
/// (standard output carries the answers) at the level `SUGGEST_LOG_LEVEL` names (`trace` … `critical`; default
/// `warning`), then runs the command on the main queue.
@main
enum SuggestMain {
    static func main() {
        StandardStreams.keepClosedOnesClosed()
        let level = ProcessInfo.processInfo.environment["SUGGEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level ?? .warning
            return handler
        }
        Task { @MainActor in
            await SuggestCommand.main()
            exit(0)
        }
        dispatchMain()
    }
}

/// Standard input, output and error as the parent left them.
enum StandardStreams {
    /// A stream the parent closed must stay unusable: the first descriptor the process opens afterwards (the
    /// concurrency runtime's event descriptor, a file) would otherwise take its number, and `suggest batch` would
    /// write its answers there instead of failing with "Bad file descriptor". Each closed one of 0, 1 and 2 gets a
    /// placeholder on `/dev/null` opened in the other direction, so that reading or writing it still fails with
    /// `EBADF`.
    static func keepClosedOnesClosed() {
        for descriptor: Int32 in [0, 1, 2] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let placeholder = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            guard placeholder >= 0 else { continue }
            if placeholder != descriptor {
                dup2(placeholder, descriptor)
                close(placeholder)
            }
        }
    }
}
