import Suggest
import Testing

/// `suggest --version` and the demo's prebuilt index, as a user sees them.
struct VersionAndPrebuiltIndexTests {
    @Test func versionPrintsTheLibraryVersion() throws {
        let output = try CLIRunner.run(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout == SuggestVersion.current + "\n")
        #expect(output.stderr.isEmpty)
    }

    @Test func theDemoLoadsTheIndexPrebuiltByThePlugin() throws {
        let output = try CLIRunner.run(["demo"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.lines.contains("prefix index: prebuilt at build time (words.idx)"))
        #expect(output.stderr.isEmpty)
    }
}
