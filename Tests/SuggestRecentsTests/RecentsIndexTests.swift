import Foundation
import SuggestCore
import SuggestPattern
import Testing
@testable import SuggestRecents

/// The index updated in place gives what an index built again from the ledger gives, after any sequence of changes.
struct RecentsIndexTests {
    let day = 86_400.0
    let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    /// Every observable part of an index: searches by frecency and by recency, and what keystrokes select.
    func describe(_ index: RecentsIndex, queries: [PreparedQuery]) -> [String] {
        var lines = index.searchesByRank.map { "\($0.key) \($0.uses) \($0.score) \($0.lastUsed.timeIntervalSince1970)" }
        lines.append("recency: " + index.byRecency.map { index.search($0).key }.joined(separator: "|"))
        lines.append("searches: " + index.searches.map(\.key).joined(separator: "|"))
        var picked: [(tier: MatchTier, index: Int)] = []
        for query in queries {
            for limit in [1, 3, 8] {
                index.select(query, limit: limit, into: &picked)
                let got = picked.map { pick in
                    "\(pick.tier):\(pick.index):\(index.matchedRanges(query, entry: pick.index, tier: pick.tier))"
                }
                lines.append("\(query.text) \(limit): " + got.joined(separator: " "))
            }
        }
        return lines
    }

    @Test(arguments: 0..<6)
    func randomChangesGiveWhatABuildFromTheLedgerGives(seed: Int) {
        var rng = SplitMix(seed: UInt64(seed) &+ 100)
        let pieces = ["a", "ab", "b", "ba", "new", "york", "New", "York", "é", "É", " ", "-", "x", "café", "Cafe"]
        func randomText() -> String {
            let text = (0..<(1 + rng.next(4))).map { _ in pieces[rng.next(pieces.count)] }.joined()
            return text.trimmingCharacters(in: .whitespaces).isEmpty ? "z" : text
        }
        let tags = [SearchToken(kind: "tag", value: "swift"), SearchToken(kind: "from", value: "alice")]
        func randomQuery() -> SearchQuery {
            let tokens = rng.next(4) == 0 ? [tags[rng.next(2)]] : []
            return RecentSearch.displayForm(of: SearchQuery(text: rng.next(10) == 0 && !tokens.isEmpty ? "" : randomText(), tokens: tokens))
        }
        let queries = (0..<12).map { _ in PreparedQuery(SearchQuery(text: randomText())) } + [PreparedQuery(SearchQuery(text: "york"))]
        let capacity = 5 + rng.next(40)
        var ledger = RecentsLedger(halfLife: day)
        var index = RecentsIndex(ledger)
        var time = t0
        var known: [SearchQuery] = []
        for step in 0..<400 {
            time = time.addingTimeInterval(Double(rng.next(3)) * 3_600)
            let change: RecentsChange
            switch rng.next(20) {
            case 0..<11:
                let query = randomQuery()
                known.append(query)
                change = .record(RecentSearch(query: query, firstUsed: time, lastUsed: time))
            case 11..<15 where !known.isEmpty:
                // The same search again, maybe spelt otherwise (the newest display form wins).
                var query = known[rng.next(known.count)]
                if rng.next(2) == 0 { query.text = query.text.uppercased() }
                change = .record(RecentSearch(query: query, firstUsed: time, lastUsed: time, uses: 1 + rng.next(3), score: Double(1 + rng.next(3))))
            case 15..<18 where !known.isEmpty:
                change = .remove(key: RecentSearch.key(for: known[rng.next(known.count)]), at: time.addingTimeInterval(-Double(rng.next(2)) * 3_600 * 5))
            case 18 where step % 7 == 0:
                change = .clear(at: time.addingTimeInterval(-Double(rng.next(30)) * 3_600))
            default:
                // An older use arriving late (another process's).
                let query = known.isEmpty ? randomQuery() : known[rng.next(known.count)]
                let when = time.addingTimeInterval(-Double(rng.next(50)) * 3_600)
                change = .record(RecentSearch(query: query, firstUsed: when, lastUsed: when))
            }
            ledger.apply(change)
            ledger.evict(toCapacity: capacity)
            index.apply(change)
            index.evict(toCapacity: capacity)
            if step % 10 == 0 || step == 399 {
                let rebuilt = RecentsIndex(ledger)
                #expect(describe(index, queries: queries) == describe(rebuilt, queries: queries), "seed \(seed), step \(step)")
                #expect(index.count == ledger.count)
            }
        }
    }

