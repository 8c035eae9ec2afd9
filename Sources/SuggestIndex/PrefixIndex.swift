public import SuggestCore

/// A compact, immutable prefix index over a `WeightedDictionary`: top-k completions of a typed prefix, most
/// popular first, in time that does not grow with the number of completions.
///
/// Layout (flat arrays, no object per node):
/// - every entry's canonical key (``IndexKey``: folded, separators collapsed to one space), sorted; a prefix is a
///   contiguous run found by binary search;
/// - each entry's rank (0 = heaviest; ties by shorter key, then key order) in sorted order, with a block sparse
///   table (`RangeMinimum`) so the best entry of any run is found in O(1);
/// - the same for the key suffixes that start at an inner word ("york" → "new york", "rest" → "django rest
///   framework", camelCase humps), for infix (word-prefix) matches.
///
/// Top-k pops the best of a run, splits the run around it and pushes the best of both halves: O(k log k) with a
/// heap of at most k + 1 runs, whatever the run's length. ``search(_:lastWordIsPartial:limit:scope:infix:into:)``
/// fills a reused ``SearchBuffer`` and allocates nothing once the buffer has grown.
///
/// The index keeps the dictionary it was built from (sharing its arrays), can be saved to a binary file and
/// loaded back without rebuilding (``write(toFile:)``, ``init(contentsOfFile:)``).
public struct PrefixIndex: Sendable {
    /// The dictionary: texts, weights and scopes by entry id.
    public let dictionary: WeightedDictionary
    /// Sorted position → entry id.
    let order: [UInt32]
    /// Canonical keys in sorted order, back to back.
    @usableFromInline let keyBytes: [UInt8]
    /// Sorted position p's key is `keyBytes[keyOffsets[p]..<keyOffsets[p + 1]]`.
    @usableFromInline let keyOffsets: [UInt32]
    /// Ranks by sorted position.
    let prefixRanks: RangeMinimum
    /// Inner word starts, sorted by the key suffix from there: the entry's sorted position…
    let infixPositions: [UInt32]
    /// …and the offset in its key.
    let infixOffsets: [UInt16]
    /// The entry ranks of the inner word starts, in their sorted order.
    let infixRanks: RangeMinimum
    /// What the dictionary file was (size and content hash), when the index was built from a file.
    public let sourceFingerprint: SourceFingerprint?
    /// Scope name → scope index (as in ``WeightedDictionary/scopeIndices``).
    let scopeLookup: [String: UInt16]
    /// Bit p set: the key at sorted position p equals a neighbour's (entries that fold to the same text, such as
    /// "a", "à" and "A"); derived from the keys on build and load, n / 8 bytes.
    @usableFromInline let twins: [UInt64]
    /// For dictionaries of at least ``bucketMinimum`` entries, where each probe of a binary search over all keys is a
    /// cache miss: the first sorted position of each bucket of keys by their first two bytes (``bucket(_:_:)``),
    /// and the same for the inner word starts' suffixes, so that a search starts in its bucket instead of the whole
    /// range (about 8 probes fewer; the buckets' places are read in one or two lines of memory). Empty below that
    /// size. Derived from the keys on build and load: 130 KB each.
    let prefixBuckets: [UInt32]
    let infixBuckets: [UInt32]

    /// The number of entries.
    public var count: Int { order.count }
    /// The last key offset (in bytes) at which an inner word start is indexed: a word that starts further into a
    /// key is not found by infix and every-word matches (the entry still is, by its prefix). Sorting the suffixes of
    /// a long key costs up to their number times the key's length (a repetitive title of 180 KB took 15 s with
    /// every start indexed); with this bound an entry costs at most a few hundred times its own length, and the
    /// titles people search for are far shorter. Elasticsearch's completion suggester bounds its inputs the same
    /// way (`max_input_length`).
    public static let maxInnerWordOffset = 1_024

    /// The number of inner word starts indexed for infix matches.
    public var infixCount: Int { infixPositions.count }

