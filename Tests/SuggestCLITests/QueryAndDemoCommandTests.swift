import Foundation
import Suggest
import Testing
import SuggestTestSupport

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

    @Test func explainSaysATypoMatchIsInAnotherWordOrder() throws {
        let folder = TestFolders.unique("suggest-order-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "django-rest-framework\t900\nframework-for-rest\t50\n".write(
            toFile: folder + "/names.tsv", atomically: true, encoding: .utf8)
        try #"{"version":1,"providers":[{"type":"prefix","dictionary":"names.tsv"},{"type":"fuzzy","dictionary":"names.tsv"}]}"#
            .write(toFile: folder + "/app.suggest.json", atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["query", "--config", folder + "/app.suggest.json", "--explain", "framewirk rest"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init).filter { $0.contains("1-typo") }
        #expect(lines.count == 2, "\(output.stdout)")
        #expect(lines.first?.contains("django") == true && lines.first?.contains("· words in another order") == true)
        #expect(lines.last?.contains("for-") == true && lines.last?.contains("words in another order") == false)
    }

    @Test func explainShowsHowTheKindsOfTyposWeighedACorrection() throws {
        let typos = CLIRunner.fixture("typos.suggest.json")
        let output = try CLIRunner.run(["query", "--config", typos, "--explain", "weither"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        // "weather" (a vowel for a vowel) is weighed up, "either" (a wrong first letter) down.
        let weather = try #require(lines.first { $0.contains("*weather*") })
        let either = try #require(lines.first { $0.contains("*either*") })
        #expect(weather.contains("· kinds of typos ×"), "\(weather)")
        #expect(either.contains("· kinds of typos ×0.05 in popularity"), "\(either)")
        let json = try CLIRunner.run(["query", "--config", typos, "--json", "weither"])
        let answer = try CLIRunner.json(json.stdout)
        let suggestions = try #require(answer["suggestions"] as? [[String: Any]])
        let factors = suggestions.map { ($0["title"] as? String ?? "", $0["typoKindFactor"] as? Double ?? 1) }
        #expect(factors.first?.0 == "weather")
        #expect((factors.first?.1 ?? 1) > 1)
        #expect(factors.contains { $0.0 == "either" && $0.1 < 1 })
    }

    @Test func queryJSONIsTheBatchLine() throws {
        let output = try CLIRunner.run(["query", "--config", config, "--json", "ban"])
        #expect(output.status == 0)
        let answer = try CLIRunner.json(output.stdout)
        #expect((answer["suggestions"] as? [[String: Any]])?.first?["text"] as? String == "Banana")
    }

    /// A provider that fails on the text: the answer and its error are printed, and the status is 1.
    @Test func aProviderErrorMakesTheStatusOne() throws {
        let folder = TestFolders.unique("suggest-query-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let catastrophic = folder + "/c.json"
        try #"{"version":1,"maxQueryLength":10000,"providers":[{"type":"tokens","rules":[{"kind":"a","pattern":"(a+)+$"}]}]}"#
            .write(toFile: catastrophic, atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["query", "--config", catastrophic, String(repeating: "a", count: 40) + "b"])
        #expect(output.status == 1)
        #expect(output.stdout.contains("error: tokens: token extraction: pattern \"(a+)+$\" gave up"), "\(output.stdout)")
        let fine = try CLIRunner.run(["query", "--config", catastrophic, "abc"])
        #expect(fine.status == 0)
    }

    /// Text that is not UTF-8 (a raw byte from the shell) is a usage error naming the argument, as `suggest batch`
    /// refuses it, never a silent search for U+FFFD.
    @Test func anArgumentThatIsNotUTF8IsAUsageError() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #""$0" query --config "$1" "$(printf 'ap\377')""#, CLIRunner.executable.path, config,
        ]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(stderr.contains(#"Error: argument 4 is not valid UTF-8 at byte 2 (after "ap")"#), "\(stderr)")
    }

    /// `--token` must be `kind:value` with a kind: anything else is a usage error naming the argument, never a trap.
    @Test(arguments: [":", "::", ":v", "nokind"])
    func aTokenWithoutAKindIsAUsageError(token: String) throws {
        let output = try CLIRunner.run(["query", "--config", config, "py", "--token", token])
        #expect(output.status == 64, "stderr: \(output.stderr)")
        #expect(output.stderr.contains("--token \(token): expected kind:value"), "\(output.stderr)")
    }

    @Test func aNegativeShowCountIsAUsageError() throws {
        let output = try CLIRunner.run(["demo", "--show=-1"])
        #expect(output.status == 64, "stderr: \(output.stderr)")
        #expect(output.stderr.contains("--show -1: expected 0 or more"), "\(output.stderr)")
    }

    @Test func demoRunsToTheEndWithoutATerminal() throws {
        let output = try CLIRunner.run(["demo"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.contains("Typing \"python\""))
        #expect(output.stdout.contains("µs"))
    }
}
