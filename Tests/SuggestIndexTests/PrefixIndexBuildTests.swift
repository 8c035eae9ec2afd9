import SuggestCore
import Testing

@testable import SuggestIndex

/// The build (radix sorts, two cores) gives exactly the index that the definition of its order gives: keys sorted
/// by their bytes (ties by entry id); ranks by weight, heaviest first (ties by shorter key, then sorted position);
/// inner word starts by their key suffix (ties by sorted position, then offset).
struct PrefixIndexBuildTests {
    /// Texts with shared prefixes and suffixes, twins that fold to one key, camelCase, separators, accents and
    /// long keys, with many equal weights.
    static func dictionary(count: Int, seed: UInt64) -> WeightedDictionary {
        var random = SplitMix(state: seed)
        let words = [
            "py", "django", "flask", "rest", "framework", "utils", "client", "api", "test", "New", "york", "Café",
            "café", "CAFE", "straße", "über", "a", "ab", "abc", "abcdefgh", "abcdefghi", "abcdefghijklmnopq", "x",
            "json", "JSONParser", "parseJSON", "data", "science", "naïve", "東京", "ｆｕｌｌ",
        ]
        let separators = ["-", "_", " ", ".", "", "--", " - "]
        var entries: [(text: String, weight: Double, scope: String?)] = []
        for _ in 0..<count {
            let wordCount = Int(random.next() % 4) + 1
            var text = ""
            for w in 0..<wordCount {
                if w > 0 { text += separators[Int(random.next() % UInt64(separators.count))] }
                text += words[Int(random.next() % UInt64(words.count))]
            }
            let weight: Double = random.next() % 3 == 0 ? Double(random.next() % 1000) : 1
            entries.append((text, weight, nil))
        }
        return WeightedDictionary(entries: entries)
    }

    /// The index arrays by the definition, with comparison sorts.
    static func expected(_ dictionary: WeightedDictionary) -> (
        order: [UInt32], keys: [[UInt8]], ranks: [UInt32], infixPositions: [UInt32], infixOffsets: [UInt16],
        infixRanks: [UInt32]
    ) {
        let n = dictionary.count
        let keyed = (0..<n).map { IndexKey.keyAndWordStarts(dictionary.text(at: $0)) }
        let order = (0..<n).sorted { a, b in
            keyed[a].key != keyed[b].key ? keyed[a].key.lexicographicallyPrecedes(keyed[b].key) : a < b
        }
        var position = [Int](repeating: 0, count: n)
        for (p, entry) in order.enumerated() { position[entry] = p }
        let byRank = (0..<n).sorted { a, b in
            let wa = dictionary.weights[order[a]]
            let wb = dictionary.weights[order[b]]
            if wa != wb { return wa > wb }
            let la = keyed[order[a]].key.count
            let lb = keyed[order[b]].key.count
            return la != lb ? la < lb : a < b
        }
        var ranks = [UInt32](repeating: 0, count: n)
        for (rank, p) in byRank.enumerated() { ranks[p] = UInt32(rank) }
        var starts: [(position: Int, offset: Int)] = []
        for entry in 0..<n {
            for s in keyed[entry].wordStarts where s <= PrefixIndex.maxInnerWordOffset { starts.append((position[entry], s)) }
        }
        func suffix(_ s: (position: Int, offset: Int)) -> ArraySlice<UInt8> {
            keyed[order[s.position]].key[s.offset...]
        }
        starts.sort { a, b in
            let sa = suffix(a)
            let sb = suffix(b)
            if sa != sb { return sa.lexicographicallyPrecedes(sb) }
            return a.position != b.position ? a.position < b.position : a.offset < b.offset
        }
        return (
            order.map(UInt32.init), order.map { keyed[$0].key }, ranks,
            starts.map { UInt32($0.position) }, starts.map { UInt16($0.offset) },
            starts.map { ranks[$0.position] }
        )
    }