    /// Bytes the index uses beyond the dictionary (keys, order, ranks, tables, infix arrays).
    public var indexByteCount: Int {
        order.count * 4 + keyBytes.count + keyOffsets.count * 4 + prefixRanks.byteCount
            + infixPositions.count * 4 + infixOffsets.count * 2 + infixRanks.byteCount + twins.count * 8
            + (prefixBuckets.count + infixBuckets.count) * 4
    }

    /// Bytes the dictionary uses beyond its texts (offsets, weights, scopes: 14 per entry).
    public var dictionaryByteCount: Int {
        dictionary.textOffsets.count * 4 + dictionary.weights.count * 8 + dictionary.scopeIndices.count * 2
    }

    // MARK: Walking the sorted keys (for other matchers, such as a fuzzy one, that share this index)

    /// The canonical key at sorted position `position` (0..<``count``, in byte order).
    public func sortedKey(at position: Int) -> ArraySlice<UInt8> {
        keyBytes[Int(keyOffsets[position])..<Int(keyOffsets[position + 1])]
    }

    /// The length in bytes of the key at sorted position `position`. Inlinable: the fuzzy walk calls it in its inner
    /// loop (measured: reading through ``sortedKey(at:)`` slices made the walk about twice as slow).
    @inlinable
    public func sortedKeyLength(at position: Int) -> Int {
        Int(keyOffsets[position + 1] &- keyOffsets[position])
    }

    /// Byte `depth` of the key at sorted position `position` (`depth` < ``sortedKeyLength(at:)``). Inlinable, as
    /// ``sortedKeyLength(at:)``.
    @inlinable
    public func sortedKeyByte(at position: Int, depth: Int) -> UInt8 {
        keyBytes[Int(keyOffsets[position]) &+ depth]
    }

    /// The sorted position of the most popular entry (the smallest rank) in `range` of sorted positions, or -1 when
    /// the range is empty. Other matchers walking the sorted keys (the fuzzy provider) use it for their top-k.
    /// - Complexity: O(1): a table lookup and at most two partial blocks of 32.
    public func mostPopularSortedPosition(in range: Range<Int>) -> Int {
        range.isEmpty ? -1 : prefixRanks.argmin(range.lowerBound, range.upperBound)
    }

    /// Whether another entry with the same canonical key is more popular and `visible` (the caller's filter: a
    /// scope, hidden entries), so that the entry at sorted position `position` must not be offered: a dictionary
    /// holding "a", "à", "á" and "A" offers the most popular of them once. Searches and other matchers walking the
    /// sorted keys (the fuzzy provider) skip such entries, so a list is never short of distinct completions.
    /// - Complexity: O(1) for a key no other entry shares; otherwise linear in the number of entries sharing it.
    @inlinable
    public func isShadowed(sortedPosition position: Int, visible: (Int) -> Bool) -> Bool {
        guard hasTwin(position) else { return false }
        return shadowedTwin(position, visible: visible)
    }

    /// Whether the key at sorted position `p` equals a neighbour's (see ``twins``).
    @inlinable
    func hasTwin(_ p: Int) -> Bool { Self.hasTwin(twins, p) }

    /// ``hasTwin(_:)`` on the twin bits (for callers that must not copy the index: closures).
    @inlinable @inline(__always)
    static func hasTwin(_ twins: [UInt64], _ p: Int) -> Bool { twins[p >> 6] & (1 << UInt64(p & 63)) != 0 }

    @usableFromInline
    func shadowedTwin(_ position: Int, visible: (Int) -> Bool) -> Bool {
        Self.shadowedTwin(position, ranks: prefixRanks.values, keyBytes: keyBytes, keyOffsets: keyOffsets, visible: visible)
    }

