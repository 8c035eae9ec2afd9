// A package's validator, as `swift package suggest-validate` runs it: the built-in provider types plus the
// package's own — the `colors` and `contacts` types of the guides — checked fully. The plugin finds this executable
// because it depends on SuggestValidation; `Tests/SuggestCLITests/ValidatorCommandTests.swift` runs it. The types
// are copies of the guides' (`Tests/SuggestTestingTests/ReadmeExampleTests.swift` compiles those); the last lines
// are the validator `main` of SuggestValidation's guide.
import Suggest
import SuggestValidation
import Synchronization

struct ColorProvider: ConfigurableProvider {
    struct Configuration: Decodable, Sendable {
        var names: [String]
    }

    static let typeName = "colors"
    let id: String
    let names: [String]

    init(configuration: Configuration, context: ProviderContext) throws {
        guard !configuration.names.isEmpty else { throw context.error(at: "names", "expected at least one name") }
        id = context.id
        names = configuration.names
    }

    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        for name in names {
            if let match = request.match(name, systemImage: "paintpalette") { output.append(match) }
        }
        output.keepBest(perTier: request.limit)
    }
}

final class ContactStore: Sendable {
    struct Contact: Sendable {
        var name: String
        var email: String
    }

    private let contacts = Mutex<[Contact]>([])
    var all: [Contact] { contacts.withLock { $0 } }
}

struct ContactsProvider: SuggestionProvider {
    let id: String
    let store: ContactStore

    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        for contact in store.all {
            if let match = request.matchAnyWord(contact.name, alsoMatching: [contact.email]) { output.append(match) }
        }
        output.keepBest(perTier: request.limit)
    }
}

var registry = ProviderRegistry.builtIn
registry.register(ColorProvider.self)
registry.register("contacts") { context in ContactsProvider(id: context.id, store: ContactStore()) }
SuggestValidation.main(registry: registry)
