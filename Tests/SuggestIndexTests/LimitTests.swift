import SuggestCore
import Testing

@testable import SuggestIndex

struct LimitTests {
    @Test func hugeAndZeroLimitsAreSafe() throws {
        let index = PrefixIndex(dictionary: try Fixture.dictionary())
        var buffer = PrefixIndex.SearchBuffer(capacity: Int.max)
        index.search(PreparedQuery(SearchQuery(text: "n")), limit: Int.max, into: &buffer)
        #expect(buffer.hits.count == 5)
        index.search(PreparedQuery(SearchQuery(text: "n")), limit: 0, into: &buffer)
        #expect(buffer.hits.isEmpty)
        index.search(PreparedQuery(SearchQuery(text: "n")), limit: -3, into: &buffer)
        #expect(buffer.hits.isEmpty)
    }
}
