import Suggest
import SuggestTesting
import Synchronization
import Testing

// SuggestCore.docc/WritingAProvider.md ("Live app data") and SuggestTesting.docc/ConformanceKit.md, compiled and run here.

/// The app's contacts; they change while the app runs.
final class ContactStore: Sendable {
    struct Contact: Sendable {
        var name: String
        var email: String
    }

    private let contacts = Mutex<[Contact]>([])
    func add(_ contact: Contact) { contacts.withLock { $0.append(contact) } }
    var all: [Contact] { contacts.withLock { $0 } }
}

struct ContactsProvider: SuggestionProvider {
    let id: String
    let store: ContactStore

    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        for contact in store.all {
            let person = SearchToken(kind: "person", value: contact.email, display: contact.name)
            if let match = request.matchAnyWord(
                contact.name, alsoMatching: [contact.email],
                completion: .token(person), subtitle: contact.email, systemImage: "person.crop.circle"
            ) {
                output.append(match)
            }
        }
        output.keepBest(perTier: request.limit)  // at most `limit` per tier, the most popular
    }
}

struct ContactsReadmeExampleTests {
    func makeContacts() -> ContactStore {
        let contacts = ContactStore()
        contacts.add(.init(name: "Alice Martin", email: "alice@example.com"))
        contacts.add(.init(name: "Bob Stone", email: "bob@corp.example"))
        return contacts
    }

    @Test func liveAppData() throws {
        let contacts = makeContacts()

        var registry = ProviderRegistry.builtIn
        registry.register("contacts", defaultSection: "People") { context in
            ContactsProvider(id: context.id, store: contacts)
        }
        let engine = try EngineConfiguration(
            json: #"{ "version": 1, "providers": [ { "type": "contacts" } ] }"#, registry: registry
        ).makeEngine()

        let lunch = engine.suggestions(for: "lunch with ali").suggestions  // Alice Martin (a person token), "Ali" in bold
        let bob = engine.suggestions(for: "bob@corp").suggestions  // Bob Stone, found by his email

        #expect(lunch.map(\.title) == ["Alice Martin"])
        #expect(
            lunch.first?.completion
                == .token(SearchToken(kind: "person", value: "alice@example.com", display: "Alice Martin")))
        #expect(lunch.first?.matchedRanges == [0..<3])
        #expect(lunch.first?.section == "People")
        #expect(bob.map(\.title) == ["Bob Stone"])
        #expect(bob.first?.matchedRanges == [])
        #expect(bob.first?.subtitle == "bob@corp.example")
        // Live: a contact added after the engine was built is found on the next keystroke.
        contacts.add(.init(name: "Alicia Keys", email: "ak@example.com"))
        #expect(
            engine.suggestions(for: "lunch with ali").suggestions.map(\.title).sorted() == [
                "Alice Martin", "Alicia Keys",
            ])
        #expect(engine.suggestions(for: "alice ma").suggestions.first?.tier == .prefix)
    }

    @Test func contactsProviderConforms() async throws {
        let contacts = makeContacts()
        try await ProviderConformance(
            ContactsProvider(id: "contacts", store: contacts), queries: ["al", "lunch with ali", "bob@corp", "zz"]
        ).run()
    }
}
