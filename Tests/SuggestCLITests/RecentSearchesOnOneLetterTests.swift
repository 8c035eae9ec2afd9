import Foundation
import Suggest
@testable import suggest
import SuggestDemo
import Testing

/// Recent searches come back after one letter: a person who searched for something types its first letter and finds
/// it among the first five suggestions, next to a 20,000-word dictionary (prefix and fuzzy providers).
struct RecentSearchesOnOneLetterTests {
    /// Twenty searches with distinct three-letter prefixes; five of them start with "s".
    static let searches = [
        "swift concurrency", "spanish omelette", "stock prices", "sunset times", "sql joins", "python tutorial",
        "paris hotels", "weather tomorrow", "new york pizza", "machine learning", "coffee near me", "chicken curry",
        "best laptops 2026", "flights to rome", "guitar chords", "train schedule", "yoga for beginners",
        "knitting patterns", "einstein quotes", "roman empire",
    ]

    @Test func eachOfTwentySearchesIsInTheTopFiveAfterItsFirstLetter() throws {
        let words = try #require(DemoData.directory).appendingPathComponent("words.tsv").path
        let json = """
            {"version": 1, "providers": [{"type": "recent"}, {"type": "prefix", "dictionary": "\(words)"},
              {"type": "fuzzy", "dictionary": "\(words)"}]}
            """
        let engine = try EngineConfiguration(json: json, registry: .builtIn).makeEngine()
        #expect(Set(Self.searches.map { $0.prefix(3) }).count == 20)
        for search in Self.searches { engine.submit(SearchQuery(text: search)) }
        var found: [String] = []
        for search in Self.searches {
            let top = engine.suggestions(for: String(search.prefix(1))).suggestions.prefix(5).map(\.title)
            if top.contains(search) { found.append(search) } else { Issue.record("\(search): \(top)") }
        }
        #expect(found.count == 20)
        // They are in the "Recent" section, and the dictionary still fills the rest of the list.
        let s = engine.suggestions(for: "s")
        #expect(s.sections.first?.title == "Recent")
        #expect(s.sections.first?.suggestions.count == 5)
        #expect(s.suggestions.count == EngineOptions().limit)
    }
}
