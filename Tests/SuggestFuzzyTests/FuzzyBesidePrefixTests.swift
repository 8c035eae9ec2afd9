import Foundation
import SuggestCore
import SuggestIndex
import SuggestPrefix
import SuggestTestSupport
import Testing

@testable import SuggestFuzzy

/// Beside a prefix provider on the same index, the fuzzy provider leaves the exact and prefix matches to it
/// (``FuzzyOptions/offersPrefixMatches`` off): the engine's answers are those of the fuzzy provider offering them too,
/// and the fuzzy provider's own output holds none of them.
struct FuzzyBesidePrefixTests {
    /// 4,000 random words over a small alphabet (so that typos find other words), a tenth of them phrases, with
    /// popularity spread over five orders of magnitude; short words are prefixes of longer ones, as fragments are in a
    /// frequency list.
    static let dictionary: WeightedDictionary = {
        var random = SplitMix(seed: 11)
        let letters = Array("aeiourstnlmc")
        var entries: [(String, Double, String?)] = []
        var seen = Set<String>()
        func word(_ length: Int) -> String {
            String((0..<length).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
        }
        while entries.count < 4_000 {
            var text = word(2 + Int(random.next() % 8))
            if random.next() % 10 == 0 { text += (random.next() % 2 == 0 ? " " : "-") + word(3 + Int(random.next() % 5)) }
            guard seen.insert(text).inserted else { continue }
            let weight = pow(10, Double(random.next() % 50_000) / 10_000)
            entries.append((text, weight.rounded(), nil))
        }
        return WeightedDictionary(entries: entries)
    }()

    /// An entry drawn at random, half of the time with a letter (not the first) replaced by "x".
    static func target(_ random: inout SplitMix) -> String {
        var target = dictionary.text(at: Int(random.next() % UInt64(dictionary.count)))
        if random.next() % 2 == 0, target.count > 3 {
            var chars = Array(target)
            chars[1 + Int(random.next() % UInt64(chars.count - 1))] = "x"
            target = String(chars)
        }
        return target
    }

    /// Each keystroke of typing `targets` letter by letter, some with a typo, through both engines (one session each).
    @Test func theAnswersAreTheSameAsWhenTheFuzzyProviderOffersThemToo() throws {
        let index = PrefixIndex(dictionary: Self.dictionary)
        let fuzzyIndex = FuzzyIndex(index)
        var offering = FuzzyOptions()
        offering.everyWord = false
        var leaving = offering
        leaving.offersPrefixMatches = false
        let prefix = PrefixProvider(index: index)
        let withBoth = SuggestionEngine(slots: [
            ProviderSlot(prefix), ProviderSlot(try FuzzyProvider(index: fuzzyIndex, options: offering)),
        ])
        let leaver = try FuzzyProvider(index: fuzzyIndex, options: leaving)
        let withPrefixOnly = SuggestionEngine(slots: [ProviderSlot(prefix), ProviderSlot(leaver)])
        var random = SplitMix(seed: 5)
        var keystrokes = 0
        var leftOut = 0
        for _ in 0..<300 {
            let target = Self.target(&random)
            var sessionA = TypingSession()
            var sessionB = TypingSession()
            var typed = ""
            for character in target {
                typed.append(character)
                let a = withBoth.suggestions(for: SearchQuery(text: typed), session: &sessionA).suggestions
                let b = withPrefixOnly.suggestions(for: SearchQuery(text: typed), session: &sessionB).suggestions
                #expect(a.map(\.title) == b.map(\.title), "\(typed)")
                #expect(a.map(\.tier) == b.map(\.tier), "\(typed)")
                keystrokes += 1
                var output = ProviderOutput()
                try leaver.suggest(
                    SuggestionRequest(query: PreparedQuery(SearchQuery(text: typed)), limit: 10), into: &output)
                #expect(!output.candidates.contains { $0.tier == .exact || $0.tier == .prefix }, "\(typed)")
                if a.contains(where: { $0.tier == .prefix }) { leftOut += 1 }
            }
        }
        #expect(keystrokes > 1_000)
        // Most keystrokes had prefix matches to leave out, and some had typo matches as well.
        #expect(leftOut * 2 > keystrokes)
    }

    /// A JSON configuration leaves them to a prefix provider on the same file unless the fuzzy entry sets
    /// `prefixMatches`; alone, or beside a prefix provider on another file, the fuzzy provider offers them.
    @Test func inJSONTheyAreLeftToAPrefixProviderOnTheSameDictionary() throws {
        func offers(_ providers: String) throws -> Bool {
            var registry = ProviderRegistry()
            registry.register(FuzzyProvider.self)
            registry.register(PrefixProvider.self)
            let folder = (Fixture.path as NSString).deletingLastPathComponent
            let configuration = try EngineConfiguration(
                json: #"{ "version": 1, "providers": ["# + providers + "] }", baseDirectory: folder,
                registry: registry)
            let fuzzy = try #require(configuration.slots.compactMap { $0.provider as? FuzzyProvider }.first)
            return fuzzy.options.offersPrefixMatches
        }
        let fuzzy = #"{ "type": "fuzzy", "dictionary": "words.tsv" }"#
        let prefix = #"{ "type": "prefix", "dictionary": "words.tsv" }"#
        #expect(try offers(fuzzy))
        #expect(!(try offers(prefix + ", " + fuzzy)))
        #expect(!(try offers(fuzzy + #", { "type": "prefix", "dictionary": {"path": "words.tsv"} }"#)))
        #expect(try offers(prefix + #", { "type": "fuzzy", "dictionary": "words.tsv", "prefixMatches": true }"#))
        let other = TestFolders.unique("fuzzy-beside-prefix-", ".tsv")
        try "other\t1\n".write(toFile: other, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: other) }
        #expect(try offers(#"{ "type": "prefix", "dictionary": ""# + other + #"" }, "# + fuzzy))
        // Through the engine: "pyhto" is still corrected, "pyt" completed by the prefix provider alone.
        let engine = try EngineConfiguration(
            json: #"{ "version": 1, "providers": [\#(prefix), \#(fuzzy)] }"#,
            baseDirectory: (Fixture.path as NSString).deletingLastPathComponent,
            registry: {
                var registry = ProviderRegistry()
                registry.register(FuzzyProvider.self)
                registry.register(PrefixProvider.self)
                return registry
            }()
        ).makeEngine()
        let completed = engine.suggestions(for: "pyt").suggestions
        #expect(completed.first?.title == "python")
        #expect(completed.first?.providers == ["prefix"])
        #expect(engine.suggestions(for: "pyhto").suggestions.first?.title == "python")
    }
}