    @Test(arguments: [(0, 1), (1, 2), (7, 3), (300, 4), (5_000, 5), (40_000, 6)])
    func buildEqualsTheDefinition(count: Int, seed: UInt64) {
        let dictionary = Self.dictionary(count: count, seed: seed)
        let index = PrefixIndex(dictionary: dictionary)
        let expected = Self.expected(dictionary)
        #expect(index.order == expected.order)
        #expect((0..<index.count).map { Array(index.sortedKey(at: $0)) } == expected.keys)
        #expect(index.prefixRanks.values == expected.ranks)
        #expect(index.infixPositions == expected.infixPositions)
        #expect(index.infixOffsets == expected.infixOffsets)
        #expect(index.infixRanks.values == expected.infixRanks)
    }

    /// Keys that share 200,000 bytes: the sort goes 8 bytes deeper 25,000 times, which a sort that recursed once a
    /// level could not do on a thread's stack.
    @Test func keysThatShareLongPrefixesSort() {
        let shared = String(repeating: "a", count: 200_000)
        let entries = (0..<64).map { i in (text: shared + String(63 - i), weight: 1.0, scope: String?.none) }
        let index = PrefixIndex(dictionary: WeightedDictionary(entries: entries))
        let keys = (0..<index.count).map { Array(index.sortedKey(at: $0)) }
        #expect(keys.count == 64)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
        #expect(Array(keys[0].suffix(1)) == Array("0".utf8))
    }

    /// A long repetitive title: its inner word starts are indexed up to ``PrefixIndex/maxInnerWordOffset`` only, in
    /// the order the definition gives.
    @Test func innerWordStartsStopAtTheBound() {
        let title = String(repeating: "ab ", count: 3_000) + "cd"
        let dictionary = WeightedDictionary(entries: [(title, 1, nil), ("ab cd", 2, nil)])
        let index = PrefixIndex(dictionary: dictionary)
        let expected = Self.expected(dictionary)
        #expect(index.infixOffsets == expected.infixOffsets)
        #expect(index.infixPositions == expected.infixPositions)
        #expect(index.infixOffsets.allSatisfy { Int($0) <= PrefixIndex.maxInnerWordOffset })
        #expect(index.infixOffsets.count == PrefixIndex.maxInnerWordOffset / 3 + 1)
    }

    @Test func aSavedIndexLoadsBackEqual() throws {
        let index = PrefixIndex(dictionary: Self.dictionary(count: 40_000, seed: 11))
        let loaded = try index.serialized().withUnsafeBytes { try PrefixIndex(serialized: $0) }
        #expect(loaded.order == index.order)
        #expect(loaded.keyBytes == index.keyBytes)
        #expect(loaded.keyOffsets == index.keyOffsets)
        #expect(loaded.prefixRanks.values == index.prefixRanks.values)
        #expect(loaded.prefixRanks.table == index.prefixRanks.table)
        #expect(loaded.infixPositions == index.infixPositions)
        #expect(loaded.infixOffsets == index.infixOffsets)
        #expect(loaded.infixRanks.values == index.infixRanks.values)
        #expect(loaded.twins == index.twins)
        #expect(loaded.twins.contains { $0 != 0 })
        #expect(loaded.dictionary.textBytes == index.dictionary.textBytes)
        #expect(loaded.dictionary.weights == index.dictionary.weights)
    }

    @Test func zeroAndNegativeZeroWeightsRankAlike() {
        let dictionary = WeightedDictionary(entries: [("b", -0.0, nil), ("a", 0, nil), ("c", 2, nil), ("dd", 0, nil)])
        let index = PrefixIndex(dictionary: dictionary)
        #expect(index.prefixRanks.values == Self.expected(dictionary).ranks)
    }

    @Test func radixSortIsStableAndSkipsConstantBytes() {
        var random = SplitMix(state: 9)
        for count in [0, 1, 2, 50, 5_000] {
            let input = (0..<count).map { i in
                RadixItem(key: (random.next() % 7) << 40 | (random.next() % 3), value: UInt32(i))
            }
            var items = input
            var scratch = input
            items.withUnsafeMutableBufferPointer { it in
                scratch.withUnsafeMutableBufferPointer { RadixSort.sortByKey(it, scratch: $0) }
            }
            let expected = input.sorted { $0.key != $1.key ? $0.key < $1.key : $0.value < $1.value }
            #expect(items.map(\.key) == expected.map(\.key))
            #expect(items.map(\.value) == expected.map(\.value))
        }
    }
}
