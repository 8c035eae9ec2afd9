import Foundation
import Suggest
import Testing
import SuggestTestSupport

/// Numbers beyond `Int` (or beyond a key's range) in every provider's numeric keys: a located error, never a crash.
struct ValidateNumbersTests {
    static let cases: [(provider: String, expected: String)] = [
        (#"{ "type": "static", "showWhenEmpty": 1e19, "items": [ { "title": "A" } ] }"#,
         "providers[0].showWhenEmpty: expected true, false or a number of items from 0 to 1000000, found number 1e+19"),
        (#"{ "type": "static", "items": [ { "title": "A", "popularity": 1e300 } ] }"#,
         "providers[0].items[0].popularity: expected a number from 0 to 1000000000000, found number 1e+300"),
        (#"{ "type": "static", "weight": 1e19, "items": [ { "title": "A" } ] }"#,
         "providers[0].weight: expected a number from 0 to 1000000, found number 1e+19"),
        (#"{ "type": "recent", "halfLifeDays": 1e20 }"#,
         "providers[0].halfLifeDays: expected a number of days greater than 0 and at most 36500, found 1e+20"),
        (#"{ "type": "recent", "capacity": 1e19 }"#,
         "providers[0].capacity: expected an integer from -9223372036854775808 to 9223372036854775807, found number 1e+19"),
        (#"{ "type": "recent", "exclude": { "minLength": -1e19 } }"#,
         "providers[0].exclude.minLength: expected an integer from -9223372036854775808 to 9223372036854775807, found number -1e+19"),
        (#"{ "type": "tokens", "maxSuggestedTokens": 1e19 }"#,
         "providers[0].maxSuggestedTokens: expected an integer from -9223372036854775808 to 9223372036854775807, found number 1e+19"),
        (#"{ "type": "tokens", "matchLimit": 1e19 }"#,
         "providers[0].matchLimit: expected an integer from -9223372036854775808 to 9223372036854775807, found number 1e+19"),
        (#"{ "type": "recent", "capacity": 100001 }"#,
         "providers[0].capacity: expected an integer from 1 to 100000, found 100001"),
        (#"{ "type": "tokens", "maxSuggestedTokens": 1001 }"#,
         "providers[0].maxSuggestedTokens: expected an integer from 0 to 1000, found 1001"),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "maxTypos": 1e19 }"#,
         "providers[0].maxTypos: expected an integer from -9223372036854775808 to 9223372036854775807, found number 1e+19"),
    ]

    @Test(arguments: cases)
    func aNumberOutOfRangeIsALocatedError(provider: String, expected: String) throws {
        let folder = TestFolders.unique("suggest-numbers-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("apple\t1\n".utf8).write(to: URL(fileURLWithPath: folder + "/words.tsv"))
        let path = folder + "/c.json"
        try Data(#"{ "version": 1, "providers": [ \#(provider) ] }"#.utf8).write(to: URL(fileURLWithPath: path))
        let output = try CLIRunner.run(["validate", path])
        #expect(output.status == 1)
        #expect(output.stderr == "error: \(path): \(expected)\n")
    }

    @Test func aSectionQuotaAndTheLimitBeyondIntAreLocatedErrors() throws {
        let folder = TestFolders.unique("suggest-numbers-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/c.json"
        try Data(
            #"{ "version": 1, "limit": 1e19, "sections": [ { "title": "S", "quota": 1e19 } ], "providers": [] }"#.utf8
        ).write(to: URL(fileURLWithPath: path))
        let output = try CLIRunner.run(["validate", path])
        #expect(output.status == 1)
        #expect(output.stderr.contains("limit: expected an integer from 1 to 1000, found number 1e+19"))
        #expect(output.stderr.contains("sections[0].quota: expected an integer from 0 to 1000, found number 1e+19"))
    }
}
