import Foundation
import Testing
import SuggestCore
@testable import SuggestRecents

/// Many tasks recording, removing and suggesting at once (run under the thread sanitizer too:
/// `swift test --scratch-path .build-tsan --sanitize=thread --filter SuggestRecentsTests`).
struct ConcurrencyTests {
    @Test func recordRemoveAndSuggestFromManyTasksAtOnce() async {
        let provider = RecentsProvider(options: .init(capacity: 50))
        let engine = SuggestionEngine(slots: [ProviderSlot(provider, section: "Recent")])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var session = TypingSession()
                    for i in 0..<300 {
                        switch (task + i) % 5 {
                        case 0, 1: provider.record(SearchQuery(text: "search \(task) \(i % 40)"))
                        case 2: provider.remove(SearchQuery(text: "search \((task + 1) % 8) \(i % 40)"))
                        case 3:
                            let result = engine.suggestions(for: SearchQuery(text: "search \(task)"), session: &session)
                            precondition(result.suggestions.allSatisfy { $0.section == "Recent" })
                        default:
                            _ = provider.candidates("")
                            _ = provider.searches
                            if i % 50 == 0 { provider.clear() }
                        }
                    }
                }
            }
        }
        let searches = provider.searches
        #expect(searches.count <= 50)
        #expect(Set(searches.map(\.key)).count == searches.count)
        // The index and the list agree.
        #expect(Set(provider.candidates("", limit: 100).map(\.title)) == Set(searches.map(\.title)))
    }

    @Test func everyUseIsCountedUnderContention() async {
        let provider = RecentsProvider()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<250 {
                        provider.record(SearchQuery(text: "query \((task + i) % 10)"))
                        _ = provider.candidates("que")
                    }
                }
            }
        }
        let searches = provider.searches
        #expect(searches.count == 10)
        #expect(searches.map(\.uses).reduce(0, +) == 2_000)
    }

    @Test func sharedInMemoryStoreUnderContention() async {
        let store = InMemoryRecentsStore()
        let providers = (0..<4).map { _ in RecentsProvider(store: store) }
        await withTaskGroup(of: Void.self) { group in
            for (p, provider) in providers.enumerated() {
                group.addTask {
                    for i in 0..<200 {
                        provider.record(SearchQuery(text: "q\((p + i) % 7)"))
                        if i % 20 == 0 { _ = provider.candidates("q") }
                    }
                }
            }
        }
        #expect(store.searches.map(\.uses).reduce(0, +) == 800)
        for provider in providers { try? provider.synchronize() }
        #expect(providers.allSatisfy { $0.searches.map(\.uses).reduce(0, +) == 800 })
    }
}
