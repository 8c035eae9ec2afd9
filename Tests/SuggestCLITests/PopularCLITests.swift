import Foundation
import Testing
import SuggestTestSupport

/// `suggest popular record|list|export`, and a `popular` provider learned from a log answering `suggest batch`.
struct PopularCLITests {
    let folder: String

    init() throws {
        folder = TestFolders.unique("suggest-popular-cli-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    var store: String { folder + "/popular.json" }

    /// A log: "python" by 6 people (one of them twice), "pytorch" by 5, "pyramid" by 4, one search with no results,
    /// one with a bad count of results.
    func record(_ lines: [String]) throws -> CLIRunner.Output {
        try CLIRunner.run(["popular", "record", "--store", store], lines: lines)
    }

    var log: [String] {
        (0..<6).map { "user\($0)\tpython" } + ["user0\tPython"] + (0..<5).map { "user\($0)\tpytorch\t12" }
            + (0..<4).map { "user\($0)\tpyramid\ttrue" } + (0..<9).map { "user\($0)\tpyzzz\t0" }
    }

    @Test func exportWritesTheSearchesOfEnoughPeopleAsADictionaryThePrefixProviderLoads() throws {
        let recorded = try record(log)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stderr.contains("counted 15 searches, 9 no results, 1 repeated by a recent user"))

        let export = try CLIRunner.run(["popular", "export", "--store", store])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.lines == ["python\t6", "pytorch\t5"])
        let all = try CLIRunner.run(["popular", "export", "--store", store, "--min-users", "4"])
        #expect(all.lines == ["python\t6", "pytorch\t5", "pyramid\t4"])

        // The exported file is a dictionary the prefix provider loads.
        try Data(all.stdout.utf8).write(to: URL(fileURLWithPath: folder + "/dictionary.tsv"))
        let config = folder + "/shipped.suggest.json"
        try Data(#"{"version":1,"providers":[{"type":"prefix","dictionary":"dictionary.tsv"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: config))
        let query = try CLIRunner.run(["batch", "--config", config], lines: [#"{"text":"py"}"#])
        #expect(query.status == 0, "\(query.stderr)")
        let answer = try CLIRunner.json(try #require(query.lines.first))
        let titles = (answer["suggestions"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(titles == ["python", "pytorch", "pyramid"])
    }

    @Test func aConfigurationsProviderShowsWhatTheLogTaughtOnTheEmptyField() throws {
        #expect(try record(log).status == 0)
        let config = folder + "/app.suggest.json"
        try Data(
            #"{"version":1,"providers":[{"type":"popular","store":"popular.json","minUsers":4}]}"#.utf8
        ).write(to: URL(fileURLWithPath: config))
        let output = try CLIRunner.run(["batch", "--config", config], lines: [#"{"text":""}"#, #"{"text":"pyr"}"#])
        #expect(output.status == 0, "\(output.stderr)")
        let empty = try CLIRunner.json(output.lines[0])["suggestions"] as? [[String: Any]] ?? []
        #expect(empty.compactMap { $0["text"] as? String } == ["python", "pytorch", "pyramid"])
        #expect(empty.allSatisfy { $0["section"] as? String == "Popular" })
        let typed = try CLIRunner.json(output.lines[1])["suggestions"] as? [[String: Any]] ?? []
        #expect(typed.compactMap { $0["text"] as? String } == ["pyramid"])

        let list = try CLIRunner.run(["popular", "list", "--config", config, "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.lines.count == 3)
        #expect(try CLIRunner.json(list.lines[0])["users"] as? Int == 6)
    }

    @Test func aCorruptStoreIsALocatedErrorAndStaysAsItWas() throws {
        let contents = "{\"popular\":1,\"salt\":\"00112233445566778899aabbccddeeff\"}\n{\"text\":\"x\",\"users\":1,\n"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: store))
        for arguments in [["popular", "export", "--store", store], ["popular", "record", "--store", store]] {
            let output = try CLIRunner.run(arguments, lines: ["a\tb"])
            #expect(output.status == 1)
            #expect(output.stderr.contains("popular.json:2: column"), "\(output.stderr)")
            #expect(output.stdout.isEmpty)
        }
        #expect(try String(contentsOfFile: store, encoding: .utf8) == contents)
    }

    @Test func searchesSubmittedToAStoreThatCouldNotBeReadAreReportedAndExitWithOne() throws {
        try Data("hello".utf8).write(to: URL(fileURLWithPath: store))
        let config = folder + "/app.suggest.json"
        try Data(#"{"version":1,"providers":[{"type":"popular","store":"popular.json","minUsers":1}]}"#.utf8)
            .write(to: URL(fileURLWithPath: config))
        let validate = try CLIRunner.run(["validate", config])
        #expect(validate.status == 0, "a store is state, not configuration: \(validate.stderr)")
        #expect(validate.stderr.contains("warning: \(config): providers[0].store: could not read popular searches: "), "\(validate.stderr)")
        #expect(validate.stderr.contains("popular.json:1: column 1"), "\(validate.stderr)")
        let output = try CLIRunner.run(["batch", "--config", config], lines: [#"{"submit":"y"}"#, #"{"submit":"z"}"#])
        #expect(output.status == 1)
        #expect(output.lines.count == 2, "every line still answered")
        #expect(output.stderr.contains("error: popular: 2 searches not saved: "), "\(output.stderr)")
        #expect(output.stderr.contains("popular.json:1: column 1"), "\(output.stderr)")
        #expect(try String(contentsOfFile: store, encoding: .utf8) == "hello", "the damaged store is left as it was")
    }

    @Test func twoRecordRunsOnOneStoreTakeTurnsAndKeepBothLogs() throws {
        // The first run holds the store's lock while it reads its log; the second waits for it, then reads what the
        // first saved (without the lock, both read an empty store and the last to save wins).
        // `suggest popular record` running, `text` searched by 50 people written to its standard input (kept open).
        func recording(_ text: String) throws -> (process: Process, input: FileHandle) {
            let process = Process()
            process.executableURL = CLIRunner.executable
            process.arguments = ["popular", "record", "--store", store]
            let input = Pipe()
            process.standardInput = input
            process.standardError = FileHandle.nullDevice
            try process.run()
            input.fileHandleForWriting.write(Data((0..<50).map { "\(text)\($0)\t\(text)\n" }.joined().utf8))
            return (process, input.fileHandleForWriting)
        }
        let (first, input) = try recording("first log")
        // The lock file appears once the first run holds the lock (before it reads the store).
        var waited = 0
        while !FileManager.default.fileExists(atPath: store + ".lock") && waited < 1_000 {
            usleep(10_000)
            waited += 1
        }
        let (second, secondInput) = try recording("second log")
        try secondInput.close()
        // Without the lock the second run would read the empty store, save its log and exit while the first still
        // reads: give it that chance (the first then saves over it). With the lock it waits for the first.
        var polls = 0
        while second.isRunning && polls < 200 {
            usleep(10_000)
            polls += 1
        }
        try input.close()
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(second.terminationStatus == 0)
        let list = try CLIRunner.run(["popular", "list", "--store", store, "--json"])
        let users = try list.lines.map { try CLIRunner.json($0) }.reduce(into: [String: Int]()) {
            $0[$1["text"] as? String ?? ""] = $1["users"] as? Int
        }
        #expect(users == ["first log": 50, "second log": 50])
    }

    @Test func aBadLogLineStopsBeforeAnythingIsSaved() throws {
        let output = try record(["a\tpython", "no tab here", "b\tpython"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("standard input:2: expected user<TAB>text[<TAB>results]"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
        let badCount = try record(["a\tpython\tmany"])
        #expect(badCount.stderr.contains("standard input:1: results \"many\" is not a count or true/false"))
    }

    @Test func theStoreIsNamedOnce() throws {
        let neither = try CLIRunner.run(["popular", "export"])
        #expect(neither.status == 64)
        #expect(neither.stderr.contains("--store FILE or --config FILE"))
        #expect(neither.stderr.contains("Usage: suggest popular export "), "the subcommand's usage: \(neither.stderr)")
        let both = try CLIRunner.run(["popular", "list", "--store", store, "--config", store])
        #expect(both.status == 64)
        #expect(both.stderr.contains("Usage: suggest popular list "), "\(both.stderr)")
        let noMin = try CLIRunner.run(["popular", "export", "--store", store, "--min-users", "0"])
        #expect(noMin.status == 64)
    }

    @Test func aStoreThatDoesNotExistIsSaidSo() throws {
        // Listing or exporting a path that holds no store yet: empty, with a note (a misspelt path shows).
        for command in ["list", "export"] {
            let missing = try CLIRunner.run(["popular", command, "--store", folder + "/popluar.json"])
            #expect(missing.status == 0)
            #expect(missing.stdout.isEmpty)
            #expect(missing.stderr == "note: \(folder)/popluar.json: no such file yet; the store is empty\n", "\(missing.stderr)")
        }
        // Recording into a folder that does not exist: the folder is named, and nothing is made.
        let noFolder = try CLIRunner.run(["popular", "record", "--store", folder + "/none/p.json"], lines: log)
        #expect(noFolder.status == 1)
        #expect(noFolder.stderr == "error: \(folder)/none/p.json: the folder \(folder)/none does not exist\n", "\(noFolder.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/none"))
    }
}
