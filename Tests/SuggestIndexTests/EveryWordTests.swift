import SuggestCore
import Testing

@testable import SuggestIndex

struct EveryWordTests {
    let index: PrefixIndex

    init() throws { index = PrefixIndex(dictionary: try Fixture.dictionary()) }

    @Test func everyTypedWordMayBeAPrefixInOrder() {
        // "ne yo" starts no entry as one run, but each word starts a word of "New York".
        #expect(index.complete("ne yo").isEmpty)
        #expect(index.complete("ne yo", everyWord: true) == ["New York", "new york city"])
        #expect(index.tiers("ne yo", everyWord: true) == [.wordsInOrder, .wordsInOrder])
        // First letters of each word.
        #expect(index.complete("dj re fr", everyWord: true).count == 1)
        #expect(index.tiers("dj re fr", everyWord: true) == [.wordsInOrder])
    }

    @Test func wordsInAnotherOrderRankBelowWordsInOrder() {
        #expect(index.complete("york new", everyWord: true) == ["New York", "new york city"])
        #expect(index.tiers("york new", everyWord: true) == [.wordsAnyOrder, .wordsAnyOrder])
        #expect(index.complete("city new", everyWord: true) == ["new york city"])
        #expect(index.tiers("ne ci", everyWord: true) == [.wordsInOrder])
        #expect(index.tiers("ci ne yo", everyWord: true) == [.wordsAnyOrder])
        // In order before any order: "yo ne" starts "new york" in another order, "new york city" too, but
        // "ne yo ci" is in order for "new york city" only.
        #expect(index.complete("ne yo ci", everyWord: true) == ["new york city"])
    }

    @Test func eachWordNeedsAWordOfItsOwn() {
        // Two query words cannot both use "york".
        #expect(index.complete("yo yo", everyWord: true).isEmpty)
        #expect(index.complete("new new", everyWord: true).isEmpty)
        // A word that starts no word of the entry rules it out.
        #expect(index.complete("new zz", everyWord: true).isEmpty)
    }

    @Test func afterTheWordsAsTypedAndOnlyWhileTheyDoNotFillTheList() {
        // "new york" is an exact and a prefix match, and no other entry has both words.
        #expect(index.complete("new york", everyWord: true) == ["New York", "new york city"])
        #expect(index.tiers("new york", everyWord: true) == [.exact, .prefix])
        // A single word is never an every-word match.
        #expect(index.tiers("yo", everyWord: true) == [.wordPrefix, .wordPrefix])
        // "shirt t" starts "shirt tail" as typed; "t-shirt" has both words in another order: offered after it, as
        // long as the words as typed do not fill the list (half of it here, with a limit of 2).
        let shirts = PrefixIndex(
            dictionary: WeightedDictionary(entries: [
                (text: "t-shirt", weight: 900, scope: nil),
                (text: "shirt tail", weight: 20, scope: nil),
                (text: "sweatshirt", weight: 300, scope: nil),
            ]))
        #expect(shirts.complete("shirt t", everyWord: true) == ["shirt tail", "t-shirt"])
        #expect(shirts.tiers("shirt t", everyWord: true) == [.prefix, .wordsAnyOrder])
        #expect(shirts.complete("shirt t", limit: 3, everyWord: true) == ["shirt tail", "t-shirt"])
        #expect(shirts.complete("shirt t", limit: 2, everyWord: true) == ["shirt tail", "t-shirt"])
        #expect(shirts.complete("shirt t", limit: 1, everyWord: true) == ["shirt tail"])
        #expect(shirts.complete("shirt t", everyWord: false) == ["shirt tail"])
    }

    @Test func aMatchBehindManyMorePopularKeysOfTheRarestWordIsFoundThroughTheInnerWords() {
        // "e" starts fewer keys than "g", but 300 of them are more popular than "e.g", past the step's patience;
        // "g" is an inner word of one key only.
        func name(_ first: Character, _ i: Int) -> String {
            let letters = Array("abcdefghijklmnopqrstuvwxyz")
            return String(first) + String(letters[i / 26 % 26]) + String(letters[i % 26])
        }
        var entries: [(text: String, weight: Double, scope: String?)] = []
        for i in 0..<300 { entries.append((text: name("e", i), weight: Double(1_000 + i), scope: nil)) }
        for i in 0..<400 { entries.append((text: name("g", i), weight: Double(1_000 + i), scope: nil)) }
        entries.append((text: "e.g", weight: 10, scope: nil))
        let index = PrefixIndex(dictionary: WeightedDictionary(entries: entries))
        #expect(index.complete("g e", everyWord: true) == ["e.g"])
        #expect(index.tiers("g e", everyWord: true) == [.wordsAnyOrder])
        #expect(index.complete("g ea", everyWord: true).isEmpty)
    }

