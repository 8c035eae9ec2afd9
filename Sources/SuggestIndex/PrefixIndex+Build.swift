public import SuggestCore

extension PrefixIndex {
    /// Builds the index over `dictionary`.
    /// - Parameters:
    ///   - dictionary: the entries to index.
    ///   - sourceFingerprint: what the dictionary file was, saved with the index so a later load can tell
    ///     whether it is stale.
    /// - Complexity: O(n log n) for n entries (two sorts of the keys, one of the weights).
    public init(dictionary: WeightedDictionary, sourceFingerprint: SourceFingerprint? = nil) {
        let n = dictionary.count
        // 1. Canonical keys by entry id, and the inner word starts.
        var keys: [UInt8] = []
        keys.reserveCapacity(dictionary.textBytes.count + n / 8)
        var keyEnds: [UInt32] = [0]
        keyEnds.reserveCapacity(n + 1)
        var infixEntries: [UInt32] = []
        var infixOffsets: [UInt16] = []
        var starts: [Int] = []
        dictionary.textBytes.withUnsafeBufferPointer { text in
            dictionary.textOffsets.withUnsafeBufferPointer { offsets in
                for entry in 0..<n {
                    let range = Int(offsets[entry])..<Int(offsets[entry + 1])
                    starts.removeAll(keepingCapacity: true)
                    IndexKey.append(utf8: UnsafeBufferPointer(rebasing: text[range]), to: &keys, wordStarts: &starts)
                    keyEnds.append(UInt32(keys.count))
                    for s in starts where s <= Int(UInt16.max) {
                        infixEntries.append(UInt32(entry))
                        infixOffsets.append(UInt16(s))
                    }
                }
            }
        }

        // 2. Sort the entries by key (ties by entry id).
        var items = [SortItem](repeating: SortItem(head: 0, id: 0), count: n)
        keys.withUnsafeBufferPointer { k in
            keyEnds.withUnsafeBufferPointer { e in
                for entry in 0..<n {
                    items[entry] = SortItem(head: Self.head(k, Int(e[entry]), Int(e[entry + 1])), id: UInt32(entry))
                }
                items.sort { a, b in
                    if a.head != b.head { return a.head < b.head }
                    let c = Self.compare(
                        k, Int(e[Int(a.id)]), Int(e[Int(a.id) + 1]), Int(e[Int(b.id)]), Int(e[Int(b.id) + 1]), from: 8)
                    return c != 0 ? c < 0 : a.id < b.id
                }
            }
        }
        var order = [UInt32](repeating: 0, count: n)
        var positionOfEntry = [UInt32](repeating: 0, count: n)
        var sortedKeys: [UInt8] = []
        sortedKeys.reserveCapacity(keys.count)
        var keyOffsets: [UInt32] = [0]
        keyOffsets.reserveCapacity(n + 1)
        for (position, item) in items.enumerated() {
            let entry = Int(item.id)
            order[position] = item.id
            positionOfEntry[entry] = UInt32(position)
            sortedKeys.append(contentsOf: keys[Int(keyEnds[entry])..<Int(keyEnds[entry + 1])])
            keyOffsets.append(UInt32(sortedKeys.count))
        }
        items = []
        keys = []
        keyEnds = []

        // 3. Ranks: heaviest first; ties by shorter key, then key order.
        var byRank = [UInt32](unsafeUninitializedCapacity: n) { buffer, count in
            for p in 0..<n { buffer[p] = UInt32(p) }
            count = n
        }
        dictionary.weights.withUnsafeBufferPointer { w in
            order.withUnsafeBufferPointer { o in
                keyOffsets.withUnsafeBufferPointer { ko in
                    byRank.sort { a, b in
                        let wa = w[Int(o[Int(a)])]
                        let wb = w[Int(o[Int(b)])]
                        if wa != wb { return wa > wb }
                        let la = ko[Int(a) + 1] - ko[Int(a)]
                        let lb = ko[Int(b) + 1] - ko[Int(b)]
                        if la != lb { return la < lb }
                        return a < b
                    }
                }
            }
        }
        var ranks = [UInt32](repeating: 0, count: n)
        for (rank, position) in byRank.enumerated() { ranks[Int(position)] = UInt32(rank) }
        byRank = []

        // 4. Inner word starts sorted by their key suffix (ties by entry position, then offset).
        let m = infixEntries.count
        var infixItems = [SortItem](repeating: SortItem(head: 0, id: 0), count: m)
        var infixPositionsUnsorted = [UInt32](repeating: 0, count: m)
        for i in 0..<m { infixPositionsUnsorted[i] = positionOfEntry[Int(infixEntries[i])] }
        infixEntries = []
        sortedKeys.withUnsafeBufferPointer { k in
            keyOffsets.withUnsafeBufferPointer { ko in
                infixPositionsUnsorted.withUnsafeBufferPointer { ip in
                    infixOffsets.withUnsafeBufferPointer { io in
                        for i in 0..<m {
                            let p = Int(ip[i])
                            infixItems[i] = SortItem(
                                head: Self.head(k, Int(ko[p]) + Int(io[i]), Int(ko[p + 1])), id: UInt32(i))
                        }
                        infixItems.sort { a, b in
                            if a.head != b.head { return a.head < b.head }
                            let pa = Int(ip[Int(a.id)])
                            let pb = Int(ip[Int(b.id)])
                            let c = Self.compare(
                                k, Int(ko[pa]) + Int(io[Int(a.id)]), Int(ko[pa + 1]),
                                Int(ko[pb]) + Int(io[Int(b.id)]), Int(ko[pb + 1]), from: 8)
                            if c != 0 { return c < 0 }
                            if pa != pb { return pa < pb }
                            return io[Int(a.id)] < io[Int(b.id)]
                        }
                    }
                }
            }
        }
        var infixPositions = [UInt32](repeating: 0, count: m)
        var sortedInfixOffsets = [UInt16](repeating: 0, count: m)
        var infixRankValues = [UInt32](repeating: 0, count: m)
        for (i, item) in infixItems.enumerated() {
            let p = infixPositionsUnsorted[Int(item.id)]
            infixPositions[i] = p
            sortedInfixOffsets[i] = infixOffsets[Int(item.id)]
            infixRankValues[i] = ranks[Int(p)]
        }

        self.init(
            dictionary: dictionary,
            order: order,
            keyBytes: sortedKeys,
            keyOffsets: keyOffsets,
            prefixRanks: RangeMinimum(values: ranks),
            infixPositions: infixPositions,
            infixOffsets: sortedInfixOffsets,
            infixRanks: RangeMinimum(values: infixRankValues),
            sourceFingerprint: sourceFingerprint
        )
    }

