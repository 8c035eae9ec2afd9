import SuggestIndex

/// The keys of one word (no space in the canonical key; the empty key too: no more words than any query), and the
/// most popular of them in any range of sorted
/// positions: for the prefix tier, where a key of more words than a one-word query ranks as if
/// ``FuzzyOptions/phrasePenalty`` times less popular. Without it that tier pulls keys by popularity until no phrase
/// left can beat the one-word keys found, up to 64 × limit deep: on names made of several words (most PyPI names),
/// hundreds of keys a keystroke. With it, the best one-word keys come straight from this table, and only the phrases
/// popular enough to beat them are pulled.
///
/// A bit per key, and a sparse table over blocks of 128 keys: level j, block b holds the position of the most
/// popular one-word key in blocks b..<b + 2^j (``none`` when there is none). About 0.5 bytes per key.
struct OneWordKeys: Sendable {
    static let blockShift = 7
    static let blockSize = 1 << blockShift
    static let none = UInt32.max

    /// Bit p: the key at sorted position p has no space (one word, or none).
    let bits: [UInt64]
    let table: [UInt32]
    let blockCount: Int

    var byteCount: Int { bits.count * 8 + table.count * 4 }

    init(_ index: PrefixIndex) {
        let n = index.count
        var bits = [UInt64](repeating: 0, count: (n + 63) >> 6)
        index.withUnsafeSortedKeys { offsets, bytes in
            bits.withUnsafeMutableBufferPointer { out in
                for p in 0..<n {
                    let start = Int(offsets[p])
                    let end = Int(offsets[p + 1])
                    var oneWord = true
                    for k in start..<end where bytes[k] == 0x20 {
                        oneWord = false
                        break
                    }
                    if oneWord { out[p >> 6] |= 1 << UInt64(p & 63) }
                }
            }
        }
        self.bits = bits
        let blocks = (n + Self.blockSize - 1) >> Self.blockShift
        blockCount = blocks
        guard blocks > 0 else {
            table = []
            return
        }
        var levels = 1
        while (1 << levels) <= blocks { levels += 1 }
        var table = [UInt32](repeating: Self.none, count: levels * blocks)
        index.withUnsafeRanks { ranks in
            bits.withUnsafeBufferPointer { bits in
                table.withUnsafeMutableBufferPointer { t in
                    for b in 0..<blocks {
                        let lo = b << Self.blockShift
                        let best = Self.scan(lo, min(n, lo + Self.blockSize), bits: bits, ranks: ranks)
                        t[b] = best < 0 ? Self.none : UInt32(best)
                    }
                    for level in 1..<levels {
                        let half = 1 << (level - 1)
                        let base = level * blocks
                        let previous = (level - 1) * blocks
                        for b in 0..<blocks {
                            let a = t[previous + b]
                            let c = b + half < blocks ? t[previous + b + half] : Self.none
                            t[base + b] = Self.better(a, c, ranks)
                        }
                    }
                }
            }
        }
        self.table = table

    }

    /// Whether the key at sorted position `p` is one word.
    @inline(__always)
    func contains(_ p: Int) -> Bool { bits[p >> 6] & (1 << UInt64(p & 63)) != 0 }

    /// The position of the most popular one-word key in `lo..<hi`, or -1 when there is none.
    func best(_ lo: Int, _ hi: Int, ranks: UnsafeBufferPointer<UInt32>) -> Int {
        guard lo < hi else { return -1 }
        return bits.withUnsafeBufferPointer { bits in
            let bl = lo >> Self.blockShift
            let br = (hi - 1) >> Self.blockShift
            if bl == br { return Self.scan(lo, hi, bits: bits, ranks: ranks) }
            var best = Self.scan(lo, (bl + 1) << Self.blockShift, bits: bits, ranks: ranks)
            let right = Self.scan(br << Self.blockShift, hi, bits: bits, ranks: ranks)
            if right >= 0 && (best < 0 || ranks[right] < ranks[best]) { best = right }
            let first = bl + 1
            let last = br - 1
            if first <= last {
                let level = Int.bitWidth - 1 - (last - first + 1).leadingZeroBitCount
                let m = Self.better(
                    table[level * blockCount + first], table[level * blockCount + last - (1 << level) + 1], ranks)
                if m != Self.none && (best < 0 || ranks[Int(m)] < ranks[best]) { best = Int(m) }
            }
            return best
        }
    }

    /// Of two positions (or ``none``), the more popular.
    @inline(__always)
    static func better(_ a: UInt32, _ b: UInt32, _ ranks: UnsafeBufferPointer<UInt32>) -> UInt32 {
        if a == none { return b }
        if b == none { return a }
        return ranks[Int(b)] < ranks[Int(a)] ? b : a
    }

    /// The most popular one-word key in `lo..<hi` by looking at each (through the bits), or -1.
    @inline(__always)
    static func scan(
        _ lo: Int, _ hi: Int, bits: UnsafeBufferPointer<UInt64>, ranks: UnsafeBufferPointer<UInt32>
    ) -> Int {
        var best = -1
        var bestRank = UInt32.max
        var word = lo >> 6
        while word << 6 < hi {
            var w = bits[word]
            let base = word << 6
            if base < lo { w &= ~(0 as UInt64) << UInt64(lo - base) }
            if base + 64 > hi { w &= (1 << UInt64(hi - base)) &- 1 }
            while w != 0 {
                let p = base + w.trailingZeroBitCount
                w &= w &- 1
                let r = ranks[p]
                if r < bestRank {
                    bestRank = r
                    best = p
                }
            }
            word += 1
        }
        return best
    }
}

extension FuzzyIndex {
    /// The one-word keys in the union of disjoint `ranges`, most popular first, skipping positions for which `skip`
    /// is true, until `limit` are accepted or `body` returns false. Calls `body(position, rangeIndex)` for each.
    /// - Complexity: O((limit + skipped + ranges) × (log n + the block size)).
    func forEachOneWordHeaviestWhile(
        in ranges: [Range<Int>],
        oneWord: OneWordKeys,
        limit: Int,
        heap: inout [RangeMaximum],
        skip: (Int) -> Bool,
        _ body: (Int, Int) -> Bool
    ) {
        prefixIndex.withUnsafeRanks { ranks in
            RangeMaximum.forEachBestWhile(
                in: ranges, limit: limit, heap: &heap, best: { oneWord.best($0, $1, ranks: ranks) },
                rank: { Int(ranks[$0]) }, skip: skip, body)
        }
    }
}
