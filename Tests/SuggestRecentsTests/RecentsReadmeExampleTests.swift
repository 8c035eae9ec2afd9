import Foundation
import SuggestPattern
import Testing
import SuggestCore
@testable import SuggestRecents

/// The example of the recent searches guide (SuggestRecents.docc/RecentSearches.md), compiled and run.
struct RecentsReadmeExampleTests {
    @Test func readmeExample() throws {
        let folder = makeTemporaryFolder()
        // --- guide example begins ---
        let recents = RecentsProvider(
            id: "history",
            store: JSONFileRecentsStore(path: folder + "/recents.json"),
            options: .init(
                capacity: 200,
                halfLife: .seconds(7 * 86_400),
                exclusion: try RecentsExclusion(minimumLength: 2, patterns: [#"^\d{12,19}$"#, "password"])
            )
        )
        let engine = SuggestionEngine(slots: [
            ProviderSlot(recents, section: "Recent"),
            ProviderSlot(StaticProvider(items: [.init(title: "Apple"), .init(title: "Apricot")])),
        ])

        // The person pressed return: every provider hears of it; recents remember it, tokens and all.
        let from = SearchToken(kind: "from", value: "alice", display: "From: alice")
        engine.submit(SearchQuery(text: "apple pie", tokens: [from]))

        // Empty field: recent searches, most recent first. Typing: the ones that match, in the "Recent" section.
        var session = TypingSession()
        let result = engine.suggestions(for: SearchQuery(text: "ap"), session: &session)
        for suggestion in result.sections.first(where: { $0.title == "Recent" })?.suggestions ?? [] {
            // Put the whole search back: text, tokens and scope.
            if let query = recents.storedQuery(for: suggestion) {
                print(query.text, query.tokens)  // apple pie [from:alice]
            }
        }

        // Manage the history.
        recents.remove(SearchQuery(text: "apple pie", tokens: [from]))
        recents.clear()
        if let problem = recents.loadProblem { print("recent searches:", problem) }
        // --- guide example ends ---
        #expect(result.sections.first?.suggestions.first?.subtitle == "From: alice")
        #expect(recents.searches.isEmpty)
    }
}
