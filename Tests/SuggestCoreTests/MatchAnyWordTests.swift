import SuggestCore
import Testing

struct MatchAnyWordTests {
    func request(_ text: String, limit: Int = 8) -> SuggestionRequest {
        SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: limit)
    }

    @Test func anyWordOfASentenceFindsAName() throws {
        let match = try #require(request("lunch with ali").matchAnyWord("Alice Martin"))
        #expect(match.tier == .wordPrefix)
        #expect(match.matchedRanges == [0..<3])
        #expect(request("lunch with ali").match("Alice Martin") == nil)  // the standard rule needs every word in order
    }

    @Test func everyMatchedWordIsARange() throws {
        let match = try #require(request("martin and ali").matchAnyWord("Alice Martin"))
        #expect(match.matchedRanges == [0..<3, 6..<12])
    }

    @Test func completeWordsMustBeWholeWordsTheLastMayBeAPrefix() {
        #expect(request("ali with").matchAnyWord("Alice Martin") == nil)  // "ali" is complete: not a whole word
        #expect(request("with ali ").matchAnyWord("Alice Martin") == nil)  // ended by a space: complete too
        #expect(request("with alice ").matchAnyWord("Alice Martin")?.matchedRanges == [0..<5])
        #expect(request("lunch mar").matchAnyWord("Alice Martin")?.matchedRanges == [6..<9])
        #expect(request("lunch lice").matchAnyWord("Alice Martin") == nil)  // not at a word start
    }

    @Test func aWholeTextMatchKeepsItsStandardTier() {
        #expect(request("alice martin").matchAnyWord("Alice Martin")?.tier == .exact)
        #expect(request("alice ma").matchAnyWord("Alice Martin")?.tier == .prefix)
        #expect(request("mar").matchAnyWord("Alice Martin")?.tier == .wordPrefix)
        #expect(request("").matchAnyWord("Alice Martin") == nil)
        #expect(request("   ").matchAnyWord("Alice Martin") == nil)
    }

    @Test func foldedLikeTheStandardMatch() {
        #expect(request("dinner with zoe").matchAnyWord("Zoë Ångström")?.matchedRanges == [0..<4])
        #expect(request("call angs").matchAnyWord("Zoë Ångström")?.matchedRanges == [5..<10])
    }

    @Test func aSecondFieldMatchesWithoutRanges() throws {
        let byEmail = try #require(request("bob@corp").match("Bob Stone", alsoMatching: ["bob@corp.example"]))
        #expect(byEmail.tier == .prefix)
        #expect(byEmail.matchedRanges == [])
        #expect(byEmail.title == "Bob Stone")
        let byName = try #require(request("sto").match("Bob Stone", alsoMatching: ["bob@corp.example"]))
        #expect(byName.tier == .wordPrefix)
        #expect(byName.matchedRanges == [4..<7])
        #expect(request("alice").match("Bob Stone", alsoMatching: ["bob@corp.example"]) == nil)
        let anyWord = try #require(
            request("mail to bob@").matchAnyWord("Bob Stone", alsoMatching: ["bob@corp.example"]))
        #expect(anyWord.matchedRanges == [0..<3])  // "bob" is a whole word of the name too
        let onlyEmail = try #require(
            request("mail to corp").matchAnyWord("Bob Stone", alsoMatching: ["bob@corp.example"]))
        #expect(onlyEmail.tier == .wordPrefix)
        #expect(onlyEmail.matchedRanges == [])
    }
}
