#if Server
import Foundation
import Suggest

/// One search as a `suggest_user_recents.searches` row holds it: the fields of a `FOLDER/PROVIDER/USER.json`
/// entry (`text`, `tokens`, `scope`, `uses`, `score`, `firstUsed` and `lastUsed` in seconds since 1970).
struct StoredSearch: Codable, Sendable {
    var text: String
    var tokens: [SearchToken]?
    var scope: String?
    var uses: Int
    var score: Double
    var firstUsed: Double
    var lastUsed: Double

    init(_ search: RecentSearch) {
        text = search.query.text
        tokens = search.query.tokens.isEmpty ? nil : search.query.tokens
        scope = search.query.scope?.name
        uses = search.uses
        score = search.score
        firstUsed = search.firstUsed.timeIntervalSince1970
        lastUsed = search.lastUsed.timeIntervalSince1970
    }

    /// A row's searches as JSON (an array, keys sorted).
    static func encode(_ searches: [RecentSearch]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Plain values (strings, numbers, arrays): encoding cannot fail.
        let data = (try? encoder.encode(searches.map(StoredSearch.init))) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A row's searches.
    /// - Throws: ``Problem`` naming the entry at fault.
    static func decode(_ json: String) throws(Problem) -> [RecentSearch] {
        let entries: [StoredSearch]
        do {
            entries = try JSONDecoder().decode([StoredSearch].self, from: Data(json.utf8))
        } catch {
            throw Problem(description: "not an array of searches: \(error)")
        }
        var searches: [RecentSearch] = []
        searches.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            guard entry.uses >= 1, entry.score.isFinite, entry.score > 0, entry.firstUsed.isFinite,
                entry.lastUsed.isFinite, entry.firstUsed <= entry.lastUsed
            else { throw Problem(description: "searches[\(i)]: uses, score or times out of range") }
            guard !entry.text.isEmpty || !(entry.tokens ?? []).isEmpty else {
                throw Problem(description: "searches[\(i)]: neither text nor tokens")
            }
            searches.append(
                RecentSearch(
                    query: SearchQuery(
                        text: entry.text, tokens: entry.tokens ?? [], scope: entry.scope.map { SearchScope($0) }),
                    firstUsed: Date(timeIntervalSince1970: entry.firstUsed),
                    lastUsed: Date(timeIntervalSince1970: entry.lastUsed),
                    uses: entry.uses, score: entry.score))
        }
        return searches
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }
}
#endif
