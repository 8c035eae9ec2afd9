public import SuggestCore

/// A compact, immutable prefix index over a ``WeightedDictionary``: top-k completions of a typed prefix, most
/// popular first, in time that does not grow with the number of completions.
///
/// Layout (flat arrays, no object per node):
/// - every entry's canonical key (``IndexKey``: folded, separators collapsed to one space), sorted; a prefix is a
///   contiguous run found by binary search;
/// - each entry's rank (0 = heaviest; ties by shorter key, then key order) in sorted order, with a block sparse
///   table (``RangeMinimum``) so the best entry of any run is found in O(1);
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

    /// The number of entries.
    public var count: Int { order.count }
    /// The number of inner word starts indexed for infix matches.
    public var infixCount: Int { infixPositions.count }

    /// Bytes the index uses beyond the dictionary (keys, order, ranks, tables, infix arrays).
    public var indexByteCount: Int {
        order.count * 4 + keyBytes.count + keyOffsets.count * 4 + prefixRanks.byteCount
            + infixPositions.count * 4 + infixOffsets.count * 2 + infixRanks.byteCount
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

    /// The entry id at sorted position `position`.
    public func entry(atSortedPosition position: Int) -> Int { Int(order[position]) }

    /// The popularity rank (0 = heaviest) of the entry at sorted position `position`.
    public func rank(atSortedPosition position: Int) -> Int { Int(prefixRanks.values[position]) }

    /// The sorted positions whose keys start with the canonical key `prefix`. O(log n).
    public func sortedPositions(withPrefix prefix: [UInt8]) -> Range<Int> {
        guard !prefix.isEmpty else { return 0..<count }
        let runs = PrefixRuns(index: self)
        let lo = lowerBound(runs, prefix, prefix.count, from: 0, to: count) { $0 != -1 }
        return lo..<lowerBound(runs, prefix, prefix.count, from: lo, to: count) { $0 == 1 }
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

    public var description: String {
        "\(byteCount) bytes, hash \(String(hash, radix: 16))\(lenient ? ", lenient" : "")"
    }
}
