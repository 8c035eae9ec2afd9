import Foundation
import SuggestCore
import SuggestIndex
import SuggestPrefix
import Testing
import SuggestTestSupport

/// The "From Swift" example of the prefix completion guide (SuggestPrefix.docc/PrefixCompletion.md) (there through `import Suggest`), compiled and run; the
/// index file goes to a temporary folder instead of the current one.
struct PrefixReadmeExampleTests {
    @Test func theReadmeExampleWorks() throws {
        let path = TestFolders.unique("suggest-readme-", ".idx")
        defer { try? FileManager.default.removeItem(atPath: path) }

        let dictionary = WeightedDictionary(entries: [
            (text: "python", weight: 1000, scope: nil),
            (text: "pytorch", weight: 700, scope: nil),
            (text: "New York", weight: 800, scope: "places"),
        ])
        let index = PrefixIndex(dictionary: dictionary)
        try index.write(toFile: path)

        let provider = PrefixProvider(index: index, infix: true)
        let engine = SuggestionEngine(providers: [provider])
        let titles = engine.suggestions(for: "py").suggestions.map(\.title)
        #expect(titles == ["python", "pytorch"])

        try provider.insert("pyodide", weight: 1200)
        provider.remove("pytorch")
        provider.compact()
        #expect(engine.suggestions(for: "py").suggestions.map(\.title) == ["pyodide", "python"])

        var buffer = PrefixIndex.SearchBuffer()
        index.search(IndexKey.key("New Yo"), limit: 10, into: &buffer)
        #expect(buffer.hits.map { index.dictionary.text(at: Int($0.entry)) } == ["New York"])
        #expect(try PrefixIndex(contentsOfFile: path).count == 3)
    }
}
