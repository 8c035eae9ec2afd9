import SuggestCore
import Testing

/// Swift and JSON speak one vocabulary: every engine option has the same name in both, and a provider lands in the
/// same section whichever way the engine is built.
@Suite struct VocabularyTests {
    @Test func everyEngineOptionIsNamedAsItsJSONKey() {
        let swiftNames = Set(Mirror(reflecting: EngineOptions()).children.compactMap(\.label))
        let jsonOptionKeys = Set(EngineConfiguration.topLevelKeys).subtracting(["version", "providers"])
        #expect(swiftNames == jsonOptionKeys)
    }

    @Test func everyJSONOptionIsRead() throws {
        let configuration = try EngineConfiguration(
            json: """
                { "version": 1, "limit": 3, "groupSections": false, "learnFromSelections": false,
                  "maxQueryLength": 64, "tiebreak": ["provider"], "sections": [ { "title": "A", "quota": 1 } ],
                  "providers": [] }
                """,
            registry: .core
        )
        var expected = EngineOptions()
        expected.limit = 3
        expected.groupSections = false
        expected.learnFromSelections = false
        expected.maxQueryLength = 64
        expected.tiebreak = [.provider]
        expected.sections = [.init(title: "A", quota: 1)]
        #expect(configuration.options == expected)
    }

    struct Sectioned: ConfigurableProvider {
        struct Configuration: Decodable, Sendable {}
        static let typeName = "sectioned"
        static var defaultSection: String? { "Own" }
        let id = "sectioned"
        init() {}
        init(configuration: Configuration, context: ProviderContext) throws {}
        func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
            if let match = request.match("Alpha") { output.append(match) }
        }
    }

    struct Plain: SuggestionProvider {
        let id = "plain"
        func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
            if let match = request.match("Alpine") { output.append(match) }
        }
    }

    @Test func aProviderTypesDefaultSectionHoldsInSwiftAsInJSON() throws {
        let swift = SuggestionEngine(providers: [Sectioned(), Plain()])
        var registry = ProviderRegistry.core
        registry.register(Sectioned.self)
        let json = try EngineConfiguration(
            json: #"{ "version": 1, "providers": [ { "type": "sectioned" } ] }"#,
            registry: registry
        )
        #expect(ProviderSlot(Sectioned()).section == "Own")
        #expect(ProviderSlot(Plain()).section == SuggestionEngine.defaultSection)
        #expect(ProviderSlot(Sectioned(), section: "Mine").section == "Mine")
        #expect(json.slots.map(\.section) == ["Own"])
        let sections = swift.suggestions(for: "alp").sections.map { $0.title }
        #expect(sections == ["Own", SuggestionEngine.defaultSection])
    }
}
