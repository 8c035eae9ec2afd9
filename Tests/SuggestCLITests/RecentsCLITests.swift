import Foundation
import Testing
import SuggestTestSupport

/// `suggest batch` learning recent searches into a store file, and `suggest recents list|remove|clear`.
struct RecentsCLITests {
    let folder: String
    let config: String

    init() throws {
        folder = TestFolders.unique("suggest-recents-cli-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        config = folder + "/app.suggest.json"
        try Data(
            """
            { "version": 1, "limit": 8,
              "providers": [
                { "type": "recent", "id": "history", "store": "recents.json", "capacity": 5000 },
                { "type": "static", "id": "fruits", "items": [ { "title": "Apple" }, { "title": "Apricot" } ] } ] }
            """.utf8
        ).write(to: URL(fileURLWithPath: config))
    }

    var storePath: String { folder + "/recents.json" }

    func batch(_ lines: [String]) throws -> CLIRunner.Output {
        try CLIRunner.run(["batch", "--config", config], lines: lines)
    }

    @Test func aStoreWhoseCountsAddUpPastIntMaxWorksWithEveryCommand() throws {
        // Two spellings of one search, each with 2^62 uses and a score near the largest Double.
        let entry = #""uses": 4611686018427387904, "score": 1e308, "firstUsed": 1795000000, "lastUsed": 1795000000"#
        try Data(
            #"{"version": 1, "entries": [ {"text": "Python", \#(entry)}, {"text": "python", \#(entry)} ]}"#.utf8
        ).write(to: URL(fileURLWithPath: storePath))
        let validate = try CLIRunner.run(["validate", config])
        #expect(validate.status == 0, "\(validate.stderr)")
        let list = try CLIRunner.run(["recents", "list", "--config", config, "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let listed = try CLIRunner.json(try #require(list.lines.first))
        #expect(listed["uses"] as? Int == Int.max)
        // An infinite frecency prints as the largest number, not 0.
        #expect((listed["frecency"] as? Double ?? 0) > 1e300)
        let output = try batch([#"{"submit":"python"}"#, #"{"text":""}"#])
        #expect(output.status == 0, "\(output.stderr)")
        let suggestions = try #require(try CLIRunner.json(output.lines[1])["suggestions"] as? [[String: Any]])
        #expect((suggestions.first?["score"] as? Double ?? 0) > 0)
        let again = try batch([#"{"submit":"rust"}"#])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOfFile: storePath, encoding: .utf8).contains("rust"))
    }

    /// A store of 1,000 searches (about 120 KB): large enough that writes go to the journal.
    func writeLargeStore() throws {
        let entries = (0..<1_000).map { i in
            #"{"text": "stored search number \#(i)", "uses": 1, "score": 1, "firstUsed": \#(1_795_000_000 + i), "lastUsed": \#(1_795_000_000 + i)}"#
        }
        try Data(#"{"version": 1, "entries": [\#(entries.joined(separator: ", "))]}"#.utf8)
            .write(to: URL(fileURLWithPath: storePath))
    }

    @Test func aSubmitToALargeStoreAppendsToTheJournalAndEveryCommandSeesIt() throws {
        try writeLargeStore()
        let base = try Data(contentsOf: URL(fileURLWithPath: storePath))
        let output = try batch([#"{"submit":"journaled search"}"#])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: storePath)) == base, "the base is not rewritten")
        let journal = try String(contentsOfFile: storePath + ".journal", encoding: .utf8)
        #expect(journal.contains("journaled search"))
        let list = try CLIRunner.run(["recents", "list", "--config", config])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.lines.first?.contains("journaled search") == true)
        #expect(list.lines.count == 1_001)
    }

    @Test func aCorruptJournalLineIsReportedReadingChangesNothingAndTheNextWriteMovesItAside() throws {
        try writeLargeStore()
        _ = try batch([#"{"submit":"one"}"#, #"{"submit":"two"}"#])
        var lines = try String(contentsOfFile: storePath + ".journal", encoding: .utf8).split(separator: "\n")
        lines[1] = "garbage"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: storePath + ".journal"))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let validate = try CLIRunner.run(["validate", config])
        #expect(validate.status == 0, "\(validate.stderr)")
        let listed = try CLIRunner.run(["recents", "list", "--config", config])
        #expect(listed.stderr.contains("recents.json.journal is unreadable (line 2"), "\(listed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before, "no rename, no lock file")
        // The next write moves the journal aside and rewrites the base: the stored searches are all there.
        _ = try batch([#"{"submit":"three"}"#])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).contains { $0.hasPrefix("recents.json.journal.corrupt-") })
        let list = try CLIRunner.run(["recents", "list", "--config", config])
        #expect(list.lines.count == 1_001)
    }

    @Test func validateAndListHaveNoSideEffectsOnACorruptStore() throws {
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: storePath))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let validate = try CLIRunner.run(["validate", config])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stderr.hasPrefix("warning: \(config): providers[0].store: could not read recent searches: "), "\(validate.stderr)")
        let list = try CLIRunner.run(["recents", "list", "--config", config])
        #expect(list.status == 1, "a store that cannot be read")
        #expect(list.stderr.contains("is unreadable (line 1, column 3: "), "\(list.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before, "no rename, no lock file")
        #expect(try String(contentsOfFile: storePath, encoding: .utf8) == "{ not json")
    }

    @Test func searchesThatCannotBeSavedAreReportedAndExitWithOne() throws {
        let first = try batch([#"{"submit":"kept"}"#])
        #expect(first.status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: storePath)
        let output = try batch([#"{"submit":"lost"}"#, #"{"text":""}"#])
        #expect(output.status == 1)
        #expect(output.lines.count == 2, "every line still answered")
        let suggestions = try #require(try CLIRunner.json(output.lines[1])["suggestions"] as? [[String: Any]])
        #expect(suggestions.compactMap { $0["text"] as? String }.contains("kept"), "a read-only store is still read")
        #expect(output.stderr.hasPrefix("error: history: 1 change to the recent searches not saved: "), "\(output.stderr)")
        #expect(output.stderr.contains("read-only (mode 0444)"))
        #expect(try String(contentsOfFile: storePath, encoding: .utf8).contains("kept"))
        #expect(!(try String(contentsOfFile: storePath, encoding: .utf8).contains("lost")))
    }

    @Test func aSymlinkedStoreStaysALink() throws {
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: storePath, withDestinationPath: "data/history.json")
        let output = try batch([#"{"submit":"linked"}"#])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: storePath) == "data/history.json")
        #expect(try String(contentsOfFile: folder + "/data/history.json", encoding: .utf8).contains("linked"))
    }

    @Test func batchRemembersSubmittedSearchesAcrossRuns() throws {
        let first = try batch([#"{"submit":"apple pie"}"#, #"{"submit":"  Apricot   jam "}"#])
        #expect(first.status == 0)
        #expect(first.lines == [#"{"submitted":"apple pie"}"#, #"{"submitted":"  Apricot   jam "}"#])

        let second = try batch([#"{"text":""}"#, #"{"text":"ap"}"#])
        #expect(second.status == 0)
        let empty = try #require(try CLIRunner.json(second.lines[0])["suggestions"] as? [[String: Any]])
        #expect(empty.map { $0["text"] as? String } == ["Apricot jam", "apple pie"])
        #expect(empty.allSatisfy { $0["section"] as? String == "Recent" && $0["systemImage"] as? String == "clock" })
        #expect(empty.allSatisfy { $0["provider"] as? String == "history" })
        let typing = try #require(try CLIRunner.json(second.lines[1])["suggestions"] as? [[String: Any]])
        #expect(typing.filter { $0["section"] as? String == "Recent" }.count == 2)
        #expect(typing.contains { $0["text"] as? String == "Apricot" && $0["section"] as? String == "Suggestions" })
    }

    @Test func batchRemembersTokens() throws {
        let output = try batch([
            #"{"submit":"notes","tokens":[{"kind":"from","value":"alice","display":"From: alice"}]}"#,
            #"{"text":"no"}"#,
        ])
        let suggestion = try #require((try CLIRunner.json(output.lines[1])["suggestions"] as? [[String: Any]])?.first)
        #expect(suggestion["text"] as? String == "notes")
        #expect(suggestion["subtitle"] as? String == "From: alice")
        // The tokens to restore with it (a `.query` completion); no single `token`, since it has text.
        let tokens = try #require(suggestion["tokens"] as? [[String: String]])
        #expect(tokens == [["kind": "from", "value": "alice", "display": "From: alice"]])
        #expect(suggestion["token"] == nil)
        let list = try CLIRunner.run(["recents", "list", "--config", config, "--json"])
        let entry = try CLIRunner.json(try #require(list.lines.first))
        #expect((entry["tokens"] as? [[String: String]])?.first?["value"] == "alice")
    }

    @Test func batchRemembersSelectionsWhenConfigured() throws {
        let selecting = folder + "/select.suggest.json"
        try Data(
            """
            { "version": 1, "providers": [
                { "type": "recent", "store": "selected.json", "recordSelections": true },
                { "type": "static", "items": [ { "title": "Apricot" } ] } ] }
            """.utf8
        ).write(to: URL(fileURLWithPath: selecting))
        let output = try CLIRunner.run(
            ["batch", "--config", selecting],
            lines: [#"{"text":"apr"}"#, #"{"select":"Apricot"}"#, #"{"text":""}"#]
        )
        #expect(output.lines[1] == #"{"selected":"Apricot"}"#)
        let empty = try #require(try CLIRunner.json(output.lines[2])["suggestions"] as? [[String: Any]])
        #expect(empty.map { $0["text"] as? String } == ["Apricot"])
        #expect(empty.first?["section"] as? String == "Recent")

        // Without recordSelections (the default), a selection is not a search.
        let plain = try batch([#"{"text":"apr"}"#, #"{"select":"Apricot"}"#, #"{"text":""}"#])
        #expect((try CLIRunner.json(plain.lines[2])["suggestions"] as? [Any])?.isEmpty == true)
    }

    @Test func listRemoveAndClear() throws {
        _ = try batch([#"{"submit":"first"}"#, #"{"submit":"Second"}"#, #"{"submit":"second"}"#, #"{"submit":"third"}"#])

        let list = try CLIRunner.run(["recents", "list", "--config", config])
        #expect(list.status == 0)
        #expect(list.lines.map { String($0.split(separator: " ", maxSplits: 1)[0]) } == ["third", "second", "first"])
        #expect(list.lines[1].contains("2 uses"))

        let json = try CLIRunner.run(["recents", "list", "--config", config, "--json"])
        let entries = try json.lines.map(CLIRunner.json)
        #expect(entries.map { $0["text"] as? String } == ["third", "second", "first"])
        #expect(entries[1]["uses"] as? Int == 2)
        #expect((entries[0]["lastUsed"] as? String)?.hasSuffix("Z") == true)

        let removed = try CLIRunner.run(["recents", "remove", "SECOND", "--config", config])
        #expect(removed.status == 0)
        #expect(removed.stdout == "removed \"SECOND\"\n")
        let missing = try CLIRunner.run(["recents", "remove", "second", "--config", config])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no recent search \"second\""))
        #expect(try CLIRunner.run(["recents", "list", "--config", config]).lines.count == 2)
        let badToken = try CLIRunner.run(["recents", "remove", "first", "--token", "bad", "--config", config])
        #expect(badToken.status == 64)
        #expect(badToken.stderr.contains("--token bad: expected kind:value"), "\(badToken.stderr)")
        #expect(badToken.stderr.contains("Usage: suggest recents remove "), "the subcommand's usage: \(badToken.stderr)")

        let cleared = try CLIRunner.run(["recents", "clear", "--config", config])
        #expect(cleared.status == 0)
        #expect(cleared.stdout == "cleared 2 recent searches\n")
        #expect(try CLIRunner.run(["recents", "list", "--config", config]).stdout.isEmpty)
    }

    @Test func aConfigurationWithoutAStoreIsAClearError() throws {
        let memory = folder + "/memory.suggest.json"
        try Data(#"{ "version": 1, "providers": [ { "type": "recent" } ] }"#.utf8).write(to: URL(fileURLWithPath: memory))
        let output = try CLIRunner.run(["recents", "list", "--config", memory])
        #expect(output.status == 1)
        #expect(output.stderr.contains("keeps its searches in memory only"))

        let none = folder + "/none.suggest.json"
        try Data(#"{ "version": 1, "providers": [ { "type": "static", "items": [] } ] }"#.utf8)
            .write(to: URL(fileURLWithPath: none))
        let noProvider = try CLIRunner.run(["recents", "clear", "--config", none])
        #expect(noProvider.status == 1)
        #expect(noProvider.stderr.contains("has no provider of type \"recent\""))
    }

    @Test func aCorruptStoreIsReportedAndKeptAside() throws {
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: storePath))
        let output = try batch([#"{"text":""}"#, #"{"submit":"after"}"#, #"{"text":""}"#])
        let notes = try #require(try CLIRunner.json(output.lines[0])["notes"] as? [String])
        #expect(notes.count == 1)
        #expect(notes[0].hasPrefix("history: could not read recent searches: "))
        #expect(notes[0].contains("recents.json.corrupt-"))
        // Also on standard error, where a run of submits alone (no keystroke to carry a note) shows it.
        #expect(output.stderr.hasPrefix("warning: \(config): providers[0].store: could not read recent searches: "), "\(output.stderr)")
        #expect(output.status == 0)
        #expect(try CLIRunner.json(output.lines[2])["notes"] == nil, "a new store has been saved since")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        let aside = try #require(names.first { $0.hasPrefix("recents.json.corrupt-") })
        #expect(try String(contentsOfFile: folder + "/" + aside, encoding: .utf8) == "{ not json")
        #expect(try CLIRunner.run(["recents", "list", "--config", config]).lines.first?.hasPrefix("after") == true)
    }

    @Test func twoProcessesSharingOneStoreMerge() throws {
        let a = try BatchProcess(config: config)
        let b = try BatchProcess(config: config)
        for i in 0..<20 {
            #expect(try a.send(#"{"submit":"from a \#(i)"}"#) != nil)
            #expect(try b.send(#"{"submit":"from b \#(i)"}"#) != nil)
            #expect(try a.send(#"{"submit":"shared"}"#) != nil)
        }
        #expect(a.close() == 0)
        #expect(b.close() == 0)
        let entries = try CLIRunner.run(["recents", "list", "--config", config, "--json"]).lines.map(CLIRunner.json)
        #expect(entries.count == 41)
        #expect(entries.first { $0["text"] as? String == "shared" }?["uses"] as? Int == 20)
    }

    @Test func killingAWriterInTheMiddleOfAWriteLeavesAWholeFile() throws {
        // Large writes (thousands of searches) so that a write takes a while.
        var lines: [String] = []
        for i in 0..<3000 { lines.append(#"{"submit":"search number \#(i) with some words to make the file bigger"}"#) }
        let inputPath = folder + "/input.jsonl"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: inputPath))
        #expect(try batch([#"{"submit":"the first version"}"#]).status == 0)
        // Kill until three kills have landed in the middle of a write (a temporary file left behind), at most 20
        // rounds: where a kill lands is up to the scheduler, so the count of rounds is not fixed.
        var killedMidWrite = 0
        var round = 0
        while killedMidWrite < 3 && round < 20 {
            defer { round += 1 }
            let process = Process()
            process.executableURL = CLIRunner.executable
            process.arguments = ["batch", "--config", config]
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Let it write a few versions, then kill it as soon as a temporary file shows up: mid-write.
            Thread.sleep(forTimeInterval: 0.1 + 0.05 * Double(round))
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                if names.contains(where: { $0.contains(".tmp-") }) { break }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            // A temporary file left behind means the kill landed between its creation and the rename.
            let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }
            if !left.isEmpty { killedMidWrite += 1 }
            // Whatever the moment, the store is a whole version.
            let list = try CLIRunner.run(["recents", "list", "--config", config, "--json"])
            #expect(list.status == 0)
            #expect(!list.stderr.contains("unreadable"), "round \(round): \(list.stderr)")
            #expect(list.lines.count > 0)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(!names.contains { $0.contains("corrupt") })
        // The rounds must have exercised the case at least once (on this machine: three times within a few rounds).
        #expect(killedMidWrite >= 1, "none of \(round) kills landed in the middle of a write")
    }

    /// An exclusion pattern that could backtrack catastrophically (`^(a+)+$`, which would hang every start once a
    /// matching search is stored) is refused with the pattern's place and offset.
    @Test func anExclusionPatternThatCanBacktrackCatastrophicallyIsRefusedAtStart() throws {
        let risky = folder + "/risky.suggest.json"
        try Data(
            #"""
            { "version": 1,
              "providers": [ { "type": "recent", "store": "recents.json", "exclude": { "patterns": ["^(a+)+$"] } } ] }
            """#.utf8
        ).write(to: URL(fileURLWithPath: risky))
        // A search the pattern would take minutes on, already stored.
        try Data(
            #"{"version": 1, "entries": [{"text": "\#(String(repeating: "a", count: 40))!", "tokens": [], "uses": 1, "score": 1, "firstUsed": 0, "lastUsed": 0}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: storePath))
        for arguments in [["validate", risky], ["batch", "--config", risky], ["recents", "list", "--config", risky]] {
            let output = try CLIRunner.run(arguments, lines: [#"{"text":"a"}"#])
            #expect(output.status == 1, "\(arguments)")
            #expect(
                output.stderr.contains(
                    #"providers[0].exclude.patterns[0]: invalid pattern "^(a+)+$": nested unbounded quantifier"#
                ),
                "\(output.stderr)"
            )
            #expect(output.stderr.contains("at offset 1"), "\(output.stderr)")
        }
    }

    /// A submitted text longer than the maximum query length is cut like a typed one and remembered cut (a 1 MB
    /// submit costs no more than the maximum).
    @Test func aOneMegabyteSubmitIsRememberedCutToTheMaximum() throws {
        let output = try batch([#"{"submit":"\#(String(repeating: "x", count: 1_048_576))"}"#])
        #expect(output.status == 0, "\(output.stderr)")
        let list = try CLIRunner.run(["recents", "list", "--config", config, "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.lines.count == 1)
        let listed = try CLIRunner.json(try #require(list.lines.first))
        #expect(listed["text"] as? String == String(repeating: "x", count: 1_024))
    }
}
