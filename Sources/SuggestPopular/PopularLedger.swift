import Foundation

/// The counting of popular searches, without locks or I/O: what every observed search changes, what decays, what is
/// evicted. ``PopularProvider`` keeps one behind its lock.
///
/// Decay without touching every entry: each entry has a `weight`, its score carried to a common `epoch`
/// (`score × 2^((lastUsed − epoch) / halfLife)`). Weights of different entries compare as their popularities at
/// any one moment do, and a new search only changes its own entry. When weights grow large the epoch moves and all
/// weights are computed again (``rebased``).
struct PopularLedger: Sendable {
    struct Entry: Sendable {
        var query: PopularQuery
        /// The score carried to ``PopularLedger/epoch``.
        var weight: Double
    }

    /// What recording one search did.
    enum Change: Sendable {
        /// A new entry or one more user and search; `previousText` is the entry's display form before.
        case counted(key: String, previousText: String?)
        /// One of the last remembered people made it again: nothing changed.
        case repeated
    }

    /// Entries by ``PopularQuery/key(for:)``.
    private(set) var entries: [String: Entry] = [:]
    /// Seconds; larger than 0.
    let halfLife: Double
    /// Seconds since 1970 that weights are carried to.
    private(set) var epoch: Double
    /// Set when ``record(text:key:user:at:userMemory:)`` moved the epoch: every weight changed (by one factor).
    private(set) var rebased = false

    /// Weights past 2^this make the epoch move.
    static let rebaseExponent = 512.0

    init(halfLife: Double, epoch: Double) {
        self.halfLife = halfLife
        self.epoch = epoch
    }

    var count: Int { entries.count }

    /// `query`'s score carried to the epoch.
    func weight(of query: PopularQuery) -> Double {
        PopularMath.finite(query.score * exp2((query.lastUsed.timeIntervalSince1970 - epoch) / halfLife))
    }

    /// The popularity now of an entry with `weight`.
    func popularity(weight: Double, now: Double) -> Double {
        weight * exp2((epoch - now) / halfLife)
    }

    /// Adds a stored entry (merging with one of the same key: the larger user count, the scores added, the newer
    /// text, the user hashes of both).
    mutating func add(_ query: PopularQuery, userMemory: Int) {
        let key = PopularQuery.key(for: query.text)
        guard !key.isEmpty else { return }
        var query = query
        query.userHashes = Array(query.userHashes.suffix(userMemory))
        if let existing = entries[key]?.query {
            let later = max(existing.lastUsed, query.lastUsed)
            let score =
                existing.popularity(at: later, halfLife: halfLife) + query.popularity(at: later, halfLife: halfLife)
            var hashes = existing.userHashes
            for h in query.userHashes where !hashes.contains(h) { hashes.append(h) }
            query = PopularQuery(
                text: query.lastUsed >= existing.lastUsed ? query.text : existing.text,
                users: max(existing.users, query.users),
                score: PopularMath.finite(score),
                lastUsed: later,
                userHashes: Array(hashes.suffix(userMemory))
            )
        }
        entries[key] = Entry(query: query, weight: weight(of: query))
        rebaseIfNeeded(at: query.lastUsed.timeIntervalSince1970)
    }

    /// Sets the entry of `key` to `query` as it is (a shared store's version of it), keeping its last `userMemory`
    /// user hashes.
    mutating func replace(_ query: PopularQuery, key: String, userMemory: Int) {
        rebased = false
        var query = query
        query.userHashes = Array(query.userHashes.suffix(userMemory))
        query.score = PopularMath.finite(query.score)
        entries[key] = Entry(query: query, weight: weight(of: query))
        rebaseIfNeeded(at: query.lastUsed.timeIntervalSince1970)
    }

    /// Counts one search of `text` (already in display form, `key` its key) by the person whose hash is `user`, at
    /// `date` (seconds since 1970).
    /// - Parameter userMemory: how many of the most recent people an entry remembers (1 or more).
    mutating func record(text: String, key: String, user: UInt32, at date: Double, userMemory: Int) -> Change {
        rebased = false
        guard var entry = entries[key] else {
            let query = PopularQuery(
                text: text, users: 1, score: 1, lastUsed: Date(timeIntervalSince1970: date), userHashes: [user])
            entries[key] = Entry(query: query, weight: weight(of: query))
            rebaseIfNeeded(at: date)
            return .counted(key: key, previousText: nil)
        }
        if entry.query.userHashes.contains(user) { return .repeated }
        let previous = entry.query.text
        let last = entry.query.lastUsed.timeIntervalSince1970
        let later = max(last, date)
        // A search dated before the entry's last one counts as much as it still would now.
        let decayedOld = entry.query.score * exp2(-(later - last) / halfLife)
        let added = exp2(-(later - date) / halfLife)
        entry.query.score = PopularMath.finite(decayedOld + added)
        entry.query.lastUsed = Date(timeIntervalSince1970: later)
        if date >= last { entry.query.text = text }
        entry.query.users = entry.query.users == Int.max ? Int.max : entry.query.users + 1
        entry.query.userHashes.append(user)
        if entry.query.userHashes.count > userMemory {
            entry.query.userHashes.removeFirst(entry.query.userHashes.count - userMemory)
        }
        entry.weight = weight(of: entry.query)
        entries[key] = entry
        rebaseIfNeeded(at: later)
        return .counted(key: key, previousText: previous)
    }

    /// Removes the entry of `key`.
    @discardableResult
    mutating func remove(key: String) -> Entry? {
        entries.removeValue(forKey: key)
    }

    /// Keeps at most `capacity` entries: when there are more, the least popular go, and a sixteenth of the capacity
    /// more with them (so that eviction, which sorts, happens once per that many new searches).
    /// - Returns: the evicted entries.
    /// - Complexity: O(n log n) when it evicts, O(1) otherwise.
    mutating func evict(toCapacity capacity: Int) -> [(key: String, entry: Entry)] {
        guard entries.count > capacity else { return [] }
        let target = max(0, capacity - capacity / 16)
        let ranked = entries.sorted { a, b in
            a.value.weight != b.value.weight ? a.value.weight < b.value.weight : a.key > b.key
        }
        let evicted = ranked.prefix(entries.count - target)
        for (key, _) in evicted { entries[key] = nil }
        return evicted.map { ($0.key, $0.value) }
    }

    /// Moves the epoch to `date` when weights of entries made then would pass 2^``rebaseExponent``.
    private mutating func rebaseIfNeeded(at date: Double) {
        guard (date - epoch) / halfLife > Self.rebaseExponent else { return }
        epoch = date
        for key in entries.keys { entries[key]!.weight = weight(of: entries[key]!.query) }
        rebased = true
    }

    /// The entries, most popular first (then by text).
    var ranked: [PopularQuery] {
        entries.values.sorted { a, b in
            a.weight != b.weight ? a.weight > b.weight : a.query.text < b.query.text
        }.map(\.query)
    }
}

/// Keeps numbers finite: the largest finite `Double` instead of infinity or NaN.
enum PopularMath {
    static func finite(_ value: Double) -> Double {
        value.isFinite ? value : (value.isNaN || value > 0 ? .greatestFiniteMagnitude : 0)
    }
}
