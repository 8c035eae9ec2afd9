import SuggestCore
import Testing

@testable import SuggestIndex

struct PrefixIndexTests {
    let index: PrefixIndex

    init() throws { index = PrefixIndex(dictionary: try Fixture.dictionary()) }

    @Test func completesMostPopularFirst() {
        #expect(index.complete("new", infix: false) == ["news", "New York", "Newark", "new york city", "newton"])
        #expect(index.complete("NEW", limit: 2) == ["news", "New York"])
    }

    @Test func singleLetterAndEmptyQueries() {
        #expect(index.complete("n", limit: 3) == ["news", "New York", "Newark"])
        #expect(index.complete("").isEmpty)
        #expect(index.complete("  -- ").isEmpty)
        #expect(index.complete("zzz").isEmpty)
    }

    @Test func exactMatchComesFirstWithItsTier() {
        #expect(index.complete("newark", infix: false) == ["Newark"])
        #expect(index.tiers("new york") == [.exact, .prefix])
        #expect(index.complete("new york") == ["New York", "new york city"])
    }

    @Test func earlierWordsMatchWholeWords() {
        #expect(index.complete("new yo") == ["New York", "new york city"])
        #expect(index.complete("ne yo").isEmpty)
        // A trailing separator completes the last word: "new " no longer matches "news" or "Newark".
        #expect(index.complete("new ") == ["New York", "new york city"])
        #expect(index.complete("new-york c") == ["new york city"])
    }

    @Test func infixMatchesWordStartsBelowPrefixes() {
        #expect(index.complete("york") == ["New York", "new york city"])
        #expect(index.tiers("york") == [.wordPrefix, .wordPrefix])
        #expect(index.complete("york", infix: false).isEmpty)
        // "Django REST framework" and "django-rest-framework" have one key: the heavier is offered.
        #expect(index.complete("rest") == ["Django REST framework", "djangoRestFramework"])
        #expect(index.complete("Framework").contains("djangoRestFramework"))
        #expect(index.complete("apple") == ["🍎 apple"])
        #expect(index.complete("city") == ["new york city"])
    }

    @Test func prefixMatchesOutrankHeavierInfixMatches() {
        let dictionary = WeightedDictionary(entries: [
            ("django rest", 1000, nil), ("rest api", 1, nil), ("restful", 2, nil),
        ])
        let index = PrefixIndex(dictionary: dictionary)
        #expect(index.complete("rest") == ["restful", "rest api", "django rest"])
        #expect(index.tiers("rest") == [.prefix, .prefix, .wordPrefix])
        #expect(index.tiers("rest api") == [.exact])
    }

    @Test func unicodeAccentsSharpSCJKAndEmoji() {
        #expect(index.complete("cafe") == ["Café"])
        #expect(index.complete("CAFÉ") == ["Café"])
        #expect(index.complete("strasse") == ["Straße"])
        #expect(index.complete("straße") == ["Straße"])
        #expect(index.complete("東") == ["東京", "東京タワー"])
        #expect(index.complete("タワ") == [])  // no word start inside CJK text
        #expect(index.complete("🍎") == ["🍎 apple"])
    }

    @Test func tiesAreDeterministicShorterFirst() {
        let dictionary = WeightedDictionary(entries: [
            ("abcd", 5, nil), ("abc", 5, nil), ("abd", 5, nil), ("ab", 5, nil),
        ])
        let index = PrefixIndex(dictionary: dictionary)
        #expect(index.complete("a") == ["ab", "abc", "abd", "abcd"])
    }

    @Test func scopesFilterButKeepUnscopedEntries() {
        let dictionary = WeightedDictionary(entries: [
            ("python", 10, "languages"), ("pytest", 8, "tools"), ("pyramid", 6, nil), ("pytorch", 9, "tools"),
        ])
        let index = PrefixIndex(dictionary: dictionary)
        #expect(index.complete("py", scope: "tools") == ["pytorch", "pytest", "pyramid"])
        #expect(index.complete("py", scope: "languages") == ["python", "pyramid"])
        #expect(index.complete("py", scope: "unknown") == ["pyramid"])
        #expect(index.complete("py") == ["python", "pytorch", "pytest", "pyramid"])
        // A dictionary without scopes ignores the query's scope.
        #expect(self.index.complete("news", scope: "tools") == ["news"])
    }

    @Test func entriesWithOneKeyAreOfferedOnceAsTheMostPopular() {
        let dictionary = WeightedDictionary(entries: [("Apple", 3, nil), ("apple", 5, nil), ("APPLE pie", 4, nil)])
        let index = PrefixIndex(dictionary: dictionary)
        #expect(index.complete("apple") == ["apple", "APPLE pie"])
        #expect(index.tiers("apple") == [.exact, .prefix])
    }

