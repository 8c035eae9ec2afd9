import Foundation
import SuggestCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An immutable snapshot of the remembered searches laid out for one keystroke: entries in frecency order, their
/// folded titles concatenated in one byte array, their word starts in another, and the entries in recency order.
/// Rebuilt when the searches change (a submit, a removal), never on a keystroke.
final class RecentsIndex: Sendable {
    /// Entries by frecency, best first.
    let searches: [RecentSearch]
    let texts: [NormalizedText]
    /// Folded titles, concatenated; entry `i` is `bytes[starts[i]..<starts[i + 1]]`.
    let bytes: [UInt8]
    let starts: [Int32]
    /// Word starts (relative to the entry's start); entry `i`'s are `wordStarts[wordStartOffsets[i]..<wordStartOffsets[i + 1]]`.
    let wordStarts: [Int32]
    let wordStartOffsets: [Int32]
    /// Per entry, a bit for each word's first byte (`byte & 63`): a quick "no word starts with it".
    let wordFirstMasks: [UInt64]
    /// Entry indices, most recently used first.
    let byRecency: [Int32]
    /// Notes for the diagnostics of every keystroke (a store problem), already worded.
    let notes: [String]
    /// Each entry's suggestion, but for its tier, ranges and popularity.
    let templates: [SuggestionCandidate]
    /// Each entry's last use (seconds since 1970) and its score then, for the popularity.
    let lastUsed: [Double]
    let scores: [Double]
    /// Each entry's completion identity, and whether another entry has the same (the same text with other tokens:
    /// the engine shows them as one suggestion, so a keystroke offers only the best of them).
    let keys: [MergeKey]
    let shared: [Bool]

    init(_ ledger: RecentsLedger, notes: [String] = [], systemImage: String? = nil) {
        let ranked = ledger.entriesByRank
        var searches: [RecentSearch] = []
        var texts: [NormalizedText] = []
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        var wordStarts: [Int32] = []
        var wordStartOffsets: [Int32] = [0]
        var wordFirstMasks: [UInt64] = []
        searches.reserveCapacity(ranked.count)
        texts.reserveCapacity(ranked.count)
        for (_, entry) in ranked {
            searches.append(entry.search)
            texts.append(entry.text)
            bytes.append(contentsOf: entry.text.bytes)
            starts.append(Int32(bytes.count))
            wordStarts.append(contentsOf: entry.text.wordStarts)
            wordStartOffsets.append(Int32(wordStarts.count))
            var mask: UInt64 = 0
            for start in entry.text.wordStarts { mask |= 1 << (entry.text.bytes[Int(start)] & 63) }
            wordFirstMasks.append(mask)
        }
        self.wordFirstMasks = wordFirstMasks
        self.searches = searches
        self.texts = texts
        self.bytes = bytes
        self.starts = starts
        self.wordStarts = wordStarts
        self.wordStartOffsets = wordStartOffsets
        self.byRecency = searches.indices.sorted { a, b in
            if searches[a].lastUsed != searches[b].lastUsed { return searches[a].lastUsed > searches[b].lastUsed }
            return a < b
        }.map { Int32($0) }
        self.notes = notes
        self.templates = searches.map { search in
            SuggestionCandidate(
                title: search.title,
                subtitle: search.suggestionSubtitle,
                completion: search.suggestionCompletion,
                tier: .prefix,
                systemImage: systemImage
            )
        }
        self.lastUsed = searches.map(\.lastUsed.timeIntervalSince1970)
        self.scores = searches.map(\.score)
        let keys = searches.map { MergeKey($0.suggestionCompletion) }
        var counts: [MergeKey: Int] = [:]
        for key in keys { counts[key, default: 0] += 1 }
        self.keys = keys
        self.shared = keys.map { counts[$0, default: 0] > 1 }
    }

    /// Whether entry `i` has the completion of one of `picked` (checked only for entries that share theirs).
    @inline(__always)
    func isDuplicate(_ i: Int, of picked: [(tier: MatchTier, index: Int)]) -> Bool {
        guard shared[i] else { return false }
        return picked.contains { keys[$0.index] == keys[i] }
    }

