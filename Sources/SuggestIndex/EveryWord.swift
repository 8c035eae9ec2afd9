public import SuggestCore

/// Whether every word of a query starts a word of a canonical key (folded, words separated by one space), and
/// in which order: the check behind `MatchTier.wordsInOrder` and `MatchTier.wordsAnyOrder`.
///
/// Each query word must start a different word of the key. In order: each one a later key word than the one
/// before ("dj re fr" → "django rest framework"). In any order: the query's longer words take their key words first
/// ("mermaid lit" → "the little mermaid"). Key words past the 64th are not considered.
public enum EveryWord: Sendable {
    /// The tier of `key` for the query words `words` (ranges in `query`), or nil when some word starts no
    /// key word of its own. `starts`, when given, gets for each query word the offset in `key` of the key word it
    /// starts.
    /// - Complexity: O(w × k) for w query words and a key of k bytes; no allocation (inlinable, so that other
    /// modules get a specialized copy: the generic one allocates its iterators).
    @inlinable
    public static func tier<Query: RandomAccessCollection<UInt8>, Key: RandomAccessCollection<UInt8>>(
        query: Query, words: some RandomAccessCollection<Range<Int>>, key: Key, starts: UnsafeMutablePointer<Int>? = nil
    ) -> MatchTier? where Query.Index == Int, Key.Index == Int {
        guard !words.isEmpty else { return nil }
        // In order: each word from the key word after the previous one's.
        var from = key.startIndex
        var inOrder = true
        var w = 0
        for word in words {
            guard let at = firstWord(startingWith: query[word], in: key, from: from, skipping: 0) else {
                inOrder = false
                break
            }
            starts?[w] = at.offset - key.startIndex
            from = at.offset + 1
            w += 1
        }
        if inOrder { return .wordsInOrder }
        // Any order: longer words first, each to the first key word it starts that no other took.
        var used: UInt64 = 0
        var assigned: UInt64 = 0
        let count = min(words.count, 64)
        for _ in 0..<count {
            let pick = longestUnassigned(words, assigned)
            guard pick >= 0 else { break }
            assigned |= 1 << UInt64(pick)
            let word = words[words.index(words.startIndex, offsetBy: pick)]
            guard let at = firstWord(startingWith: query[word], in: key, from: key.startIndex, skipping: used) else {
                return nil
            }
            used |= 1 << UInt64(at.index)
            starts?[pick] = at.offset - key.startIndex
        }
        return words.count <= 64 ? .wordsAnyOrder : nil
    }

    /// The first key word at or after byte `from` (a word start or not) that starts with `prefix` and whose
    /// number (0-based, counted from the key's start) is not set in `skipping`: its byte offset and number.
    @inlinable @inline(__always)
    static func firstWord<Key: RandomAccessCollection<UInt8>>(
        startingWith prefix: some Collection<UInt8>, in key: Key, from: Int, skipping: UInt64
    ) -> (offset: Int, index: Int)? where Key.Index == Int {
        var index = 0
        var p = key.startIndex
        let end = key.endIndex
        while p < end {
            // p is the start of word `index`.
            if p >= from && index < 64 && skipping & (1 << UInt64(index)) == 0 && startsWith(key, p, prefix) {
                return (p, index)
            }
            while p < end && key[p] != 0x20 { p += 1 }
            p += 1
            index += 1
        }
        return nil
    }

    /// The index of the longest of the first 64 `words` whose bit is not set in `assigned` (the first of equals),
    /// or -1 when every one is.
    @inlinable @inline(__always)
    static func longestUnassigned(_ words: some Collection<Range<Int>>, _ assigned: UInt64) -> Int {
        var pick = -1
        var pickLength = -1
        var i = 0
        for word in words {
            if i >= 64 { break }
            if assigned & (1 << UInt64(i)) == 0 && word.count > pickLength {
                pick = i
                pickLength = word.count
            }
            i += 1
        }
        return pick
    }

    @inlinable @inline(__always)
    static func startsWith<Key: RandomAccessCollection<UInt8>>(
        _ key: Key, _ at: Int, _ prefix: some Collection<UInt8>
    ) -> Bool where Key.Index == Int {
        var p = at
        for b in prefix {
            if p >= key.endIndex || key[p] != b { return false }
            p += 1
        }
        return true
    }
}