    @Test func accentAndCaseVariantsDoNotShortenTheList() {
        // A word list holds "a" beside its accented forms: all fold to one key, so they are one completion.
        var entries: [(text: String, weight: Double, scope: String?)] = [
            ("a", 1000, nil), ("à", 90, nil), ("á", 80, nil), ("â", 70, nil), ("ä", 60, nil), ("å", 50, nil),
            ("ã", 40, nil), ("ā", 30, nil), ("A", 20, nil),
        ]
        let words = ["and", "as", "at", "about", "after", "again", "all", "also", "an", "any", "are", "away"]
        for (i, word) in words.enumerated() { entries.append((word, Double(500 - i), nil)) }
        entries.append(("And", 1, nil))
        entries.append(("ÀS", 2, nil))
        let index = PrefixIndex(dictionary: WeightedDictionary(entries: entries))
        for limit in [1, 3, 8, 10] {
            let titles = index.complete("a", limit: limit)
            #expect(titles.count == limit)
            #expect(Set(titles.map { IndexKey.key($0) }).count == limit)
            #expect(titles.first == "a")
        }
        #expect(index.complete("a", limit: 4) == ["a", "and", "as", "at"])
        // With a hidden entry (a live removal) its twin takes its place.
        var buffer = PrefixIndex.SearchBuffer()
        let hiddenA = UInt32(0)
        index.search(PreparedQuery(SearchQuery(text: "a")), limit: 2, infix: true, into: &buffer) { $0 != hiddenA }
        #expect(buffer.hits.map { index.dictionary.text(at: Int($0.entry)) } == ["à", "and"])
    }

    @Test func searchByKeyFillsTheReusedBuffer() {
        var buffer = PrefixIndex.SearchBuffer()
        index.search(Array("new".utf8), limit: 2, infix: false, into: &buffer)
        #expect(buffer.hits.map { index.dictionary.text(at: Int($0.entry)) } == ["news", "New York"])
        index.search(Array("york".utf8), limit: 5, into: &buffer)
        #expect(buffer.hits.map(\.keyOffset) == [4, 4])
        index.search([], limit: 5, into: &buffer)
        #expect(buffer.hits.isEmpty)
    }

    @Test func matchesBruteForceOnRandomDictionaries() {
        var random = SplitMix(state: 42)
        let alphabet = Array("abc -")
        for round in 0..<20 {
            var entries: [(text: String, weight: Double, scope: String?)] = []
            let scopes: [String?] = round % 2 == 0 ? [nil] : [nil, "x", "y"]
            for _ in 0..<(50 + round * 40) {
                let length = Int.random(in: 1...7, using: &random)
                // Upper-case letters fold to lower-case ones: many entries share a key.
                let text = String((0..<length).map { _ in (alphabet + ["A", "B"]).randomElement(using: &random)! })
                entries.append(
                    (text, Double(Int.random(in: 0...20, using: &random)), scopes.randomElement(using: &random)!))
            }
            let dictionary = WeightedDictionary(entries: entries)
            let index = PrefixIndex(dictionary: dictionary)
            let keys = (0..<dictionary.count).map { IndexKey.keyAndWordStarts(dictionary.text(at: $0)) }
            for _ in 0..<30 {
                let length = Int.random(in: 1...4, using: &random)
                let typed = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
                let scope = round % 2 == 0 ? nil : (["x", nil] as [String?]).randomElement(using: &random)!
                let query = PreparedQuery(SearchQuery(text: typed, scope: scope.map { SearchScope($0) }))
                guard !query.isEmpty else { continue }
                var q: [UInt8] = []
                IndexKey.query(query, into: &q)
                let whole = q + [0x20]
                let limit = Int.random(in: 1...8, using: &random)
                // Brute force: tier, then weight, then shorter key, then key bytes, then entry id.
                var expected: [(MatchTier, Int)] = []
                for (entry, (key, starts)) in keys.enumerated() {
                    if let scope, let s = dictionary.scope(at: entry), s != scope { continue }
                    var tier: MatchTier? = nil
                    if key == q {
                        tier = .exact
                    } else if key.starts(with: query.lastWordIsPartial ? q : whole) {
                        tier = .prefix
                    } else if starts.contains(where: { s in
                        let rest = key[s...]
                        return query.lastWordIsPartial
                            ? rest.starts(with: q) : (rest.elementsEqual(q) || rest.starts(with: whole))
                    }) {
                        tier = .wordPrefix
                    }
                    if let tier { expected.append((tier, entry)) }
                }
                expected.sort { a, b in
                    if a.0 != b.0 { return a.0 < b.0 }
                    let wa = dictionary.weight(at: a.1)
                    let wb = dictionary.weight(at: b.1)
                    if wa != wb { return wa > wb }
                    let ka = keys[a.1].key
                    let kb = keys[b.1].key
                    if ka.count != kb.count { return ka.count < kb.count }
                    if ka != kb { return ka.lexicographicallyPrecedes(kb) }
                    return a.1 < b.1
                }
                // One entry per key: the best of those that match (same key, same tier).
                var seen = Set<[UInt8]>()
                expected = expected.filter { seen.insert(keys[$0.1].key).inserted }
                var buffer = PrefixIndex.SearchBuffer()
                index.search(query, limit: limit, into: &buffer)
                let got = buffer.hits.map { ($0.tier, Int($0.entry)) }
                let want = Array(expected.prefix(limit))
                #expect(got.map(\.0) == want.map(\.0), "\(typed)")
                #expect(got.map(\.1) == want.map(\.1), "\(typed) in round \(round)")
            }
        }
    }
}
