import Foundation

import SuggestCore
import SuggestIndex
import SuggestPrefix
import Testing

@testable import SuggestFuzzy

struct FuzzyRankingTests {
    static let dictionary = WeightedDictionary(entries: [
        (text: "language", weight: 100, scope: nil),
        (text: "language and", weight: 400, scope: nil),
        (text: "languages", weight: 30, scope: nil),
        (text: "languages of", weight: 300, scope: nil),
    ])

    static func ranked(_ text: String, _ options: FuzzyOptions = FuzzyOptions()) -> [String] {
        let engine = SuggestionEngine(slots: [ProviderSlot(try! FuzzyProvider(dictionary: dictionary, options: options))])
        return engine.suggestions(for: text).suggestions.map(\.title)
    }

    @Test func wholeWordCorrectionsRankBeforeCompletionsOfTheSameTier() {
        // "languags" is one edit from "language" and from "languages" as whole words.
        let boosted = Self.ranked("languags")
        #expect(Array(boosted.prefix(2)) == ["language", "languages"])
        var off = FuzzyOptions()
        off.wholeWordBoost = 1
        off.phrasePenalty = 1
        off.completionLengthPenalty = 1
        #expect(Self.ranked("languags", off).first == "language and")
    }

    @Test func correctionsOfOneTypoCountRankByTheKindsOfTheirEdits() {
        // "weither": "either" (a wrong first letter) is the most popular, "weather" is a vowel for a vowel,
        // "wither" a letter added; "agiles": "giles" drops the first letter, "agile" the last.
        let dictionary = WeightedDictionary(entries: [
            (text: "either", weight: 2_000, scope: nil),
            (text: "weather", weight: 700, scope: nil),
            (text: "wither", weight: 900, scope: nil),
            (text: "giles", weight: 380, scope: nil),
            (text: "agile", weight: 250, scope: nil),
        ])
        func ranked(_ text: String, _ options: FuzzyOptions) -> [String] {
            let provider = try! FuzzyProvider(dictionary: dictionary, options: options)
            return SuggestionEngine(slots: [ProviderSlot(provider)]).suggestions(for: text).suggestions.map(\.title)
        }
        #expect(ranked("weither", FuzzyOptions()) == ["weather", "wither", "either"])
        #expect(ranked("agiles", FuzzyOptions()).first == "agile")
        var off = FuzzyOptions()
        off.weighTypoKinds = false
        #expect(ranked("weither", off) == ["either", "wither", "weather"])
        #expect(ranked("agiles", off).first == "giles")
        // Each suggestion says how much the kinds of its typos weighed (1: not weighed).
        func factors(_ options: FuzzyOptions) -> [String: Double] {
            let provider = try! FuzzyProvider(dictionary: dictionary, options: options)
            let suggestions = SuggestionEngine(slots: [ProviderSlot(provider)]).suggestions(for: "weither").suggestions
            return Dictionary(uniqueKeysWithValues: suggestions.map { ($0.title, $0.typoKindFactor) })
        }
        let on = factors(FuzzyOptions())
        #expect((on["weather"] ?? 1) > 1)
        #expect((on["either"] ?? 1) < 1)
        #expect(factors(off).values.allSatisfy { $0 == 1 })
    }

    @Test func withATypoCompletionsCloseToTheTypedLengthRankFirst() {
        let dictionary = WeightedDictionary(entries: [
            (text: "exercise", weight: 100, scope: nil),
            (text: "exercised", weight: 20, scope: nil),
            (text: "exercisers", weight: 30, scope: nil),
            (text: "exerciseable", weight: 60, scope: nil),
            (text: "exercise of", weight: 3500, scope: nil),
        ])
        func ranked(_ options: FuzzyOptions) -> [String] {
            let provider = try! FuzzyProvider(dictionary: dictionary, options: options)
            return SuggestionEngine(slots: [ProviderSlot(provider)]).suggestions(for: "exersise").suggestions
                .map(\.title)
        }
        // "exersise" (the end of "exersised" not typed yet): the whole word first (boost), then by popularity
        // halved per character beyond the corrected prefix: exercised 20/2, exercisers 30/4, exerciseable 60/16,
        // exercise of 3500/100/8.
        #expect(ranked(FuzzyOptions()) == ["exercise", "exercised", "exercisers", "exercise of", "exerciseable"])
        var off = FuzzyOptions()
        off.completionLengthPenalty = 1
        // By popularity alone (the phrase still ÷100): exerciseable 60, exercise of 35, exercisers 30, exercised 20.
        #expect(ranked(off) == ["exercise", "exerciseable", "exercise of", "exercisers", "exercised"])
    }

    @Test func aWordBeingSpeltIsNotTakenForAnAbbreviationOfAPhrase() {
        let dictionary = WeightedDictionary(entries: [
            (text: "become", weight: 10, scope: nil),
            (text: "both companies", weight: 1000, scope: nil),
            (text: "github", weight: 10, scope: nil),
            (text: "gotham", weight: 10, scope: nil),
        ])
        func ranked(_ text: String, _ options: FuzzyOptions = FuzzyOptions()) -> [String] {
            var engineOptions = EngineOptions()
            engineOptions.limit = 1
            let provider = try! FuzzyProvider(dictionary: dictionary, options: options)
            return SuggestionEngine(slots: [ProviderSlot(provider)], options: engineOptions).suggestions(for: text)
                .suggestions.map(\.title)
        }
        // "bocom": one typo from "becom(e)"; "BOth COMpanies" would need typed vowels inside words.
        #expect(ranked("bocom") == ["become"])
        var off = FuzzyOptions()
        off.spellingGuard = false
        #expect(ranked("bocom", off) == ["both companies"])
        // A vowel-free abbreviation is unaffected.
        #expect(ranked("gthb") == ["github"])
    }

    @Test func phrasesRankAfterTheWordBeingTyped() {
        var options = FuzzyOptions()
        // The default (100): "languages" (30) before "language and" (400 / 100).
        #expect(Self.ranked("langu", options) == ["language", "languages", "language and", "languages of"])
        options.phrasePenalty = 10
        // "language and" (400 / 10) now beats "languages" (30).
        #expect(Self.ranked("langu", options) == ["language", "language and", "languages", "languages of"])
        options.phrasePenalty = 1
        #expect(Self.ranked("langu", options).first == "language and")
    }
}
