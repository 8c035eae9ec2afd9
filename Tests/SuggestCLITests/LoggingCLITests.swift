import Foundation
import Testing
import SuggestTestSupport

/// The engine's log in the `suggest` tool: on standard error, at `SUGGEST_LOG_LEVEL` (default `warning`).
struct LoggingCLITests {
    /// Runs `suggest query --config FILE abcdef` on a configuration written to a temporary file, removed afterwards.
    func query(environment: [String: String] = [:]) throws -> CLIRunner.Output {
        let path = TestFolders.unique("suggest-logging-", ".suggest.json")
        try #"{"version": 1, "maxQueryLength": 2, "providers": [{"type": "static", "items": [{"title": "ab"}]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ProgressLineTests.run(
            CLIRunner.executable.path, ["query", "--config", path, "abcdef"], environment: environment)
    }

    @Test func aNoticeIsLoggedToStandardErrorWhenTheLevelAsksForIt() throws {
        let output = try query(environment: ["SUGGEST_LOG_LEVEL": "notice"])
        #expect(output.status == 0)
        #expect(output.stderr.contains("notice"))
        #expect(output.stderr.contains("query truncated: query text truncated from 6 to 2 UTF-8 bytes"))
        #expect(output.stderr.contains("suggest.source=engine"))
        #expect(!output.stdout.contains("query truncated:"))
    }

    @Test func byDefaultOnlyWarningsAreLogged() throws {
        let output = try query()
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
    }
}
