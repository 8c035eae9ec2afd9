import Foundation
import Suggest
import Testing

struct ValidateCommandTests {
    @Test func aValidConfigurationExitsZero() throws {
        let path = CLIRunner.fixture("fruits.suggest.json")
        let output = try CLIRunner.run(["validate", path])
        #expect(output.status == 0)
        #expect(output.stdout == "\(path): OK (1 providers: fruits)\n")
    }

    @Test func everyErrorIsListedWithItsPlace() throws {
        let path = CLIRunner.fixture("broken.json")
        let output = try CLIRunner.run(["validate", path])
        #expect(output.status == 1)
        #expect(output.stderr.split(separator: "\n").map(String.init) == [
            #"error: \#(path): unknown key "limt" — did you mean "limit"?"#,
            #"error: \#(path): providers[0].type: unknown provider type "statik" — did you mean "static"? (known types: \#(KnownTypes.list))"#,
            #"error: \#(path): providers[1].showWhenEmpty: expected true, false or a number of items from 0 to 1000000, found string "yes""#,
            #"error: \#(path): providers[1].items[0]: unknown key "subtitel" — did you mean "subtitle"?"#,
        ])
    }

    @Test func malformedJSONNamesLineAndColumn() throws {
        let path = CLIRunner.fixture("malformed.json")
        let output = try CLIRunner.run(["validate", path])
        #expect(output.status == 1)
        #expect(output.stderr == "error: \(path):3:1: unexpected end of input, expected a value\n")
    }

    @Test func aMissingFileAndAUsageError() throws {
        let missing = try CLIRunner.run(["validate", "/nonexistent.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: /nonexistent.json: no such file\n")
        let usage = try CLIRunner.run(["query"])
        #expect(usage.status == 64)
    }
}

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
        let folder = NSTemporaryDirectory() + "suggest-numbers-" + UUID().uuidString
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
        let folder = NSTemporaryDirectory() + "suggest-numbers-" + UUID().uuidString
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

/// Files that are not regular files (a FIFO would block a reader forever) and text files from other systems.
struct ValidateFilesTests {
    @Test func aFIFOAtAnIndexPathOrAsTheConfigurationIsAnErrorNotAHang() throws {
        let folder = NSTemporaryDirectory() + "suggest-fifo-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: CLIRunner.fixture("fruits.tsv"), toPath: folder + "/fruits.tsv")
        #expect(mkfifo(folder + "/fruits.idx", 0o600) == 0)
        let config = folder + "/app.suggest.json"
        try #"{"version":1,"providers":[{"type":"prefix","dictionary":"fruits.tsv","index":"fruits.idx"}]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["validate", config])
        #expect(output.status == 1)
        #expect(output.stderr.hasPrefix(
            "error: \(config): providers[0].index: \(folder)/fruits.idx: cannot be read (not a regular file: a FIFO)"
        ), "\(output.stderr)")
        #expect(mkfifo(folder + "/fifo.json", 0o600) == 0)
        let fifo = try CLIRunner.run(["validate", folder + "/fifo.json"])
        #expect(fifo.status == 1)
        #expect(fifo.stderr == "error: \(folder)/fifo.json: not a regular file (a FIFO)\n")
    }
}

enum KnownTypes {
    /// The CLI's provider types, as its registry lists them: the built-in ones, then `postgres` (SuggestPostgres)
    /// and `remote` (SuggestRemote).
    static var list: String { (ProviderRegistry.builtIn.typeNames + ["postgres", "remote"]).joined(separator: ", ") }
}
