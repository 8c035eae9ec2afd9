import Foundation
import Testing
import SuggestTestSupport

/// `suggest batch` with a `prefix` and a `fuzzy` provider on the same dictionary: prefix completions first, typo
/// and abbreviation matches after them, one suggestion per completion.
struct FuzzyCLITests {
    let folder: String
    let config: String

    init() throws {
        folder = TestFolders.unique("suggest-fuzzy-cli-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(
            "python\t1000\npytorch\t700\npath\t100000\nreceive\t700\nreceived\t800\ngithub\t600\nNew York Times\t400\n"
                .utf8
        ).write(to: URL(fileURLWithPath: folder + "/words.tsv"))
        config = folder + "/app.suggest.json"
        try Data(
            #"""
            {"version":1,"limit":5,"providers":[
              {"type":"prefix","dictionary":"words.tsv"},
              {"type":"fuzzy","dictionary":"words.tsv"}]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: config))
    }

    func suggestions(_ line: String) throws -> [(text: String, provider: String)] {
        let suggestions = try #require(try CLIRunner.json(line)["suggestions"] as? [[String: Any]])
        return suggestions.map { ($0["text"] as? String ?? "", $0["provider"] as? String ?? "") }
    }

    @Test func prefixAndFuzzyServeOneTypingSession() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = try CLIRunner.run(
            ["batch", "--config", config],
            lines: [
                #"{"text":"pyth"}"#, #"{"text":"pyhto"}"#, #"{"reset":true}"#, #"{"text":"recieve"}"#,
                #"{"text":"gthb"}"#, #"{"text":"nyt"}"#,
            ]
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines.count == 6)
        guard output.lines.count == 6 else { return }
        // The prefix completion first; "path" (one substitution, 100× more popular) and "pytorch" ("pyto", one
        // substitution) after it.
        let pyth = try suggestions(output.lines[0])
        #expect(pyth.map(\.text) == ["python", "path", "pytorch"])
        #expect(pyth.first { $0.text == "path" }?.provider == "fuzzy")
        // A transposition while typing.
        let pyhto = try suggestions(output.lines[1])
        #expect(pyhto.first?.text == "python")
        #expect(pyhto.first?.provider == "fuzzy")
        // A whole misspelt word: the corrected word, then its completion.
        #expect(try suggestions(output.lines[3]).map(\.text) == ["receive", "received"])
        // Abbreviations.
        #expect(try suggestions(output.lines[4]).map(\.text) == ["github"])
        #expect(try suggestions(output.lines[5]).map(\.text) == ["New York Times"])
        let micros = try #require(try CLIRunner.json(output.lines[1])["micros"] as? Double)
        #expect(micros >= 0)
    }
}
