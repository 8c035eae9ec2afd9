import Foundation
import Testing
import SuggestTestSupport

/// `suggest batch` with a `prefix` provider: every keystroke answered with the top completions by weight.
struct PrefixCLITests {
    let folder: String
    let config: String

    init() throws {
        folder = TestFolders.unique("suggest-prefix-cli-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(
            "python\t1000\npytorch\t700\npytest\t400\npyramid\t300\nNew York\t800\nnews\t900\nCafé\t50\n".utf8
        ).write(to: URL(fileURLWithPath: folder + "/words.tsv"))
        config = folder + "/app.suggest.json"
        try Data(#"{"version":1,"providers":[{"type":"prefix","dictionary":"words.tsv"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: config))
    }

    func texts(_ line: String) throws -> [String] {
        let suggestions = try #require(try CLIRunner.json(line)["suggestions"] as? [[String: Any]])
        return suggestions.compactMap { $0["text"] as? String }
    }

    @Test func batchAnswersEveryKeystrokeByWeight() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = try CLIRunner.run(
            ["batch", "--config", config],
            lines: [
                #"{"text":"p"}"#, #"{"text":"py"}"#, #"{"text":"pyt"}"#, #"{"text":"pyte"}"#, #"{"text":"york"}"#,
                #"{"text":"cafe"}"#, #"{"text":""}"#,
            ]
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines.count == 7)
        guard output.lines.count == 7 else { return }
        #expect(try texts(output.lines[0]) == ["python", "pytorch", "pytest", "pyramid"])
        #expect(try texts(output.lines[1]) == ["python", "pytorch", "pytest", "pyramid"])
        #expect(try texts(output.lines[2]) == ["python", "pytorch", "pytest"])
        #expect(try texts(output.lines[3]) == ["pytest"])
        #expect(try texts(output.lines[4]) == ["New York"])
        #expect(try texts(output.lines[5]) == ["Café"])
        #expect(try texts(output.lines[6]) == [])
        let first = try #require((try CLIRunner.json(output.lines[0])["suggestions"] as? [[String: Any]])?.first)
        #expect(first["provider"] as? String == "prefix")
    }

    @Test func badDictionaryIsReportedAtItsJSONPath() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("python\tx\n".utf8).write(to: URL(fileURLWithPath: folder + "/words.tsv"))
        let output = try CLIRunner.run(["batch", "--config", config], lines: [#"{"text":"p"}"#])
        #expect(output.status != 0)
        #expect(output.stderr.contains(#"providers[0].dictionary: "#), "\(output.stderr)")
        #expect(output.stderr.contains(#"words.tsv:1: weight "x" is not a number"#), "\(output.stderr)")
    }
}
