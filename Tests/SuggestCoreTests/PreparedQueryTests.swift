import Testing

@testable import SuggestCore

struct PreparedQueryTests {
    @Test func splitsWordsAndKnowsWhetherTheLastIsStillTyped() {
        let typing = PreparedQuery(SearchQuery(text: "  New yo"))
        #expect(typing.words.count == 2)
        #expect(Array(typing.word(0)) == Array("new".utf8))
        #expect(typing.lastWordIsPartial)
        let done = PreparedQuery(SearchQuery(text: "new york "))
        #expect(!done.lastWordIsPartial)
        #expect(Array(done.trimmed) == Array("new york".utf8))
    }

    @Test func anEmptyOrSeparatorOnlyQueryIsEmpty() {
        #expect(PreparedQuery(SearchQuery(text: "")).isEmpty)
        #expect(PreparedQuery(SearchQuery(text: " - ")).isEmpty)
    }

    @Test func truncatesLongTextAtAScalarBoundary() {
        let text = String(repeating: "é", count: 10)  // 20 UTF-8 bytes
        let prepared = PreparedQuery(SearchQuery(text: text), maximumLength: 7)
        #expect(prepared.wasTruncated)
        #expect(prepared.text == "ééé")
        #expect(!PreparedQuery(SearchQuery(text: "short"), maximumLength: 7).wasTruncated)
    }
}
