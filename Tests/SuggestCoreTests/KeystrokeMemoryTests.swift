import Testing

@testable import SuggestCore

/// The memory keystrokes reuse (prepared-query arrays, the result arrays of the keystroke before the previous one,
/// shared range arrays, the dictionary's title cache) never changes what a keystroke answers nor a result a caller
/// still holds.
struct KeystrokeMemoryTests {
    static let texts = [
        "", "n", "ne", "new", "new ", "new y", "new yo", "  New - York ", "café", "Ｆｕｌｌ wi", "ab", "a",
        String(repeating: "é", count: 40), "x y z w v u t s",
    ]

    @Test func aQueryPreparedInTheLastOnesArraysEqualsAFreshOne() {
        var bytes: [UInt8] = []
        var words: [Range<Int>] = []
        var held: [PreparedQuery] = []
        for (i, text) in (Self.texts + Self.texts.reversed()).enumerated() {
            let query = SearchQuery(text: text)
            let reused = PreparedQuery(query, maximumLength: 30, bytes: &bytes, words: &words)
            let fresh = PreparedQuery(query, maximumLength: 30)
            #expect(reused.normalized == fresh.normalized, "\(text)")
            #expect(reused.words == fresh.words, "\(text)")
            #expect(reused.lastWordIsPartial == fresh.lastWordIsPartial)
            #expect(reused.wasTruncated == fresh.wasTruncated)
            // Hand the arrays back, as the engine does; every other query is still held (its arrays are shared).
            bytes = reused.normalized
            words = reused.words
            if i % 2 == 0 { held.append(reused) }
        }
        for prepared in held {
            let fresh = PreparedQuery(prepared.query, maximumLength: 30)
            #expect(prepared.normalized == fresh.normalized)
            #expect(prepared.words == fresh.words)
        }
    }

    @Test func resultsACallerHoldsAreNotChangedByLaterKeystrokes() {
        let items = ["New York", "New Orleans", "Newcastle upon Tyne", "Newark", "Nevada", "Naples", "Yokohama"]
        let engine = SuggestionEngine(
            providers: [
                StaticProvider(items: items.map { .init(title: $0) }),
                FixedProvider(id: "fixed", candidates: [SuggestionCandidate(title: "always", tier: .unfiltered)]),
            ])
        var session = TypingSession()
        var held: [(SuggestionResult, [[String]])] = []
        for text in ["n", "ne", "new", "new ", "new y", "ne", "n", "na", "", "y", "yo"] {
            let result = engine.suggestions(for: SearchQuery(text: text), session: &session)
            let fresh = engine.suggestions(for: SearchQuery(text: text))
            let titles = result.sections.map { $0.suggestions.map(\.title) }
            #expect(titles == fresh.sections.map { $0.suggestions.map(\.title) }, "\(text)")
            #expect(result.sections.map(\.title) == fresh.sections.map(\.title))
            held.append((result, titles))
        }
        for (result, titles) in held {
            #expect(result.sections.map { $0.suggestions.map(\.title) } == titles)
        }
    }

    @Test func sharedRangeArraysHoldTheirRange() {
        for lower in 0..<12 {
            for upper in lower..<140 {
                let range = lower..<upper
                #expect(SharedRanges.one(range) == (range.isEmpty ? [] : [range]))
            }
        }
        #expect(SharedRanges.one(200..<300) == [200..<300])
    }

    @Test func anArrayOfRangesIsCopiedIntoMemoryOfItsOwn() {
        // The caller refills its array in place afterwards: the copy must not share its storage.
        for ranges in [[0..<3, 5..<9], [0..<3, 5..<9, 12..<13], [20..<30]] {
            let copy = SharedRanges.array(ranges)
            #expect(copy == ranges)
            let mine = ranges.withUnsafeBufferPointer { $0.baseAddress }
            let theirs = copy.withUnsafeBufferPointer { $0.baseAddress }
            #expect(mine != theirs, "\(ranges)")
        }
        #expect(SharedRanges.array([]) == [])
        #expect(SharedRanges.array([2..<5]) == [2..<5])
    }

    @Test func aTabCompletionSpeltAsBeforeIsTheSameAnswer() {
        // Completions longer than 15 bytes are made once and handed out again while they stay the same.
        let items = ["Google-Cloud-Logging", "Google-Cloud-Logger", "Google-Cloud-Storage", "google-cloud-speech"]
        let engine = SuggestionEngine(providers: [StaticProvider(items: items.map { .init(title: $0) })])
        var session = TypingSession()
        let expected: [(String, String?)] = [
            ("goo", "Google-Cloud-"), ("google-cloud-lo", "Google-Cloud-Logg"), ("google-cloud-log", "Google-Cloud-Logg"),
            ("google-cloud-s", nil), ("google-cloud-st", "Google-Cloud-Storage"),
            ("google-cloud-lo", "Google-Cloud-Logg"), ("google-cloud-logger", nil), ("google-cloud-sp", "google-cloud-speech"),
        ]
        for (text, completion) in expected {
            let result = engine.suggestions(for: SearchQuery(text: text), session: &session)
            #expect(result.commonCompletion == completion, "\(text)")
            #expect(engine.suggestions(for: SearchQuery(text: text)).commonCompletion == completion, "\(text)")
        }
    }

    @Test func titlesFromTheCacheAreTheTexts() {
        // More entries than the cache has slots, so that entries share slots; short and long texts.
        let count = TitleCache.slotCount + 1_500
        let entries = (0..<count).map { i in
            (text: i % 3 == 0 ? "w\(i)" : "a-rather-long-package-name-\(i)", weight: Double(i), scope: String?.none)
        }
        let dictionary = WeightedDictionary(entries: entries)
        for _ in 0..<2 {
            for i in [0, 1, 2, 5, TitleCache.slotCount + 1, 1, TitleCache.slotCount + 2, 2, count - 1] {
                #expect(dictionary.title(at: i) == dictionary.text(at: i))
            }
            for i in stride(from: 0, to: count, by: 7) { #expect(dictionary.title(at: i) == dictionary.text(at: i)) }
        }
    }
}
