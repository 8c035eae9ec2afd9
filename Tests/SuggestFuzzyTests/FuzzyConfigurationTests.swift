import Foundation

import SuggestCore
import SuggestIndex
import SuggestPrefix
import Testing

@testable import SuggestFuzzy
import SuggestTestSupport

struct FuzzyConfigurationTests {
    static func load(_ provider: String) throws(ConfigurationErrors) -> EngineConfiguration {
        var registry = ProviderRegistry()
        registry.register(FuzzyProvider.self)
        let folder = (Fixture.path as NSString).deletingLastPathComponent
        return try EngineConfiguration(
            json: #"{ "version": 1, "providers": [ "# + provider + " ] }",
            baseDirectory: folder,
            registry: registry
        )
    }

    @Test func configurationBuildsAWorkingProvider() throws {
        let configuration = try Self.load(#"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthOneTypo": 3 }"#)
        let result = configuration.makeEngine().suggestions(for: "pyh")
        #expect(result.suggestions.first?.title == "python")
    }

    @Test func rankingOptionsAreRead() throws {
        let configuration = try Self.load(
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "completionLengthPenalty": 1.5, "spellingGuard": false, "#
                + #""weighTypoKinds": false }"#)
        let provider = try #require(configuration.slots.first?.provider as? FuzzyProvider)
        #expect(provider.options.completionLengthPenalty == 1.5)
        #expect(provider.options.spellingGuard == false)
        #expect(provider.options.weighTypoKinds == false)
        #expect(FuzzyOptions().weighTypoKinds)
    }

    @Test func reversedKeysAreMadeWhenAskedOrWhenTheyFitTheBudget() throws {
        // Not set: made when the indexes stay within 48 bytes an entry with them (see the next test).
        let automatic = try Self.load(#"{ "type": "fuzzy", "dictionary": "words.tsv" }"#)
        let plain = try #require(automatic.slots.first?.provider as? FuzzyProvider)
        #expect(plain.options.reversedKeys == nil)
        #expect((plain.index.reversed != nil) == plain.index.reversedKeysFitTheBudget)
        let off = try Self.load(#"{ "type": "fuzzy", "dictionary": "words.tsv", "reversedKeys": false }"#)
        let forward = try #require(off.slots.first?.provider as? FuzzyProvider)
        #expect(forward.options.reversedKeys == false)
        #expect(forward.index.reversed == nil)
        let on = try Self.load(#"{ "type": "fuzzy", "dictionary": "words.tsv", "reversedKeys": true }"#)
        let provider = try #require(on.slots.first?.provider as? FuzzyProvider)
        #expect(provider.options.reversedKeys == true)
        // A small dictionary's reversed keys are made with the provider; they count in the index's extra bytes.
        let reversed = try #require(provider.index.reversed)
        #expect(reversed.count == provider.index.count)
        #expect(provider.index.extraByteCount >= reversed.byteCount)
    }

    /// A list of single words stays within the budget with the reversed keys: made without asking.
    @Test func reversedKeysWithinTheBudgetAreMadeWithoutAsking() throws {
        var generator = SplitMix(seed: 3)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let entries = (0..<5_000).map { _ in
            (
                text: String((0..<(4 + Int(generator.next() % 6))).map { _ in letters[Int(generator.next() % 26)] }),
                weight: 1.0, scope: String?.none
            )
        }
        let index = FuzzyIndex(WeightedDictionary(entries: entries))
        #expect(index.reversedKeysFitTheBudget)
        _ = try FuzzyProvider(index: index, options: FuzzyOptions())
        #expect(index.reversed != nil)
        var off = FuzzyOptions()
        off.reversedKeys = false
        let other = FuzzyIndex(WeightedDictionary(entries: entries))
        _ = try FuzzyProvider(index: other, options: off)
        #expect(other.reversed == nil)
    }

    /// Entries of many words (an inner word start each, 10 bytes in the prefix index) take the indexes past the
    /// budget: the reversed keys are then not made unless asked for.
    @Test func reversedKeysOverTheBudgetAreMadeOnlyWhenAsked() throws {
        let entries = (0..<400).map { i in
            (text: (0..<12).map { "w\(($0 * 7 + i) % 97)" }.joined(separator: " "), weight: 1.0, scope: String?.none)
        }
        let index = FuzzyIndex(WeightedDictionary(entries: entries))
        #expect(!index.reversedKeysFitTheBudget)
        _ = try FuzzyProvider(index: index, options: FuzzyOptions())
        #expect(index.reversed == nil)
        var options = FuzzyOptions()
        options.reversedKeys = true
        _ = try FuzzyProvider(index: index, options: options)
        #expect(index.reversed != nil)
    }

    @Test func wholeWordOptionsAreRead() throws {
        let configuration = try Self.load(
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthTwoTyposWholeWord": 7, "#
                + #""minLengthThreeTyposWholeWord": 0, "forgiveWrongPrefix": false }"#)
        let provider = try #require(configuration.slots.first?.provider as? FuzzyProvider)
        #expect(provider.options.minLengthTwoTyposWholeWord == 7)
        #expect(provider.options.minLengthThreeTyposWholeWord == 0)
        #expect(provider.options.forgiveWrongPrefix == false)
        #expect(!configuration.makeEngine().suggestions(for: "xython").suggestions.contains { $0.title == "python" })
    }

    @Test func prefixAndFuzzyProvidersOfOneDictionaryHoldOnePrefixIndex() throws {
        var registry = ProviderRegistry()
        registry.register(PrefixProvider.self)
        registry.register(FuzzyProvider.self)
        let folder = (Fixture.path as NSString).deletingLastPathComponent
        for order in [["prefix", "fuzzy"], ["fuzzy", "prefix"]] {
            let providers = order.map { #"{ "type": "\#($0)", "dictionary": "words.tsv" }"# }
            let configuration = try EngineConfiguration(
                json: #"{ "version": 1, "providers": [ \#(providers.joined(separator: ", ")) ] }"#,
                baseDirectory: folder,
                registry: registry,
                cache: DictionaryCache()
            )
            let prefix = try #require(configuration.slots.lazy.compactMap { $0.provider as? PrefixProvider }.first)
            let fuzzy = try #require(configuration.slots.lazy.compactMap { $0.provider as? FuzzyProvider }.first)
            // One copy of the sorted keys: both read the same storage.
            prefix.index.base.sortedKey(at: 0).withUnsafeBufferPointer { x in
                fuzzy.index.prefixIndex.sortedKey(at: 0).withUnsafeBufferPointer { y in
                    #expect(x.baseAddress == y.baseAddress, "\(order)")
                }
            }
            // The fuzzy extras stay small: a mask per key and the rank table.
            #expect(fuzzy.index.extraByteCount <= fuzzy.index.count * 8 + 64)
        }
    }

    @Test func aSavedPrefixIndexFileIsSharedToo() throws {
        var registry = ProviderRegistry()
        registry.register(PrefixProvider.self)
        registry.register(FuzzyProvider.self)
        let folder = (Fixture.path as NSString).deletingLastPathComponent
        for order in [["prefix", "fuzzy"], ["fuzzy", "prefix"]] {
            let indexPath = TestFolders.unique("suggest-shared-", ".index")
            defer { try? FileManager.default.removeItem(atPath: indexPath) }
            let providers = order.map { type in
                type == "prefix"
                    ? #"{ "type": "prefix", "dictionary": "words.tsv", "index": "\#(indexPath)" }"#
                    : #"{ "type": "fuzzy", "dictionary": "words.tsv" }"#
            }
            let json = #"{ "version": 1, "providers": [ \#(providers.joined(separator: ", ")) ] }"#
            for round in 0..<2 {  // the first builds and saves the index file, the second loads it
                let configuration = try EngineConfiguration(
                    json: json, baseDirectory: folder, registry: registry, cache: DictionaryCache())
                let prefix = try #require(configuration.slots.lazy.compactMap { $0.provider as? PrefixProvider }.first)
                let fuzzy = try #require(configuration.slots.lazy.compactMap { $0.provider as? FuzzyProvider }.first)
                prefix.index.base.sortedKey(at: 0).withUnsafeBufferPointer { x in
                    fuzzy.index.prefixIndex.sortedKey(at: 0).withUnsafeBufferPointer { y in
                        #expect(x.baseAddress == y.baseAddress, "\(order) round \(round)")
                    }
                }
                #expect(FileManager.default.fileExists(atPath: indexPath), "\(order) round \(round)")
                #expect(configuration.makeEngine().suggestions(for: "pyhton").suggestions.first?.title == "python")
            }
        }
    }

    @Test func anIndexFileThatCannotBeWrittenNamesThePlaceInEitherOrder() {
        var registry = ProviderRegistry()
        registry.register(PrefixProvider.self)
        registry.register(FuzzyProvider.self)
        let folder = (Fixture.path as NSString).deletingLastPathComponent
        let prefix = #"{ "type": "prefix", "dictionary": "words.tsv", "index": "/nonexistent-folder/words.index" }"#
        let fuzzy = #"{ "type": "fuzzy", "dictionary": "words.tsv" }"#
        for (providers, place) in [([fuzzy, prefix], "providers[1].index"), ([prefix, fuzzy], "providers[0].index")] {
            do {
                _ = try EngineConfiguration(
                    json: #"{ "version": 1, "providers": [ \#(providers.joined(separator: ", ")) ] }"#,
                    baseDirectory: folder, registry: registry, cache: DictionaryCache())
                Issue.record("expected an error at \(place)")
            } catch {
                #expect(error.description.contains(place), "\(error.description)")
                #expect(error.description.contains("/nonexistent-folder/words.index"), "\(error.description)")
            }
        }
    }

    @Test func providersOfOneConfigurationShareTheIndex() throws {
        let cache = DictionaryCache()
        var registry = ProviderRegistry()
        registry.register(FuzzyProvider.self)
        let folder = (Fixture.path as NSString).deletingLastPathComponent
        let configuration = try EngineConfiguration(
            json: #"""
                { "version": 1, "providers": [ { "type": "fuzzy", "id": "a", "dictionary": "words.tsv" },
                                               { "type": "fuzzy", "id": "b", "dictionary": "words.tsv" } ] }
                """#,
            baseDirectory: folder,
            registry: registry,
            cache: cache
        )
        let a = try #require(configuration.slots[0].provider as? FuzzyProvider)
        let b = try #require(configuration.slots[1].provider as? FuzzyProvider)
        a.index.masks.withUnsafeBufferPointer { x in
            b.index.masks.withUnsafeBufferPointer { y in #expect(x.baseAddress == y.baseAddress) }
        }
    }

    @Test(arguments: [
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthOneTypo": 0 }"#, "providers[0].minLengthOneTypo"),
        (
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthOneTypo": 6, "minLengthTwoTypos": 5 }"#,
            "providers[0].minLengthTwoTypos"
        ),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "maxTypos": 3 }"#, "providers[0].maxTypos"),
        (
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthTwoTyposWholeWord": 0 }"#,
            "providers[0].minLengthTwoTyposWholeWord"
        ),
        (
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "minLengthThreeTyposWholeWord": -1 }"#,
            "providers[0].minLengthThreeTyposWholeWord"
        ),
        (
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "forgiveWrongPrefix": 1 }"#,
            "providers[0].forgiveWrongPrefix"
        ),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "wholeWordBoost": 0.5 }"#, "providers[0].wholeWordBoost"),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "phrasePenalty": 0 }"#, "providers[0].phrasePenalty"),
        (
            #"{ "type": "fuzzy", "dictionary": "words.tsv", "completionLengthPenalty": 0.5 }"#,
            "providers[0].completionLengthPenalty"
        ),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "spellingGuard": "yes" }"#, "providers[0].spellingGuard"),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "weighTypoKinds": 0 }"#, "providers[0].weighTypoKinds"),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "reversedKeys": "on" }"#, "providers[0].reversedKeys"),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "maxTypo": 1 }"#, "providers[0]"),
        (#"{ "type": "fuzzy", "dictionary": "missing.tsv" }"#, "providers[0].dictionary"),
        (#"{ "type": "fuzzy" }"#, "providers[0]"),
        (#"{ "type": "fuzzy", "dictionary": "words.tsv", "maxTypos": "two" }"#, "providers[0].maxTypos"),
    ])
    func badConfigurationNamesThePlace(json: String, path: String) {
        do {
            _ = try Self.load(json)
            Issue.record("expected an error for \(json)")
        } catch {
            #expect(error.description.contains(path), "\(error.description)")
        }
    }
}
