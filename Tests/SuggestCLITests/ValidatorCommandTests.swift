import Foundation
import Testing
import SuggestTestSupport

/// A package's own validator (`SuggestValidation.main(registry:)`, here `suggest-validate-example`, which knows the
/// `colors` and `contacts` types of the guides), run as `swift package suggest-validate` runs it: `VALIDATOR validate FILE...`.
struct ValidatorCommandTests {
    static var validator: URL { CLIRunner.productsDirectory.appendingPathComponent("suggest-validate-example") }

    static func run(_ arguments: [String]) throws -> CLIRunner.Output {
        let process = Process()
        process.executableURL = validator
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Small outputs: reading after the exit cannot block the child on a full pipe.
        process.waitUntilExit()
        return CLIRunner.Output(
            status: process.terminationStatus,
            stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }

    @Test func theBuiltInToolRejectsACustomType() throws {
        let path = CLIRunner.fixture("colors.suggest.json")
        let output = try CLIRunner.run(["validate", path])
        #expect(output.status == 1)
        #expect(output.stderr.hasPrefix(#"error: \#(path): providers[0].type: unknown provider type "colors""#))
    }

    @Test func thePackagesValidatorAcceptsItsOwnTypeAndTheBuiltInOnes() throws {
        let path = CLIRunner.fixture("colors.suggest.json")
        let output = try Self.run(["validate", path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "\(path): OK (3 providers: colors, people, fruits)\n")
        #expect(output.stderr == "")
        // Without the leading `validate` too (`swift run ValidateSuggest FILE`).
        #expect(try Self.run([path]).stdout == output.stdout)
    }

    @Test func itChecksTheCustomTypeFully() throws {
        let path = CLIRunner.fixture("colors-broken.json")
        let output = try Self.run(["validate", path])
        #expect(output.status == 1)
        let known = "static, recent, popular, prefix, fuzzy, tokens, colors, contacts"
        #expect(
            output.stderr.split(separator: "\n").map(String.init) == [
                #"error: \#(path): providers[0]: missing required key "names""#,
                #"error: \#(path): providers[0]: unknown key "nams" — did you mean "names"?"#,
                #"error: \#(path): providers[1].names: expected at least one name"#,
                #"error: \#(path): providers[2].type: unknown provider type "colours" — did you mean "colors"? (known types: \#(known))"#,
                #"error: \#(path): providers[3]: unknown key "store" (known keys: exactMatch, id, section, type, weight)"#,
            ])
    }

    @Test func validateWritesNoIndexFileAndChecksOneThatExists() throws {
        let folder = TestFolders.unique("suggest-validate-index-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "apple\t5\n".write(toFile: folder + "/words.tsv", atomically: true, encoding: .utf8)
        let config = folder + "/c.suggest.json"
        try #"{"version":1,"providers":[{"type":"prefix","dictionary":"words.tsv","index":"words.idx"}]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let missing = try CLIRunner.run(["validate", config])
        #expect(missing.status == 0, "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/words.idx"), "validate made no index file")
        // A stale index is left as it is; a damaged one is an error.
        #expect(try CLIRunner.run(["index", folder + "/words.tsv"]).status == 0)
        let saved = try Data(contentsOf: URL(fileURLWithPath: folder + "/words.idx"))
        try "apple\t5\nbanana\t3\n".write(toFile: folder + "/words.tsv", atomically: true, encoding: .utf8)
        #expect(try CLIRunner.run(["validate", config]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/words.idx")) == saved)
        try Data(saved.prefix(40)).write(to: URL(fileURLWithPath: folder + "/words.idx"))
        let damaged = try CLIRunner.run(["validate", config])
        #expect(damaged.status == 1)
        #expect(damaged.stderr.contains("providers[0].index"), "\(damaged.stderr)")
    }

    @Test func everyFileIsCheckedAndUsageErrorsExit64() throws {
        let good = CLIRunner.fixture("colors.suggest.json")
        let both = try Self.run(["validate", good, "/nonexistent.json"])
        #expect(both.status == 1)
        #expect(both.stdout == "\(good): OK (3 providers: colors, people, fruits)\n")
        #expect(both.stderr == "error: /nonexistent.json: no such file\n")
        let none = try Self.run(["validate"])
        #expect(none.status == 64)
        #expect(
            none.stderr.hasPrefix(
                "error: no configuration file given\nusage: suggest-validate-example [validate] FILE..."))
        let option = try Self.run(["--strict", good])
        #expect(option.status == 64)
        #expect(option.stderr.hasPrefix("error: unknown option --strict\n"))
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        #expect(
            help.stdout.hasSuffix("known provider types: static, recent, popular, prefix, fuzzy, tokens, colors, contacts\n"))
    }
}
