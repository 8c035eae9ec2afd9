import Foundation
import Testing
import SuggestCore
@testable import SuggestRecents

/// The store's journal: writes append changes to `recents.json.journal`; the base is rewritten only at compaction.
struct RecentsJournalTests {
    let folder = makeTemporaryFolder()
    let clock = TestClock()
    var path: String { folder + "/recents.json" }
    var journal: String { path + ".journal" }

    /// A store that keeps a journal whatever the base's size (the default starts one from 64 KB).
    func journaled(crashAfterBytes: Int? = nil) -> JSONFileRecentsStore {
        JSONFileRecentsStore(path: path, crashAfterBytes: crashAfterBytes, journalFromBaseBytes: 0)
    }

    func makeProvider(_ store: JSONFileRecentsStore? = nil, offset: Double = 0) -> RecentsProvider {
        RecentsProvider(store: store ?? journaled(), options: .init(capacity: 1_000), now: { [clock] in
            clock.now().addingTimeInterval(offset)
        })
    }

    func size(_ file: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int
    }

    func contents(_ file: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file)) }

    func lines(_ file: String) throws -> [String] {
        String(decoding: try contents(file), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Rewrites the journal's lines with `edit`; returns the bytes written.
    @discardableResult
    func rewriteJournal(_ edit: (inout [String]) throws -> Void) throws -> Data {
        var text = try lines(journal)
        try edit(&text)
        let data = Data((text.joined(separator: "\n") + "\n").utf8)
        try data.write(to: URL(fileURLWithPath: journal))
        return data
    }

    /// A base of 30 searches, written whole.
    func seed() {
        let seeder = RecentsProvider(store: JSONFileRecentsStore(path: path), options: .init(capacity: 1_000), now: clock.now)
        for i in 0..<30 {
            seeder.record(SearchQuery(text: "seed search number \(i)"))
            clock.advance(seconds: 1)
        }
        #expect(size(journal) == nil, "a small base is rewritten, no journal")
    }

    @Test func aClearForgetsASearchTheFileDatesAYearAheadAlsoAfterARestart() throws {
        seed()
        // Written while this device's clock was a year ahead.
        let ahead = RecentsProvider(store: journaled(), options: .init(capacity: 1_000), now: { [clock] in
            clock.now().addingTimeInterval(365 * 86_400)
        })
        ahead.record(SearchQuery(text: "from a clock a year ahead"))
        let provider = makeProvider()
        #expect(provider.searches.allSatisfy { $0.lastUsed <= clock.now() })
        clock.advance(seconds: 10)
        provider.record(SearchQuery(text: "kept"))
        clock.advance(seconds: 10)
        provider.clear()
        clock.advance(seconds: 10)
        provider.record(SearchQuery(text: "after the clear"))
        #expect(provider.searches.map(\.query.text) == ["after the clear"])
        // What the files hold says the same to a provider started afterwards.
        #expect(makeProvider().searches.map(\.query.text) == ["after the clear"])
    }

    @Test func aWriteAppendsToTheJournalAndLeavesTheBaseUntouched() throws {
        seed()
        let base = try contents(path)
        let provider = makeProvider()
        provider.record("alpha")
        clock.advance(seconds: 1)
        provider.record("beta")
        provider.remove("seed search number 3")
        #expect(provider.saveProblem == nil)
        #expect(try contents(path) == base, "the base is not rewritten")
        let written = try lines(journal)
        #expect(written.count == 4, "a header and one line per change")
        #expect(written[1].contains("\"op\":\"use\"") && written[3].contains("\"op\":\"remove\""))
        #expect(size(journal)! < 1_000)

        let reloaded = makeProvider()
        #expect(reloaded.loadProblem == nil)
        #expect(reloaded.searches == provider.searches)
        #expect(reloaded.searches.count == 31)
    }

    @Test func replayGivesTheStateTheCompactedFileHolds() throws {
        seed()
        let a = makeProvider()
        a.record("swift")
        clock.advance(seconds: 5)
        a.record("Swift")
        a.remove("seed search number 0")
        clock.advance(seconds: 5)
        a.clear()
        clock.advance(seconds: 5)
        a.record("after the clear")
        a.record(SearchQuery(text: "tagged", tokens: [SearchToken(kind: "tag", value: "x", display: "X")], scope: "Docs"))
        let replayed = makeProvider().searches
        #expect(replayed == a.searches)
        #expect(replayed.map(\.query.text).sorted() == ["after the clear", "tagged"])

        // synchronize() compacts: the base holds it all, the journal is gone, and the state is the same.
        try a.synchronize()
        #expect(size(journal) == nil)
        #expect(try RecentsFile.decode(contents(path)).map(\.query.text).sorted() == ["after the clear", "tagged"])
        #expect(makeProvider().searches == replayed)
    }

    @Test func aTornLastLineIsIgnoredAndNothingElseIsLost() throws {
        seed()
        let provider = makeProvider()
        provider.record("kept")
        // A writer died in the middle of its line.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journal))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"entry\":{\"firstUsed\":17950".utf8))
        try handle.close()

        let reader = makeProvider()
        #expect(reader.loadProblem == nil)
        #expect(reader.searches.count == 31)
        #expect(reader.searches.contains { $0.query.text == "kept" })

        // The next write cuts the torn line off before appending: every line stays readable.
        reader.record("next")
        #expect(reader.saveProblem == nil)
        #expect(try lines(journal).count == 3)
        let again = makeProvider()
        #expect(again.loadProblem == nil)
        #expect(again.searches.count == 32)
        #expect(!files(in: folder).contains { $0.contains("corrupt") })
    }

    @Test func aCrashInTheMiddleOfAnAppendLosesOnlyThatChange() throws {
        seed()
        makeProvider().record("before")
        let before = try contents(journal)
        for cut in stride(from: 0, through: 200, by: 9) {
            let crashing = makeProvider(journaled(crashAfterBytes: cut))
            crashing.record(SearchQuery(text: "crashed \(cut)"))
            #expect(crashing.saveProblem?.contains("simulated crash") == true)
            let reader = makeProvider()
            #expect(reader.loadProblem == nil, "cut at \(cut)")
            // A cut before the newline loses that change only; past it, the line was whole and counts.
            let whole = cut >= (try RecentsJournal.lines([.record(RecentSearch(query: SearchQuery(text: "crashed \(cut)"), firstUsed: clock.now(), lastUsed: clock.now()))]).count)
            #expect(reader.searches.contains { $0.query.text == "crashed \(cut)" } == whole, "cut at \(cut)")
            #expect(reader.searches.contains { $0.query.text == "before" })
            #expect(try contents(journal).starts(with: before))
        }
        let count = makeProvider().searches.count
        let writer = makeProvider()
        writer.record("after")
        #expect(writer.saveProblem == nil)
        #expect(makeProvider().searches.count == count + 1)
    }

    @Test func aCorruptLineInTheMiddleIsReportedThenMovedAsideByTheNextWrite() throws {
        seed()
        makeProvider().record("one")
        _ = makeProvider().remove(SearchQuery(text: "seed search number 0"))
        let last = try lines(journal).last!
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journal))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not json\n\(last)\n".utf8))
        try handle.close()
        let damaged = makeProvider()
        #expect(damaged.loadProblem?.contains("line 4") == true)
        // The base file and the journal's lines before the bad one were read: their searches are shown, not hidden
        // by the bad line, and the removal holds.
        #expect(damaged.loadProblem?.hasSuffix("started with the 30 searches read before its bad line") == true, "\(damaged.loadProblem ?? "")")
        #expect(damaged.searches.contains { $0.query.text == "one" })
        #expect(!damaged.searches.contains { $0.query.text == "seed search number 0" })
        makeProvider().record("two")  // applies the lines before the bad one, rewrites the base, moves the journal aside

        #expect(files(in: folder).contains { $0.hasPrefix("recents.json.journal.corrupt-") })
        let reader = makeProvider()
        #expect(reader.loadProblem == nil)
        #expect(reader.searches.contains { $0.query.text == "two" })
        #expect(reader.searches.contains { $0.query.text == "one" })
        #expect(!reader.searches.contains { $0.query.text == "seed search number 0" }, "a removal before the bad line holds")
        #expect(reader.searches.count == 31, "the base's 30 searches, less the removed one, with `one` and `two`")
    }

    @Test func aCorruptLineIsReportedAndReadingHasNoSideEffects() throws {
        seed()
        makeProvider().record("one")
        makeProvider().record("two")
        try rewriteJournal { $0[1] = "{\"op\":\"use\"}" }
        let before = files(in: folder)
        let reader = makeProvider()
        #expect(reader.loadProblem?.contains("recents.json.journal is unreadable") == true)
        #expect(files(in: folder) == before)
    }

    @Test func compactionHappensAndKeepsEverything() throws {
        seed()
        let base = size(path)!
        let provider = makeProvider()
        var compacted = false
        for i in 0..<60 {
            provider.record(SearchQuery(text: "search \(i % 7)"))
            clock.advance(seconds: 1)
            if size(journal) == nil { compacted = true }
            #expect((size(journal) ?? 0) <= size(path)!, "the journal never outgrows the base")
        }
        #expect(compacted)
        #expect(size(path)! > base)
        let reloaded = makeProvider()
        #expect(reloaded.searches == provider.searches)
        #expect(reloaded.searches.filter { $0.query.text.hasPrefix("search ") }.map(\.uses).reduce(0, +) == 60)
    }

    @Test func aJournalLeftBehindByACompactionIsIgnored() throws {
        seed()
        let provider = makeProvider()
        provider.record("once")
        let stale = try contents(journal)
        let followed = try baseIDs().journal
        try provider.synchronize()
        #expect(try baseIDs().previous == followed, "the new base names the journal it replaced")
        // The writer died after renaming the new base, before removing the journal.
        try stale.write(to: URL(fileURLWithPath: journal))
        let reader = makeProvider()
        #expect(reader.searches.first { $0.query.text == "once" }?.uses == 1, "not counted twice")
        reader.record("twice")
        #expect(makeProvider().searches.first { $0.query.text == "once" }?.uses == 1)
        #expect(makeProvider().searches.count == 32)
    }

    /// The base's `journal` and `previousJournal` ids.
    func baseIDs() throws -> (journal: String?, previous: String?) {
        let object = try JSONSerialization.jsonObject(with: contents(path)) as? [String: Any]
        return (object?["journal"] as? String, object?["previousJournal"] as? String)
    }

    /// A journal whose header names neither the base nor the base it replaced (a damaged id, or a base put back from
    /// elsewhere) is not taken as stale: reading reports it (the base's searches are shown) and changes nothing; the
    /// next write moves it aside whole instead of replacing it.
    @Test func aJournalNamingAnotherBaseIsReportedAndMovedAsideNotReplaced() throws {
        seed()
        let ids = try baseIDs()
        #expect(ids.journal != nil && ids.previous != nil, "a rewritten base names its journal and the one it replaced")
        makeProvider().record("one")
        makeProvider().record("two")
        let id = try #require(ids.journal)
        let damaged = try rewriteJournal { text in
            #expect(text[0].contains(id))
            text[0] = text[0].replacingOccurrences(of: id, with: String(id.reversed()))
        }
        let before = files(in: folder)

        let reader = makeProvider()
        let problem = reader.loadProblem ?? ""
        #expect(problem.contains("recents.json.journal is unreadable"), "\(problem)")
        #expect(problem.contains("line 1: follows base \(String(id.reversed())), neither the base's (\(id))"), "\(problem)")
        #expect(reader.searches.count == 30, "the base's searches")
        #expect(files(in: folder) == before, "reading changes nothing")

        makeProvider().record("three")
        let aside = try #require(files(in: folder).first { $0.hasPrefix("recents.json.journal.corrupt-") })
        #expect(try contents(folder + "/" + aside) == damaged, "kept whole")
        let after = makeProvider()
        #expect(after.loadProblem == nil)
        #expect(after.searches.count == 31)
    }

    /// The same through a provider that keeps its base cached between writes (the base is not decoded again): the
    /// journal it finds changed is read with the base's ids and moved aside whole.
    @Test func aProviderWithItsBaseCachedMovesAJournalNamingAnotherBaseAside() throws {
        seed()
        let provider = makeProvider()
        provider.record("one")
        let id = try #require(try baseIDs().journal)
        let damaged = try rewriteJournal {
            $0[0] = $0[0].replacingOccurrences(of: id, with: #"another\u001bbase"#)  // an escape character
        }
        let problem = makeProvider().loadProblem ?? ""
        #expect(problem.contains(#"follows base another\u{1B}base, neither"#), "\(problem)")
        provider.record("two")
        let aside = try #require(files(in: folder).first { $0.hasPrefix("recents.json.journal.corrupt-") })
        #expect(try contents(folder + "/" + aside) == damaged)
        let reader = makeProvider()
        #expect(reader.loadProblem == nil)
        #expect(reader.searches.count == 31, "the base's 30 and `two`; `one` is in the journal moved aside")
    }

    /// A base written before it named the journal it replaced cannot tell a damaged header from a stale journal: such
    /// a journal is ignored, as before.
    @Test func aBaseThatNamesNoPreviousJournalTakesAnotherJournalAsStale() throws {
        seed()
        makeProvider().record("one")
        let old = String(decoding: try contents(path), as: UTF8.self)
            .replacingOccurrences(of: #""previousJournal":"[^"]*","#, with: "", options: .regularExpression)
        #expect(!old.contains("previousJournal"))
        try Data(old.utf8).write(to: URL(fileURLWithPath: path))
        try rewriteJournal { $0[0] = #"{"base":"another","v":1}"# }
        let reader = makeProvider()
        #expect(reader.loadProblem == nil)
        #expect(reader.searches.count == 30)
    }

    @Test func twoProvidersSharingAJournaledStoreAddUp() throws {
        seed()
        let a = makeProvider()
        let b = makeProvider(offset: 2)
        a.record("from a")
        b.record("from b")
        a.record("shared")
        b.record("shared")
        #expect(makeProvider().searches.first { $0.query.text == "shared" }?.uses == 2)
        a.clear()  // b's searches, made 2 s later by its clock, are spared
        #expect(Set(makeProvider().searches.map(\.query.text)) == ["from b", "shared"])
    }

    @Test func aJournalOfANewerVersionIsLeftAlone() throws {
        seed()
        makeProvider().record("one")
        let newer = try rewriteJournal { $0[0] = $0[0].replacingOccurrences(of: "\"v\":1", with: "\"v\":2") }
        let base = try contents(path)
        let provider = makeProvider()
        #expect(provider.loadProblem?.contains("format version 2") == true)
        provider.record("two")
        #expect(provider.saveProblem != nil)
        #expect(try contents(journal) == newer)
        #expect(try contents(path) == base)
    }

    @Test func aLedgerBuiltOnTheLastStoredSearchesEqualsOneBuiltAfresh() {
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        let first = (0..<20).map { RecentSearch(query: SearchQuery(text: "s\($0 % 13)"), firstUsed: date.addingTimeInterval(Double($0)), lastUsed: date.addingTimeInterval(Double($0))) }
        let more = first + [RecentSearch(query: "s3", firstUsed: date.addingTimeInterval(99), lastUsed: date.addingTimeInterval(99))]
        let last = (first, RecentsLedger(first, halfLife: 3_600))
        let grown = RecentsProvider.ledger(for: more, after: last, halfLife: 3_600)
        #expect(grown.searches == RecentsLedger(more, halfLife: 3_600).searches)
        // Not the same start: built afresh.
        let other = Array(more.dropFirst())
        #expect(RecentsProvider.ledger(for: other, after: last, halfLife: 3_600).searches == RecentsLedger(other, halfLife: 3_600).searches)
    }
}
