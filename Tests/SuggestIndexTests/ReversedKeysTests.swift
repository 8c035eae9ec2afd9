import SuggestCore
import Testing

@testable import SuggestIndex

/// The reversed keys: every key of at most `maxLength` scalars, read byte by byte from its end, in the byte order of
/// the keys so read.
struct ReversedKeysTests {
    @Test func keysAreWrittenBackwardsBySortedPositionAndSorted() {
        let titles = [
            "café", "naïve", "abc", "cba", "b", "zz top", "bac", "a very long title indeed", "日本語", "abc",
        ]
        let dictionary = WeightedDictionary(
            entries: titles.enumerated().map { ($0.element, Double($0.offset + 1), nil) })
        let index = PrefixIndex(dictionary: dictionary)
        let reversed = ReversedKeys(index, maxLength: 8)
        var expected: [(key: [UInt8], position: Int)] = []
        for p in 0..<index.count {
            let key = Array(index.sortedKey(at: p))
            let text = String(decoding: key, as: UTF8.self)
            guard text.unicodeScalars.count <= 8 else { continue }
            expected.append((Array(key.reversed()), p))
        }
        expected.sort { $0.key.lexicographicallyPrecedes($1.key) || ($0.key == $1.key && $0.position < $1.position) }
        #expect(reversed.count == expected.count)
        #expect(reversed.count == titles.count - 1)
        for (p, entry) in expected.enumerated() {
            #expect(Array(reversed.key(at: p)) == entry.key)
            #expect(reversed.forwardPosition(p) == entry.position)
            // Its first byte as written: the last one read backwards.
            #expect(reversed.firstByte(p) == entry.key.last)
        }
        // A key of three-byte scalars backwards: byte by byte, each scalar's continuation bytes first.
        #expect(expected.contains { $0.key == Array(Array("日本語".utf8).reversed()) })
        // The keys are the prefix index's: a key kept takes its place (4 bytes) and its first byte.
        #expect(reversed.byteCount == 5 * reversed.count)
    }

    @Test func anEmptyIndexHasNoReversedKeys() {
        let index = PrefixIndex(dictionary: WeightedDictionary(entries: []))
        #expect(ReversedKeys(index, maxLength: 24).count == 0)
    }
}

/// Keys the packed form cannot place.
struct PackedReversedKeysTests {
    @Test func anEmptyKeyIsNotKeptAndTheOthersAreAtTheirPositions() {
        // "---" and "_" fold to empty keys, which end where the key before them does.
        let dictionary = WeightedDictionary(
            entries: [("abc", 1, nil), ("---", 2, nil), ("abd", 3, nil), ("_", 1, nil), ("b", 1, nil)])
        let index = PrefixIndex(dictionary: dictionary)
        #expect((0..<index.count).filter { index.sortedKey(at: $0).isEmpty }.count == 2)
        let reversed = ReversedKeys(index, maxLength: 24)
        #expect(reversed.count == 3)
        #expect(reversed.maxLength == 24)
        for p in 0..<reversed.count {
            let position = reversed.forwardPosition(p)
            #expect(!index.sortedKey(at: position).isEmpty)
            #expect(reversed.key(at: p) == Array(index.sortedKey(at: position).reversed()))
        }
    }

    @Test func aKeyFoundBackwardsIsAtItsForwardPosition() {
        let dictionary = WeightedDictionary(entries: ["zeta", "alpha", "beta", "alpha", "gamma"].map { ($0, 1, nil) })
        let index = PrefixIndex(dictionary: dictionary)
        let reversed = ReversedKeys(index, maxLength: 24)
        #expect(reversed.count == index.count)
        let positions = (0..<reversed.count).map { reversed.forwardPosition($0) }
        #expect(Set(positions).count == index.count)
        for p in 0..<reversed.count {
            #expect(reversed.key(at: p) == Array(index.sortedKey(at: positions[p]).reversed()))
            // Its bytes in the prefix index's key bytes are those of the key at its forward position.
            let bytes = index.withUnsafeSortedKeys { _, keyBytes in Array(keyBytes[reversed.byteRange(p)]) }
            #expect(bytes == Array(index.sortedKey(at: positions[p])))
        }
    }
}