    @Test func keysTiedOnRankAreOrderedByKey() {
        var ledger = RecentsLedger(halfLife: day)
        var index = RecentsIndex(halfLife: day)
        for text in ["d", "b", "c", "a", "e"] {
            let change = RecentsChange.record(RecentSearch(query: SearchQuery(text: text), firstUsed: t0, lastUsed: t0))
            ledger.apply(change)
            index.apply(change)
        }
        #expect(index.searchesByRank.map(\.key) == ["a", "b", "c", "d", "e"])
        #expect(index.searchesByRank.map(\.key) == RecentsIndex(ledger).searchesByRank.map(\.key))
        index.evict(toCapacity: 3)
        #expect(index.searchesByRank.map(\.key) == ["a", "b", "c"])
    }

    @Test func manyEvictionsCompactTheTitlesAndKeepMatching() {
        var index = RecentsIndex(halfLife: day)
        for i in 0..<5_000 {
            let date = t0.addingTimeInterval(Double(i))
            index.apply(.record(RecentSearch(query: SearchQuery(text: "search number \(i) about swift"), firstUsed: date, lastUsed: date)))
            index.evict(toCapacity: 100)
        }
        #expect(index.count == 100)
        // Titles of 100 searches, plus at most as much garbage again.
        #expect(index.bytes.count <= 2 * 100 * 32 + 4_096)
        var picked: [(tier: MatchTier, index: Int)] = []
        index.select(PreparedQuery(SearchQuery(text: "search number 4999")), limit: 3, into: &picked)
        #expect(picked.first.map { index.searchesByRank[$0.index].query.text } == "search number 4999 about swift")
        index.select(PreparedQuery(SearchQuery(text: "4998 ab")), limit: 3, into: &picked)
        #expect(picked.map { index.searchesByRank[$0.index].query.text } == ["search number 4998 about swift"])
    }

    /// A search made again with another title (the same key) moves its title to the end of the arena; when that is
    /// the change that makes the arena mostly garbage, the compaction it starts must move this title too (the search is
    /// out of the orders at that moment). Every title stays where its span says, so keystrokes read it, not what lies
    /// beyond the arena.
    @Test func aTitleRewrittenWhenTheArenaIsCompactedStaysWhereItsSpanSays() {
        var index = RecentsIndex(halfLife: day)
        let words = (0..<60).map { "a recent search about concurrency in swift, number \($0)" }
        for (i, text) in words.enumerated() {
            let date = t0.addingTimeInterval(Double(i))
            index.apply(.record(RecentSearch(query: SearchQuery(text: text), firstUsed: date, lastUsed: date)))
        }
        for round in 0..<4 {
            for (i, text) in words.enumerated() {
                let date = t0.addingTimeInterval(Double(1_000 * (round + 1) + i))
                let title = round % 2 == 0 ? text.uppercased() : text
                index.apply(.record(RecentSearch(query: SearchQuery(text: title), firstUsed: date, lastUsed: date)))
                for slot in index.order {
                    let span = index.spans[Int(slot)]
                    let text = index.slots[Int(slot)]!.text.bytes
                    #expect(Int(span.bytesEnd) <= index.bytes.count)
                    guard Int(span.bytesEnd) <= index.bytes.count else { return }
                    #expect(Array(index.bytes[Int(span.bytesStart)..<Int(span.bytesEnd)]) == text)
                }
            }
        }
        var picked: [(tier: MatchTier, index: Int)] = []
        index.select(PreparedQuery(SearchQuery(text: "swift, number 59")), limit: 3, into: &picked)
        // The last round wrote each title back in its first form.
        #expect(picked.map { index.searchesByRank[$0.index].query.text } == [words[59]])
    }

    // MARK: Through the provider

    @Test func capacityEvictsTheLeastValuableOneSubmitAtATime() {
        let clock = TestClock()
        let provider = RecentsProvider(options: .init(capacity: 3, halfLife: .seconds(86_400)), now: clock.now)
        for _ in 0..<3 { provider.record(SearchQuery(text: "often")) }
        clock.advance(days: 1)
        for text in ["one", "two", "three", "four"] {
            provider.record(SearchQuery(text: text))
            clock.advance(seconds: 60)
        }
        // "often" (3 uses a day ago: 1.5) outranks single uses; the oldest single uses went first.
        #expect(Set(provider.searches.map(\.query.text)) == ["often", "three", "four"])
        #expect(provider.titles("") == ["four", "three", "often"])
    }

    @Test func theSameSearchIsKeptOnceWithItsNewestForm() {
        let clock = TestClock()
        let provider = RecentsProvider(now: clock.now)
        provider.record(SearchQuery(text: "New  York"))
        clock.advance(seconds: 10)
        provider.record(SearchQuery(text: "other"))
        clock.advance(seconds: 10)
        provider.record(SearchQuery(text: " new york "))
        #expect(provider.searches.map(\.query.text) == ["new york", "other"])
        #expect(provider.searches[0].uses == 2)
        #expect(provider.titles("ne") == ["new york"])
        #expect(provider.titles("") == ["new york", "other"])
    }

