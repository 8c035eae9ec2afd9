import Foundation
import Testing
import SuggestCore
import SuggestPattern
@testable import SuggestRecents

struct RecentsConfigurationTests {
    func load(_ providerJSON: String, baseDirectory: String = ".") throws(ConfigurationErrors) -> EngineConfiguration {
        try EngineConfiguration(
            json: "{ \"version\": 1, \"providers\": [ \(providerJSON) ] }",
            baseDirectory: baseDirectory,
            registry: recentsRegistry
        )
    }

    func errors(_ providerJSON: String, baseDirectory: String = ".") -> [String] {
        do {
            _ = try load(providerJSON, baseDirectory: baseDirectory)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func everyKeyIsReadAndTheSectionIsRecent() throws {
        let folder = makeTemporaryFolder()
        let configuration = try load(
            """
            { "type": "recent", "id": "history", "store": "recents.json", "ephemeral": false, "capacity": 50,
              "halfLifeDays": 7, "recordSelections": true, "systemImage": "clock.arrow.circlepath",
              "exclude": { "minLength": 2, "patterns": ["^\\\\d+$"] } }
            """,
            baseDirectory: folder
        )
        let slot = try #require(configuration.slots.first)
        #expect(slot.section == "Recent")
        let provider = try #require(slot.provider as? RecentsProvider)
        #expect(provider.id == "history")
        #expect(provider.options.capacity == 50)
        #expect(provider.options.halfLife == .seconds(7 * 86_400))
        #expect(provider.options.recordSelections)
        #expect(provider.options.systemImage == "clock.arrow.circlepath")
        #expect(provider.options.exclusion.minimumLength == 2)
        #expect(provider.options.exclusion.patterns == ["^\\d+$"])
        let store = try #require(provider.store as? JSONFileRecentsStore)
        #expect(store.path == folder + "/recents.json", "relative to the configuration file")
    }

    @Test func defaults() throws {
        let provider = try #require(try load(#"{ "type": "recent" }"#).slots.first?.provider as? RecentsProvider)
        #expect(provider.options.capacity == 100)
        #expect(provider.options.halfLife == .seconds(14 * 86_400))
        #expect(!provider.options.recordSelections)
        #expect(provider.options.systemImage == "clock")
        #expect(provider.store == nil)
    }

    @Test func ephemeralNeverTouchesTheStore() throws {
        let folder = makeTemporaryFolder()
        let configuration = try load(
            #"{ "type": "recent", "store": "recents.json", "ephemeral": true }"#,
            baseDirectory: folder
        )
        let provider = try #require(configuration.slots.first?.provider as? RecentsProvider)
        #expect(provider.store == nil)
        provider.record("private search")
        #expect(provider.searches.count == 1)
        #expect(files(in: folder).isEmpty)
    }

    @Test func emptySystemImageMeansNone() throws {
        let provider = try #require(
            try load(#"{ "type": "recent", "systemImage": "" }"#).slots.first?.provider as? RecentsProvider
        )
        provider.record("x")
        #expect(provider.candidates("").first?.systemImage == nil)
    }

    @Test(arguments: [
        (#"{ "type": "recent", "capacity": 0 }"#, "providers[0].capacity: expected an integer from 1 to 100000, found 0"),
        (#"{ "type": "recent", "capacity": "many" }"#, "providers[0].capacity"),
        (#"{ "type": "recent", "halfLifeDays": -1 }"#, "providers[0].halfLifeDays: expected a number of days greater than 0"),
        (#"{ "type": "recent", "exclude": { "minLength": -2 } }"#, "providers[0].exclude.minLength"),
        (#"{ "type": "recent", "exclude": { "patterns": ["ok", "a(b"] } }"#,
         "providers[0].exclude.patterns[1]: invalid pattern \"a(b\": expected ')' at offset 3"),
        (#"{ "type": "recent", "exclude": { "patterns": ["ok", "^(a+)+$"] } }"#,
         "providers[0].exclude.patterns[1]: invalid pattern \"^(a+)+$\": nested unbounded quantifier"),
        (#"{ "type": "recent", "capacty": 10 }"#, "providers[0]: unknown key \"capacty\" — did you mean \"capacity\"?"),
        (#"{ "type": "recent", "exclude": { "minLenght": 3 } }"#,
         "providers[0].exclude: unknown key \"minLenght\" — did you mean \"minLength\"?"),
        (#"{ "type": "recent", "store": "no/such/folder/recents.json" }"#, "providers[0].store: the folder"),
        (#"{ "type": "recent", "store": "" }"#, "providers[0].store: expected a file path"),
        (#"{ "type": "recent", "ephemeral": "yes" }"#, "providers[0].ephemeral"),
    ])
    func badValuesAreErrorsNamingTheirPlace(json: String, expected: String) {
        let errors = errors(json)
        #expect(errors.contains { $0.hasPrefix(expected) }, "\(errors)")
    }

    /// A folder or a device named as the store is refused when the configuration is read: never read, written or
    /// moved aside (a store moves an unreadable file aside; a folder is not its to move).
    @Test func aStoreThatIsNotARegularFileIsAnError() throws {
        let folder = makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: folder + "/data/precious.txt", contents: Data("kept".utf8)))
        let found = errors(#"{ "type": "recent", "store": "data" }"#, baseDirectory: folder)
        #expect(found == ["providers[0].store: \(folder)/data: is a folder"])
        #expect(files(in: folder) == ["data"])
        #expect(files(in: folder + "/data") == ["precious.txt"])
        let device = errors(#"{ "type": "recent", "store": "/dev/null" }"#)
        #expect(device == ["providers[0].store: /dev/null: not a regular file (a character device)"])
    }
}

@Suite struct RecentsSectionTests {
    /// Built in Swift, recent searches go to "Recent" as they do from JSON, with its quota.
    @Test func recentSearchesGoToRecentWhenTheEngineIsBuiltInSwift() {
        let recents = RecentsProvider()
        recents.didSubmit(SearchQuery(text: "swift testing"))
        let engine = SuggestionEngine(providers: [recents])
        let result = engine.suggestions(for: "")
        #expect(result.sections.map(\.title) == ["Recent"])
        #expect(result.suggestions.map(\.title) == ["swift testing"])
    }
}
