import Foundation
import Suggest
import Testing
import SuggestTestSupport

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

    @Test func aLenientDictionarysSkippedLinesAndAMissingIndexFolderAreSaid() throws {
        let folder = TestFolders.unique("suggest-validate-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "apple\t10\nbad\tx\nbanana\t-1\ncherry\t3\n".write(toFile: folder + "/w.tsv", atomically: true, encoding: .utf8)
        let lenient = folder + "/lenient.suggest.json"
        try #"{"version":1,"providers":[{"type":"prefix","dictionary":{"path":"w.tsv","lenient":true}}]}"#
            .write(toFile: lenient, atomically: true, encoding: .utf8)
        let skipped = try CLIRunner.run(["validate", lenient])
        #expect(skipped.status == 0)
        #expect(skipped.stderr == "warning: \(lenient): \(folder)/w.tsv: 2 bad lines skipped (\"lenient\": true)\n", "\(skipped.stderr)")
        // An index in a folder that does not exist: the same error `query` would give, and nothing is made.
        let noFolder = folder + "/index.suggest.json"
        try #"{"version":1,"providers":[{"type":"prefix","dictionary":"w.tsv","index":"none/w.idx"}]}"#
            .write(toFile: noFolder, atomically: true, encoding: .utf8)
        let missing = try CLIRunner.run(["validate", noFolder])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: \(noFolder): providers[0].index: the folder \(folder)/none of \(folder)/none/w.idx does not exist\n", "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/none"))
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
