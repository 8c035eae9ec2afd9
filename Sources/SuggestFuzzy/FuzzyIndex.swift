public import SuggestCore

/// The folded keys of a ``WeightedDictionary`` in sorted byte order: an implicit prefix trie (every trie node is a
/// range of sorted keys sharing a prefix), with a max-weight segment tree for top-k by popularity inside any range,
/// and a letter bitmask per key to skip keys quickly in the subsequence scan.
///
/// Built once per dictionary and shared by the fuzzy providers of one configuration
/// (``DictionaryCache/artifact(_:build:)`` under `"fuzzy-index:" + path`).
///
/// Memory per entry: the folded key bytes plus 4 (key offset) + 4 (entry id) + 8 (weight) + 4 (mask)
/// + 8 (segment tree) = 28 bytes.
public struct FuzzyIndex: Sendable {
    /// The dictionary the keys come from.
    public let dictionary: WeightedDictionary
    /// Folded keys in sorted order, back to back.
    let keyBytes: [UInt8]
    /// Sorted key `i` is `keyBytes[keyOffsets[i]..<keyOffsets[i + 1]]`.
    let keyOffsets: [UInt32]
    /// The dictionary entry of sorted key `i`.
    let entries: [UInt32]
    /// The weight of sorted key `i`.
    let weights: [Double]
    /// Letters (bits 0-25), digits (26), other ASCII (27), non-ASCII lead bytes (28 + b % 3) in sorted key `i`;
    /// bit 31 (``camelBit``) when the original text has a camelCase hump (an ASCII lowercase then uppercase letter).
    let masks: [UInt32]
    /// Bottom-up segment tree over `weights`: node `j` holds the position of the maximum weight of its range.
    /// Leaves are at `tree[count + i]`.
    let tree: [Int32]

    /// The number of keys (the dictionary's entry count).
    public var count: Int { entries.count }

    /// Folds and sorts the keys of `dictionary`.
    /// - Complexity: O(n log n) comparisons of folded keys.
    public init(_ dictionary: WeightedDictionary) {
        self.dictionary = dictionary
        let n = dictionary.count
        // Fold every entry into one buffer.
        var folded: [UInt8] = []
        folded.reserveCapacity(dictionary.textBytes.count + dictionary.textBytes.count / 8)
        var foldedOffsets: [UInt32] = [0]
        foldedOffsets.reserveCapacity(n + 1)
        dictionary.textBytes.withUnsafeBufferPointer { text in
            for i in 0..<n {
                let range = dictionary.textRange(at: i)
                var ascii = true
                for k in range where text[k] >= 0x80 {
                    ascii = false
                    break
                }
                if ascii {
                    for k in range { folded.append(Self.asciiLower[Int(text[k])]) }
                } else {
                    TextNormalizer.normalize(
                        String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self),
                        into: &folded
                    )
                }
                foldedOffsets.append(UInt32(folded.count))
            }
        }
        // Sort entry ids by folded key (then by entry id, for a stable order).
        var order = (0..<n).map { UInt32($0) }
        folded.withUnsafeBufferPointer { keys in
            foldedOffsets.withUnsafeBufferPointer { offsets in
                order.sort { a, b in
                    let a0 = Int(offsets[Int(a)])
                    let a1 = Int(offsets[Int(a) + 1])
                    let b0 = Int(offsets[Int(b)])
                    let b1 = Int(offsets[Int(b) + 1])
                    let c = Self.compare(keys, a0, a1, keys, b0, b1)
                    return c != 0 ? c < 0 : a < b
                }
            }
        }
        var keyBytes: [UInt8] = []
        keyBytes.reserveCapacity(folded.count)
        var keyOffsets: [UInt32] = [0]
        keyOffsets.reserveCapacity(n + 1)
        var weights: [Double] = []
        weights.reserveCapacity(n)
        var masks: [UInt32] = []
        masks.reserveCapacity(n)
        for e in order {
            let range = Int(foldedOffsets[Int(e)])..<Int(foldedOffsets[Int(e) + 1])
            var mask: UInt32 = 0
            for k in range {
                let b = folded[k]
                keyBytes.append(b)
                mask |= Self.maskBit(b)
            }
            keyOffsets.append(UInt32(keyBytes.count))
            let original = dictionary.textRange(at: Int(e))
            var k = original.lowerBound + 1
            while k < original.upperBound {
                let a = dictionary.textBytes[k - 1]
                let b = dictionary.textBytes[k]
                if a >= 0x61 && a <= 0x7A && b >= 0x41 && b <= 0x5A {
                    mask |= Self.camelBit
                    break
                }
                k += 1
            }
            weights.append(dictionary.weights[Int(e)])
            masks.append(mask)
        }
        // Segment tree of argmax positions.
        var tree = [Int32](repeating: -1, count: 2 * max(n, 1))
        for i in 0..<n { tree[n + i] = Int32(i) }
        if n > 1 {
            for j in stride(from: n - 1, through: 1, by: -1) {
                let l = tree[2 * j]
                let r = tree[2 * j + 1]
                tree[j] = Self.better(l, r, weights)
            }
        }
        self.keyBytes = keyBytes
        self.keyOffsets = keyOffsets
        self.entries = order
        self.weights = weights
        self.masks = masks
        self.tree = tree
    }

    /// The folded key of sorted position `i`, as a string (for tests and diagnostics).
    public func key(at i: Int) -> String {
        String(decoding: keyBytes[Int(keyOffsets[i])..<Int(keyOffsets[i + 1])], as: UTF8.self)
    }

    /// The dictionary entry at sorted position `i`.
    public func entry(at i: Int) -> Int { Int(entries[i]) }

    // MARK: Helpers

    @inline(__always)
    static func better(_ l: Int32, _ r: Int32, _ weights: [Double]) -> Int32 {
        if l < 0 { return r }
        if r < 0 { return l }
        // Ties: the earlier position (alphabetical).
        return weights[Int(r)] > weights[Int(l)] ? r : l
    }

    /// The position of the largest weight in `range` of sorted positions (-1 when empty).
    /// - Complexity: O(log n).
    func argmax(_ range: Range<Int>) -> Int {
        var best: Int32 = -1
        var l = range.lowerBound + count
        var r = range.upperBound + count
        tree.withUnsafeBufferPointer { t in
            weights.withUnsafeBufferPointer { w in
                while l < r {
                    if l & 1 == 1 {
                        let c = t[l]
                        if best < 0 || w[Int(c)] > w[Int(best)] || (w[Int(c)] == w[Int(best)] && c < best) { best = c }
                        l += 1
                    }
                    if r & 1 == 1 {
                        r -= 1
                        let c = t[r]
                        if best < 0 || w[Int(c)] > w[Int(best)] || (w[Int(c)] == w[Int(best)] && c < best) { best = c }
                    }
                    l >>= 1
                    r >>= 1
                }
            }
        }
        return Int(best)
    }

    static func compare(
        _ a: UnsafeBufferPointer<UInt8>, _ a0: Int, _ a1: Int,
        _ b: UnsafeBufferPointer<UInt8>, _ b0: Int, _ b1: Int
    ) -> Int {
        let la = a1 - a0
        let lb = b1 - b0
        let n = min(la, lb)
        var k = 0
        while k < n {
            let x = a[a0 + k]
            let y = b[b0 + k]
            if x != y { return x < y ? -1 : 1 }
            k += 1
        }
        return la == lb ? 0 : (la < lb ? -1 : 1)
    }

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
