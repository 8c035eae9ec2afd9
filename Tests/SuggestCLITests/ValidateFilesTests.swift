import Foundation
import Suggest
import Testing
import SuggestTestSupport

/// Files that are not regular files (a FIFO would block a reader forever) and text files from other systems.
struct ValidateFilesTests {
    @Test func aFIFOAtAnIndexPathOrAsTheConfigurationIsAnErrorNotAHang() throws {
        let folder = TestFolders.unique("suggest-fifo-")
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
            "error: \(config): providers[0].index: \(folder)/fruits.idx: not a regular file (a FIFO)"
        ), "\(output.stderr)")
        #expect(mkfifo(folder + "/fifo.json", 0o600) == 0)
        let fifo = try CLIRunner.run(["validate", folder + "/fifo.json"])
        #expect(fifo.status == 1)
        #expect(fifo.stderr == "error: \(folder)/fifo.json: not a regular file (a FIFO)\n")
    }
}
