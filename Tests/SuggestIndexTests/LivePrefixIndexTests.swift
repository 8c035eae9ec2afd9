import SuggestCore
import Testing

@testable import SuggestIndex

struct LivePrefixIndexTests {
    func texts(_ live: LivePrefixIndex, _ text: String, limit: Int = 10, scope: String? = nil) -> [String] {
        var buffer = PrefixIndex.SearchBuffer()
        let query = PreparedQuery(SearchQuery(text: text, scope: scope.map { SearchScope($0) }))
        return live.search(query, limit: limit, buffer: &buffer).map(\.text)
    }

    func makeLive() throws -> LivePrefixIndex { LivePrefixIndex(PrefixIndex(dictionary: try Fixture.dictionary())) }

    @Test func addsNewTermsWithoutRebuilding() throws {
        let live = try makeLive()
        try live.insert("Newcastle upon Tyne", weight: 850)
        #expect(texts(live, "new", limit: 3) == ["news", "Newcastle upon Tyne", "New York"])
        #expect(texts(live, "tyne") == ["Newcastle upon Tyne"])
        #expect(live.pendingChangeCount == 1)
    }

    @Test func anAddedEntryMatchesEveryWordWithTyposLikeTheBase() throws {
        let live = try makeLive()
        try live.insert("The Little Mermaid", weight: 70)
        var buffer = PrefixIndex.SearchBuffer()
        let query = PreparedQuery(SearchQuery(text: "mermaid litle"))
        let matches = live.search(query, limit: 10, everyWord: true, buffer: &buffer)
        #expect(matches.map(\.text) == ["The Little Mermaid"])
        #expect(matches.map(\.tier) == [.oneTypo])
        #expect(matches.map(\.typos) == [1])
        #expect(matches.map(\.keyOffset) == [0])
        #expect(live.search(query, limit: 10, everyWord: false, buffer: &buffer).isEmpty)
    }

    @Test func reweightsAndRemovesExistingEntries() throws {
        let live = try makeLive()
        try live.insert("newton", weight: 10_000)
        #expect(texts(live, "new", limit: 2) == ["newton", "news"])
        #expect(live.remove("news"))
        #expect(!live.remove("no such entry"))
        #expect(texts(live, "new", limit: 3) == ["newton", "New York", "Newark"])
        #expect(live.remove("newton"))
        #expect(texts(live, "newt").isEmpty)
    }

    @Test func compactFoldsTheOverlayIn() throws {
        let live = try makeLive()
        try live.insert("newsletter", weight: 950)
        live.remove("Newark")
        let before = texts(live, "new")
        #expect(live.compact())
        #expect(live.pendingChangeCount == 0)
        #expect(texts(live, "new") == before)
        #expect(before.first == "newsletter")
        #expect(!before.contains("Newark"))
    }

    @Test func rejectsBadUpdates() throws {
        let live = try makeLive()
        #expect(throws: PrefixIndexUpdateError.self) { try live.insert("x", weight: -1) }
        #expect(throws: PrefixIndexUpdateError.self) { try live.insert("x", weight: .nan) }
        #expect(throws: PrefixIndexUpdateError.self) { try live.insert(" - ", weight: 1) }
    }

    @Test func overlayRespectsScopes() throws {
        let live = LivePrefixIndex(PrefixIndex(dictionary: WeightedDictionary(entries: [("pytest", 5, "tools")])))
        try live.insert("python", weight: 9, scope: "languages")
        #expect(texts(live, "py", scope: "tools") == ["pytest"])
        #expect(texts(live, "py") == ["python", "pytest"])
    }
}
