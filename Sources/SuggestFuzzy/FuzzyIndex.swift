public import SuggestCore
public import SuggestIndex

/// What the fuzzy provider needs beyond the shared ``PrefixIndex``: a 32-bit letter mask per key and a small
/// range-minimum table over the prefix index's popularity ranks.
///
/// The sorted canonical keys of the ``PrefixIndex`` (folded, separators collapsed to one space) are the implicit
/// prefix trie the typo walk runs on (a trie node is a range of sorted keys sharing a prefix); its popularity ranks
/// give the top-k of any range. So a configuration with a prefix and a fuzzy provider on one dictionary holds one
/// copy of the keys: ``FuzzyProvider/init(configuration:context:)`` obtains the prefix index through the same cache
/// artifact as the prefix provider (`"prefix-index:<path>:<lenient>"`).
///
/// Memory beyond the prefix index: 4 bytes per entry (mask) plus the block table (4 bytes per 32 entries per level,
/// about 2 bytes per entry for a million entries). See ``extraByteCount``.
public struct FuzzyIndex: Sendable {
    /// The shared prefix index: sorted canonical keys, entry ids and popularity ranks.
    public let prefixIndex: PrefixIndex
    /// Letters (bits 0-25), digits (26), other ASCII (27), non-ASCII lead bytes (28 + b % 3) in sorted key `i`;
    /// bit 31 (``camelBit``) when the original text has a camelCase hump (an ASCII lowercase then uppercase letter).
    let masks: [UInt32]
    /// Block sparse table over the ranks: level j, block b holds the position of the smallest rank of blocks
    /// b..<b + 2^j (blocks of 32 positions).
    let table: [UInt32]
    let blockCount: Int

    /// The dictionary the keys come from.
    public var dictionary: WeightedDictionary { prefixIndex.dictionary }

    /// The number of keys (the dictionary's entry count).
    public var count: Int { prefixIndex.count }

    /// Bytes this index adds to the prefix index (masks and the rank table).
    public var extraByteCount: Int { masks.count * 4 + table.count * 4 }

    /// Builds the prefix index of `dictionary`, then the fuzzy extras (when no prefix index is shared).
    public init(_ dictionary: WeightedDictionary) {
        self.init(PrefixIndex(dictionary: dictionary))
    }

    /// The fuzzy extras over a (shared) prefix index.
    /// - Complexity: O(n) over the keys.
    public init(_ prefixIndex: PrefixIndex) {
        self.prefixIndex = prefixIndex
        let n = prefixIndex.count
        let dictionary = prefixIndex.dictionary
        var masks = [UInt32](repeating: 0, count: n)
        dictionary.textBytes.withUnsafeBufferPointer { text in
            for i in 0..<n {
                var mask: UInt32 = 0
                for b in prefixIndex.sortedKey(at: i) { mask |= Self.maskBit(b) }
                let original = dictionary.textRange(at: prefixIndex.entry(atSortedPosition: i))
                var k = original.lowerBound + 1
                while k < original.upperBound {
                    let a = text[k - 1]
                    let b = text[k]
                    if a >= 0x61 && a <= 0x7A && b >= 0x41 && b <= 0x5A {
                        mask |= Self.camelBit
                        break
                    }
                    k += 1
                }
                masks[i] = mask
            }
        }
        self.masks = masks
        // Rank table: the best position of each block, then doubling levels.
        let blocks = (n + Self.blockSize - 1) >> Self.blockShift
        blockCount = blocks
        var levels = 0
        if blocks > 0 {
            levels = 1
            while (1 << levels) <= blocks { levels += 1 }
        }
        var table = [UInt32](repeating: 0, count: levels * blocks)
        for b in 0..<blocks {
            let lo = b << Self.blockShift
            table[b] = UInt32(Self.scan(prefixIndex, lo, min(n, lo + Self.blockSize)))
        }
        var level = 1
        while level < levels {
            let half = 1 << (level - 1)
            for b in 0..<blocks {
                let a = Int(table[(level - 1) * blocks + b])
                var best = a
                if b + half < blocks {
                    let c = Int(table[(level - 1) * blocks + b + half])
                    if prefixIndex.rank(atSortedPosition: c) < prefixIndex.rank(atSortedPosition: a) { best = c }
                }
                table[level * blocks + b] = UInt32(best)
            }
            level += 1
        }
        self.table = table
    }