    @Test func excludedSearchesNeverEnterTheIndex() throws {
        let exclusion = try RecentsExclusion(minimumLength: 3, patterns: ["^\\d{4}( \\d{4}){3}$"])
        let provider = RecentsProvider(options: .init(exclusion: exclusion))
        #expect(provider.record(SearchQuery(text: "ab")) == false)
        #expect(provider.record(SearchQuery(text: "4111 1111 1111 1111")) == false)
        #expect(provider.record(SearchQuery(text: "abc")))
        #expect(provider.titles("") == ["abc"])
        #expect(provider.titles("41").isEmpty)
    }

    /// A store whose base is over the journal threshold from the start, so that every submit appends.
    func journalingStore(_ path: String) -> JSONFileRecentsStore {
        JSONFileRecentsStore(path: path, crashAfterBytes: nil, journalFromBaseBytes: 0)
    }

    @Test func submitsAppendedToTheJournalReadBackTheSame() throws {
        let folder = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/recents.json"
        let clock = TestClock()
        let options = RecentsProvider.Options(capacity: 20, halfLife: .seconds(86_400))
        let provider = RecentsProvider(store: journalingStore(path), options: options, now: clock.now)
        var rng = SplitMix(seed: 9)
        let words = ["swift", "python", "new", "york", "café", "recipe", "tea", "rust"]
        for i in 0..<300 {
            let text = (0..<(1 + rng.next(2))).map { _ in words[rng.next(words.count)] }.joined(separator: " ")
            if i % 17 == 0 {
                provider.remove(SearchQuery(text: text))
            } else {
                provider.record(SearchQuery(text: text))
            }
            clock.advance(seconds: Double(60 * (1 + rng.next(600))))
        }
        // The journal is compacted into the base every twenty writes or so; when the last one did, one more appends.
        if !FileManager.default.fileExists(atPath: path + ".journal") { provider.record(SearchQuery(text: "tea")) }
        #expect(provider.saveProblem == nil)
        #expect(FileManager.default.fileExists(atPath: path + ".journal"))
        let again = RecentsProvider(store: journalingStore(path), options: options, now: clock.now)
        #expect(again.searches.map(\.key) == provider.searches.map(\.key))
        #expect(zip(again.searches, provider.searches).allSatisfy { $0.uses == $1.uses && abs($0.score - $1.score) < 1e-9 })
        for query in ["", "s", "sw", "new y", "caf", "rus", "ork"] {
            #expect(again.titles(query) == provider.titles(query), "\(query)")
        }
    }

    @Test func aSearchMadeAgainAfterItsEvictionKeepsTheUsesTheFileStillHolds() throws {
        let folder = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/recents.json"
        let clock = TestClock()
        let options = RecentsProvider.Options(capacity: 3, halfLife: .seconds(86_400))
        let provider = RecentsProvider(store: journalingStore(path), options: options, now: clock.now)
        // Two long searches made often: they stay, and make the base large enough for the journal to take lines.
        let long = String(repeating: "long search text ", count: 200)
        for _ in 0..<5 {
            provider.record(SearchQuery(text: long + "one"))
            provider.record(SearchQuery(text: long + "two"))
        }
        provider.record(SearchQuery(text: "first"))
        for text in ["second", "first"] {
            clock.advance(days: 1)
            provider.record(SearchQuery(text: text))
        }
        #expect(FileManager.default.fileExists(atPath: path + ".journal"))
        // "first" was evicted by "second", but the journal still holds its first use.
        let first = try #require(provider.searches.first { $0.query.text == "first" })
        #expect(first.uses == 2)
        let again = RecentsProvider(store: journalingStore(path), options: options, now: clock.now)
        #expect(again.searches == provider.searches)
    }

    @Test func twoProvidersTakingTurnsOnOneFileSeeEachOthersSearches() throws {
        let folder = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/recents.json"
        let clock = TestClock()
        let a = RecentsProvider(store: journalingStore(path), now: clock.now)
        let b = RecentsProvider(store: journalingStore(path), now: clock.now)
        for i in 0..<10 {
            a.record(SearchQuery(text: "a\(i)"))
            a.record(SearchQuery(text: "a\(i) again"))
            clock.advance(seconds: 1)
            b.record(SearchQuery(text: "b\(i)"))
            clock.advance(seconds: 1)
        }
        try a.synchronize()
        try b.synchronize()
        #expect(a.searches.count == 30)
        #expect(a.searches == b.searches)
        #expect(Set(a.titles("b", limit: 20)) == Set((0..<10).map { "b\($0)" }))
    }
}
