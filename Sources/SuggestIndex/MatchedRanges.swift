public import SuggestCore

/// The UTF-8 ranges of a title that a query matched, for the prefix index's matches (``PrefixIndex/Hit``), computed
/// in arrays kept from one keystroke to the next: an ASCII title is folded byte for byte (its offsets are the folded
/// ones), so that only the returned array is new, and not even that when it equals one handed out lately. Used by
/// the providers that offer the index's matches (the prefix provider, and the fuzzy provider's every-word matches).
public struct MatchedRanges: Sendable {
    /// The ranges being computed (``issue()`` hands out an array equal to them).
    public var ranges: [Range<Int>] = []
    /// An every-word match's folded title (words joined by single spaces), where each of its bytes is in the folded
    /// title (-1 for the joining spaces), and where each query word starts in it.
    var key: [UInt8] = []
    var folded: [Int] = []
    var starts: [Int] = []
    /// The length of the part of its title word each query word matched.
    var lengths: [Int] = []
    /// Range arrays given to candidates, shared by every later candidate with equal ranges: a direct-mapped table
    /// by a hash of the ranges (empty slots hold `[]`).
    var issued: [[Range<Int>]] = []

    /// How many range arrays are kept for sharing (a power of two).
    static let issuedLimit = 64

    public init() {}

    /// An array equal to ``ranges``: one handed out before, or a new one (then kept for sharing).
    public mutating func issue() -> [Range<Int>] {
        guard !ranges.isEmpty else { return [] }
        if ranges.count == 1 && SharedRanges.isShared(ranges[0]) { return SharedRanges.one(ranges[0]) }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for range in ranges {
            hash = (hash ^ UInt64(truncatingIfNeeded: range.lowerBound)) &* 0x100_0000_01B3
            hash = (hash ^ UInt64(truncatingIfNeeded: range.upperBound)) &* 0x100_0000_01B3
        }
        let slot = Int(truncatingIfNeeded: (hash ^ (hash >> 29)) & UInt64(Self.issuedLimit - 1))
        if issued.isEmpty { issued = Array(repeating: [], count: Self.issuedLimit) }
        if issued[slot] == ranges { return issued[slot] }
        let fresh = SharedRanges.array(ranges)
        issued[slot] = fresh
        return fresh
    }

    /// The ranges of one of the prefix index's matches in its `title`: those of ``match(_:in:keyOffset:keyLength:)``
    /// for an exact, prefix or word-prefix match without typos (the query's key at `keyOffset` of the title's key),
    /// those of ``everyWord(_:in:typos:)`` for the others.
    public mutating func of(
        _ query: PreparedQuery, in title: String, tier: MatchTier, typos: Int, keyOffset: Int, keyLength: Int
    ) -> [Range<Int>] {
        tier == .wordsInOrder || tier == .wordsAnyOrder || typos > 0
            ? everyWord(query, in: title, typos: typos > 0)
            : match(query, in: title, keyOffset: keyOffset, keyLength: keyLength)
    }

    /// The ranges of an exact, prefix or word-prefix match whose query key (`keyLength` bytes: the query's words
    /// joined by one space) starts at `keyOffset` of the title's canonical key: one range per matched word.
    public mutating func match(
        _ query: PreparedQuery, in title: String, keyOffset: Int, keyLength: Int
    ) -> [Range<Int>] {
        if IndexKey.originalRanges(ofASCII: title, keyRange: keyOffset..<(keyOffset + keyLength), into: &ranges) {
            return issue()
        }
        // Folding may change lengths outside ASCII: the engine's standard matcher maps folded bytes back.
        return TextMatcher.match(query, in: NormalizedText(title))?.1 ?? []
    }

    /// The ranges of `title` that the query's words start (one per word, sorted), for an every-word match (with
    /// `typos`, one whose words may have typos: each range is the part of the title's word a query word matched).
    public mutating func everyWord(_ query: PreparedQuery, in title: String, typos: Bool = false) -> [Range<Int>] {
        // The words of the folded title joined by single spaces, and where each starts in the folded bytes.
        key.removeAll(keepingCapacity: true)
        folded.removeAll(keepingCapacity: true)
        @inline(__always) func add(_ b: UInt8, at i: Int, inWord: inout Bool) {
            if TextNormalizer.isSeparator(b) {
                inWord = false
                return
            }
            if !inWord && !key.isEmpty {
                key.append(0x20)
                folded.append(-1)
            }
            inWord = true
            key.append(b)
            folded.append(i)
        }
        var copy = title
        let isASCII = copy.withUTF8 { bytes in
            var inWord = false
            for (i, b) in bytes.enumerated() {
                if b >= 0x80 { return false }
                add(IndexKey.asciiFold(b), at: i, inWord: &inWord)
            }
            return true
        }
        var text: NormalizedText? = nil
        if !isASCII {
            let normalized = NormalizedText(title)
            key.removeAll(keepingCapacity: true)
            folded.removeAll(keepingCapacity: true)
            var inWord = false
            for (i, b) in normalized.bytes.enumerated() { add(b, at: i, inWord: &inWord) }
            text = normalized
        }
        starts.removeAll(keepingCapacity: true)
        starts.append(contentsOf: repeatElement(-1, count: query.words.count))
        lengths.removeAll(keepingCapacity: true)
        for word in query.words { lengths.append(word.count) }
        let joined = self.key
        let matched = starts.withUnsafeMutableBufferPointer { starts in
            lengths.withUnsafeMutableBufferPointer { lengths in
                typos
                    ? EveryWord.typos(
                        query: query.normalized, words: query.words, key: joined, starts: starts.baseAddress,
                        lengths: lengths.baseAddress) != nil
                    : EveryWord.tier(
                        query: query.normalized, words: query.words, key: joined, starts: starts.baseAddress) != nil
            }
        }
        guard matched else { return [] }
        ranges.removeAll(keepingCapacity: true)
        let offsets = self.folded
        for (w, start) in starts.enumerated() where start >= 0 {
            let length = lengths[w]
            guard length > 0 else { continue }
            guard start + length <= offsets.count, offsets[start] >= 0, offsets[start + length - 1] >= 0 else {
                continue
            }
            let range = offsets[start]..<(offsets[start + length - 1] + 1)
            let original = text?.originalRange(of: range) ?? range
            // Sorted by start as they come (a query has a few words).
            var slot = ranges.count
            ranges.append(original)
            while slot > 0 && ranges[slot - 1].lowerBound > original.lowerBound {
                ranges[slot] = ranges[slot - 1]
                slot -= 1
            }
            ranges[slot] = original
        }
        return issue()
    }
}