    @Test func aTypoMatchBehindManyMorePopularKeysOfTheRarestWordIsFound() {
        // "compue" starts no word: only typo matches are possible. 30 keys with "cloud" and "google" but no other
        // word starting with "c" are more popular than "google cloud compute": they cannot match, and the walk
        // looks past them.
        var entries: [(text: String, weight: Double, scope: String?)] = []
        let letters = Array("abdefghijklmnopqrstuvwxyz")
        for i in 0..<30 {
            let word = String(letters[i % letters.count]) + "x" + String(letters[i / letters.count])
            entries.append((text: "google cloud \(word)", weight: Double(1_000 + i), scope: nil))
        }
        entries.append((text: "google cloud compute", weight: 10, scope: nil))
        let index = PrefixIndex(dictionary: WeightedDictionary(entries: entries))
        #expect(index.complete("cloud google compue", everyWord: true) == ["google cloud compute"])
        #expect(index.tiers("cloud google compue", everyWord: true) == [.typos(1)])
    }

    @Test func offByDefaultInTheIndexAndWithoutInfix() {
        #expect(index.complete("york new").isEmpty)
        #expect(index.complete("york new", infix: false, everyWord: true).isEmpty)
    }

    /// The bytes of `query` and its words (split at spaces), as the index gives them to `EveryWord`.
    static func words(_ query: String) -> ([UInt8], [Range<Int>]) {
        let q = Array(query.utf8)
        var words: [Range<Int>] = []
        var start = 0
        for i in 0...q.count where i == q.count || q[i] == 0x20 {
            if i > start { words.append(start..<i) }
            start = i + 1
        }
        return (q, words)
    }

    @Test func theCheckItself() {
        func tier(_ query: String, _ key: String) -> MatchTier? {
            let (q, words) = Self.words(query)
            return EveryWord.tier(query: q, words: words, key: Array(key.utf8))
        }
        #expect(tier("dj re fr", "django rest framework") == .wordsInOrder)
        #expect(tier("fr dj", "django rest framework") == .wordsAnyOrder)
        #expect(tier("re res", "rest response") == .wordsInOrder)
        // Longer words choose first: "res" must not take "rest" from "rest".
        #expect(tier("rest re", "response rest") == .wordsAnyOrder)
        #expect(tier("a ab", "ab a") == .wordsAnyOrder)
        #expect(tier("ab ab", "ab") == nil)
        #expect(tier("x", "ab") == nil)
    }
}

/// Every-word matches whose words may have typos.
struct EveryWordTypoTests {
    static func typos(_ query: String, _ key: String) -> (typos: Int, spans: [Range<Int>])? {
        let (q, words) = EveryWordTests.words(query)
        var starts = [Int](repeating: -1, count: words.count)
        var lengths = [Int](repeating: 0, count: words.count)
        let found = starts.withUnsafeMutableBufferPointer { s in
            lengths.withUnsafeMutableBufferPointer { l in
                EveryWord.typos(
                    query: q, words: words, key: Array(key.utf8), starts: s.baseAddress, lengths: l.baseAddress)
            }
        }
        return found.map { ($0, zip(starts, lengths).map { $0..<($0 + $1) }) }
    }

    @Test func eachWordMayTakeTheTyposItsLengthAllows() throws {
        let little = try #require(Self.typos("mermaid litle", "the little mermaid"))
        #expect(little.typos == 1)
        // "mermaid" matched "mermaid" (offset 11), "litle" the whole of "little" ("littl" takes two typos).
        #expect(little.spans == [11..<18, 4..<10])
        #expect(Self.typos("framwork djan", "django rest framework")?.typos == 1)
        #expect(Self.typos("djnago rest", "django rest framework")?.typos == 1)
        // Two typos in all at most, two per word from 8 letters, one from 4, none below.
        #expect(Self.typos("framewrok resst", "django rest framework")?.typos == 2)
        #expect(Self.typos("framewrok resst djnago", "django rest framework") == nil)
        #expect(Self.typos("rset framework", "django rest framework")?.typos == 1)
        #expect(Self.typos("rst framework", "django rest framework") == nil)
        #expect(Self.typos("rest fraemwrok", "django rest framework")?.typos == 2)
        // The first character stays.
        #expect(Self.typos("mermaid kittle", "the little mermaid") == nil)
        // Without typos it is a match with none.
        #expect(Self.typos("mermaid lit", "the little mermaid")?.typos == 0)
        // Each word its own key word.
        #expect(Self.typos("litle litle", "little") == nil)
    }

