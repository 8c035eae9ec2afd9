import SuggestCore
import Testing

@testable import SuggestIndex

/// The bucket tables by the first two bytes (kept from ``PrefixIndex/bucketMinimum`` entries) only narrow where a
/// binary search starts: every search answers as without them.
struct BucketTests {
    /// Keys of one byte and of many, ASCII and not (first bytes above 0x7F share one bucket), with shared prefixes,
    /// several words, and texts that fold together.
    static let dictionary: WeightedDictionary = {
        var generator = SplitMix(state: 3)
        let pieces = ["a", "ab", "b", "z", "-", "é", "ß", "ж", "日本", "🙂", "~", " ", "0", "9"]
        var entries: [(text: String, weight: Double, scope: String?)] = []
        for i in 0..<1_500 {
            var text = ""
            for _ in 0...Int(generator.next() % 6) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            entries.append((text: text, weight: Double(generator.next() % 50 + 1), scope: i % 7 == 0 ? "s" : nil))
        }
        entries += [("A", 3, nil), ("a", 9, nil), ("Ab", 2, nil), ("ÉTÉ", 4, nil), ("été", 5, nil)]
        return WeightedDictionary(entries: entries)
    }()

    static let withBuckets = PrefixIndex(dictionary: dictionary, sourceFingerprint: nil, bucketMinimum: 1)
    static let without = PrefixIndex(dictionary: dictionary, sourceFingerprint: nil, bucketMinimum: Int.max)

    @Test func theTablesAreKeptFromTheMinimumOnly() {
        #expect(Self.withBuckets.prefixBuckets.count == PrefixIndex.bucketTableCount)
        #expect(Self.withBuckets.infixBuckets.count == PrefixIndex.bucketTableCount)
        #expect(Self.without.prefixBuckets.isEmpty && Self.without.infixBuckets.isEmpty)
        #expect(Self.withBuckets.indexByteCount == Self.without.indexByteCount + 2 * 4 * PrefixIndex.bucketTableCount)
    }

    @Test func eachBucketStartsWhereItsKeysDo() {
        let index = Self.withBuckets
        for p in 0..<index.count {
            let key = Array(index.sortedKey(at: p))
            let b = PrefixIndex.bucket(key.first ?? 0, key.count >= 2 ? key[1] : 0)
            #expect(Int(index.prefixBuckets[b]) <= p && p < Int(index.prefixBuckets[b + 1]), "\(key) at \(p)")
        }
    }

    @Test(arguments: ["a", "ab", "a ", "ab z", "é", "ét", "ж", "日", "🙂", "~", "z-", "0 9", "b a", "zz", "a b é"])
    func searchesAnswerAsWithoutBuckets(text: String) {
        for limit in [1, 5, 40] {
            for (infix, everyWord) in [(false, false), (true, false), (true, true)] {
                for scope in [nil, "s"] {
                    let a = Self.withBuckets.complete(text, limit: limit, infix: infix, everyWord: everyWord, scope: scope)
                    let b = Self.without.complete(text, limit: limit, infix: infix, everyWord: everyWord, scope: scope)
                    #expect(a == b, "\(text) \(limit) \(infix) \(everyWord) \(String(describing: scope))")
                }
            }
        }
        let key = IndexKey.key(text)
        #expect(Self.withBuckets.sortedPositions(withPrefix: key) == Self.without.sortedPositions(withPrefix: key))
    }
}

/// A loaded index computes its bucket tables as the build does (in the load's structure checks, on two cores).
struct LoadedBucketTests {
    @Test func aLoadedIndexHasTheBuiltIndexsTables() throws {
        var generator = SplitMix(state: 9)
        let letters = Array("abcdefghij-".utf8)
        var entries: [(text: String, weight: Double, scope: String?)] = []
        entries.reserveCapacity(PrefixIndex.bucketMinimum + 10)
        for i in 0..<(PrefixIndex.bucketMinimum + 10) {
            var bytes: [UInt8] = []
            for _ in 0..<(2 + Int(generator.next() % 5)) { bytes.append(letters[Int(generator.next() % 11)]) }
            // Two words: an inner word start an entry.
            entries.append((text: String(decoding: bytes, as: UTF8.self) + " " + String(i), weight: 1, scope: nil))
        }
        let built = PrefixIndex(dictionary: WeightedDictionary(entries: entries))
        #expect(!built.prefixBuckets.isEmpty && !built.infixBuckets.isEmpty)
        let loaded = try built.serialized().withUnsafeBytes { try PrefixIndex(serialized: $0) }
        #expect(loaded.prefixBuckets == built.prefixBuckets)
        #expect(loaded.infixBuckets == built.infixBuckets)
        #expect(loaded.prefixBuckets == PrefixIndex.prefixBuckets(keyBytes: built.keyBytes, keyOffsets: built.keyOffsets))
    }
}
