import Foundation
import SuggestCore
import SuggestTokens
import Testing
import SuggestTestSupport

struct TokenConfigurationTests {
    static var registry: ProviderRegistry {
        var registry = ProviderRegistry.core
        registry.register(TokenProvider.self)
        return registry
    }

    static let fixtures = Bundle.module.resourcePath! + "/Fixtures"

    func errors(_ json: String) -> [String] {
        do {
            _ = try EngineConfiguration(json: json, baseDirectory: Self.fixtures, registry: Self.registry)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    func provider(_ json: String) throws -> TokenProvider {
        let configuration = try EngineConfiguration(json: json, baseDirectory: Self.fixtures, registry: Self.registry)
        return try #require(configuration.slots.first?.provider as? TokenProvider)
    }

    @Test func readsTheFixtureConfiguration() throws {
        let configuration = try EngineConfiguration(
            contentsOf: Self.fixtures + "/tokens.json",
            registry: Self.registry
        )
        let provider = try #require(configuration.slots.first?.provider as? TokenProvider)
        #expect(provider.rules.count == 2)
        #expect(provider.delimiters == [","])
        // The file's entries (blank lines skipped, spaces trimmed), then the inline kind.
        #expect(
            provider.vocabulary.tokens.map(\.value).prefix(4) == ["Chicken", "Beef", "Sweet Potato", "Crème Brûlée"]
        )
        #expect(provider.vocabulary.tokens.last == SearchToken(kind: "cuisine", value: "Chinese"))
        #expect(provider.vocabulary.token(for: "chicken")?.systemImage == "leaf")
        let engine = configuration.makeEngine()
        let result = engine.suggestions(for: "spicy chicken ")
        #expect(result.tokens == [SearchToken(kind: "ingredient", value: "Chicken")])
        #expect(result.remainingText == "spicy ")
    }

    @Test func defaults() throws {
        let provider = try provider(#"{ "version": 1, "providers": [ { "type": "tokens" } ] }"#)
        #expect(provider.delimiters == [","])
        #expect(provider.convertOnSpace)
        #expect(provider.maxSuggestedTokens == 8)
        #expect(provider.rules.isEmpty && provider.vocabulary.isEmpty)
    }

    @Test func badPatternNamesItsPathMessageAndOffset() {
        let found = errors(
            #"{ "version": 1, "providers": [ { "type": "tokens", "rules": [ { "kind": "from", "pattern": "from:(\\S+ x" } ] } ] }"#
        )
        #expect(found.count == 1)
        if PatternEngine.default == .pcre2 {
            #expect(found == ["providers[0].rules[0].pattern: missing closing parenthesis at offset 11"])
        } else {
            #expect(found == ["providers[0].rules[0].pattern: expected ')' at offset 11"])
        }
    }

    @Test func catastrophicPatternIsRefusedOrStoppedNeverHangs() throws {
        let json =
            #"{ "version": 1, "maxQueryLength": 10000, "providers": [ { "type": "tokens", "engine": "ENGINE", "rules": [ { "kind": "a", "pattern": "(a+)+$" } ] } ] }"#
        // Swift Regex has no match limit: the pattern is refused when it is read.
        let swiftErrors = errors(json.replacingOccurrences(of: "ENGINE", with: "swift"))
        #expect(swiftErrors.count == 1)
        #expect(swiftErrors.first?.hasPrefix("providers[0].rules[0].pattern: nested unbounded quantifier") == true)
        #expect(swiftErrors.first?.hasSuffix("at offset 0") == true)
        #if PCRE2
            // PCRE2 compiles it and stops at the match limit: the keystroke reports it and goes on.
            let engine = try EngineConfiguration(
                json: json.replacingOccurrences(of: "ENGINE", with: "pcre2"),
                registry: Self.registry
            ).makeEngine()
            let result = engine.suggestions(for: String(repeating: "a", count: 5_000) + "!")
            #expect(result.diagnostics.errors.count == 1)
            #expect(result.diagnostics.errors.first?.contains("match limit") == true)
            #expect(result.remainingText == String(repeating: "a", count: 5_000) + "!")
        #endif
    }

    @Test func unknownEngineAndBadValues() {
        let found = errors(
            #"""
            { "version": 1, "providers": [ { "type": "tokens", "engine": "pcre", "matchLimit": 5,
              "maxSuggestedTokens": -1, "delimiters": [""],
              "rules": [ { "kind": "k", "pattern": "x" } ] } ] }
            """#
        )
        #expect(
            found.contains(
                "providers[0].engine: expected \"pcre2\" or \"swift\", found \"pcre\" — did you mean \"pcre2\"?"
            )
        )
        #expect(found.contains("providers[0].matchLimit: expected an integer from 1000 to 100000000, found 5"))
        #expect(found.contains("providers[0].maxSuggestedTokens: expected an integer from 0 to 1000, found -1"))
        #expect(found.contains("providers[0].delimiters[0]: a delimiter must not be empty"))
    }

    @Test func ruleErrorsAreCollected() {
        let found = errors(
            #"{ "version": 1, "providers": [ { "type": "tokens", "rules": [ { "pattern": "x" }, { "kind": "k", "pattern": "" } ] } ] }"#
        )
        #expect(
            found == [
                "providers[0].rules[0]: missing required key \"kind\" (the pattern has no group named kind)",
                "providers[0].rules[1].pattern: a pattern must not be empty",
            ]
        )
        // A kind group makes "kind" optional.
        #expect(
            errors(
                #"{ "version": 1, "providers": [ { "type": "tokens", "rules": [ { "pattern": "(?<kind>is):(?<value>\\w+)" } ] } ] }"#
            ).isEmpty
        )
    }

    @Test func aGroupNamedNearlyValueOrKindIsReportedWithItsOffset() {
        func rule(_ pattern: String) -> String {
            #"{ "version": 1, "providers": [ { "type": "tokens", "rules": [ { "kind": "from", "pattern": "\#(pattern)" } ] } ] }"#
        }
        #expect(errors(rule(#"\\bfrom:(?<valeu>\\S+)"#)) == [
            #"providers[0].rules[0].pattern: a group named "valeu" — did you mean "value"? (the token's value comes from the group named value) at offset 7"#
        ])
        #expect(errors(rule(#"(?<Value>\\w+)"#)).first?.contains(#"did you mean "value"?"#) == true)
        // Other names are a pattern's own business; a rule with "value" may have a near miss of "kind" only if
        // it lacks one.
        #expect(errors(rule(#"(?<user>\\w+)@(?<value>\\w+)"#)).isEmpty)
        #expect(errors(rule(#"(?<kidn>is):(?<value>\\w+)"#)).first?.contains(#"did you mean "kind"?"#) == true)
    }

    @Test func aDisplayPlaceholderNearlyValueOrKindIsReportedWithItsOffset() {
        func rule(_ display: String) -> String {
            #"{ "version": 1, "providers": [ { "type": "tokens", "rules": [ { "kind": "from", "pattern": "from:(?<value>\\S+)", "display": "\#(display)" } ] } ] }"#
        }
        #expect(errors(rule("From: $valu")) == [
            #"providers[0].rules[0].display: unknown placeholder "$valu" at offset 6 (UTF-8 bytes) — did you mean "$value"? (placeholders: $value, $kind)"#
        ])
        #expect(errors(rule("$Kind: $value")).first?.contains(#"did you mean "$kind"?"#) == true)
        // The placeholders, one followed by more letters, and a `$` word that is text.
        #expect(errors(rule("$kind: $value")).isEmpty)
        #expect(errors(rule("$values in $USD")).isEmpty)
        #expect(errors(rule("$mind the $find: $value")).isEmpty)
        #expect(errors(rule("costs $ 5")).isEmpty)
    }

    @Test func misspeltRuleKeyIsReported() {
        let found = errors(
            #"{ "version": 1, "providers": [ { "type": "tokens", "rules": [ { "kind": "k", "pattern": "x", "dispaly": "X" } ] } ] }"#
        )
        #expect(found == ["providers[0].rules[0]: unknown key \"dispaly\" — did you mean \"display\"?"])
    }

    @Test func vocabularyErrorsNameTheirPlace() {
        let found = errors(
            #"""
            { "version": 1, "providers": [ { "type": "tokens", "vocabulary": {
              "a": { "file": "missing.txt" }, "b": ["ok", "", 3], "c": 5, "d": { "fiel": "x.txt" } } } ] }
            """#
        )
        #expect(
            found.contains {
                $0.hasPrefix("providers[0].vocabulary.a.file: no such file: ") && $0.hasSuffix("Fixtures/missing.txt")
            }
        )
        #expect(found.contains("providers[0].vocabulary.b[1]: expected a non-empty word or phrase, found string \"\""))
        #expect(found.contains("providers[0].vocabulary.b[2]: expected a non-empty word or phrase, found number 3"))
        #expect(
            found.contains("providers[0].vocabulary.c: expected an array of strings or {\"file\": …}, found number 5")
        )
        #expect(found.contains("providers[0].vocabulary.d: unknown key \"fiel\" — did you mean \"file\"?"))
        #expect(
            errors(#"{ "version": 1, "providers": [ { "type": "tokens", "vocabulary": ["x"] } ] }"#).first?.hasPrefix(
                "providers[0].vocabulary: expected an object"
            ) == true
        )
    }

    @Test func swiftEngineCanBeChosen() throws {
        let provider = try provider(
            ##"{ "version": 1, "providers": [ { "type": "tokens", "engine": "swift", "rules": [ { "kind": "tag", "pattern": "#(?<value>\\w+)" } ] } ] }"##
        )
        let result = try #require(try provider.extractTokens(from: "#quick ", submitting: false))
        #expect(result.tokens == [SearchToken(kind: "tag", value: "quick")])
    }

    @Test func vocabularyFilesWithCRLFAndAByteOrderMarkGiveCleanEntries() throws {
        let folder = TestFolders.unique("suggest-vocabulary-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data([0xEF, 0xBB, 0xBF] + Array("Chicken\r\nBeef\r\n\r\n Sweet Potato \r\n".utf8))
            .write(to: URL(fileURLWithPath: folder + "/windows.txt"))
        let configuration = try EngineConfiguration(
            json: #"{ "version": 1, "providers": [ { "type": "tokens", "vocabulary": { "food": { "file": "windows.txt" } } } ] }"#,
            baseDirectory: folder,
            registry: Self.registry
        )
        let provider = try #require(configuration.slots.first?.provider as? TokenProvider)
        #expect(provider.vocabulary.tokens.map(\.value) == ["Chicken", "Beef", "Sweet Potato"])
        #expect(configuration.makeEngine().suggestions(for: "beef ").tokens == [SearchToken(kind: "food", value: "Beef")])
    }

    @Test func aVocabularyFileThatIsAFIFOIsRefusedWithoutBlocking() throws {
        let folder = TestFolders.unique("suggest-vocabulary-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/fifo.txt", 0o600) == 0)
        do {
            _ = try EngineConfiguration(
                json: #"{ "version": 1, "providers": [ { "type": "tokens", "vocabulary": { "a": { "file": "fifo.txt" } } } ] }"#,
                baseDirectory: folder,
                registry: Self.registry
            )
            Issue.record("read a FIFO")
        } catch {
            #expect(error.errors.map(\.description) == [
                "providers[0].vocabulary.a.file: \(folder)/fifo.txt: not a regular file (a FIFO)"
            ])
        }
    }

    #if PCRE2
        @Test func backslashCInARuleIsALocatedError() {
            #expect(
                errors(#"{ "version": 1, "providers": [ { "type": "tokens", "rules": [ { "kind": "k", "pattern": "a\\C" } ] } ] }"#)
                    == ["providers[0].rules[0].pattern: using \\C is disabled by the application at offset 3"]
            )
        }
    #endif

    /// With the Swift `Regex` engine (no match limit), a rule that can backtrack catastrophically is a
    /// located error when the configuration is read, in builds with and without PCRE2.
    @Test func aSwiftRuleThatCanBacktrackCatastrophicallyIsALocatedError() {
        let errors = errors(
            #"{ "version": 1, "providers": [ { "type": "tokens", "engine": "swift", "rules": [ { "kind": "k", "pattern": "x(a|aa)+$" } ] } ] }"#
        )
        #expect(errors.count == 1)
        #expect(
            errors.first?.hasPrefix(
                "providers[0].rules[0].pattern: a group repeated without bound contains an alternation"
            ) == true,
            "\(errors)"
        )
        #expect(errors.first?.hasSuffix("at offset 1") == true, "\(errors)")
    }
}
