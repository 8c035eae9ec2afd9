import Foundation
import SuggestCore
import SuggestPattern

/// The remembered searches as plain values: dedupe by key, frecency, the changes, eviction. No locks, no I/O
/// (``RecentsProvider`` holds one behind a `Mutex`; stores merge with one).
struct RecentsLedger: Sendable {
    /// One search with what matching and ranking need.
    struct Entry: Sendable {
        var search: RecentSearch
        /// The folded title, for matching.
        var text: NormalizedText
        /// `log2(score) + lastUsed / halfLife`: orders entries by frecency at any moment, without a clock.
        var rankKey: Double
    }

    /// Half-life of a use, in seconds.
    let halfLife: Double
    private(set) var entries: [String: Entry] = [:]

    init(halfLife: Double) {
        self.halfLife = halfLife
    }

    /// A ledger holding `searches`; duplicates (same key) are merged.
    init(_ searches: [RecentSearch], halfLife: Double) {
        self.halfLife = halfLife
        for search in searches { add(search) }
    }

    var count: Int { entries.count }

    /// The searches, most recently used first (ties: by key, so the order is stable).
    var searches: [RecentSearch] {
        entries.sorted { a, b in
            if a.value.search.lastUsed != b.value.search.lastUsed {
                return a.value.search.lastUsed > b.value.search.lastUsed
            }
            return a.key < b.key
        }.map(\.value.search)
    }

    /// Entries by frecency, best first (ties: more recent first, then by key).
    var entriesByRank: [(key: String, entry: Entry)] {
        entries.map { (key: $0.key, entry: $0.value) }.sorted { a, b in
            Self.ranksBefore(a.key, a.entry, b.key, b.entry)
        }
    }

    /// Whether `a` comes before `b` by frecency (ties: more recent first, then by key).
    static func ranksBefore(_ aKey: String, _ a: Entry, _ bKey: String, _ b: Entry) -> Bool {
        if a.rankKey != b.rankKey { return a.rankKey > b.rankKey }
        if a.search.lastUsed != b.search.lastUsed { return a.search.lastUsed > b.search.lastUsed }
        return aKey < bKey
    }

    func rankKey(_ search: RecentSearch) -> Double { Self.rankKey(search, halfLife: halfLife) }

    /// `log2(score) + lastUsed / halfLife`: the order of these keys is the order of the searches' frecencies at any
    /// one moment (every frecency decays by the same factor), so an order kept by them never goes stale.
    static func rankKey(_ search: RecentSearch, halfLife: Double) -> Double {
        let score = search.score > 0 ? search.score : .leastNonzeroMagnitude
        return log2(score) + search.lastUsed.timeIntervalSince1970 / halfLife
    }

    /// `existing` with the uses of `search` (same key) added: uses add up, scores add up after decaying the older to
    /// the newer's time, the newest display form wins.
    static func merged(_ existing: RecentSearch, with search: RecentSearch, halfLife: Double) -> RecentSearch {
        var existing = existing
        let newer = search.lastUsed >= existing.lastUsed
        let gap = abs(search.lastUsed.timeIntervalSince(existing.lastUsed))
        let decay = exp2(-gap / halfLife)
        // Counts and scores come from files: they saturate instead of trapping (uses) or reaching infinity (score,
        // which would make the next save fail and print as nothing useful).
        existing.score = RecentSearch.finite(
            newer ? existing.score * decay + search.score : existing.score + search.score * decay
        )
        let (uses, overflow) = existing.uses.addingReportingOverflow(search.uses)
        existing.uses = overflow ? Int.max : uses
        existing.firstUsed = min(existing.firstUsed, search.firstUsed)
        if newer {
            existing.lastUsed = search.lastUsed
            existing.query = search.query
        }
        return existing
    }

    /// Adds `search` (one or more uses), merging it into the entry with the same key: uses add up, scores add up
    /// after decaying the older to the newer's time, the newest display form wins.
    mutating func add(_ search: RecentSearch) {
        let key = search.key
        guard let old = entries[key] else {
            entries[key] = Entry(search: search, text: NormalizedText(search.title), rankKey: rankKey(search))
            return
        }
        let existing = Self.merged(old.search, with: search, halfLife: halfLife)
        let text = existing.title != old.search.title ? NormalizedText(existing.title) : old.text
        entries[key] = Entry(search: existing, text: text, rankKey: rankKey(existing))
    }

    /// Puts `search` under `key` as it is (its text already folded), replacing any search with that key.
    mutating func insert(key: String, _ search: RecentSearch, text: NormalizedText) {
        entries[key] = Entry(search: search, text: text, rankKey: rankKey(search))
    }

    mutating func apply(_ change: RecentsChange) {
        switch change {
        case .record(let search):
            add(search)
        case .remove(let key, let date):
            if let entry = entries[key], entry.search.lastUsed <= date { entries[key] = nil }
        case .clear(let date):
            entries = entries.filter { $0.value.search.lastUsed > date }
        }
    }

    mutating func apply(_ changes: some Sequence<RecentsChange>) {
        for change in changes { apply(change) }
    }

    /// Forgets the searches `exclusion` rejects (rules added after they were stored, or another process's).
    mutating func remove(excludedBy exclusion: RecentsExclusion) {
        guard exclusion.minimumLength > 1 || !exclusion.patterns.isEmpty else { return }
        entries = entries.filter { !exclusion.excludes($0.value.search.query) }
    }

    /// Keeps the `capacity` most valuable searches by frecency (recency and frequency).
    mutating func evict(toCapacity capacity: Int) {
        guard entries.count > capacity else { return }
        if entries.count - capacity <= 8 {
            // A few over (one submit at capacity): drop the last by rank, one pass each, instead of sorting them all.
            while entries.count > capacity {
                var worst: (key: String, entry: Entry)? = nil
                for (key, entry) in entries {
                    if let current = worst, !Self.ranksBefore(current.key, current.entry, key, entry) { continue }
                    worst = (key, entry)
                }
                entries[worst!.key] = nil
            }
            return
        }
        for (key, _) in entriesByRank.dropFirst(capacity) { entries[key] = nil }
    }
}
