import Foundation
import Testing

struct IndexCommandTests {
    func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "suggest-index-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func buildsAnIndexThatTheConfigurationLoads() throws {
        let folder = try temporaryFolder()
        try FileManager.default.copyItem(atPath: CLIRunner.fixture("fruits.tsv"), toPath: folder + "/fruits.tsv")
        let built = try CLIRunner.run(["index", folder + "/fruits.tsv"])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.hasPrefix("\(folder)/fruits.idx: 4 entries indexed in "))
        let config = folder + "/app.suggest.json"
        try #"{"version":1,"providers":[{"type":"prefix","dictionary":"fruits.tsv","index":"fruits.idx"}]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let before = try FileManager.default.attributesOfItem(atPath: folder + "/fruits.idx")[.modificationDate] as? Date
        let output = try CLIRunner.run(["batch", "--config", config], lines: [#"{"text":"ap"}"#])
        #expect(output.status == 0)
        let suggestions = try CLIRunner.json(try #require(output.lines.first))["suggestions"] as? [[String: Any]]
        #expect(suggestions?.compactMap { $0["text"] as? String } == ["Apple", "Apricot", "Green Apple"])
        // Loaded, not rebuilt.
        let after = try FileManager.default.attributesOfItem(atPath: folder + "/fruits.idx")[.modificationDate] as? Date
        #expect(before == after)
    }

    @Test func aBadDictionaryIsAnErrorNamingFileAndLine() throws {
        let folder = try temporaryFolder()
        try "apple\t1\npear\tmany\n".write(toFile: folder + "/bad.tsv", atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["index", folder + "/bad.tsv", "--output", folder + "/bad.idx"])
        #expect(output.status == 1)
        #expect(output.stderr == "error: \(folder)/bad.tsv:2: weight \"many\" is not a number\n")
        #expect(!FileManager.default.fileExists(atPath: folder + "/bad.idx"))
        let lenient = try CLIRunner.run(["index", folder + "/bad.tsv", "--output", folder + "/bad.idx", "--lenient"])
        #expect(lenient.status == 0)
        #expect(lenient.stdout.hasSuffix("(1 bad lines skipped)\n"))
        let missing = try CLIRunner.run(["index", folder + "/none.tsv"])
        #expect(missing.status == 1)
    }
}
