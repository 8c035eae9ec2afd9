/// The implicit trie: a node is a range of sorted positions whose keys share their first `depth` bytes.
extension FuzzyIndex {
    @inline(__always)
    func keyStart(_ i: Int) -> Int { Int(keyOffsets[i]) }

    @inline(__always)
    func keyLength(_ i: Int) -> Int { Int(keyOffsets[i + 1]) - Int(keyOffsets[i]) }

    /// Byte `depth` of sorted key `i` (the key must be longer than `depth`).
    @inline(__always)
    func byte(_ i: Int, _ depth: Int) -> UInt8 { keyBytes[Int(keyOffsets[i]) + depth] }

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

    /// The number of words of sorted key `i` (runs of non-separator bytes).
    func wordCount(_ i: Int) -> Int {
        var count = 0
        var inWord = false
        var k = keyStart(i)
        let end = Int(keyOffsets[i + 1])
        while k < end {
            let separator = TextNormalizerProxy.isSeparator(keyBytes[k])
            if !separator && !inWord { count += 1 }
            inWord = !separator
            k += 1
        }
        return count
    }

    /// The sorted positions whose keys start with `prefix` (all of them for an empty prefix).
    /// - Complexity: O(|prefix| log n).
    func prefixRange(_ prefix: some Collection<UInt8>) -> Range<Int> {
        var lo = 0
        var hi = count
        var depth = 0
        for c in prefix {
            // Skip keys that end before this byte.
            lo += endingCount(lo, hi, depth)
            // Lower bound of c at `depth` in lo..<hi.
            var a = lo
            var b = hi
            while a < b {
                let mid = (a + b) >> 1
                if byte(mid, depth) < c { a = mid + 1 } else { b = mid }
            }
            lo = a
            a = lo
            b = hi
            while a < b {
                let mid = (a + b) >> 1
                if byte(mid, depth) <= c { a = mid + 1 } else { b = mid }
            }
            hi = a
            if lo >= hi { return lo..<lo }
            depth += 1
        }
        return lo..<hi
    }
}
