import Foundation
import Testing
import SuggestCore
@testable import SuggestRecents

/// Not a check: prints submit and start-up times of a large store to stderr. Runs only with SUGGEST_TIMINGS=1, in a
/// release build: `SUGGEST_TIMINGS=1 swift test -c release -Xswiftc -enable-testing --filter RecentsStoreTimings`.
struct RecentsStoreTimings {
    static let enabled = ProcessInfo.processInfo.environment["SUGGEST_TIMINGS"] == "1"

    func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    func size(_ file: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? 0 }

    func writeStore(_ path: String, count: Int) throws {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let searches = (0..<count).map { i in
            let date = start.addingTimeInterval(Double(i))
            return RecentSearch(query: SearchQuery(text: "recent search number \(i) about topic \(i % 977)"), firstUsed: date, lastUsed: date)
        }
        try RecentsFile.encode(searches).write(to: URL(fileURLWithPath: path))
    }

    @Test(.enabled(if: enabled)) func submitAndStartUp() throws {
        let folder = makeTemporaryFolder()
        for count in [100_000, 300_000] {
            let path = folder + "/start-\(count).json"
            try writeStore(path, count: count)
            var provider: RecentsProvider? = nil
            let t = seconds { provider = RecentsProvider(store: JSONFileRecentsStore(path: path), options: .init(capacity: 100_000)) }
            let load = seconds { _ = try? JSONFileRecentsStore(path: path).load() }
            FileHandle.standardError.write(Data("start-up \(count) entries (\(size(path)) bytes): \(t) s, of which store.load() \(load) s; kept \(provider!.searches.count)\n".utf8))
        }
        // Where a submit's in-memory time goes, at 100,000 searches.
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let searches = (0...100_000).map { i in
            RecentSearch(query: SearchQuery(text: "recent search number \(i) about topic \(i % 977)"), firstUsed: start.addingTimeInterval(Double(i)), lastUsed: start.addingTimeInterval(Double(i)))
        }
        var ledger = RecentsLedger([], halfLife: 14 * 86_400)
        let build = seconds { ledger = RecentsLedger(searches, halfLife: 14 * 86_400) }
        let sorted = seconds { _ = ledger.searches }
        var evicted = ledger
        let evict = seconds { evicted.evict(toCapacity: 100_000) }
        let index = seconds { _ = RecentsIndex(evicted, systemImage: "clock") }
        FileHandle.standardError.write(Data("100,001 searches: ledger build \(build) s, sorted searches \(sorted) s, evict one \(evict) s, index build \(index) s\n".utf8))
        for (label, threshold) in [("whole rewrite (the old write path)", Int.max), ("journal", 64 * 1024)] {
            let path = folder + "/submit-\(threshold).json"
            try writeStore(path, count: 100_000)
            let store = JSONFileRecentsStore(path: path, crashAfterBytes: nil, journalFromBaseBytes: threshold)
            let provider = RecentsProvider(store: store, options: .init(capacity: 100_000))
            let before = size(path) + size(path + ".journal")
            let n = 20
            var times: [Double] = []
            for i in 0..<n {
                times.append(seconds { provider.record(SearchQuery(text: "new search \(i)")) })
            }
            let after = size(path) + size(path + ".journal")
            let written = threshold == Int.max ? n * size(path) : after - before
            times.sort()
            FileHandle.standardError.write(Data("submit at capacity 100000, \(label): median \(times[n / 2]) s, max \(times[n - 1]) s; bytes written per submit ≈ \(written / n)\n".utf8))
        }
    }
}
