public import SuggestCore

extension PrefixIndex {
    /// Builds the index over `dictionary`.
    /// - Parameters:
    ///   - dictionary: the entries to index.
    ///   - sourceFingerprint: what the dictionary file was, saved with the index so a later load can tell
    ///     whether it is stale.
    /// - Complexity: O(b) for b key bytes, in practice: radix sorts of the keys and of the inner word starts, 8 bytes
    ///   at a time (a byte that no key varies in costs nothing), and of the weights; the two key sorts run on two
    ///   cores.
    public init(dictionary: WeightedDictionary, sourceFingerprint: SourceFingerprint? = nil) {
        self.init(dictionary: dictionary, sourceFingerprint: sourceFingerprint, bucketMinimum: Self.bucketMinimum)
    }

    /// The same with ``prefixBuckets`` and ``infixBuckets`` from `bucketMinimum` entries (for the tests).
    init(dictionary: WeightedDictionary, sourceFingerprint: SourceFingerprint?, bucketMinimum: Int) {
        let n = dictionary.count
        // 1. Canonical keys by entry id, and the inner word starts: each half of the entries on its own core.
        var first = KeyPart()
        var second = KeyPart()
        let parallel = n >= Self.parallelMinimum
        if parallel {
            Parallel.run {
                first = KeyPart(dictionary, entries: 0..<(n / 2))
            } and: {
                second = KeyPart(dictionary, entries: (n / 2)..<n)
            }
        } else {
            first = KeyPart(dictionary, entries: 0..<n)
        }
        var keys = first.bytes
        keys.append(contentsOf: second.bytes)
        var keyEnds = [UInt32](unsafeUninitializedCapacity: n + 1) { buffer, count in
            buffer[0] = 0
            var i = 1
            for end in first.ends {
                buffer[i] = end
                i += 1
            }
            let base = UInt32(first.bytes.count)
            for end in second.ends {
                buffer[i] = base + end
                i += 1
            }
            count = i
        }
        var infixEntries = first.infixEntries
        infixEntries.append(contentsOf: second.infixEntries)
        var infixOffsets = first.infixOffsets
        infixOffsets.append(contentsOf: second.infixOffsets)
        first = KeyPart()
        second = KeyPart()

        // 2. Sort the entries by key (ties by entry id) and, on a second core, the inner word starts by the first
        //    8 bytes of their key suffix.
        let m = infixEntries.count
        let items = UnsafeMutableBufferPointer<RadixItem>.allocate(capacity: n)
        let scratch = UnsafeMutableBufferPointer<RadixItem>.allocate(capacity: n)
        let infixItems = UnsafeMutableBufferPointer<RadixItem>.allocate(capacity: m)
        let infixScratch = UnsafeMutableBufferPointer<RadixItem>.allocate(capacity: m)
        defer {
            items.deallocate()
            scratch.deallocate()
            infixItems.deallocate()
            infixScratch.deallocate()
        }
        var order = [UInt32](repeating: 0, count: n)
        var positionOfEntry = [UInt32](repeating: 0, count: n)
        var ranks = [UInt32](repeating: 0, count: n)
        var infixPositions = [UInt32](repeating: 0, count: m)
        var sortedInfixOffsets = [UInt16](repeating: 0, count: m)
        var infixRankValues = [UInt32](repeating: 0, count: m)
        var sortedKeys: [UInt8] = []
        var keyOffsets: [UInt32] = []
        var infixStarts: [Int] = []
        keys.withUnsafeBufferPointer { k in
            keyEnds.withUnsafeBufferPointer { e in
                infixEntries.withUnsafeBufferPointer { ie in
                    infixOffsets.withUnsafeBufferPointer { io in
                        let entryKeys = EntryKeys(bytes: k, ends: e)
                        Parallel.run(if: parallel) {
                            for entry in 0..<n {
                                items[entry] = RadixItem(
                                    key: RadixSort.head(k, Int(e[entry]), Int(e[entry + 1])), value: UInt32(entry))
                            }
                            let starts = RadixSort.bucketByTopBytes(items, scratch: scratch)
                            RadixSort.sortBuckets(
                                items, scratch: scratch, starts: starts, buckets: 0..<(starts.count - 1),
                                strings: entryKeys)
                        } and: {
                            for i in 0..<m {
                                let entry = Int(ie[i])
                                infixItems[i] = RadixItem(
                                    key: RadixSort.head(k, Int(e[entry]) + Int(io[i]), Int(e[entry + 1])),
                                    value: UInt32(i))
                            }
                            infixStarts = RadixSort.bucketByTopBytes(infixItems, scratch: infixScratch)
                        }
                        order.withUnsafeMutableBufferPointer { o in
                            positionOfEntry.withUnsafeMutableBufferPointer { pe in
                                for position in 0..<n {
                                    let entry = items[position].value
                                    o[position] = entry
                                    pe[Int(entry)] = UInt32(position)
                                }
                            }
                        }
                        (sortedKeys, keyOffsets) = Self.sortedKeys(k, e, order)

                        // 3. Ranks: heaviest first; ties by shorter key, then key order. On a second core, the
                        //    inner word starts sorted by their whole key suffix (ties by entry position, then
                        //    offset).
                        let ties = [UInt64](unsafeUninitializedCapacity: m) { buffer, count in
                            positionOfEntry.withUnsafeBufferPointer { pe in
                                for i in 0..<m { buffer[i] = UInt64(pe[Int(ie[i])]) << 16 | UInt64(io[i]) }
                            }
                            count = m
                        }
                        ties.withUnsafeBufferPointer { t in
                            let infixKeys = InfixKeys(bytes: k, ends: e, entries: ie, offsets: io, ties: t)
                            // The ranks take about a fifth of the work: the first core sorts fewer buckets.
                            let buckets = infixStarts.count - 1
                            var split = 0
                            while split < buckets && infixStarts[split] < m * 2 / 5 { split += 1 }
                            Parallel.run(if: parallel) {
                                ranks = Self.ranks(
                                    order: order, keyEnds: e, weights: dictionary.weights, scratch: items)
                                RadixSort.sortBuckets(
                                    infixItems, scratch: infixScratch, starts: infixStarts, buckets: 0..<split,
                                    strings: infixKeys)
                            } and: {
                                RadixSort.sortBuckets(
                                    infixItems, scratch: infixScratch, starts: infixStarts, buckets: split..<buckets,
                                    strings: infixKeys)
                            }
                        }
                        ranks.withUnsafeBufferPointer { r in
                            positionOfEntry.withUnsafeBufferPointer { pe in
                                for i in 0..<m {
                                    let item = Int(infixItems[i].value)
                                    let p = pe[Int(ie[item])]
                                    infixPositions[i] = p
                                    sortedInfixOffsets[i] = io[item]
                                    infixRankValues[i] = r[Int(p)]
                                }
                            }
                        }
                    }
                }
            }
        }
        keys = []
        keyEnds = []
        infixEntries = []

        self.init(
            dictionary: dictionary,
            order: order,
            keyBytes: sortedKeys,
            keyOffsets: keyOffsets,
            prefixRanks: RangeMinimum(values: ranks),
            infixPositions: infixPositions,
            infixOffsets: sortedInfixOffsets,
            infixRanks: RangeMinimum(values: infixRankValues),
            sourceFingerprint: sourceFingerprint,
            bucketMinimum: bucketMinimum
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
        sourceFingerprint: SourceFingerprint?,
        twins: [UInt64]? = nil,
        buckets: (prefix: [UInt32], infix: [UInt32])? = nil,
        bucketMinimum: Int = PrefixIndex.bucketMinimum
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
        self.twins = twins ?? Self.twinBits(keyBytes: keyBytes, keyOffsets: keyOffsets)
        prefixBuckets =
            buckets?.prefix ?? Self.prefixBuckets(keyBytes: keyBytes, keyOffsets: keyOffsets, minimum: bucketMinimum)
        infixBuckets =
            buckets?.infix
            ?? Self.infixBuckets(
                keyBytes: keyBytes, keyOffsets: keyOffsets, infixPositions: infixPositions,
                infixOffsets: infixOffsets, minimum: bucketMinimum)
    }

    /// ``prefixBuckets`` of sorted keys (empty below `minimum` keys).
    static func prefixBuckets(keyBytes: [UInt8], keyOffsets: [UInt32], minimum: Int = bucketMinimum) -> [UInt32] {
        buckets(count: keyOffsets.count - 1, minimum: minimum) { i in
            let s = Int(keyOffsets[i])
            let length = Int(keyOffsets[i + 1]) - s
            return (length >= 1 ? keyBytes[s] : 0, length >= 2 ? keyBytes[s + 1] : 0)
        }
    }

    /// ``infixBuckets`` of the inner word starts (empty below `minimum` of them).
    static func infixBuckets(
        keyBytes: [UInt8], keyOffsets: [UInt32], infixPositions: [UInt32], infixOffsets: [UInt16],
        minimum: Int = bucketMinimum
    ) -> [UInt32] {
        buckets(count: infixPositions.count, minimum: minimum) { i in
            let p = Int(infixPositions[i])
            let s = Int(keyOffsets[p]) + Int(infixOffsets[i])
            let length = Int(keyOffsets[p + 1]) - s
            return (length >= 1 ? keyBytes[s] : 0, length >= 2 ? keyBytes[s + 1] : 0)
        }
    }

    /// Below this many entries the build does not start a second thread.
    static let parallelMinimum = 16_384

    /// The keys in sorted order, back to back, and their offsets.
    static func sortedKeys(
        _ k: UnsafeBufferPointer<UInt8>, _ e: UnsafeBufferPointer<UInt32>, _ order: [UInt32]
    ) -> ([UInt8], [UInt32]) {
        let n = order.count
        let offsets = [UInt32](unsafeUninitializedCapacity: n + 1) { buffer, count in
            buffer[0] = 0
            var total: UInt32 = 0
            for position in 0..<n {
                let entry = Int(order[position])
                total += e[entry + 1] - e[entry]
                buffer[position + 1] = total
            }
            count = n + 1
        }
        let bytes = [UInt8](unsafeUninitializedCapacity: k.count) { buffer, count in
            for position in 0..<n {
                let entry = Int(order[position])
                let start = Int(e[entry])
                let length = Int(e[entry + 1]) - start
                if length > 0 {
                    UnsafeMutableRawPointer(buffer.baseAddress! + Int(offsets[position])).copyMemory(
                        from: k.baseAddress! + start, byteCount: length)
                }
            }
            count = Int(offsets[n])
        }
        return (bytes, offsets)
    }

    /// Rank by sorted position: 0 for the heaviest entry; equal weights by shorter key, then sorted position.
    /// `scratch` holds at least `order.count` items.
    static func ranks(
        order: [UInt32], keyEnds e: UnsafeBufferPointer<UInt32>, weights: [Double],
        scratch: UnsafeMutableBufferPointer<RadixItem>
    ) -> [UInt32] {
        let n = order.count
        guard n > 0 else { return [] }
        let items = UnsafeMutableBufferPointer<RadixItem>.allocate(capacity: n)
        defer { items.deallocate() }
        let spare = UnsafeMutableBufferPointer(rebasing: scratch[0..<n])
        // Stable sorts: by length first, then by weight (heaviest first), from sorted-position order.
        for position in 0..<n {
            let entry = Int(order[position])
            items[position] = RadixItem(key: UInt64(e[entry + 1] - e[entry]), value: UInt32(position))
        }
        RadixSort.sortByKey(items, scratch: spare)
        weights.withUnsafeBufferPointer { w in
            for i in 0..<n {
                items[i].key = ~RadixSort.orderedBits(w[Int(order[Int(items[i].value)])])
            }
        }
        RadixSort.sortByKey(items, scratch: spare)
        return [UInt32](unsafeUninitializedCapacity: n) { buffer, count in
            for rank in 0..<n { buffer[Int(items[rank].value)] = UInt32(rank) }
            count = n
        }
    }
}

/// The canonical keys of a range of entries, back to back, and their inner word starts.
struct KeyPart {
    var bytes: [UInt8] = []
    /// Where each entry's key ends in ``bytes``.
    var ends: [UInt32] = []
    /// Inner word starts: the entry id and the offset in its key (those beyond ``PrefixIndex/maxInnerWordOffset``
    /// are not indexed).
    var infixEntries: [UInt32] = []
    var infixOffsets: [UInt16] = []

