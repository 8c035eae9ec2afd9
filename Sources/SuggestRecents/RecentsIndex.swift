import Foundation
import SuggestCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The remembered searches laid out for the keystroke, updated in place: one change (a search recorded, made again,
/// removed or evicted) costs O(log n) comparisons, a move of 4 bytes per entry in the two orders, and that search's
/// own bytes — never a rebuild of the others.
///
/// - Each search lives in a *slot* (freed slots are reused); its folded title and word starts sit in two append-only
///   arenas (`bytes`, `wordStarts`), rewritten in frecency order once more than half of them is garbage.
/// - `order` lists the slots by frecency, best first (ranks are time-independent: see
///   ``RecentsLedger/rankKey(_:halfLife:)``), `byRecency` by last use; both are sorted arrays kept by binary search.
/// - An *entry* (as ``select(_:limit:into:)`` and ``matchedRanges(_:entry:tier:)`` use the word) is a position in
///   `order`: entry 0 is the best search.
///
/// Applies changes exactly as ``RecentsLedger`` does (same merging, same order, same eviction).
struct RecentsIndex: Sendable {
    /// What ranking and restoring need of one search.
    struct Slot: Sendable {
        var key: String
        var search: RecentSearch
        /// The folded title.
        var text: NormalizedText
        /// Its suggestion, but for its tier, ranges and popularity.
        var template: SuggestionCandidate
        /// Its completion identity (the engine shows searches with one identity as one suggestion).
        var mergeKey: MergeKey
        /// The circular list of slots with the same `mergeKey` (itself alone when no other has it).
        var nextShared: Int32
        var previousShared: Int32
    }

    /// Where a slot's folded title and word starts are in the arenas.
    struct Span: Sendable {
        var bytesStart: Int32 = 0
        var bytesEnd: Int32 = 0
        var wordsStart: Int32 = 0
        var wordsEnd: Int32 = 0
    }

    /// What the two orders compare first.
    struct Rank: Sendable {
        var rankKey: Double = 0
        var lastUsed: Date = .distantPast
    }

    /// Half-life of a use, in seconds.
    let halfLife: Double
    let systemImage: String?
    /// Notes for the diagnostics of every keystroke (a store problem), already worded.
    var notes: [String]

    /// Per slot; nil for a free slot.
    private(set) var slots: [Slot?] = []
    private(set) var spans: [Span] = []
    private(set) var ranks: [Rank] = []
    /// Per slot, a bit for each word's first byte (`byte & 63`): a quick "no word starts with it".
    private(set) var wordFirstMasks: [UInt64] = []
    /// Per slot, a bit for every byte of the title (`byte & 63`): a quick "it cannot contain that".
    private(set) var byteMasks: [UInt64] = []
    /// Per slot: whether another search has the same completion identity.
    private(set) var shared: [Bool] = []
    private var freeSlots: [Int32] = []
    private var slotOfKey: [String: Int32] = [:]
    private var sharedGroups: [MergeKey: Int32] = [:]

    /// Folded titles; a slot's is `bytes[span.bytesStart..<span.bytesEnd]`.
    private(set) var bytes: [UInt8] = []
    /// Word starts, relative to the title's start; a slot's are `wordStarts[span.wordsStart..<span.wordsEnd]`.
    private(set) var wordStarts: [Int32] = []
    /// Bytes and word starts of freed or replaced titles, still in the arenas.
    private var garbageBytes = 0
    private var garbageWordStarts = 0

    /// Slots by frecency, best first.
    private(set) var order: [Int32] = []
    /// Slots, most recently used first (ties: by frecency).
    private(set) var byRecency: [Int32] = []

    /// An empty index.
    init(halfLife: Double, notes: [String] = [], systemImage: String? = nil) {
        self.halfLife = halfLife
        self.notes = notes
        self.systemImage = systemImage
    }

    /// The searches of `ledger`.
    /// - Complexity: O(n log n) for n searches.
    init(_ ledger: RecentsLedger, notes: [String] = [], systemImage: String? = nil) {
        self.init(halfLife: ledger.halfLife, notes: notes, systemImage: systemImage)
        let count = ledger.count
        slots.reserveCapacity(count)
        spans.reserveCapacity(count)
        ranks.reserveCapacity(count)
        for (key, entry) in ledger.entries {
            _ = makeSlot(key: key, search: entry.search, text: entry.text, rankKey: entry.rankKey)
        }
        order = (0..<Int32(slots.count)).sorted { ranksBefore($0, $1) }
        byRecency = order.sorted { recencyBefore($0, $1) }
        compactArenas()
    }

    /// How many searches it holds.
    var count: Int { order.count }

    /// Whether it holds the search with this key.
    func contains(key: String) -> Bool { slotOfKey[key] != nil }

    /// The search of `slot` (a slot listed in `order` or `byRecency`).
    func search(_ slot: Int32) -> RecentSearch { slots[Int(slot)]!.search }

    /// The slot of entry `i` (a position in `order`).
    func slot(ofEntry i: Int) -> Int { Int(order[i]) }

    /// The folded titles, by frecency (entry `i`'s is `texts[i]`).
    /// - Complexity: O(n); for tests and the slow paths.
    var texts: [NormalizedText] { order.map { slots[Int($0)]!.text } }

    /// The searches, best by frecency first.
    /// - Complexity: O(n).
    var searchesByRank: [RecentSearch] { order.map { slots[Int($0)]!.search } }

    /// The searches, most recently used first (ties: by key), as ``RecentsLedger/searches`` lists them.
    /// - Complexity: O(n log n).
    var searches: [RecentSearch] {
        order.map { slots[Int($0)]! }.sorted { a, b in
            if a.search.lastUsed != b.search.lastUsed { return a.search.lastUsed > b.search.lastUsed }
            return a.key < b.key
        }.map(\.search)
    }

    // MARK: Changing

    /// Applies `change` as ``RecentsLedger/apply(_:)`` does.
    /// - Complexity: a record or a removal: O(log n) comparisons and O(n) 4-byte moves; a clear: O(n log n).
    mutating func apply(_ change: RecentsChange) {
        switch change {
        case .record(let search):
            add(search)
        case .remove(let key, let date):
            if let slot = slotOfKey[key], ranks[Int(slot)].lastUsed <= date { remove(slot) }
        case .clear(let date):
            let kept = order.filter { ranks[Int($0)].lastUsed > date }
            guard kept.count < order.count else { return }
            if kept.isEmpty {
                self = RecentsIndex(halfLife: halfLife, notes: notes, systemImage: systemImage)
                return
            }
            var ledger = RecentsLedger(halfLife: halfLife)
            for slot in kept { ledger.insert(key: slots[Int(slot)]!.key, search(slot), text: slots[Int(slot)]!.text) }
            self = RecentsIndex(ledger, notes: notes, systemImage: systemImage)
        }
    }

    /// Adds one or more uses of `search`, merged into the search with the same key as ``RecentsLedger/add(_:)``
    /// merges them. Returns the slot that holds it.
    @discardableResult
    mutating func add(_ search: RecentSearch) -> Int32 {
        let key = search.key
        guard let slot = slotOfKey[key] else {
            let slot = makeSlot(key: key, search: search, text: NormalizedText(search.title),
                rankKey: RecentsLedger.rankKey(search, halfLife: halfLife))
            insertInOrders(slot)
            return slot
        }
        let old = slots[Int(slot)]!.search
        let merged = RecentsLedger.merged(old, with: search, halfLife: halfLife)
        removeFromOrders(slot)
        ranks[Int(slot)] = Rank(rankKey: RecentsLedger.rankKey(merged, halfLife: halfLife), lastUsed: merged.lastUsed)
        let oldCompletion = slots[Int(slot)]!.mergeKey
        slots[Int(slot)]!.search = merged
        let retitled = merged.title != old.title
        if retitled {
            let text = NormalizedText(merged.title)
            slots[Int(slot)]!.text = text
            releaseText(slot)
            storeText(text, in: slot)
        }
        if merged.query != old.query {
            slots[Int(slot)]!.template = template(for: merged)
            let completion = MergeKey(merged.suggestionCompletion)
            if completion != oldCompletion {
                leaveSharedGroup(slot)
                slots[Int(slot)]!.mergeKey = completion
                joinSharedGroup(slot)
            }
        }
        insertInOrders(slot)
        // Only once the slot is back in the orders: a compaction moves the titles of the slots in `order`.
        if retitled { compactIfMostlyGarbage() }
        return slot
    }

    /// Keeps the `capacity` most valuable searches by frecency, as ``RecentsLedger/evict(toCapacity:)`` does.
    /// - Returns: the searches it evicted, with their keys.
    /// - Complexity: O(log n) comparisons per search evicted, plus its removal from `byRecency`.
    @discardableResult
    mutating func evict(toCapacity capacity: Int) -> [(key: String, search: RecentSearch)] {
        var evicted: [(key: String, search: RecentSearch)] = []
        while order.count > max(0, capacity), let worst = order.last {
            evicted.append((slots[Int(worst)]!.key, search(worst)))
            remove(worst)
        }
        return evicted
    }

    /// The search with this key, if it holds it.
    func search(forKey key: String) -> RecentSearch? { slotOfKey[key].map(search) }

    /// Removes the search in `slot`.
    private mutating func remove(_ slot: Int32) {
        removeFromOrders(slot)
        leaveSharedGroup(slot)
        releaseText(slot)
        slotOfKey[slots[Int(slot)]!.key] = nil
        slots[Int(slot)] = nil
        freeSlots.append(slot)
        if order.isEmpty {
            self = RecentsIndex(halfLife: halfLife, notes: notes, systemImage: systemImage)
        } else {
            compactIfMostlyGarbage()
        }
    }

    /// Compacts the arenas once more than half of either is garbage: each compaction copies the live titles once,
    /// after at least as many bytes were freed, so its cost is amortized O(1) per byte freed.
    private mutating func compactIfMostlyGarbage() {
        if garbageBytes > 4_096 && garbageBytes * 2 > bytes.count
            || garbageWordStarts > 1_024 && garbageWordStarts * 2 > wordStarts.count
        {
            compactArenas()
        }
    }

    /// A slot for a new search (not yet in the orders).
    private mutating func makeSlot(key: String, search: RecentSearch, text: NormalizedText, rankKey: Double) -> Int32 {
        let mergeKey = MergeKey(search.suggestionCompletion)
        let value = Slot(key: key, search: search, text: text, template: template(for: search), mergeKey: mergeKey,
            nextShared: 0, previousShared: 0)
        let rank = Rank(rankKey: rankKey, lastUsed: search.lastUsed)
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            slots[Int(slot)] = value
            ranks[Int(slot)] = rank
        } else {
            slot = Int32(slots.count)
            slots.append(value)
            spans.append(Span())
            ranks.append(rank)
            wordFirstMasks.append(0)
            byteMasks.append(0)
            shared.append(false)
        }
        slotOfKey[key] = slot
        storeText(text, in: slot)
        joinSharedGroup(slot)
        return slot
    }

    private func template(for search: RecentSearch) -> SuggestionCandidate {
        SuggestionCandidate(
            title: search.title,
            subtitle: search.suggestionSubtitle,
            completion: search.suggestionCompletion,
            tier: .prefix,
            systemImage: systemImage
        )
    }

    // MARK: Orders

    /// Whether slot `a` comes before slot `b` by frecency (ties: more recent first, then by key), as
    /// ``RecentsLedger/ranksBefore(_:_:_:_:)`` orders them.
    @inline(__always)
    private func ranksBefore(_ a: Int32, _ b: Int32) -> Bool {
        let x = ranks[Int(a)]
        let y = ranks[Int(b)]
        if x.rankKey != y.rankKey { return x.rankKey > y.rankKey }
        if x.lastUsed != y.lastUsed { return x.lastUsed > y.lastUsed }
        return slots[Int(a)]!.key < slots[Int(b)]!.key
    }

    /// Whether slot `a` comes before slot `b` by last use (ties: by frecency).
    @inline(__always)
    private func recencyBefore(_ a: Int32, _ b: Int32) -> Bool {
        let x = ranks[Int(a)].lastUsed
        let y = ranks[Int(b)].lastUsed
        if x != y { return x > y }
        return ranksBefore(a, b)
    }

    /// The first position in `list` whose slot does not come before `slot`.
    @inline(__always)
    private func position(of slot: Int32, in list: [Int32], _ before: (Int32, Int32) -> Bool) -> Int {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if before(list[middle], slot) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private mutating func insertInOrders(_ slot: Int32) {
        order.insert(slot, at: position(of: slot, in: order, ranksBefore))
        byRecency.insert(slot, at: position(of: slot, in: byRecency, recencyBefore))
    }

    /// Removes `slot` from both orders (call before its rank changes: the orders are searched by it).
    private mutating func removeFromOrders(_ slot: Int32) {
        let p = position(of: slot, in: order, ranksBefore)
        precondition(order[p] == slot, "recents order out of step")
        order.remove(at: p)
        let r = position(of: slot, in: byRecency, recencyBefore)
        precondition(byRecency[r] == slot, "recents recency order out of step")
        byRecency.remove(at: r)
    }

    // MARK: Shared completions

    private mutating func joinSharedGroup(_ slot: Int32) {
        let key = slots[Int(slot)]!.mergeKey
        guard let head = sharedGroups[key] else {
            sharedGroups[key] = slot
            slots[Int(slot)]!.nextShared = slot
            slots[Int(slot)]!.previousShared = slot
            shared[Int(slot)] = false
            return
        }
        let next = slots[Int(head)]!.nextShared
        slots[Int(slot)]!.nextShared = next
        slots[Int(slot)]!.previousShared = head
        slots[Int(head)]!.nextShared = slot
        slots[Int(next)]!.previousShared = slot
        var member = slot
        repeat {
            shared[Int(member)] = true
            member = slots[Int(member)]!.nextShared
        } while member != slot
    }

    private mutating func leaveSharedGroup(_ slot: Int32) {
        let key = slots[Int(slot)]!.mergeKey
        let next = slots[Int(slot)]!.nextShared
        let previous = slots[Int(slot)]!.previousShared
        shared[Int(slot)] = false
        guard next != slot else {
            sharedGroups[key] = nil
            return
        }
        slots[Int(previous)]!.nextShared = next
        slots[Int(next)]!.previousShared = previous
        if sharedGroups[key] == slot { sharedGroups[key] = next }
        // Alone now: no longer shared.
        if slots[Int(next)]!.nextShared == next { shared[Int(next)] = false }
    }

    // MARK: Arenas

    private mutating func storeText(_ text: NormalizedText, in slot: Int32) {
        var span = Span()
        span.bytesStart = Int32(bytes.count)
        bytes.append(contentsOf: text.bytes)
        span.bytesEnd = Int32(bytes.count)
        span.wordsStart = Int32(wordStarts.count)
        wordStarts.append(contentsOf: text.wordStarts)
        span.wordsEnd = Int32(wordStarts.count)
        spans[Int(slot)] = span
        var mask: UInt64 = 0
        for start in text.wordStarts { mask |= 1 << (text.bytes[Int(start)] & 63) }
        wordFirstMasks[Int(slot)] = mask
        var all: UInt64 = 0
        for byte in text.bytes { all |= 1 << (byte & 63) }
        byteMasks[Int(slot)] = all
    }

    private mutating func releaseText(_ slot: Int32) {
        let span = spans[Int(slot)]
        garbageBytes += Int(span.bytesEnd - span.bytesStart)
        garbageWordStarts += Int(span.wordsEnd - span.wordsStart)
        spans[Int(slot)] = Span()
    }

    /// Rewrites the arenas with the live titles only, in frecency order (so a keystroke reads them in sequence).
    /// Every live slot must be in `order`: a slot left out would keep a span into the old arenas.
    private mutating func compactArenas() {
        var newBytes: [UInt8] = []
        var newWordStarts: [Int32] = []
        newBytes.reserveCapacity(bytes.count - garbageBytes)
        newWordStarts.reserveCapacity(wordStarts.count - garbageWordStarts)
        for slot in order {
            let old = spans[Int(slot)]
            var span = Span()
            span.bytesStart = Int32(newBytes.count)
            newBytes.append(contentsOf: bytes[Int(old.bytesStart)..<Int(old.bytesEnd)])
            span.bytesEnd = Int32(newBytes.count)
            span.wordsStart = Int32(newWordStarts.count)
            newWordStarts.append(contentsOf: wordStarts[Int(old.wordsStart)..<Int(old.wordsEnd)])
            span.wordsEnd = Int32(newWordStarts.count)
            spans[Int(slot)] = span
        }
        bytes = newBytes
        wordStarts = newWordStarts
        garbageBytes = 0
        garbageWordStarts = 0
    }

    // MARK: Keystroke

    /// Whether entry `i` has the completion of one of `picked` (checked only for entries that share theirs).
    @inline(__always)
    func isDuplicate(_ i: Int, of picked: [(tier: MatchTier, index: Int)]) -> Bool {
        let slot = Int(order[i])
        guard shared[slot] else { return false }
        let key = slots[slot]!.mergeKey
        return picked.contains { slots[Int(order[$0.index])]!.mergeKey == key }
    }

    /// Whether `slot` has the completion of one of `slots` (checked only for slots that share theirs).
    func isDuplicate(slot: Int32, ofSlots others: [Int32]) -> Bool {
        guard shared[Int(slot)] else { return false }
        let key = slots[Int(slot)]!.mergeKey
        return others.contains { slots[Int($0)]!.mergeKey == key }
    }

    /// The best `limit` entries that match `query` (exact, prefix, word-prefix, then contains), best first: by tier,
    /// then by frecency. The same rules as ``TextMatcher/match(_:in:allowContains:)`` with `allowContains`, on the
    /// flat arrays; `picked` is cleared and filled with (tier, entry index).
    /// - Complexity: O(n) byte comparisons for n entries; the contains pass (entries by frecency, until `limit` are
    ///   found) only runs when the first pass found fewer than `limit` matches.
    func select(_ query: PreparedQuery, limit: Int, into picked: inout [(tier: MatchTier, index: Int)]) {
        picked.removeAll(keepingCapacity: true)
        guard !query.isEmpty, limit > 0, !order.isEmpty else { return }
        var counts = (exact: 0, prefix: 0, wordPrefix: 0)
        let words = query.words
        let partial = query.lastWordIsPartial
        bytes.withUnsafeBufferPointer { b in
            spans.withUnsafeBufferPointer { spans in
                wordStarts.withUnsafeBufferPointer { ws in
                    order.withUnsafeBufferPointer { order in
                        wordFirstMasks.withUnsafeBufferPointer { masks in
                            query.normalized.withUnsafeBufferPointer { q in
                                let first = q[words[0].lowerBound]
                                let firstBit: UInt64 = 1 << (first & 63)
                                let matcher = Matcher(b: b, ws: ws, q: q, words: words, partial: partial)
                                for i in 0..<order.count {
                                    let slot = Int(order[i])
                                    guard masks[slot] & firstBit != 0 else { continue }
                                    let span = spans[slot]
                                    let s = Int(span.bytesStart)
                                    let e = Int(span.bytesEnd)
                                    guard e > s else { continue }
                                    let wLo = Int(span.wordsStart)
                                    let wHi = Int(span.wordsEnd)
                                    var tier: MatchTier? = nil
                                    if b[s] == first, let end = matcher.matchWords(s, e, s, wLo, wHi) {
                                        var rest = end
                                        while rest < e && TextNormalizer.isSeparator(b[rest]) { rest += 1 }
                                        tier = rest == e ? .exact : .prefix
                                    } else {
                                        var w = wLo
                                        while w < wHi {
                                            let p = s + Int(ws[w])
                                            if p > s && b[p] == first && matcher.matchWords(s, e, p, wLo, wHi) != nil {
                                                tier = .wordPrefix
                                                break
                                            }
                                            w += 1
                                        }
                                    }
                                    if tier != nil && isDuplicate(i, of: picked) { continue }
                                    switch tier {
                                    case .exact?:
                                        if counts.exact < limit { counts.exact += 1; picked.append((.exact, i)) }
                                    case .prefix?:
                                        if counts.prefix < limit { counts.prefix += 1; picked.append((.prefix, i)) }
                                    case .wordPrefix?:
                                        if counts.wordPrefix < limit {
                                            counts.wordPrefix += 1
                                            picked.append((.wordPrefix, i))
                                        }
                                    default: break
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if picked.count < limit && query.trimmed.count >= Self.minimumContainsLength {
            selectContains(query, limit: limit, into: &picked)
        }
        if picked.count > 1 {
            picked.sort { $0.tier != $1.tier ? $0.tier < $1.tier : $0.index < $1.index }
        }
        if picked.count > limit { picked.removeLast(picked.count - limit) }
    }

    /// Folded bytes typed before a search that merely contains them is offered: one or two letters occur inside
    /// most words ("h" in "who"), and a recent search takes one of the first places.
    static let minimumContainsLength = 3

    /// The contains pass: entries (not already picked) whose folded title contains the query's trimmed bytes, by
    /// frecency, until `limit` are found.
    private func selectContains(_ query: PreparedQuery, limit: Int, into picked: inout [(tier: MatchTier, index: Int)]) {
        let needle = query.trimmed
        guard !needle.isEmpty, needle.count <= bytes.count else { return }
        let alreadyPicked = picked.count
        var found = 0
        var needleMask: UInt64 = 0
        for byte in needle { needleMask |= 1 << (byte & 63) }
        bytes.withUnsafeBufferPointer { b in
            spans.withUnsafeBufferPointer { spans in
                order.withUnsafeBufferPointer { order in
                    byteMasks.withUnsafeBufferPointer { masks in
                        needle.withUnsafeBufferPointer { n in
                            guard let base = b.baseAddress, let nb = n.baseAddress else { return }
                            let m = n.count
                            let first = Int32(n[0])
                            for entry in 0..<order.count where found < limit {
                                let slot = Int(order[entry])
                                guard masks[slot] & needleMask == needleMask else { continue }
                                let span = spans[slot]
                                let end = Int(span.bytesEnd)
                                var p = Int(span.bytesStart)
                                var contains = false
                                while p + m <= end {
                                    guard let hitPointer = memchr(base + p, first, end - m + 1 - p) else { break }
                                    let hit = UnsafePointer<UInt8>(hitPointer.assumingMemoryBound(to: UInt8.self)) - base
                                    if memcmp(base + hit, nb, m) == 0 {
                                        contains = true
                                        break
                                    }
                                    p = hit + 1
                                }
                                guard contains else { continue }
                                var taken = false
                                for k in 0..<alreadyPicked where picked[k].index == entry {
                                    taken = true
                                    break
                                }
                                if !taken && isDuplicate(entry, of: picked) { taken = true }
                                if !taken {
                                    picked.append((.contains, entry))
                                    found += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The matched ranges (UTF-8 offsets in the entry's title) of entry `i`, which ``select(_:limit:into:)``
    /// picked with `tier`: the same ranges as ``TextMatcher/match(_:in:allowContains:)``, with one allocation.
    func matchedRanges(_ query: PreparedQuery, entry i: Int, tier: MatchTier) -> [Range<Int>] {
        let slot = Int(order[i])
        let text = slots[slot]!.text
        let span = spans[slot]
        let words = query.words
        return bytes.withUnsafeBufferPointer { b in
            wordStarts.withUnsafeBufferPointer { ws in
                query.normalized.withUnsafeBufferPointer { q in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: words.count) { found in
                        let s = Int(span.bytesStart)
                        let e = Int(span.bytesEnd)
                        let wLo = Int(span.wordsStart)
                        let wHi = Int(span.wordsEnd)
                        let matcher = Matcher(b: b, ws: ws, q: q, words: words, partial: query.lastWordIsPartial)
                        var matched = false
                        switch tier {
                        case .exact, .prefix:
                            matched = matcher.matchWords(s, e, s, wLo, wHi, recording: found.baseAddress) != nil
                        case .wordPrefix:
                            for w in wLo..<wHi where ws[w] > 0 {
                                if matcher.matchWords(s, e, s + Int(ws[w]), wLo, wHi, recording: found.baseAddress) != nil {
                                    matched = true
                                    break
                                }
                            }
                        default:
                            let needle = query.trimmed
                            let m = needle.count
                            var p = s
                            while p + m <= e {
                                if b[p] == needle.first!, b[p..<(p + m)].elementsEqual(needle) {
                                    return SharedRanges.one(text.originalRange(of: (p - s)..<(p - s + m)))
                                }
                                p += 1
                            }
                            return []
                        }
                        guard matched else { return [] }
                        if words.count == 1 {
                            let lower = found[0] - s
                            return SharedRanges.one(text.originalRange(of: lower..<(lower + words[0].count)))
                        }
                        return [Range<Int>](unsafeUninitializedCapacity: words.count) { out, count in
                            for j in 0..<words.count {
                                let lower = found[j] - s
                                out.initializeElement(at: j, to: text.originalRange(of: lower..<(lower + words[j].count)))
                            }
                            count = words.count
                        }
                    }
                }
            }
        }
    }

    /// ``TextMatcher``'s word-wise matching on the flat arrays.
    private struct Matcher {
        let b: UnsafeBufferPointer<UInt8>
        let ws: UnsafeBufferPointer<Int32>
        let q: UnsafeBufferPointer<UInt8>
        let words: [Range<Int>]
        let partial: Bool

        /// Whether a word starts at absolute position `p` of the entry starting at `s`.
        @inline(__always)
        func isWordStart(_ p: Int, _ s: Int, _ wLo: Int, _ wHi: Int) -> Bool {
            let relative = Int32(p - s)
            var w = wLo
            while w < wHi {
                if ws[w] == relative { return true }
                if ws[w] > relative { return false }
                w += 1
            }
            return false
        }

        /// Matches the query's words in the entry `s..<e` from `start`; the end of the last matched word.
        func matchWords(
            _ s: Int,
            _ e: Int,
            _ start: Int,
            _ wLo: Int,
            _ wHi: Int,
            recording starts: UnsafeMutablePointer<Int>? = nil
        ) -> Int? {
            var position = start
            let last = words.count - 1
            for j in 0...last {
                let word = words[j]
                let length = word.count
                guard position + length <= e else { return nil }
                var k = 0
                while k < length {
                    if b[position + k] != q[word.lowerBound + k] { return nil }
                    k += 1
                }
                let end = position + length
                starts?[j] = position
                if !(j == last && partial) {
                    let endsWord = end == e || TextNormalizer.isSeparator(b[end]) || isWordStart(end, s, wLo, wHi)
                    if !endsWord { return nil }
                }
                if j == last { return end }
                var next = end
                while next < e && TextNormalizer.isSeparator(b[next]) { next += 1 }
                guard next < e, isWordStart(next, s, wLo, wHi) else { return nil }
                position = next
            }
            return position
        }
    }
}
