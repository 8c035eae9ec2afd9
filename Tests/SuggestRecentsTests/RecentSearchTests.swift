import Foundation
import Testing
import SuggestCore
@testable import SuggestRecents

struct RecentSearchTests {
    @Test func keyIgnoresCaseDiacriticsAndSurroundingAndRepeatedWhitespace() {
        let a = RecentSearch.key(for: SearchQuery(text: "  Café   Crème\t"))
        let b = RecentSearch.key(for: SearchQuery(text: "cafe creme"))
        #expect(a == b)
        #expect(a == "cafe creme")
        #expect(RecentSearch.key(for: "cafe-creme") != b)
    }

    @Test func keyIncludesTokensInAnyOrder() {
        let alice = SearchToken(kind: "from", value: "Alice")
        let swift = SearchToken(kind: "tag", value: "swift")
        let a = RecentSearch.key(for: SearchQuery(text: "python", tokens: [alice, swift]))
        let b = RecentSearch.key(for: SearchQuery(text: "Python", tokens: [swift, SearchToken(kind: "from", value: "alice")]))
        #expect(a == b)
        #expect(a != RecentSearch.key(for: "python"))
        #expect(a != RecentSearch.key(for: SearchQuery(text: "python", tokens: [alice])))
    }

    @Test func displayFormTrimsAndCollapsesWhitespaceButKeepsCaseAndDiacritics() {
        let query = RecentSearch.displayForm(of: SearchQuery(text: " \u{00A0}Café \n  Crème  ", scope: "Docs"))
        #expect(query.text == "Café Crème")
        #expect(query.scope == "Docs")
    }

    @Test func titleIsTheTextOrTheTokens() {
        let chicken = SearchToken(kind: "ingredient", value: "Chicken")
        let beef = SearchToken(kind: "ingredient", value: "Beef", display: "Beef 🐄")
        let date = Date()
        #expect(RecentSearch(SearchQuery(text: "soup", tokens: [chicken]), at: date).title == "soup")
        #expect(RecentSearch(SearchQuery(tokens: [chicken, beef]), at: date).title == "Chicken, Beef 🐄")
    }

    @Test func frecencyHalvesEveryHalfLife() {
        let date = Date(timeIntervalSince1970: 1_000_000)
        let search = RecentSearch(query: "x", firstUsed: date, lastUsed: date, uses: 4, score: 4)
        #expect(search.frecency(at: date, halfLife: 100) == 4)
        #expect(search.frecency(at: date.addingTimeInterval(100), halfLife: 100) == 2)
        #expect(search.frecency(at: date.addingTimeInterval(300), halfLife: 100) == 0.5)
    }
}
