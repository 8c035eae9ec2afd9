import Testing

@testable import SuggestCore

struct TextMatcherTests {
    func match(_ query: String, _ title: String, contains: Bool = false) -> (MatchTier, [Range<Int>])? {
        TextMatcher.match(PreparedQuery(SearchQuery(text: query)), in: NormalizedText(title), allowContains: contains)
    }

    @Test func exactPrefixAndWordPrefix() {
        #expect(match("new york", "New York")?.0 == .exact)
        #expect(match("new yo", "New York")?.0 == .prefix)
        #expect(match("new yo", "New York")?.1 == [0..<3, 4..<6])
        #expect(match("york", "New York")?.0 == .wordPrefix)
        #expect(match("york", "New York")?.1 == [4..<8])
        #expect(match("rest", "django-rest-framework")?.0 == .wordPrefix)
        #expect(match("frame", "djangoRestFramework")?.0 == .wordPrefix)
    }

    @Test func earlierWordsMustBeWhole() {
        #expect(match("ne yo", "New York") == nil)
        #expect(match("new ", "Newcastle") == nil)
        #expect(match("new", "Newcastle")?.0 == .prefix)
    }

    @Test func containsOnlyWhenAsked() {
        #expect(match("ork", "New York") == nil)
        #expect(match("ork", "New York", contains: true)?.0 == .contains)
        #expect(match("ork", "New York", contains: true)?.1 == [5..<8])
    }

    @Test func matchesAcrossFoldingAndReportsOriginalRanges() {
        let result = match("cafe", "Café au lait")
        #expect(result?.0 == .prefix)
        #expect(result?.1 == [0..<5])
        #expect(match("strasse", "Straße")?.0 == .exact)
        #expect(match("東", "東京")?.0 == .prefix)
        #expect(match("", "Anything") == nil)
    }
}
