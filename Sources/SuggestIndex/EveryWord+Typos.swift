extension EveryWord {
    /// The most typos a typo match (``typos(query:words:key:starts:lengths:)``) takes in all.
    public static let maxTypos = 2

    /// The typos one query word of `length` bytes may take: none below 4, one below 8, two from 8 (the fuzzy
    /// provider's default lengths for one and two typos).
    @inlinable
    public static func typoBudget(forLength length: Int) -> Int { length >= 8 ? 2 : (length >= 4 ? 1 : 0) }

    /// Whether every word of the query starts a different word of `key` when some may have typos ("mermaid litle" →
    /// "the little mermaid"): the typos in all (at most ``maxTypos``), or nil.
    ///
    /// A word is matched to the key word whose prefix it is closest to (optimal string alignment: a letter added,
    /// left out, replaced, or two neighbours swapped), within ``typoBudget(forLength:)``; longer query words choose
    /// first, each a key word no other took. A word with a typo keeps its first character and is ASCII and at most
    /// 32 bytes long; any other word must start its key word exactly. `starts` and `lengths`, when given, get for each
    /// query word the offset in `key` of the key word it matched and the length of the matched part.
    /// - Complexity: O(w × k × 7) for w query words and a key of k bytes; no allocation.
    @inlinable
    public static func typos<Query: RandomAccessCollection<UInt8>, Key: RandomAccessCollection<UInt8>>(
        query: Query, words: some RandomAccessCollection<Range<Int>>, key: Key,
        starts: UnsafeMutablePointer<Int>? = nil, lengths: UnsafeMutablePointer<Int>? = nil
    ) -> Int? where Query.Index == Int, Key.Index == Int {
        guard !words.isEmpty, words.count <= 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * (maxTypedLength + 1)) { rows in
            var used: UInt64 = 0
            var assigned: UInt64 = 0
            var total = 0
            for _ in 0..<words.count {
                let pick = longestUnassigned(words, assigned)
                assigned |= 1 << UInt64(pick)
                let word = words[words.index(words.startIndex, offsetBy: pick)]
                let budget = min(typoBudget(forLength: word.count), maxTypos - total)
                var best = (typos: Int.max, index: -1, offset: 0, length: 0)
                var index = 0
                var p = key.startIndex
                let end = key.endIndex
                while p < end && index < 64 {
                    var e = p
                    while e < end && key[e] != 0x20 { e += 1 }
                    if used & (1 << UInt64(index)) == 0 {
                        let allowed = best.typos == Int.max ? budget : best.typos - 1
                        if allowed >= 0,
                            let found = prefixDistance(query, word, key, p..<e, budget: allowed, rows: rows.baseAddress!)
                        {
                            best = (found.typos, index, p, found.length)
                            if found.typos == 0 { break }
                        }
                    }
                    p = e + 1
                    index += 1
                }
                guard best.index >= 0 else { return nil }
                used |= 1 << UInt64(best.index)
                total += best.typos
                starts?[pick] = best.offset - key.startIndex
                lengths?[pick] = best.length
            }
            return total
        }
    }

    /// ``typos(query:words:key:starts:lengths:)``, and whether the query's words matched the key's words in their
    /// order (each a later key word than the one before; `SuggestionCandidate/wordsOutOfOrder`).
    /// - Complexity: as ``typos(query:words:key:starts:lengths:)``; no allocation.
    @inlinable
    public static func typoMatch<Query: RandomAccessCollection<UInt8>, Key: RandomAccessCollection<UInt8>>(
        query: Query, words: some RandomAccessCollection<Range<Int>>, key: Key
    ) -> (typos: Int, inOrder: Bool)? where Query.Index == Int, Key.Index == Int {
        guard !words.isEmpty, words.count <= 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: words.count) { starts in
            guard let count = typos(query: query, words: words, key: key, starts: starts.baseAddress!) else {
                return nil
            }
            var inOrder = true
            for i in 1..<starts.count where starts[i] <= starts[i - 1] {
                inOrder = false
                break
            }
            return (count, inOrder)
        }
    }

    /// The longest query word that may have typos, in bytes.
    @usableFromInline static let maxTypedLength = 32

    /// The fewest typos between `query[word]` and a prefix of `key[keyWord]` (within `budget`), and that prefix's
    /// length (the shortest of those with the fewest typos), or nil. `rows` holds three rows of
    /// `maxTypedLength + 1` cells.
    @inlinable
    static func prefixDistance<Query: RandomAccessCollection<UInt8>, Key: RandomAccessCollection<UInt8>>(
        _ query: Query, _ word: Range<Int>, _ key: Key, _ keyWord: Range<Int>, budget: Int,
        rows: UnsafeMutablePointer<Int32>
    ) -> (typos: Int, length: Int)? where Query.Index == Int, Key.Index == Int {
        let n = word.count
        // Exact or not, the first byte is the same.
        guard n > 0, !keyWord.isEmpty, key[keyWord.lowerBound] == query[word.lowerBound] else { return nil }
        if keyWord.count >= n {
            var t = 1
            while t < n && key[keyWord.lowerBound + t] == query[word.lowerBound + t] { t += 1 }
            if t == n { return (0, n) }
        }
        guard budget > 0, n <= maxTypedLength else { return nil }
        for j in word where query[j] >= 0x80 { return nil }
        let width = maxTypedLength + 1
        // Rows i - 2, i - 1 and i in turn (i: key bytes aligned so far).
        var before = rows
        var previous = rows + width
        var current = rows + 2 * width
        for j in 0...n { previous[j] = Int32(j) }
        var best = (typos: Int.max, length: 0)
        let last = min(keyWord.count, n + budget)
        var i = 1
        while i <= last {
            let k = key[keyWord.lowerBound + i - 1]
            if k >= 0x80 { break }
            current[0] = Int32(i)
            var rowMin = current[0]
            for j in 1...n {
                let q = query[word.lowerBound + j - 1]
                var v = previous[j - 1] + (q == k ? 0 : 1)
                v = min(v, previous[j] + 1, current[j - 1] + 1)
                if i > 1 && j > 1 && q == key[keyWord.lowerBound + i - 2] && query[word.lowerBound + j - 2] == k {
                    v = min(v, before[j - 2] + 1)
                }
                current[j] = v
                rowMin = min(rowMin, v)
            }
            if Int(current[n]) < best.typos && Int(current[n]) <= budget { best = (Int(current[n]), i) }
            if Int(rowMin) > budget { break }
            let spare = before
            before = previous
            previous = current
            current = spare
            i += 1
        }
        return best.typos == Int.max ? nil : best
    }
}
