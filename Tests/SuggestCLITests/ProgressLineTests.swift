import Foundation
import Testing

@testable import suggest
import SuggestTestSupport

/// The progress line of long work: on a terminal only (or when forced), throttled, erased at the end.
struct ProgressLineTests {
    static let erase = "\r\u{1B}[K"

    /// Runs `suggest` with `environment` added to this process's (`SUGGEST_PROGRESS` and `SUGGEST_LOG_LEVEL`
    /// removed unless given).
    func run(
        _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil
    ) throws -> CLIRunner.Output {
        try Self.run(CLIRunner.executable.path, arguments, environment: environment, stdin: stdin)
    }

    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil
    ) throws -> CLIRunner.Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["SUGGEST_PROGRESS"] = nil
        env["SUGGEST_LOG_LEVEL"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        // Small outputs: reading one pipe after the other cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRunner.Output(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    func dictionary() throws -> (tsv: String, idx: String) {
        // A short name: the progress line's path must fit in 79 columns.
        let folder = TestFolders.root + "/progress-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLIRunner.fixture("fruits.tsv"), toPath: folder + "/fruits.tsv")
        return (folder + "/fruits.tsv", folder + "/fruits.idx")
    }

    @Test func pipedStandardErrorGetsNoProgress() throws {
        let (tsv, idx) = try dictionary()
        let index = try run(["index", tsv, "--output", idx])
        #expect(index.status == 0)
        #expect(index.stderr.isEmpty)
        let query = try run(["query", "--config", CLIRunner.fixture("fruits.suggest.json"), "ap"])
        #expect(query.status == 0)
        #expect(query.stderr.isEmpty)
    }

    @Test func forcedProgressOfAnIndexBuildIsDrawnThenErased() throws {
        let (tsv, idx) = try dictionary()
        let output = try run(["index", tsv, "--output", idx], environment: ["SUGGEST_PROGRESS": "always"])
        #expect(output.status == 0)
        #expect(output.stderr.hasPrefix(Self.erase + "reading \(tsv)… "), "\(output.stderr.debugDescription)")
        #expect(output.stderr.hasSuffix(Self.erase))
        #expect(!output.stderr.contains("\n"))
        #expect(output.stdout.hasPrefix("\(idx): 4 entries indexed in "))
    }

    @Test func forcedProgressOfAConfigurationLoadLeavesTheAnswersAlone() throws {
        let output = try run(
            ["batch", "--config", CLIRunner.fixture("fruits.suggest.json")],
            environment: ["SUGGEST_PROGRESS": "always"], stdin: #"{"text":"ap"}"# + "\n")
        #expect(output.status == 0)
        #expect(output.stderr.hasPrefix(Self.erase + "loading "))
        #expect(output.stderr.hasSuffix(Self.erase))
        let answer = try CLIRunner.json(try #require(output.lines.first))
        #expect((answer["suggestions"] as? [[String: Any]])?.first?["title"] as? String == "Apple")
    }

    /// `suggest validate` shows which file it is loading, and erases the line before each file's verdict.
    @Test func forcedProgressOfValidateIsErasedBeforeEachVerdict() throws {
        let good = CLIRunner.fixture("fruits.suggest.json")
        let output = try run(["validate", good, "/nonexistent/x.suggest.json"], environment: ["SUGGEST_PROGRESS": "always"])
        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("\(good): OK ("), "\(output.stdout)")
        #expect(output.stderr.hasPrefix(Self.erase + "validating /"), "\(output.stderr.debugDescription)")  // cut to 79 columns
        #expect(output.stderr.contains(Self.erase + "validating /nonexistent/x.suggest.json"))
        // The error line comes after the erase, never on the progress line.
        #expect(output.stderr.contains(Self.erase + "error: /nonexistent/x.suggest.json"), "\(output.stderr.debugDescription)")
    }

    @Test func aFailureErasesTheProgressBeforeItsMessage() throws {
        let output = try run(["index", "/nonexistent/words.tsv"], environment: ["SUGGEST_PROGRESS": "always"])
        #expect(output.status == 1)
        #expect(output.stderr.hasSuffix(Self.erase + "error: /nonexistent/words.tsv: no such file\n"))
    }

    #if os(Linux)
        /// On a real terminal (a pseudo-terminal made by util-linux `script`), with nothing forced.
        @Test func onATerminalProgressIsShownAndErased() throws {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
            let (tsv, idx) = try dictionary()
            let command = "\(CLIRunner.executable.path) index \(tsv) --output \(idx)"
            let shown = try Self.run("/usr/bin/script", ["-qec", command, "/dev/null"])
            #expect(shown.status == 0)
            #expect(shown.stdout.contains(Self.erase + "reading \(tsv)… "), "\(shown.stdout.debugDescription)")
            #expect(shown.stdout.contains(Self.erase + "\(idx): 4 entries indexed in "))
            let off = try Self.run(
                "/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["SUGGEST_PROGRESS": "never"])
            #expect(off.status == 0)
            #expect(!off.stdout.contains("\u{1B}"))
        }
    #endif

    @Test func theThrottleDrawsAtMostTenTimesASecond() {
        var throttle = ProgressThrottle()
        let start = ContinuousClock.now
        var draws: [Int] = []
        // An update every 10 ms for one second.
        for step in 0..<100 where throttle.shouldDraw(at: start + .milliseconds(step * 10)) { draws.append(step) }
        #expect(draws == Array(stride(from: 0, to: 100, by: 10)))
    }
}
