import SuggestCore
import Testing

/// `ProviderContext.otherEntries` and `hasOtherEntry(type:dictionary:where:)`: what a provider sees of the other
/// entries of its configuration.
struct ProviderContextTests {
    struct Named: SuggestionProvider {
        let id: String
        func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {}
    }

    /// The keys the test entries may have.
    struct Keys: Decodable, Sendable {
        var dictionary: DictionarySource?
        var x: Bool?
    }

    /// The contexts the loader hands to each `probe` entry of `providers` (JSON entries), in order.
    func contexts(_ providers: String) throws -> [ProviderContext] {
        let seen = Seen()
        var registry = ProviderRegistry.core
        registry.register("probe", configuration: Keys.self) { _, context in
            seen.append(context)
            return Named(id: context.id)
        }
        registry.register("words", configuration: Keys.self) { _, context in Named(id: context.id) }
        _ = try EngineConfiguration(
            json: #"{ "version": 1, "providers": ["# + providers + "] }", baseDirectory: "/data", registry: registry)
        return seen.all
    }

    final class Seen: Sendable {
        private let list = Locked<[ProviderContext]>([])
        func append(_ context: ProviderContext) { list.withLock { $0.append(context) } }
        var all: [ProviderContext] { list.withLock { $0 } }
    }

    @Test func aProviderSeesTheOtherEntriesAsWritten() throws {
        let seen = try contexts(#"{ "type": "words", "dictionary": "a.tsv" }, { "type": "probe" }"#)
        let context = try #require(seen.first)
        #expect(context.otherEntries.count == 1)
        #expect(context.otherEntries.first?["type"]?.stringValue == "words")
    }

    @Test func anEntryOnTheSameDictionaryFileIsFoundHoweverItsPathIsWritten() throws {
        let seen = try contexts(
            #"{ "type": "probe" }, { "type": "words", "dictionary": {"path": "a.tsv", "lenient": true}, "x": false }"#)
        let context = try #require(seen.first)
        #expect(context.hasOtherEntry(type: "words", dictionary: "a.tsv"))
        #expect(context.hasOtherEntry(type: "words", dictionary: "/data/a.tsv"))
        #expect(!context.hasOtherEntry(type: "words", dictionary: "b.tsv"))
        #expect(!context.hasOtherEntry(type: "probe", dictionary: "a.tsv"))
        #expect(!context.hasOtherEntry(type: "words", dictionary: "a.tsv") { $0["x"] != .bool(false) })
    }

    @Test func anEntryDoesNotSeeItself() throws {
        let seen = try contexts(#"{ "type": "probe", "dictionary": "a.tsv" }"#)
        #expect(seen.first?.otherEntries.isEmpty == true)
        #expect(seen.first?.hasOtherEntry(type: "probe", dictionary: "a.tsv") == false)
    }
}
