import Foundation
import Testing
import SuggestCore
@testable import SuggestRecents

struct RecentsLedgerTests {
    let day = 86_400.0
    let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    func use(_ text: String, _ days: Double) -> RecentsChange {
        .record(RecentSearch(SearchQuery(text: text), at: t0.addingTimeInterval(days * day)))
    }

    @Test func repeatedUsesAddUpAndTheNewestDisplayFormWins() {
        var ledger = RecentsLedger(halfLife: day)
        ledger.apply([use("New York", 0), use("new   YORK ", 1), use("NEW YORK", 0.5)])
        #expect(ledger.count == 1)
        let search = ledger.searches[0]
        #expect(search.uses == 3)
        #expect(search.query.text == "new YORK")
        #expect(search.firstUsed == t0)
        #expect(search.lastUsed == t0.addingTimeInterval(day))
        // Uses at day 0, 0.5 and 1, seen from day 1: 0.5 + 0.7071 + 1.
        #expect(abs(search.score - (0.5 + 1 / 2.0.squareRoot() + 1)) < 1e-9)
    }

    @Test func orderOfApplyingUsesDoesNotMatter() {
        var a = RecentsLedger(halfLife: day)
        var b = RecentsLedger(halfLife: day)
        a.apply([use("x", 0), use("x", 3), use("x", 1)])
        b.apply([use("x", 3), use("x", 1), use("x", 0)])
        #expect(abs(a.searches[0].score - b.searches[0].score) < 1e-9)
        #expect(a.searches[0].uses == b.searches[0].uses)
    }

    @Test func evictsTheLeastValuableByFrecency() {
        var ledger = RecentsLedger(halfLife: day)
        // "often": 8 uses 2 days ago (frecency 2 now); "new": 1 use now (1); "old": 1 use a day ago (0.5).
        for _ in 0..<8 { ledger.apply(use("often", -2)) }
        ledger.apply(use("old", -1))
        ledger.apply(use("new", 0))
        ledger.evict(toCapacity: 2)
        #expect(Set(ledger.searches.map(\.query.text)) == ["often", "new"])
        ledger.evict(toCapacity: 1)
        #expect(ledger.searches.map(\.query.text) == ["often"])
    }

    @Test func removeAndClearKeepSearchesMadeAfterThem() {
        var ledger = RecentsLedger(halfLife: day)
        ledger.apply([use("a", 0), use("b", 2), use("c", 0)])
        ledger.apply(.remove(key: "b", at: t0.addingTimeInterval(day)))
        #expect(ledger.count == 3, "b was made again after the removal")
        ledger.apply(.remove(key: "a", at: t0.addingTimeInterval(day)))
        #expect(Set(ledger.searches.map(\.query.text)) == ["b", "c"])
        ledger.apply(.clear(at: t0.addingTimeInterval(day)))
        #expect(ledger.searches.map(\.query.text) == ["b"])
    }

    @Test func duplicatesInStoredSearchesAreMerged() {
        let a = RecentSearch(query: "Swift", firstUsed: t0, lastUsed: t0, uses: 2, score: 2)
        let b = RecentSearch(query: "swift ", firstUsed: t0, lastUsed: t0.addingTimeInterval(day), uses: 1, score: 1)
        let ledger = RecentsLedger([a, b], halfLife: day)
        #expect(ledger.count == 1)
        #expect(ledger.searches[0].uses == 3)
        #expect(ledger.searches[0].score == 2)
    }

    @Test func usesSaturateAndScoresStayFiniteWhenTwoSpellingsMerge() {
        // Numbers as a file may hold them: two spellings of one search, each with 2^62 uses and the largest score.
        let huge = RecentSearch(query: SearchQuery(text: "Python"), firstUsed: t0, lastUsed: t0, uses: 1 << 62,
            score: .greatestFiniteMagnitude)
        var other = huge
        other.query.text = "python"
        let ledger = RecentsLedger([huge, other], halfLife: day)
        #expect(ledger.count == 1)
        #expect(ledger.searches[0].uses == Int.max)
        #expect(ledger.searches[0].score == .greatestFiniteMagnitude)
        #expect(ledger.entriesByRank[0].entry.rankKey.isFinite)
    }

    @Test func evictingAFewKeepsWhatSortingAllKeeps() {
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        // Ties on purpose: equal scores and times, told apart by key.
        let searches = (0..<60).map { i in
            RecentSearch(query: SearchQuery(text: "s\(i)"), firstUsed: date, lastUsed: date.addingTimeInterval(Double(i % 5)), uses: 1 + i % 3, score: Double(1 + i % 3))
        }
        for over in 1...12 {
            var fast = RecentsLedger(searches, halfLife: 3_600)
            fast.evict(toCapacity: 60 - over)
            let kept = RecentsLedger(searches, halfLife: 3_600).entriesByRank.prefix(60 - over).map(\.key)
            #expect(Set(fast.entries.keys) == Set(kept), "\(over) over")
        }
    }
}