    /// ``shadowedTwin(_:visible:)`` on the index's arrays (for callers that must not copy the index: closures).
    static func shadowedTwin(
        _ position: Int, ranks: [UInt32], keyBytes: [UInt8], keyOffsets: [UInt32], visible: (Int) -> Bool
    ) -> Bool {
        let rank = ranks[position]
        var q = position - 1
        while q >= 0 && sameKey(keyBytes, keyOffsets, q, position) {
            if ranks[q] < rank && visible(q) { return true }
            q -= 1
        }
        q = position + 1
        while q < ranks.count && sameKey(keyBytes, keyOffsets, q, position) {
            if ranks[q] < rank && visible(q) { return true }
            q += 1
        }
        return false
    }

    /// Whether sorted positions `range` hold at least `count` distinct keys (entries that fold to one key count once).
    /// - Complexity: O(`count`) unless many keys in the range are shared.
    public func hasDistinctKeys(_ count: Int, in range: Range<Int>) -> Bool {
        guard range.count >= count else { return false }
        var distinct = 0
        for p in range {
            if p == range.lowerBound || !hasTwin(p) || !sameKey(p - 1, p) {
                distinct += 1
                if distinct >= count { return true }
            }
        }
        return false
    }

    /// Whether the keys at sorted positions `a` and `b` are equal.
    func sameKey(_ a: Int, _ b: Int) -> Bool { Self.sameKey(keyBytes, keyOffsets, a, b) }

    /// Whether the keys at sorted positions `a` and `b` of `keyBytes` and `keyOffsets` are equal.
    static func sameKey(_ keyBytes: [UInt8], _ keyOffsets: [UInt32], _ a: Int, _ b: Int) -> Bool {
        let sa = Int(keyOffsets[a])
        let la = Int(keyOffsets[a + 1]) - sa
        let sb = Int(keyOffsets[b])
        guard la == Int(keyOffsets[b + 1]) - sb else { return false }
        return keyBytes.withUnsafeBytes { bytesEqual($0, sa, sb, la) }
    }

    /// The twin bits of sorted keys (see ``twins``).
    static func twinBits(keyBytes: [UInt8], keyOffsets: [UInt32]) -> [UInt64] {
        let n = keyOffsets.count - 1
        var bits = [UInt64](repeating: 0, count: (max(n, 0) + 63) >> 6)
        guard n > 1 else { return bits }
        _ = bits.withUnsafeMutableBufferPointer {
            markTwins(keyBytes: keyBytes, keyOffsets: keyOffsets, pairs: 1..<n, in: $0)
        }
        return bits
    }

    /// Sets the twin bits of the neighbours (p - 1, p) for each p in `pairs` whose keys are equal: bits p - 1 and p.
    /// Returns the first p whose key comes before key p - 1 in byte order (the pairs after it are not looked at), or
    /// nil when they are sorted. The offsets must be in order and within `keyBytes`.
    @discardableResult
    static func markTwins(
        keyBytes: [UInt8], keyOffsets: [UInt32], pairs: Range<Int>, in bits: UnsafeMutableBufferPointer<UInt64>
    ) -> Int? {
        keyBytes.withUnsafeBytes { k in
            keyOffsets.withUnsafeBufferPointer { o -> Int? in
                guard !pairs.isEmpty else { return nil }
                var a0 = Int(o[pairs.lowerBound - 1])
                var a1 = Int(o[pairs.lowerBound])
                for p in pairs {
                    let b1 = Int(o[p + 1])
                    defer { a0 = a1; a1 = b1 }
                    let order = compareBytes(k, a0, a1 - a0, a1, b1 - a1)
                    if order > 0 { return p }
                    guard order == 0 else { continue }
                    bits[(p - 1) >> 6] |= 1 << UInt64((p - 1) & 63)
                    bits[p >> 6] |= 1 << UInt64(p & 63)
                }
                return nil
            }
        }
    }

