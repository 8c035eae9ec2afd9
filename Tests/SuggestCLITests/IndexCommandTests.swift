import Foundation
import Testing
import SuggestTestSupport

struct IndexCommandTests {
    func temporaryFolder() throws -> String {
        let path = TestFolders.unique("suggest-index-")
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
        #expect(missing.stderr == "error: \(folder)/none.tsv: no such file\n")
        let notAFile = try CLIRunner.run(["index", folder])
        #expect(notAFile.status == 1)
        #expect(notAFile.stderr == "error: \(folder): is a folder\n")
    }

    /// A folder where the saved index should be is named as such, not offered for deletion.
    @Test func anIndexPathThatIsAFolderIsAnError() throws {
        let folder = try temporaryFolder()
        try FileManager.default.copyItem(atPath: CLIRunner.fixture("fruits.tsv"), toPath: folder + "/fruits.tsv")
        try FileManager.default.createFolder(folder + "/fruits.idx")
        let config = folder + "/app.suggest.json"
        try #"{"version":1,"providers":[{"type":"prefix","dictionary":"fruits.tsv","index":"fruits.idx"}]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["validate", config])
        #expect(output.status == 1)
        #expect(output.stderr == "error: \(config): providers[0].index: \(folder)/fruits.idx: is a folder\n")
    }

    /// Control characters of a title (an ESC could drive the terminal) are shown as U+FFFD in the table.
    @Test func controlCharactersInTitlesDoNotReachTheTerminal() throws {
        let folder = try temporaryFolder()
        try "ap\u{1B}[31mple\t3\n".write(toFile: folder + "/esc.tsv", atomically: true, encoding: .utf8)
        let config = folder + "/esc.suggest.json"
        try #"{"version":1,"providers":[{"type":"prefix","dictionary":"esc.tsv"}]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["query", "--config", config, "ap"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(!output.stdout.contains("\u{1B}"))
        #expect(output.stdout.contains("\u{FFFD}[31mple"), "\(output.stdout)")
    }

    @Test func neverOverwritesTheInputDictionary() throws {
        let folder = try temporaryFolder()
        let original = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("fruits.tsv")))
        // A dictionary whose name ends in .idx (the default output is itself), -o naming it, -o a link to it.
        let dictionary = folder + "/fruits.idx"
        try original.write(to: URL(fileURLWithPath: dictionary))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.idx", withDestinationPath: dictionary)
        for arguments in [[dictionary], [dictionary, "-o", dictionary], [dictionary, "-o", folder + "/link.idx"]] {
            let output = try CLIRunner.run(["index"] + arguments)
            #expect(output.status == 1, "\(arguments)")
            #expect(output.stderr.contains("refusing to overwrite it"), "\(output.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: dictionary)) == original)
        }
    }

    @Test func writesThroughASymbolicLinkAndKeepsTheLink() throws {
        let folder = try temporaryFolder()
        try FileManager.default.copyItem(atPath: CLIRunner.fixture("fruits.tsv"), toPath: folder + "/fruits.tsv")
        try FileManager.default.createFolder(folder + "/real")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.idx", withDestinationPath: "real/fruits.idx")
        let output = try CLIRunner.run(["index", folder + "/fruits.tsv", "-o", folder + "/link.idx"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.idx") == "real/fruits.idx")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/real/fruits.idx")).starts(with: Array("SGPREFIX".utf8)))
    }

    @Test func refusesFilesThatAreNotRegularAndNamesTheReason() throws {
        let folder = try temporaryFolder()
        let fifo = folder + "/out.idx"
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases = [
            (fifo, "error: \(fifo): cannot be written (not a regular file (a FIFO))\n"),
            ("/dev/full", "error: /dev/full: cannot be written (not a regular file (a character device))\n"),
            (folder + "/none/out.idx", "error: \(folder)/none/out.idx: cannot be written (\(folder)/none: No such file or directory)\n"),
        ]
        for (path, expected) in cases {
            let output = try CLIRunner.run(["index", CLIRunner.fixture("fruits.tsv"), "-o", path])
            #expect(output.status == 1)
            #expect(output.stderr == expected)
            #expect(!output.stderr.contains("NSCocoaErrorDomain"))
        }
        // Still the FIFO: Foundation gives a FIFO no type of its own (neither file, folder, link, socket nor device).
        let type = try FileManager.default.attributesOfItem(atPath: fifo)[.type] as? FileAttributeType
        #expect(type == .typeUnknown)
    }
}

extension FileManager {
    func createFolder(_ path: String) throws { try createDirectory(atPath: path, withIntermediateDirectories: true) }
}
