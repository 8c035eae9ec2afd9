import Foundation
import Synchronization
import SuggestPattern
import Testing
import SuggestCore
@testable import SuggestRecents

struct JSONFileRecentsStoreTests {
    let folder = makeTemporaryFolder()
    let clock = TestClock()
    var path: String { folder + "/recents.json" }

    func makeProvider(_ store: (any RecentsStore)? = nil, capacity: Int = 100) -> RecentsProvider {
        RecentsProvider(store: store ?? JSONFileRecentsStore(path: path), options: .init(capacity: capacity), now: clock.now)
    }

    func fileTexts() throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try RecentsFile.decode(data).map(\.query.text).sorted()
    }

    @Test func savesAVersionedFileAndReadsItBack() throws {
        let provider = makeProvider()
        let tag = SearchToken(kind: "tag", value: "swift", display: "Swift")
        provider.record(SearchQuery(text: "Async Let", tokens: [tag], scope: "Docs"))
        clock.advance(seconds: 10)
        provider.record("async let")
        provider.record("mutex")
        #expect(provider.saveProblem == nil)

        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        #expect(json["version"] as? Int == 1)
        #expect((json["entries"] as? [Any])?.count == 3)

        let reloaded = makeProvider()
        #expect(reloaded.loadProblem == nil)
        #expect(reloaded.searches == provider.searches)
        #expect(reloaded.searches.first { !$0.query.tokens.isEmpty }?.query
            == SearchQuery(text: "Async Let", tokens: [tag], scope: "Docs"))
        #expect(reloaded.searches.first { $0.query.text == "async let" }?.uses == 1)
    }

    @Test func theFileIsPrivate() throws {
        makeProvider().record("secret")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func removeAndClearAreSaved() throws {
        let provider = makeProvider()
        provider.record("a")
        provider.record("b")
        provider.remove("a")
        #expect(try fileTexts() == ["b"])
        provider.clear()
        #expect(try fileTexts() == [])
        #expect(makeProvider().searches.isEmpty)
    }

    @Test func capacityAppliesToTheFile() throws {
        let provider = makeProvider(capacity: 2)
        for text in ["a", "b", "c"] {
            provider.record(SearchQuery(text: text))
            clock.advance(seconds: 60)
        }
        #expect(try fileTexts() == ["b", "c"])
    }

    @Test func searchesAnExclusionAddedLaterRejectsAreForgotten() throws {
        let plain = makeProvider()
        plain.record("4111111111111111")
        plain.record("ok")
        let strict = RecentsProvider(
            store: JSONFileRecentsStore(path: path),
            options: .init(exclusion: try RecentsExclusion(patterns: [#"^\d{12,19}$"#])),
            now: clock.now
        )
        #expect(strict.searches.map(\.query.text) == ["ok"])
        strict.record("more")
        #expect(try fileTexts() == ["more", "ok"], "purged from the file at the next write")
    }

    // MARK: Crashes

    @Test func aCrashInTheMiddleOfAWriteLeavesTheOldVersion() throws {
        makeProvider().record("old search")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        // The process "dies" after writing 20 bytes of the new version to its temporary file.
        let crashing = makeProvider(JSONFileRecentsStore(path: path, crashAfterBytes: 20))
        crashing.record("new search")
        #expect(crashing.saveProblem?.contains("simulated crash") == true)
        let leftovers = files(in: folder).filter { $0.hasPrefix("recents.json.tmp-") }
        #expect(leftovers.count == 1)
        let partial = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + leftovers[0]))
        #expect(partial.count == 20)
        #expect(throws: (any Error).self) { try RecentsFile.decode(partial) }

        // The file is still the old version, whole.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let reader = makeProvider()
        #expect(reader.loadProblem == nil)
        #expect(reader.searches.map(\.query.text) == ["old search"])

        // The next write produces the new version and removes the dead writer's temporary file.
        reader.record("newer search")
        #expect(try fileTexts() == ["newer search", "old search"])
        #expect(files(in: folder).filter { $0.hasPrefix("recents.json.tmp-") }.isEmpty)
    }

    @Test func aCrashAtAnyByteLeavesTheOldOrTheNewVersion() throws {
        let provider = makeProvider()
        provider.record("first")
        let size = try Data(contentsOf: URL(fileURLWithPath: path)).count + 40
        for cut in stride(from: 0, through: size, by: 7) {
            let crashing = makeProvider(JSONFileRecentsStore(path: path, crashAfterBytes: cut))
            crashing.record(SearchQuery(text: "second \(cut)"))
            let texts = try fileTexts()
            #expect(texts == ["first"], "cut at \(cut)")
        }
    }

    // MARK: Corrupt and unreadable files

    @Test func aCorruptFileIsKeptAsideReportedAndReplaced() throws {
        let garbage = Data("{\"version\": 1, \"entries\": [ {\"text\": \"tru".utf8)
        try garbage.write(to: URL(fileURLWithPath: path))

        let provider = makeProvider()
        #expect(provider.searches.isEmpty)
        let problem = try #require(provider.loadProblem)
        #expect(problem.contains("unreadable"))
        // Reading has no side effects: the file stays until a search is saved.
        #expect(files(in: folder) == ["recents.json"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)

        // The keystroke's diagnostics say so, until the store has been saved again.
        let engine = SuggestionEngine(slots: [ProviderSlot(provider, section: "Recent")])
        let notes = engine.suggestions(for: "").diagnostics.notes
        #expect(notes.count == 1)
        #expect(notes.first?.hasPrefix("recent: could not read recent searches: ") == true)
        #expect(notes.first?.contains("recents.json.corrupt-") == true)

        provider.record("fresh start")
        let aside = files(in: folder).filter { $0.hasPrefix("recents.json.corrupt-") }
        try #require(aside.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + aside[0])) == garbage, "kept byte for byte")
        #expect(try fileTexts() == ["fresh start"])
        #expect(engine.suggestions(for: "").diagnostics.notes.isEmpty)
        #expect(provider.loadProblem != nil, "still available to the app")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + aside[0])) == garbage, "never overwritten")
    }

    @Test(arguments: [
        "not json at all",
        "",
        "[1, 2, 3]",
        #"{"version": 1}"#,
        #"{"version": 1, "entries": [{"text": "x", "uses": 0, "score": 1, "firstUsed": 1, "lastUsed": 2}]}"#,
        #"{"version": 1, "entries": [{"text": "x", "uses": 1, "score": -1, "firstUsed": 1, "lastUsed": 2}]}"#,
        #"{"version": 0, "entries": []}"#,
    ])
    func everyKindOfCorruptionIsHandled(content: String) throws {
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        let provider = makeProvider()
        #expect(provider.searches.isEmpty)
        #expect(provider.loadProblem != nil)
        #expect(files(in: folder) == ["recents.json"], "left alone until a search is saved")
        provider.record("x")
        #expect(files(in: folder).contains { $0.hasPrefix("recents.json.corrupt-") })
    }

    /// What is wrong with an unreadable file is said with its place: the line and column of a syntax error, the
    /// JSON path of a value of the wrong kind; duplicate keys are errors, as in configurations.
    @Test(arguments: [
        (#"{"version": 1, "entries": [{"text": "x""#, "line 1, column 40: unexpected end of input"),
        ("{\"version\": 1,\n \"entries\": [\n  {\"text\": \"x\",, }]}", "line 3, column 16: "),
        ("[]", "expected an object, found an array"),
        (#"{"version": 1, "entries": [{"text": "x", "scope": 3, "uses": 1, "score": 1, "firstUsed": 1, "lastUsed": 2}]}"#,
         "entries[0].scope: expected a string, found number 3"),
        (#"{"version": 1, "entries": [{"text": "x", "uses": 1e300, "score": 1, "firstUsed": 1, "lastUsed": 2}]}"#,
         "entries[0].uses: expected a whole number of uses, found 1e+300"),
        (#"{"version": 2, "version": 1, "entries": []}"#, "duplicate key \"version\""),
    ])
    func anUnreadableFileIsDescribedWithItsPlace(content: String, reason: String) throws {
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        let problem = try #require(makeProvider().loadProblem)
        #expect(problem.contains(reason), "\(problem)")
        #expect(!problem.contains("Expected to decode"), "\(problem)")
    }

    /// A folder where the file should be is an error, and nothing is renamed (in Swift, where no configuration
    /// checked the path first).
    @Test func aFolderInPlaceOfTheFileIsNeverMoved() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let provider = makeProvider()
        #expect(provider.loadProblem != nil)
        provider.record("x")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(!files(in: folder).contains { $0.contains("corrupt") }, "\(files(in: folder))")
    }

    @Test func aFileCorruptedWhileRunningIsKeptAsideOnTheNextWrite() throws {
        let provider = makeProvider()
        provider.record("kept in memory")
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        provider.record("another")
        #expect(provider.saveProblem == nil)
        #expect(try fileTexts() == ["another", "kept in memory"])
        #expect(files(in: folder).contains { $0.hasPrefix("recents.json.corrupt-") })
    }

    @Test func twoCorruptFilesInTheSameSecondGetDistinctNames() throws {
        for _ in 0..<2 {
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
            makeProvider().record("x")
        }
        #expect(files(in: folder).filter { $0.hasPrefix("recents.json.corrupt-") }.count == 2)
    }

    @Test func aFileFromANewerVersionIsLeftAlone() throws {
        let newer = Data(#"{"version": 2, "entries": [], "future": true}"#.utf8)
        try newer.write(to: URL(fileURLWithPath: path))
        let provider = makeProvider()
        #expect(provider.loadProblem?.contains("version 2") == true)
        provider.record("not saved")
        #expect(provider.searches.count == 1, "kept in memory")
        #expect(provider.saveProblem?.contains("not written") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == newer)
        #expect(!files(in: folder).contains { $0.hasPrefix("recents.json.corrupt-") })
    }

    // MARK: Sharing

    @Test func twoEnginesSharingOneFileMergeInsteadOfOverwriting() throws {
        let a = makeProvider()
        let b = makeProvider()
        let engineA = SuggestionEngine(slots: [ProviderSlot(a, section: "Recent")])
        let engineB = SuggestionEngine(slots: [ProviderSlot(b, section: "Recent")])
        engineA.submit("alpha")
        clock.advance(seconds: 1)
        engineB.submit("beta")
        clock.advance(seconds: 1)
        engineA.submit("gamma")
        clock.advance(seconds: 1)
        engineB.submit("Gamma")
        #expect(try fileTexts() == ["Gamma", "alpha", "beta"])
        // A learnt B's searches with its own last write; B with its own.
        #expect(Set(a.searches.map(\.query.text)) == ["alpha", "beta", "gamma"])
        #expect(Set(b.searches.map(\.query.text)) == ["alpha", "beta", "Gamma"])
        try a.synchronize()
        #expect(a.searches.first { $0.key == "gamma" }?.uses == 2)
        #expect(engineA.suggestions(for: "").suggestions.map(\.title) == ["Gamma", "beta", "alpha"])

        b.remove("alpha")
        a.clear()
        try b.synchronize()
        #expect(b.searches.isEmpty)
        #expect(try fileTexts() == [])
    }

    @Test func aClearKeepsSearchesAnotherProviderMadeAfterIt() throws {
        let a = makeProvider()
        // b's clock runs 5 seconds ahead: its search is newer than a's clear.
        let b = RecentsProvider(store: JSONFileRecentsStore(path: path), now: { [clock] in clock.now().addingTimeInterval(5) })
        a.record("before the clear")
        b.record("after the clear")
        a.clear()
        #expect(a.searches.map(\.query.text) == ["after the clear"])
        #expect(try fileTexts() == ["after the clear"])
    }

    @Test func writersInParallelNeverLoseAUseAndReadersNeverSeeATornFile() async throws {
        let providers = (0..<4).map { _ in makeProvider() }
        let path = self.path
        let stop = Atomic<Bool>(false)
        let reader = Task.detached { () -> Int in
            var reads = 0
            while !stop.load(ordering: .relaxed) {
                if let data = FileManager.default.contents(atPath: path) {
                    // Read without the lock, as another program might: always a whole version.
                    _ = try RecentsFile.decode(data)
                    reads += 1
                }
            }
            return reads
        }
        await withTaskGroup(of: Void.self) { group in
            for (p, provider) in providers.enumerated() {
                group.addTask {
                    for i in 0..<25 { provider.record(SearchQuery(text: "query \((i + p) % 5)")) }
                }
            }
        }
        stop.store(true, ordering: .relaxed)
        let reads = try await reader.value
        #expect(reads > 0)
        let stored = try RecentsFile.decode(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(stored.count == 5)
        #expect(stored.map(\.uses).reduce(0, +) == 100)
        #expect(providers.allSatisfy { $0.saveProblem == nil })
    }

    @Test func aStoreWhoseCountsAddUpPastIntMaxLoadsAndIsSavedAgain() throws {
        let entry = #""uses": 4611686018427387904, "score": 1e308, "firstUsed": 1795000000, "lastUsed": 1795000000"#
        try Data(
            #"{"version": 1, "entries": [ {"text": "Python", \#(entry)}, {"text": "python", \#(entry)} ]}"#.utf8
        ).write(to: URL(fileURLWithPath: path))
        let provider = makeProvider()
        #expect(provider.loadProblem == nil)
        #expect(provider.searches.count == 1)
        #expect(provider.searches[0].uses == Int.max)
        #expect(provider.searches[0].score.isFinite)
        provider.record("python")
        provider.record("rust")
        #expect(provider.saveProblem == nil)
        let reloaded = makeProvider()
        #expect(reloaded.searches.first { $0.key == "python" }?.uses == Int.max)
        #expect(reloaded.searches.allSatisfy { $0.score.isFinite })
    }

    // MARK: Links, permissions, unsaved changes

    func mode(_ file: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as! Int
    }

    @Test func aSymlinkedStoreIsWrittenThroughAndStaysALink() throws {
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "real/store.json")
        let provider = makeProvider()
        provider.record("through the link")
        provider.record("again")
        #expect(provider.saveProblem == nil)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "real/store.json")
        #expect(files(in: folder) == ["real", "recents.json"], "lock and temporary files sit next to the target")
        #expect(files(in: folder + "/real") == ["store.json", "store.json.lock"])
        #expect(try fileTexts() == ["again", "through the link"])
        #expect(makeProvider().searches.count == 2)
    }

    @Test func aReadOnlyStoreIsReadButNeverRewrittenAndTheChangesAreReported() throws {
        makeProvider().record("kept")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let provider = makeProvider()
        #expect(provider.loadProblem == nil)
        #expect(provider.searches.map(\.query.text) == ["kept"], "still read")
        provider.record("new")
        #expect(provider.searches.count == 2, "kept in memory")
        #expect(provider.saveProblem?.contains("read-only (mode 0444)") == true, "\(provider.saveProblem ?? "")")
        #expect(provider.unsavedChangeCount == 1)
        #expect(throws: RecentsStoreError.self) { try provider.synchronize() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try mode(path) == 0o444)
    }

    @Test func aReplacedFileKeepsItsMode() throws {
        makeProvider().record("a")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        makeProvider().record("b")
        #expect(try mode(path) == 0o640)
        #expect(try fileTexts() == ["a", "b"])
    }

    @Test func changesThatCannotBeSavedAreCountedAndThrownBySynchronize() throws {
        // Nobody can create files in /proc, not even root.
        let provider = makeProvider(JSONFileRecentsStore(path: "/proc/suggest-recents-test.json"))
        #expect(provider.loadProblem == nil)
        provider.record("lost?")
        #expect(provider.saveProblem != nil)
        #expect(provider.unsavedChangeCount == 1)
        #expect(throws: RecentsStoreError.self) { try provider.synchronize() }
        #expect(provider.searches.map(\.query.text) == ["lost?"])
    }
}