    /// The folded (canonical) key of sorted position `i`, as a string (for tests and diagnostics).
    public func key(at i: Int) -> String {
        String(decoding: prefixIndex.sortedKey(at: i), as: UTF8.self)
    }

    /// The dictionary entry at sorted position `i`.
    @inline(__always)
    public func entry(at i: Int) -> Int { prefixIndex.entry(atSortedPosition: i) }

    /// The dictionary weight of sorted position `i`.
    @inline(__always)
    func weight(at i: Int) -> Double { prefixIndex.dictionary.weights[prefixIndex.entry(atSortedPosition: i)] }

    // MARK: Ranks

    static let blockShift = 5
    static let blockSize = 1 << blockShift

    /// The position of the smallest rank in `lo..<hi` (lo < hi).
    static func scan(_ index: PrefixIndex, _ lo: Int, _ hi: Int) -> Int {
        var best = lo
        var bestRank = index.rank(atSortedPosition: lo)
        var i = lo + 1
        while i < hi {
            let r = index.rank(atSortedPosition: i)
            if r < bestRank {
                best = i
                bestRank = r
            }
            i += 1
        }
        return best
    }

    /// The position of the most popular key (the smallest rank: largest weight, then shorter key, then key order)
    /// in `range` of sorted positions (-1 when empty).
    /// - Complexity: O(1): a table lookup and at most two partial blocks of 32.
    func argmax(_ range: Range<Int>) -> Int {
        guard !range.isEmpty else { return -1 }
        let lo = range.lowerBound
        let hi = range.upperBound
        let bl = lo >> Self.blockShift
        let br = (hi - 1) >> Self.blockShift
        if bl == br { return Self.scan(prefixIndex, lo, hi) }
        var best = Self.scan(prefixIndex, lo, (bl + 1) << Self.blockShift)
        let right = Self.scan(prefixIndex, br << Self.blockShift, hi)
        if rank(right) < rank(best) { best = right }
        let first = bl + 1
        let last = br - 1
        if first <= last {
            let count = last - first + 1
            let level = Int.bitWidth - 1 - count.leadingZeroBitCount
            let a = Int(table[level * blockCount + first])
            let b = Int(table[level * blockCount + last - (1 << level) + 1])
            let m = rank(b) < rank(a) ? b : a
            if rank(m) < rank(best) { best = m }
        }
        return best
    }

    @inline(__always)
    func rank(_ i: Int) -> Int { prefixIndex.rank(atSortedPosition: i) }

    // MARK: Helpers

    /// The mask bit of keys whose original text has a camelCase hump.
    static let camelBit: UInt32 = 1 << 31

    @inline(__always)
    static func maskBit(_ b: UInt8) -> UInt32 {
        if b >= 0x61 && b <= 0x7A { return 1 << UInt32(b - 0x61) }
        if b >= 0x30 && b <= 0x39 { return 1 << 26 }
        if b < 0x80 { return TextNormalizer.isSeparator(b) ? 0 : 1 << 27 }
        if b & 0xC0 == 0x80 { return 0 }
        return 1 << (28 + UInt32(b % 3))
    }

    static let asciiLower: [UInt8] = (0..<128).map { b in
        if b >= 0x41 && b <= 0x5A { return UInt8(b + 0x20) }
        if b == 0x09 || b == 0x0A || b == 0x0B || b == 0x0C || b == 0x0D { return 0x20 }
        return UInt8(b)
    }
}
