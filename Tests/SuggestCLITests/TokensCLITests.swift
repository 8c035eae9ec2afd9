import Foundation
import Testing
import SuggestTestSupport

/// `suggest batch` with the `tokens` provider: typed text turning into tokens, remaining text, suggested tokens.
struct TokensCLITests {
    let folder: String
    let config: String

    init() throws {
        folder = TestFolders.unique("suggest-tokens-cli-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("Chicken\nBeef\nSweet Potato\n".utf8).write(to: URL(fileURLWithPath: folder + "/ingredients.txt"))
        config = folder + "/tokens.suggest.json"
        try Data(
            #"""
            { "version": 1, "limit": 8,
              "providers": [
                { "type": "tokens",
                  "rules": [ { "kind": "from", "pattern": "\\bfrom:(?<value>\\S+)", "display": "From: $value",
                               "values": ["alice", "alex"] } ],
                  "vocabulary": { "ingredient": { "file": "ingredients.txt" } } } ] }
            """#.utf8
        ).write(to: URL(fileURLWithPath: config))
    }

    func tokens(_ json: [String: Any], _ key: String) -> [String] {
        ((json[key] as? [[String: Any]]) ?? []).map {
            "\($0["kind"] as? String ?? "?"):\($0["value"] as? String ?? "?")"
        }
    }

    @Test func typingTurnsTextIntoTokens() throws {
        let output = try CLIRunner.run(
            ["batch", "--config", config],
            lines: [
                #"{"text":"spicy chicken "}"#,
                #"{"text":"crème brûlée,"}"#,
                #"{"text":"from:al"}"#,
                #"{"text":"from:alice ","tokens":[{"kind":"ingredient","value":"Beef"}]}"#,
            ]
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines.count == 4)

        let spicy = try CLIRunner.json(output.lines[0])
        #expect(tokens(spicy, "tokens") == ["ingredient:Chicken"])
        #expect(spicy["remaining"] as? String == "spicy ")

        let creme = try CLIRunner.json(output.lines[1])
        #expect(tokens(creme, "tokens") == ["text:crème brûlée"])
        #expect(creme["remaining"] as? String == "")

        let typing = try CLIRunner.json(output.lines[2])
        #expect(Set(tokens(typing, "suggestedTokens")) == ["from:alice", "from:alex"])
        let suggestions = try #require(typing["suggestions"] as? [[String: Any]])
        #expect(
            Set(suggestions.compactMap { ($0["token"] as? [String: Any])?["value"] as? String }) == ["alice", "alex"]
        )
        #expect(suggestions.contains { $0["text"] as? String == "From: alice" })
        #expect(typing["remaining"] as? String == "from:al")

        let done = try CLIRunner.json(output.lines[3])
        #expect(tokens(done, "tokens") == ["ingredient:Beef", "from:alice"])
        #expect(done["remaining"] as? String == "")
    }

    @Test func badPatternIsReportedWithItsPath() throws {
        let bad = folder + "/bad.suggest.json"
        try Data(
            #"{ "version": 1, "providers": [ { "type": "tokens", "rules": [ { "kind": "from", "pattern": "from:(\\S+ x" } ] } ] }"#
                .utf8
        ).write(to: URL(fileURLWithPath: bad))
        let output = try CLIRunner.run(["validate", bad])
        #expect(output.status != 0)
        #expect(
            (output.stdout + output.stderr).contains(
                "providers[0].rules[0].pattern: missing closing parenthesis at offset 11"
            )
        )
    }
}