    init() {}

    init(_ dictionary: WeightedDictionary, entries: Range<Int>) {
        let firstByte = Int(dictionary.textOffsets[entries.lowerBound])
        let lastByte = Int(dictionary.textOffsets[entries.upperBound])
        bytes.reserveCapacity(lastByte - firstByte + entries.count / 8)
        ends.reserveCapacity(entries.count)
        infixEntries.reserveCapacity(entries.count)
        infixOffsets.reserveCapacity(entries.count)
        var starts: [Int] = []
        dictionary.textBytes.withUnsafeBufferPointer { text in
            dictionary.textOffsets.withUnsafeBufferPointer { offsets in
                for entry in entries {
                    let range = Int(offsets[entry])..<Int(offsets[entry + 1])
                    starts.removeAll(keepingCapacity: true)
                    IndexKey.append(utf8: UnsafeBufferPointer(rebasing: text[range]), to: &bytes, wordStarts: &starts)
                    ends.append(UInt32(bytes.count))
                    for s in starts where s <= PrefixIndex.maxInnerWordOffset {
                        infixEntries.append(UInt32(entry))
                        infixOffsets.append(UInt16(s))
                    }
                }
            }
        }
    }
}

/// Entry keys for ``RadixSort``: entry `v`'s key is `bytes[ends[v]..<ends[v + 1]]`; equal keys by entry id.
struct EntryKeys: RadixStrings {
    let bytes: UnsafeBufferPointer<UInt8>
    let ends: UnsafeBufferPointer<UInt32>

    @inline(__always)
    func bounds(_ value: UInt32) -> (start: Int, end: Int) {
        (Int(ends[Int(value)]), Int(ends[Int(value) + 1]))
    }

    @inline(__always)
    func tieKey(_ value: UInt32) -> UInt64 { UInt64(value) }
}

/// Inner word starts for ``RadixSort``: start `v` is the suffix of entry `entries[v]`'s key from `offsets[v]`;
/// equal suffixes by `ties[v]` (the entry's sorted position, then the offset).
struct InfixKeys: RadixStrings {
    let bytes: UnsafeBufferPointer<UInt8>
    let ends: UnsafeBufferPointer<UInt32>
    let entries: UnsafeBufferPointer<UInt32>
    let offsets: UnsafeBufferPointer<UInt16>
    let ties: UnsafeBufferPointer<UInt64>

    @inline(__always)
    func bounds(_ value: UInt32) -> (start: Int, end: Int) {
        let entry = Int(entries[Int(value)])
        return (Int(ends[entry]) + Int(offsets[Int(value)]), Int(ends[entry + 1]))
    }

    @inline(__always)
    func tieKey(_ value: UInt32) -> UInt64 { ties[Int(value)] }
}
