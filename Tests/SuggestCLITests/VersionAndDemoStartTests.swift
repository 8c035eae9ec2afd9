import Suggest
import Testing

/// `suggest --version` and the demo's start, as a user sees them.
struct VersionAndDemoStartTests {
    @Test func versionPrintsTheLibraryVersion() throws {
        let output = try CLIRunner.run(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout == SuggestVersion.current + "\n")
        #expect(output.stderr.isEmpty)
    }

    @Test func theDemoSaysHowLongItsStartTook() throws {
        let output = try CLIRunner.run(["demo"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let line = try #require(output.lines.first { $0.hasPrefix("loaded ") }, "\(output.stdout)")
        #expect(line.hasPrefix("loaded 20,000 entries in "))
        #expect(line.hasSuffix(" (configuration, indexes, warm-up)"))
        #expect(output.stderr.isEmpty)
    }
}