    /// As above, for entries listed by index.
    func isDuplicate(_ i: Int, ofEntries entries: [Int]) -> Bool {
        guard shared[i] else { return false }
        return entries.contains { keys[$0] == keys[i] }
    }

    var count: Int { searches.count }

    /// The best `limit` entries that match `query` (exact, prefix, word-prefix, then contains), best first: by tier,
    /// then by frecency. The same rules as ``TextMatcher/match(_:in:allowContains:)`` with `allowContains`, on the
    /// flat arrays; `picked` is cleared and filled with (tier, entry index).
    /// - Complexity: O(n) byte comparisons for n entries; the contains pass (one `memchr` scan of all titles) only
    ///   runs when the first pass found fewer than `limit` matches.
    func select(_ query: PreparedQuery, limit: Int, into picked: inout [(tier: MatchTier, index: Int)]) {
        picked.removeAll(keepingCapacity: true)
        guard !query.isEmpty, limit > 0, !searches.isEmpty else { return }
        var counts = (exact: 0, prefix: 0, wordPrefix: 0)
        let words = query.words
        let partial = query.lastWordIsPartial
        bytes.withUnsafeBufferPointer { b in
            starts.withUnsafeBufferPointer { starts in
                wordStarts.withUnsafeBufferPointer { ws in
                    wordStartOffsets.withUnsafeBufferPointer { wso in
                        wordFirstMasks.withUnsafeBufferPointer { masks in
                            query.normalized.withUnsafeBufferPointer { q in
                                let first = q[words[0].lowerBound]
                                let firstBit: UInt64 = 1 << (first & 63)
                                let matcher = Matcher(b: b, ws: ws, q: q, words: words, partial: partial)
                                for i in 0..<(starts.count - 1) where masks[i] & firstBit != 0 {
                                    let s = Int(starts[i])
                                    let e = Int(starts[i + 1])
                                    guard e > s else { continue }
                                    let wLo = Int(wso[i])
                                    let wHi = Int(wso[i + 1])
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

    /// The contains pass: entries (not already picked) whose folded title contains the query's trimmed bytes.
    private func selectContains(_ query: PreparedQuery, limit: Int, into picked: inout [(tier: MatchTier, index: Int)]) {
        let needle = query.trimmed
        guard !needle.isEmpty, needle.count <= bytes.count else { return }
        let alreadyPicked = picked.count
        var found = 0
        bytes.withUnsafeBufferPointer { b in
            starts.withUnsafeBufferPointer { starts in
                needle.withUnsafeBufferPointer { n in
                    guard let base = b.baseAddress, let nb = n.baseAddress else { return }
                    let m = n.count
                    let total = b.count
                    let first = Int32(n[0])
                    var entry = 0
                    var p = 0
                    while p + m <= total && found < limit {
                        guard let hitPointer = memchr(base + p, first, total - m + 1 - p) else { break }
                        let hit = UnsafePointer<UInt8>(hitPointer.assumingMemoryBound(to: UInt8.self)) - base
                        while Int(starts[entry + 1]) <= hit { entry += 1 }
                        let end = Int(starts[entry + 1])
                        if hit + m <= end && memcmp(base + hit, nb, m) == 0 {
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
                            p = end
                        } else {
                            p = hit + 1
                        }
                    }
                }
            }
        }
    }

    /// The matched ranges (UTF-8 offsets in the entry's title) of entry `i`, which ``select(_:limit:into:)``
    /// picked with `tier`: the same ranges as ``TextMatcher/match(_:in:allowContains:)``, with one allocation.
    func matchedRanges(_ query: PreparedQuery, entry i: Int, tier: MatchTier) -> [Range<Int>] {
        let text = texts[i]
        let words = query.words
        return bytes.withUnsafeBufferPointer { b in
            wordStarts.withUnsafeBufferPointer { ws in
                query.normalized.withUnsafeBufferPointer { q in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: words.count) { found in
                        let s = Int(starts[i])
                        let e = Int(starts[i + 1])
                        let wLo = Int(wordStartOffsets[i])
                        let wHi = Int(wordStartOffsets[i + 1])
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
                                    return [text.originalRange(of: (p - s)..<(p - s + m))]
                                }
                                p += 1
                            }
                            return []
                        }
                        guard matched else { return [] }
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
