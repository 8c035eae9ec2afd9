import Foundation
import SuggestCore

/// The JSON file format of ``JSONFileRecentsStore`` (version 1):
///
/// ```json
/// { "version": 1,
///   "entries": [ { "text": "Python", "tokens": [ { "kind": "from", "value": "alice", "display": "From: alice" } ],
///                  "scope": "Docs", "uses": 3, "score": 2.4,
///                  "firstUsed": 1795308000.0, "lastUsed": 1795394400.0 } ] }
/// ```
/// Times are seconds since 1970 (UTC); `score` is the frecency at `lastUsed`. A users database keeps the same
/// entries, as a JSON array (``encodeEntries(_:)``, ``decodeEntries(_:label:)``).
package struct RecentsFile: Codable {
    struct Header: Decodable {
        var version: Int
    }

    struct EntryProblem: Error {}

    struct Entry: Codable {
        var text: String
        var tokens: [SearchToken]?
        var scope: String?
        var uses: Int
        var score: Double
        var firstUsed: Double
        var lastUsed: Double

        init(
            text: String, tokens: [SearchToken]?, scope: String?, uses: Int, score: Double, firstUsed: Double,
            lastUsed: Double
        ) {
            self.text = text
            self.tokens = tokens
            self.scope = scope
            self.uses = uses
            self.score = score
            self.firstUsed = firstUsed
            self.lastUsed = lastUsed
        }

        init(_ search: RecentSearch) {
            self.init(
                text: search.query.text,
                tokens: search.query.tokens.isEmpty ? nil : search.query.tokens,
                scope: search.query.scope?.name,
                uses: search.uses,
                score: search.score,
                firstUsed: search.firstUsed.timeIntervalSince1970,
                lastUsed: search.lastUsed.timeIntervalSince1970
            )
        }
    }

    var version: Int
    /// The id the journal (`recents.json.journal`) names when it follows this base; nil in files written before
    /// the journal existed (and in a base no journal followed yet).
    var journal: String?
    var entries: [Entry]

    init(_ searches: [RecentSearch], journal: String? = nil) {
        version = JSONFileRecentsStore.formatVersion
        self.journal = journal
        entries = searches.map(Entry.init)
    }

    /// Why `entry` is not a search, nil when it is one.
    static func fault(of entry: Entry) -> String? {
        guard entry.uses >= 1, entry.score.isFinite, entry.score > 0, entry.firstUsed.isFinite,
            entry.lastUsed.isFinite, entry.firstUsed <= entry.lastUsed
        else { return "uses, score or times out of range" }
        guard !entry.text.isEmpty || !(entry.tokens ?? []).isEmpty else { return "neither text nor tokens" }
        return nil
    }

    /// The search a checked entry stands for.
    private static func unchecked(_ entry: Entry) -> RecentSearch {
        RecentSearch(
            query: SearchQuery(text: entry.text, tokens: entry.tokens ?? [], scope: entry.scope.map { SearchScope($0) }),
            firstUsed: Date(timeIntervalSince1970: entry.firstUsed),
            lastUsed: Date(timeIntervalSince1970: entry.lastUsed),
            uses: entry.uses,
            score: entry.score
        )
    }

    /// The search an entry stands for, checked.
    static func search(_ entry: Entry) throws(EntryProblem) -> RecentSearch {
        if fault(of: entry) != nil { throw EntryProblem() }
        return unchecked(entry)
    }

    /// The searches `entries` stand for, each checked; `label` names the array in the error (`entries[3]: …`).
    static func searches(_ entries: [Entry], label: String) throws(Problem) -> [RecentSearch] {
        var searches: [RecentSearch] = []
        searches.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            if let fault = fault(of: entry) { throw .corrupt("\(label)[\(i)]: \(fault)") }
            searches.append(unchecked(entry))
        }
        return searches
    }

    /// `searches` as a JSON array of entries, keys sorted.
    package static func encodeEntries(_ searches: [RecentSearch]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Plain values (strings, numbers, arrays): encoding cannot fail.
        let data = (try? encoder.encode(searches.map(Entry.init))) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The searches of a JSON array of entries, each checked; `label` names the array in errors.
    package static func decodeEntries(_ json: String, label: String) throws(Problem) -> [RecentSearch] {
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: Data(json.utf8))
        } catch {
            throw .corrupt("not an array of searches: \(error)")
        }
        return try searches(entries, label: label)
    }

    /// What can go wrong reading a file.
    package enum Problem: Error {
        case corrupt(String)
        case newerVersion(Int)
    }

    /// Decodes and checks a file's bytes.
    static func decode(_ data: Data) throws(Problem) -> [RecentSearch] {
        try decodeWithJournalID(data).searches
    }

    /// Decodes and checks a file's bytes; also gives the id its journal must name.
    static func decodeWithJournalID(_ data: Data) throws(Problem) -> (searches: [RecentSearch], journal: String?) {
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw .corrupt(describe(error))
        }
        if header.version > JSONFileRecentsStore.formatVersion { throw .newerVersion(header.version) }
        guard header.version >= 1 else { throw .corrupt("unknown file format version \(header.version)") }
        let file: RecentsFile
        do {
            file = try decoder.decode(RecentsFile.self, from: data)
        } catch {
            throw .corrupt(describe(error))
        }
        let searches = try searches(file.entries, label: "entries")
        return (searches, file.journal)
    }

    static func encode(_ searches: [RecentSearch], journal: String? = nil) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = try encoder.encode(RecentsFile(searches, journal: journal))
        data.append(0x0A)
        return data
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not valid JSON" : "\(path): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            let path = (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
            return "missing \(path)"
        @unknown default:
            return "\(error)"
        }
    }
}
