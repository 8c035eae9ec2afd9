import SuggestPattern
import Testing

/// The Swift example of the SuggestPattern landing page (SuggestPattern.docc/SuggestPattern.md), compiled and checked.
struct ArticleExampleTests {
    @Test func theLandingPageExampleFindsTheValue() throws {
        let pattern = try PatternEngine.default.compile(#"\bfrom:(?<value>\S+)"#)
        var matches: [PatternMatch] = []
        let text = "from:alice report"
        try pattern.appendMatches(in: text, utf8Range: 0..<text.utf8.count, to: &matches)
        let value = try #require(matches.first?.value)
        #expect(text[PatternMatch.indices(of: value, in: text)] == "alice")
    }

    @Test func aFilterMatchesAnywhereWhateverTheCase() throws {
        let filter = try TextFilterPattern(#"\d{4} \d{4}"#)
        #expect(filter.matches("card 1234 5678 please"))
        #expect(!filter.matches("no digits"))
        #expect(try TextFilterPattern("secret").matches("My SECRET note"))
        #expect(throws: PatternError.self) { try TextFilterPattern("(a+)+$") }
        // The refusal says why and what to write instead, for this kind of pattern too.
        let error = try #require(throws: PatternError.self) { try TextFilterPattern("(a|aa)+") }
        #expect(error.offset == 0)
        #expect(error.message.contains("alternation whose branches can match the same text"))
        #expect(error.message.contains(#""(a|aa)+" as "a+""#))
    }
}