    /// The byte order of the `la` bytes at `a` and the `lb` bytes at `b` (a prefix first): -1, 0 or 1. Neighbouring
    /// sorted keys mostly differ within their first 16 bytes: the first differing byte is found from two 8-byte XORs
    /// (bytes past a key's end may be read, never past `k`'s), with one well-predicted branch; longer common
    /// prefixes go on eight bytes at a time.
    @inline(__always)
    static func compareBytes(_ k: UnsafeRawBufferPointer, _ a: Int, _ la: Int, _ b: Int, _ lb: Int) -> Int {
        let length = min(la, lb)
        var i = 0
        if max(a, b) + 16 <= k.count {
            let w0 = k.loadUnaligned(fromByteOffset: a, as: UInt64.self)
                ^ k.loadUnaligned(fromByteOffset: b, as: UInt64.self)
            let w1 = k.loadUnaligned(fromByteOffset: a + 8, as: UInt64.self)
                ^ k.loadUnaligned(fromByteOffset: b + 8, as: UInt64.self)
            // The lowest set byte of the XOR in memory order: 16 when the 16 bytes are equal.
            let first = UInt64(littleEndian: w0) != 0
                ? UInt64(littleEndian: w0).trailingZeroBitCount >> 3
                : 8 + UInt64(littleEndian: w1).trailingZeroBitCount >> 3
            if first < min(length, 16) { return k[a + first] < k[b + first] ? -1 : 1 }
            i = min(length, 16)
        }
        // The rest byte by byte (the bytes are a `[UInt8]`'s).
        return RadixSort.compare(k.assumingMemoryBound(to: UInt8.self), a + i, a + la, b + i, b + lb)
    }

    /// Whether the `length` bytes at `a` and at `b` are equal, eight at a time.
    @inline(__always)
    static func bytesEqual(_ k: UnsafeRawBufferPointer, _ a: Int, _ b: Int, _ length: Int) -> Bool {
        var i = 0
        while i + 8 <= length {
            if k.loadUnaligned(fromByteOffset: a + i, as: UInt64.self)
                != k.loadUnaligned(fromByteOffset: b + i, as: UInt64.self)
            {
                return false
            }
            i += 8
        }
        while i < length {
            if k[a + i] != k[b + i] { return false }
            i += 1
        }
        return true
    }

    /// The entry id at sorted position `position`.
    public func entry(atSortedPosition position: Int) -> Int { Int(order[position]) }

    /// The popularity rank (0 = heaviest) of the entry at sorted position `position`.
    public func rank(atSortedPosition position: Int) -> Int { Int(prefixRanks.values[position]) }

    /// The sorted positions whose keys start with the canonical key `prefix`. O(log n).
    public func sortedPositions(withPrefix prefix: [UInt8]) -> Range<Int> {
        guard !prefix.isEmpty else { return 0..<count }
        let runs = PrefixRuns(index: self)
        let (from, to) = prefixSpan(prefix, prefix.count)
        let lo = lowerBound(runs, prefix, prefix.count, from: from, to: to) { $0 != -1 }
        return lo..<lowerBound(runs, prefix, prefix.count, from: lo, to: to) { $0 == 1 }
    }

    // MARK: Buckets by the first two bytes

    /// From this many entries the index keeps ``prefixBuckets`` and ``infixBuckets``.
    static let bucketMinimum = 1 << 18

    /// The bucket of a key (or suffix) whose first bytes are `b0` and `b1` (0 for a one-byte key): `b0 << 8 | b1`
    /// below 0x7F, one bucket for every key from 0x7F on. Buckets ascend with the sorted keys.
    @inline(__always)
    static func bucket(_ b0: UInt8, _ b1: UInt8) -> Int { b0 < 0x7F ? Int(b0) &<< 8 | Int(b1) : 0x7F00 }

    /// The number of places in a bucket table: each bucket's start, and the end.
    static let bucketTableCount = 0x7F02

