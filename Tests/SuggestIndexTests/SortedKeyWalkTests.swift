import SuggestCore
import Testing

@testable import SuggestIndex

struct SortedKeyWalkTests {
    @Test func sortedKeysAreInByteOrderAndPrefixRangesAreContiguous() throws {
        let index = PrefixIndex(dictionary: try Fixture.dictionary())
        let keys = (0..<index.count).map { Array(index.sortedKey(at: $0)) }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
        let range = index.sortedPositions(withPrefix: Array("new".utf8))
        #expect(Set(range.map { index.dictionary.text(at: index.entry(atSortedPosition: $0)) })
            == ["New York", "new york city", "Newark", "newton", "news"])
        #expect(range.map { index.rank(atSortedPosition: $0) }.min() == 0)  // "news" is the heaviest entry
        #expect(index.sortedPositions(withPrefix: Array("zz".utf8)).isEmpty)
    }
}
