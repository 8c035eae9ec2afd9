import SuggestCore
import Testing

@testable import SuggestIndex

struct IndexKeyTests {
    func key(_ text: String) -> String { String(decoding: IndexKey.key(text), as: UTF8.self) }

    @Test func foldsCaseAndCollapsesSeparators() {
        #expect(key("New-York!") == "new york")
        #expect(key("  django__rest//framework ") == "django rest framework")
        #expect(key("Tab\tSeparated") == "tab separated")
        #expect(key("---") == "")
    }

    @Test func foldsAccentsSharpSAndWidth() {
        #expect(key("Café") == "cafe")
        #expect(key("Straße") == "strasse")
        #expect(key("ＦＵＬＬ") == "full")
        #expect(key("東京") == "東京")
        #expect(key("🍎 Apple") == "🍎 apple")
    }

    @Test func findsWordStartsAfterSeparatorsAndCamelHumps() {
        #expect(IndexKey.keyAndWordStarts("django-rest-framework").wordStarts == [7, 12])
        #expect(IndexKey.keyAndWordStarts("djangoRestFramework").wordStarts == [6, 10])
        #expect(IndexKey.keyAndWordStarts("HTTPServer").wordStarts == [])
        #expect(IndexKey.keyAndWordStarts("ÉcoleNormale").wordStarts == [5])
        #expect(IndexKey.keyAndWordStarts("Ça vaBien").wordStarts == [3, 5])
    }

    @Test func queryKeyJoinsWordsWithOneSpace() {
        var key: [UInt8] = []
        IndexKey.query(PreparedQuery(SearchQuery(text: "  New--Yo")), into: &key)
        #expect(String(decoding: key, as: UTF8.self) == "new yo")
    }
}