    init(
        dictionary: WeightedDictionary,
        order: [UInt32],
        keyBytes: [UInt8],
        keyOffsets: [UInt32],
        prefixRanks: RangeMinimum,
        infixPositions: [UInt32],
        infixOffsets: [UInt16],
        infixRanks: RangeMinimum,
        sourceFingerprint: SourceFingerprint?
    ) {
        self.dictionary = dictionary
        self.order = order
        self.keyBytes = keyBytes
        self.keyOffsets = keyOffsets
        self.prefixRanks = prefixRanks
        self.infixPositions = infixPositions
        self.infixOffsets = infixOffsets
        self.infixRanks = infixRanks
        self.sourceFingerprint = sourceFingerprint
        var lookup: [String: UInt16] = [:]
        for (i, name) in dictionary.scopeNames.enumerated() { lookup[name] = UInt16(i + 1) }
        self.scopeLookup = lookup
        self.twins = Self.twinBits(keyBytes: keyBytes, keyOffsets: keyOffsets)
    }

    struct SortItem {
        var head: UInt64
        var id: UInt32
    }

    /// The first 8 bytes of `k[start..<end]`, big-endian, zero-padded (keys have no zero bytes).
    @inline(__always)
    static func head(_ k: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        var h: UInt64 = 0
        let stop = min(end, start + 8)
        var i = start
        while i < stop {
            h = (h << 8) | UInt64(k[i])
            i += 1
        }
        return h << (8 * UInt64(8 - (stop - start)))
    }

    /// Compares two byte ranges of `k` from `offset` on (the bytes before are known equal).
    @inline(__always)
    static func compare(
        _ k: UnsafeBufferPointer<UInt8>, _ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int, from offset: Int
    ) -> Int {
        let la = a1 - a0
        let lb = b1 - b0
        let common = min(la, lb)
        var i = offset
        while i < common {
            let x = k[a0 + i]
            let y = k[b0 + i]
            if x != y { return x < y ? -1 : 1 }
            i += 1
        }
        return la == lb ? 0 : (la < lb ? -1 : 1)
    }
}
