import Suggest
import Testing

struct QueryAndDemoCommandTests {
    let config = CLIRunner.fixture("fruits.suggest.json")

    @Test func queryPrintsATableWithHighlights() throws {
        let output = try CLIRunner.run(["query", "--config", config, "ap"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Suggestions")
        #expect(lines[1].hasPrefix("  1.  *Ap*ple"))
        #expect(lines[3].hasPrefix("  3.  Green *Ap*ple"))
        #expect(lines.last?.hasSuffix("µs") == true)
        // "Apple" and "Apricot" share only what was typed: nothing for Tab to complete.
        #expect(!output.stdout.contains("Tab completes"))
    }

    @Test func explainShowsTierProviderWeightAndScore() throws {
        let output = try CLIRunner.run(["query", "--config", config, "--explain", "apple"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("exact"))
        #expect(output.stdout.contains("word-prefix"))
        #expect(output.stdout.contains("weight 1 × popularity 50 = score 50"))
    }

    @Test func queryJSONIsTheBatchLine() throws {
        let output = try CLIRunner.run(["query", "--config", config, "--json", "ban"])
        #expect(output.status == 0)
        let answer = try CLIRunner.json(output.stdout)
        #expect((answer["suggestions"] as? [[String: Any]])?.first?["text"] as? String == "Banana")
    }

    @Test func demoRunsToTheEndWithoutATerminal() throws {
        let output = try CLIRunner.run(["demo"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.contains("Typing \"python\""))
        #expect(output.stdout.contains("µs"))
    }
}
