import SuggestIndex
/// The implicit trie: a node is a range of sorted positions whose keys share their first `depth` bytes.
extension FuzzyIndex {
    /// The length of sorted key `i` in bytes.
    @inline(__always)
    func keyLength(_ i: Int) -> Int { prefixIndex.sortedKeyLength(at: i) }

    /// Byte `depth` of sorted key `i` (the key must be longer than `depth`).
    @inline(__always)
    func byte(_ i: Int, _ depth: Int) -> UInt8 { prefixIndex.sortedKeyByte(at: i, depth: depth) }

    /// In a node `lo..<hi` at `depth`, the number of keys that end there (they sort first).
    @inline(__always)
    func endingCount(_ lo: Int, _ hi: Int, _ depth: Int) -> Int {
        var i = lo
        while i < hi && keyLength(i) == depth { i += 1 }
        return i - lo
    }

    /// The end of the child that starts at `i` (keys `i..<end` have byte `depth` equal to `byte(i, depth)`);
    /// galloping, so small children cost little.
    @inline(__always)
    func childEnd(_ i: Int, _ hi: Int, _ depth: Int) -> Int {
        let c = byte(i, depth)
        var step = 1
        var low = i  // known to have byte c
        while low + step < hi && byte(low + step, depth) == c {
            low += step
            step &<<= 1
        }
        var high = min(low + step, hi)  // first position known or assumed to differ
        // Binary search in (low, high).
        while high - low > 1 {
            let mid = (low + high) >> 1
            if byte(mid, depth) == c { low = mid } else { high = mid }
        }
        return high
    }

    /// The number of words of sorted key `i` (canonical keys: words joined by single spaces).
    func wordCount(_ i: Int) -> Int {
        prefixIndex.withUnsafeSortedKeys { offsets, bytes in
            let start = Int(offsets[i])
            let end = Int(offsets[i + 1])
            if start == end { return 0 }
            var count = 1
            for k in start..<end where bytes[k] == 0x20 { count += 1 }
            return count
        }
    }

    /// The sorted positions whose keys start with `prefix` (all of them for an empty prefix).
    /// - Complexity: O(|prefix| log n).
    func prefixRange(_ prefix: some Collection<UInt8>) -> Range<Int> {
        prefixIndex.sortedPositions(withPrefix: Array(prefix))
    }
}
