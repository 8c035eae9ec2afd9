import SuggestCore
import SuggestTokens
import Testing

struct TokenProviderTests {
    static let engines = PatternEngine.available

    static func provider(
        engine: PatternEngine,
        delimiters: [String] = [","],
        convertOnSpace: Bool = true
    ) throws -> TokenProvider {
        TokenProvider(
            delimiters: delimiters,
            convertOnSpace: convertOnSpace,
            rules: [
                try TokenRule(
                    kind: "from",
                    pattern: #"\bfrom:(?<value>\S+)"#,
                    display: "From: $value",
                    systemImage: "person",
                    values: ["alice", "alex", "bob"],
                    editText: "from:$value",
                    engine: engine
                ),
                try TokenRule(kind: "tag", pattern: #"#(?<value>\w+)"#, engine: engine),
                try TokenRule(kind: "unused", pattern: #"(?<kind>is|has):(?<value>\w+)"#, engine: engine),
            ],
            vocabulary: TokenVocabulary([
                "ingredient": ["Chicken", "Beef", "Sweet Potato", "Crème Brûlée", "Straße", "寿司", "Chickpea"],
                "cuisine": ["Thai"],
            ])
        )
    }

    func extract(_ text: String, _ provider: TokenProvider, tokens: [SearchToken] = [], submitting: Bool = false)
        throws -> TokenExtraction?
    {
        try provider.extractTokens(from: SearchQuery(text: text, tokens: tokens), submitting: submitting)
    }

    // MARK: Delimiters

    @Test(arguments: engines)
    func delimiterTurnsTextIntoATextToken(engine: PatternEngine) throws {
        let result = try #require(
            try extract("crème brûlée,", try Self.provider(engine: engine, convertOnSpace: false))
        )
        // Vocabulary kind when the text is an entry (matched without case and accents).
        #expect(result.tokens == [SearchToken(kind: "ingredient", value: "Crème Brûlée")])
        #expect(result.remainingText == "")
        let plain = try #require(try extract("red wine,", try Self.provider(engine: engine)))
        #expect(plain.tokens == [SearchToken(kind: "text", value: "red wine")])
        #expect(plain.tokens[0].display == "red wine")
        #expect(plain.remainingText == "")
    }

    @Test(arguments: engines)
    func unicodeTextBeforeADelimiterStaysIntact(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let cases: [(String, String)] = [
            ("crème fraîche maison,", "crème fraîche maison"), ("Größe ß,", "Größe ß"), ("🌶️🔥 hot,", "🌶️🔥 hot"),
            ("東京 ラーメン,", "東京 ラーメン"),
        ]
        for (text, value) in cases {
            let result = try #require(try extract(text, provider))
            #expect(result.tokens == [SearchToken(kind: "text", value: value)], "\(text)")
            #expect(result.remainingText == "")
        }
    }

    @Test(arguments: engines)
    func delimitersSplitPastedTextAndKeepTheRest(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine, delimiters: [",", ";"])
        let result = try #require(try extract("beef, rice ;; noodles; chick", provider))
        #expect(
            result.tokens == [
                SearchToken(kind: "ingredient", value: "Beef"), SearchToken(kind: "text", value: "rice"),
                SearchToken(kind: "text", value: "noodles"),
            ]
        )
        #expect(result.remainingText == "chick")
        // A lone delimiter is removed.
        let lone = try #require(try extract(",", provider))
        #expect(lone.tokens.isEmpty)
        #expect(lone.remainingText == "")
    }

    @Test(arguments: engines)
    func delimiterCompletesARuleMatch(engine: PatternEngine) throws {
        let result = try #require(try extract("from:alice,", try Self.provider(engine: engine)))
        #expect(result.tokens == [SearchToken(kind: "from", value: "alice")])
        #expect(result.tokens[0].display == "From: alice")
        #expect(result.tokens[0].systemImage == "person")
        #expect(result.remainingText == "")
    }

    @Test(arguments: engines)
    func multiCharacterAndNoDelimiters(engine: PatternEngine) throws {
        let and = try Self.provider(engine: engine, delimiters: [" and "])
        let result = try #require(try extract("rice and beans", and))
        #expect(result.tokens == [SearchToken(kind: "text", value: "rice")])
        #expect(result.remainingText == "beans")
        let none = try Self.provider(engine: engine, delimiters: [])
        #expect(try extract("rice, beans", none) == nil)
    }

    // MARK: Vocabulary on space

    @Test(arguments: engines)
    func vocabularyWordFollowedByASpaceBecomesAToken(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let result = try #require(try extract("spicy chicken ", provider))
        #expect(result.tokens == [SearchToken(kind: "ingredient", value: "Chicken")])
        #expect(result.remainingText == "spicy ")
        let first = try #require(try extract("CHICKEN spicy", provider))
        #expect(first.tokens == [SearchToken(kind: "ingredient", value: "Chicken")])
        #expect(first.remainingText == "spicy")
        let middle = try #require(try extract("hot thai food ", provider))
        #expect(middle.tokens == [SearchToken(kind: "cuisine", value: "Thai")])
        #expect(middle.remainingText == "hot food ")
    }

    @Test(arguments: engines)
    func vocabularyIsCaseAndDiacriticInsensitiveAndMultiWord(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let cases: [(String, SearchToken, String)] = [
            ("sweet potato ", SearchToken(kind: "ingredient", value: "Sweet Potato"), ""),
            ("baked SWEET POTATO fries", SearchToken(kind: "ingredient", value: "Sweet Potato"), "baked fries"),
            ("creme brulee ", SearchToken(kind: "ingredient", value: "Crème Brûlée"), ""),
            ("STRASSE ", SearchToken(kind: "ingredient", value: "Straße"), ""),
            ("寿司 rolls", SearchToken(kind: "ingredient", value: "寿司"), "rolls"),
        ]
        for (text, token, remaining) in cases {
            let result = try #require(try extract(text, provider), "\(text)")
            #expect(result.tokens == [token], "\(text)")
            #expect(result.remainingText == remaining, "\(text)")
        }
        // The vocabulary token keeps the entry's spelling.
        #expect(try extract("creme brulee ", provider)?.tokens.first?.value == "Crème Brûlée")
    }

    @Test(arguments: engines)
    func vocabularyNeedsAWholeWordAndASpace(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        // Still being typed: no token, but a suggestion.
        #expect(try extract("spicy chicken", provider)?.tokens == [])
        // Not a whole word.
        #expect(try extract("chickenwings ", provider)?.tokens ?? [] == [])
        #expect(try extract("xchicken ", provider)?.tokens ?? [] == [])
        // convertOnSpace off.
        let off = try Self.provider(engine: engine, convertOnSpace: false)
        #expect(try extract("spicy chicken ", off)?.tokens ?? [] == [])
    }

    // MARK: Rules

    @Test(arguments: engines)
    func ruleMatchBecomesATokenOnceComplete(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        #expect(try extract("#quick", provider) == nil)
        let done = try #require(try extract("#quick ", provider))
        #expect(done.tokens == [SearchToken(kind: "tag", value: "quick")])
        #expect(done.remainingText == "")
        let middle = try #require(try extract("pasta from:carol easy", provider))
        #expect(middle.tokens == [SearchToken(kind: "from", value: "carol")])
        #expect(middle.remainingText == "pasta easy")
        // Followed by something other than a space: still text.
        #expect(try extract("#quick!", provider) == nil)
    }

    @Test(arguments: engines)
    func submitCompletesARuleMatchAtTheEnd(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let result = try #require(try extract("pasta #quick", provider, submitting: true))
        #expect(result.tokens == [SearchToken(kind: "tag", value: "quick")])
        #expect(result.remainingText == "pasta")
        #expect(result.suggestedTokens.isEmpty)
        let vocabulary = try #require(try extract("spicy chicken", provider, submitting: true))
        #expect(vocabulary.tokens == [SearchToken(kind: "ingredient", value: "Chicken")])
        #expect(vocabulary.remainingText == "spicy")
    }

    @Test(arguments: engines)
    func kindGroupOverridesTheKind(engine: PatternEngine) throws {
        let result = try #require(try extract("is:open has:photo ", try Self.provider(engine: engine)))
        #expect(result.tokens == [SearchToken(kind: "is", value: "open"), SearchToken(kind: "has", value: "photo")])
    }

    @Test(arguments: engines)
    func tokensComeInTextOrderAfterTheQuerysOwn(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let given = SearchToken(kind: "cuisine", value: "Thai")
        let result = try #require(
            try extract("beef #quick from:bob spicy", provider, tokens: [given])
        )
        #expect(
            result.tokens == [
                given, SearchToken(kind: "ingredient", value: "Beef"), SearchToken(kind: "tag", value: "quick"),
                SearchToken(kind: "from", value: "bob"),
            ]
        )
        #expect(result.remainingText == "spicy")
        // A token already there is not added twice, its text still leaves the field.
        let again = try #require(try extract("thai ", provider, tokens: [given]))
        #expect(again.tokens == [given])
        #expect(again.remainingText == "")
    }

    @Test(arguments: engines)
    func ruleTokensWithUnicodeValues(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let result = try #require(try extract("#crème #東京 #straße #🌶️ ", provider))
        // `\w` does not match an emoji: "#🌶️" stays text.
        #expect(result.tokens.map(\.value) == ["crème", "東京", "straße"])
        // The space after it was not taken by a token, so it stays.
        #expect(result.remainingText == "#🌶️ ")
    }

    // MARK: Suggested tokens

    @Test(arguments: engines)
    func partlyTypedRuleValueSuggestsTokens(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let result = try #require(try extract("mail from:al", provider))
        #expect(
            result.suggestedTokens == [
                SearchToken(kind: "from", value: "alice"), SearchToken(kind: "from", value: "alex"),
            ]
        )
        #expect(result.suggestedTokens[0].display == "From: alice")
        #expect(result.tokens.isEmpty)
        #expect(result.remainingText == "mail from:al")
    }

    @Test(arguments: engines)
    func startOfAVocabularyWordSuggestsTokens(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let chi = try #require(try extract("spicy chi", provider))
        #expect(
            chi.suggestedTokens == [
                SearchToken(kind: "ingredient", value: "Chicken"), SearchToken(kind: "ingredient", value: "Chickpea"),
            ]
        )
        let multi = try #require(try extract("baked sweet po", provider))
        #expect(multi.suggestedTokens == [SearchToken(kind: "ingredient", value: "Sweet Potato")])
        let accents = try #require(try extract("CREME B", provider))
        // "creme b" begins Crème Brûlée; "b" alone begins Beef: the longer typed part comes first.
        #expect(
            accents.suggestedTokens == [
                SearchToken(kind: "ingredient", value: "Crème Brûlée"), SearchToken(kind: "ingredient", value: "Beef"),
            ]
        )
        #expect(try extract("xyz", provider) == nil)
    }

    @Test(arguments: engines)
    func tokenAlreadyInTheQueryIsNotSuggestedAgain(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let chicken = SearchToken(kind: "ingredient", value: "Chicken")
        let result = try #require(try extract("chi", provider, tokens: [chicken]))
        #expect(result.suggestedTokens == [SearchToken(kind: "ingredient", value: "Chickpea")])
        let alice = SearchToken(kind: "from", value: "alice")
        let from = try #require(try extract("from:al", provider, tokens: [alice]))
        #expect(from.suggestedTokens == [SearchToken(kind: "from", value: "alex")])
    }

    @Test(arguments: engines)
    func suggestOffersTokenCompletions(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        var output = ProviderOutput()
        try provider.suggest(
            SuggestionRequest(query: PreparedQuery(SearchQuery(text: "from:al")), limit: 8),
            into: &output
        )
        #expect(
            output.candidates.map(\.completion) == [
                .token(SearchToken(kind: "from", value: "alice")), .token(SearchToken(kind: "from", value: "alex")),
            ]
        )
        #expect(output.candidates[0].title == "From: alice")
        // "From: " is 6 bytes; "al" is matched.
        #expect(output.candidates[0].matchedRanges == [6..<8])
        #expect(output.candidates[0].tier == .prefix)

        output = ProviderOutput()
        try provider.suggest(
            SuggestionRequest(query: PreparedQuery(SearchQuery(text: "creme")), limit: 8),
            into: &output
        )
        #expect(output.candidates.map(\.title) == ["Crème Brûlée"])
        #expect(output.candidates[0].matchedRanges == [0..<6])

        output = ProviderOutput()
        try provider.suggest(
            SuggestionRequest(query: PreparedQuery(SearchQuery(text: "beef")), limit: 8),
            into: &output
        )
        #expect(output.candidates.map(\.tier) == [.exact])
    }

    // MARK: In the engine

    /// Records what the engine passes on after token extraction.
    final class Recorder: SuggestionProvider, @unchecked Sendable {
        // Tests run the engine on one thread at a time.
        let id = "recorder"
        var seen: [(String, [SearchToken])] = []
        func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
            seen.append((request.query.text, request.tokens))
            // A provider may filter by the tokens.
            if !request.tokens.contains(where: { $0.kind == "ingredient" }) {
                output.append(SuggestionCandidate(title: "spicy noodles", tier: .prefix))
            }
        }
    }

    @Test(arguments: engines)
    func engineUsesTheExtractionAndPassesTokensOn(engine: PatternEngine) throws {
        let recorder = Recorder()
        let suggestionEngine = SuggestionEngine(providers: [try Self.provider(engine: engine), recorder])
        let result = suggestionEngine.suggestions(for: "spicy chicken ")
        #expect(result.tokens == [SearchToken(kind: "ingredient", value: "Chicken")])
        #expect(result.remainingText == "spicy ")
        #expect(recorder.seen.last?.0 == "spicy ")
        #expect(recorder.seen.last?.1 == [SearchToken(kind: "ingredient", value: "Chicken")])
        #expect(result.suggestions.isEmpty)

        let typing = suggestionEngine.suggestions(for: "from:al")
        #expect(typing.suggestedTokens.map(\.value) == ["alice", "alex"])
        // The engine ranks them (same tier: shorter first).
        #expect(typing.suggestions.compactMap(\.completion.token).map(\.value) == ["alex", "alice"])

        let submitted = suggestionEngine.submit(SearchQuery(text: "pasta #quick"))
        #expect(submitted.tokens == [SearchToken(kind: "tag", value: "quick")])
        #expect(submitted.text == "pasta")
    }

    @Test(arguments: engines)
    func theNextWordTypedAfterATokenTakenFromTheEndStaysAWordOfItsOwn(engine: PatternEngine) throws {
        let recorder = Recorder()
        let suggestionEngine = SuggestionEngine(providers: [try Self.provider(engine: engine), recorder])
        // What a field does: put the remaining text back, then the person types on.
        let typed = suggestionEngine.suggestions(for: "pyth chicken ")
        #expect(typed.remainingText == "pyth ")
        let next = suggestionEngine.suggestions(
            for: SearchQuery(text: typed.remainingText + "cre", tokens: typed.tokens))
        #expect(next.remainingText == "pyth cre")
        #expect(recorder.seen.last?.0 == "pyth cre")
        // A rule token too; several spaces leave one; a token alone leaves nothing; a token first leaves the rest.
        #expect(suggestionEngine.suggestions(for: "pyth #quick ").remainingText == "pyth ")
        #expect(suggestionEngine.suggestions(for: "pyth   chicken ").remainingText == "pyth ")
        #expect(suggestionEngine.suggestions(for: "chicken ").remainingText == "")
        #expect(suggestionEngine.suggestions(for: "chicken pyth").remainingText == "pyth")
        // A submitted text is trimmed.
        #expect(suggestionEngine.submit(SearchQuery(text: "pyth chicken ")).text == "pyth")
    }

    // MARK: Long texts (extraction is linear in the text: a 1 MB submit is not quadratic work)

    @Test(arguments: engines) func aLongPastedTextBecomesTokensInOnePass(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let text = String(repeating: "a, ", count: 87_382)  // 256 KB
        let extraction = try #require(try extract(text, provider, submitting: true))
        #expect(extraction.tokens == [SearchToken(kind: "text", value: "a")])
        #expect(extraction.remainingText == "")
    }

    @Test(arguments: engines) func thousandsOfTokensComeOnceEachInTextOrder(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let words = (0..<8_000).map { "w\($0)" }
        let delimited = try #require(try extract(words.joined(separator: ", ") + ", w0, ", provider))
        #expect(delimited.tokens == words.map { SearchToken(kind: "text", value: $0) })
        let tags = try #require(try extract(words.map { "#\($0)" }.joined(separator: " ") + " #w1 rest", provider))
        #expect(tags.tokens == words.map { SearchToken(kind: "tag", value: $0) })
        #expect(tags.remainingText == "rest")
    }

    @Test(arguments: engines) func aLaterRuleSkipsWhatAnEarlierOneTookAndFillsTheGaps(engine: PatternEngine) throws {
        let provider = try Self.provider(engine: engine)
        let extraction = try #require(try extract("from:#a #b from:c x", provider))
        #expect(
            extraction.tokens.map(\.description) == [
                SearchToken(kind: "from", value: "#a"), SearchToken(kind: "tag", value: "b"),
                SearchToken(kind: "from", value: "c"),
            ].map(\.description)
        )
        #expect(extraction.remainingText == "x")
    }
}
