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

enum KnownTypes {
    /// The CLI's provider types, as its registry lists them: the built-in ones, then `postgres` (SuggestPostgres)
    /// and `remote` (SuggestRemote).
    static var list: String { (ProviderRegistry.builtIn.typeNames + ["postgres", "remote"]).joined(separator: ", ") }
}