    @Test func aTypoMatchTellsWhetherItsWordsAreInTheTypedOrder() throws {
        func match(_ query: String, _ key: String) -> (typos: Int, inOrder: Bool)? {
            let (q, words) = EveryWordTests.words(query)
            return EveryWord.typoMatch(query: q, words: words, key: Array(key.utf8))
        }
        #expect(try #require(match("litle mermaid", "the little mermaid")) == (1, true))
        #expect(try #require(match("mermaid litle", "the little mermaid")) == (1, false))
        #expect(try #require(match("djnago framewrk", "django rest framework")) == (2, true))
        #expect(try #require(match("framewrk djnago", "django rest framework")) == (2, false))
        #expect(match("mermaid kittle", "the little mermaid") == nil)
    }

    @Test func typoMatchesSayWhetherTheirWordsAreInTheTypedOrderAndRankByPopularity() {
        let index = PrefixIndex(
            dictionary: WeightedDictionary(entries: [
                (text: "django-rest-framework", weight: 900, scope: nil),
                (text: "rest-framework-helpers", weight: 300, scope: nil),
                (text: "framework-rest-tools", weight: 100, scope: nil),
                (text: "framework-for-rest", weight: 50, scope: nil),
            ]))
        // "framewrk rest": one typo ("framewrk"); two entries have "framework" before "rest".
        var buffer = PrefixIndex.SearchBuffer()
        index.search(PreparedQuery(SearchQuery(text: "framewrk rest")), limit: 10, infix: true, everyWord: true, into: &buffer)
        let titles = buffer.hits.map { index.dictionary.text(at: Int($0.entry)) }
        #expect(titles == ["django-rest-framework", "rest-framework-helpers", "framework-rest-tools", "framework-for-rest"])
        #expect(buffer.hits.map(\.wordsOutOfOrder) == [true, true, false, false])
        #expect(buffer.hits.allSatisfy { $0.tier == .oneTypo && $0.typos == 1 })
    }

    @Test func nonASCIIWordsMatchOnlyExactly() {
        #expect(Self.typos("café crème", "café crème brûlée")?.typos == 0)
        #expect(Self.typos("cafè crème", "café crème brûlée") == nil)
    }

    @Test func theIndexOffersThemAfterTheMatchesWithoutTypos() {
        let index = PrefixIndex(
            dictionary: WeightedDictionary(entries: [
                (text: "django-rest-framework", weight: 900, scope: nil),
                (text: "djangorestframework-stubs", weight: 500, scope: nil),
                (text: "rest-framework-helpers", weight: 300, scope: nil),
                (text: "The Little Mermaid", weight: 50, scope: nil),
                (text: "little women", weight: 40, scope: nil),
            ]))
        // A misspelt word that starts no key word: found through the other word.
        #expect(index.complete("framwork djan", everyWord: true) == ["django-rest-framework"])
        #expect(index.tiers("framwork djan", everyWord: true) == [.oneTypo])
        #expect(index.complete("mermaid litle", everyWord: true) == ["The Little Mermaid"])
        // A misspelt word that starts some key word ("rest" starts "rest"): the other word is looked through too.
        #expect(index.complete("framework rst", everyWord: true).isEmpty)
        #expect(index.complete("framewrk rest", everyWord: true) == ["django-rest-framework", "rest-framework-helpers"])
        #expect(index.tiers("framewrk rest", everyWord: true) == [.oneTypo, .oneTypo])
        // Matches without typos first.
        #expect(index.tiers("frame rest", everyWord: true) == [.wordsAnyOrder, .wordsAnyOrder])
        // Off with every-word matching off.
        #expect(index.complete("framwork djan", everyWord: false).isEmpty)
    }
}