    /// The first position of each bucket among `count` sorted keys (or suffixes) whose first two bytes
    /// `bytes(i)` gives (`b1` 0 for a one-byte key), the table empty below `minimum`: one galloping search per
    /// bucket that occurs.
    static func buckets(count: Int, minimum: Int, bytes: (Int) -> (UInt8, UInt8)) -> [UInt32] {
        guard count >= minimum, count > 0 else { return [] }
        var starts = [UInt32](repeating: 0, count: bucketTableCount)
        @inline(__always) func bucketOf(_ i: Int) -> Int {
            let (b0, b1) = bytes(i)
            return bucket(b0, b1)
        }
        var next = 0  // the first bucket whose start is not set yet
        var i = 0
        while i < count {
            let b = bucketOf(i)
            while next <= b {
                starts[next] = UInt32(i)
                next += 1
            }
            // The end of bucket b, galloping from i.
            var low = i
            var step = 1
            while low + step < count && bucketOf(low + step) == b {
                low += step
                step <<= 1
            }
            var high = min(low + step, count)
            while high - low > 1 {
                let mid = (low + high) >> 1
                if bucketOf(mid) == b { low = mid } else { high = mid }
            }
            i = high
        }
        while next < bucketTableCount {
            starts[next] = UInt32(count)
            next += 1
        }
        return starts
    }

    /// The positions among `count` of the table `starts` where a key starting with `q[0..<length]` can be: its
    /// bucket's, or all of them without a table.
    @inline(__always)
    static func span(_ starts: [UInt32], count: Int, _ q: [UInt8], _ length: Int) -> (Int, Int) {
        guard !starts.isEmpty, length >= 1 else { return (0, count) }
        let b0 = q[0]
        if b0 >= 0x7F { return (Int(starts[0x7F00]), count) }
        if length == 1 { return (Int(starts[Int(b0) &<< 8]), Int(starts[(Int(b0) &+ 1) &<< 8])) }
        let v = Int(b0) &<< 8 | Int(q[1])
        return (Int(starts[v]), Int(starts[v &+ 1]))
    }

    /// The sorted positions where a key starting with `q[0..<length]` can be.
    @inline(__always)
    func prefixSpan(_ q: [UInt8], _ length: Int) -> (Int, Int) { Self.span(prefixBuckets, count: count, q, length) }

    /// The inner word starts (0..<``infixCount``) where a suffix starting with `q[0..<length]` can be.
    @inline(__always)
    func infixSpan(_ q: [UInt8], _ length: Int) -> (Int, Int) {
        Self.span(infixBuckets, count: infixPositions.count, q, length)
    }

    /// The canonical key of entry `entry`.
    public func key(ofEntry entry: Int) -> [UInt8] {
        IndexKey.key(dictionary.text(at: entry))
    }

    /// The scope index for a scope name: nil when the dictionary has no scopes (the filter is off), 0 for an
    /// unknown name (only unscoped entries match).
    public func scopeFilter(for scope: SearchScope?) -> UInt16? {
        guard let scope, !dictionary.scopeNames.isEmpty else { return nil }
        return scopeLookup[scope.name] ?? 0
    }
}

/// What a dictionary file was when an index was built from it: its size and a hash of its bytes.
public struct SourceFingerprint: Hashable, Sendable, CustomStringConvertible {
    public var byteCount: UInt64
    public var hash: UInt64
    /// Whether the dictionary was read leniently (bad lines skipped).
    public var lenient: Bool

    public init(byteCount: UInt64, hash: UInt64, lenient: Bool) {
        self.byteCount = byteCount
        self.hash = hash
        self.lenient = lenient
    }

    /// The fingerprint of `bytes`.
    public init(bytes: UnsafeRawBufferPointer, lenient: Bool) {
        self.init(byteCount: UInt64(bytes.count), hash: Checksum.hash(bytes), lenient: lenient)
    }

    /// The fingerprint of the regular file at `path`, read through a memory map (no copy of the file), or nil when
    /// it cannot be read.
    public init?(contentsOfFile path: String, lenient: Bool) {
        guard let fingerprint = MappedFile.withContents(ofFile: path, { bytes in
            bytes.map { SourceFingerprint(bytes: $0, lenient: lenient) }
        }) else { return nil }
        self = fingerprint
    }

    public var description: String {
        "\(byteCount) bytes, hash \(String(hash, radix: 16))\(lenient ? ", lenient" : "")"
    }
}
