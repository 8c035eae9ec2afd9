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

        private enum CodingKeys: String, CodingKey {
            case text, tokens, scope, uses, score, firstUsed, lastUsed
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            text = try c.decode(String.self, forKey: .text)
            tokens = try c.decodeIfPresent([SearchToken].self, forKey: .tokens)
            scope = try c.decodeIfPresent(String.self, forKey: .scope)
            // Counts saturate at Int.max, which a JSON number (a double) holds as 2^63.
            let count = try c.decode(Double.self, forKey: .uses)
            guard count.isFinite, count == count.rounded(), count >= Double(Int.min), count <= Double(Int.max) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .uses, in: c, debugDescription: "expected a whole number of uses, found \(count)")
            }
            uses = count >= Double(Int.max) ? Int.max : Int(count)
            score = try c.decode(Double.self, forKey: .score)
            firstUsed = try c.decode(Double.self, forKey: .firstUsed)
            lastUsed = try c.decode(Double.self, forKey: .lastUsed)
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
    /// The journal id of the base this one replaced: a journal naming it was compacted into this base already (its
    /// writer died before removing it). Nil before the first compaction and in files written before it was kept.
    var previousJournal: String?
    var entries: [Entry]

    init(_ searches: [RecentSearch], journal: String? = nil, previousJournal: String? = nil) {
        version = JSONFileRecentsStore.formatVersion
        self.journal = journal
        self.previousJournal = previousJournal
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
            entries = try decodeJSON([Entry].self, from: Array(json.utf8), path: label)
        } catch {
            guard case .corrupt(let reason) = error else { throw error }
            throw .corrupt("not an array of searches: \(reason)")
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

    /// Decodes and checks a file's bytes; also gives the id its journal must name, and the id a journal left from
    /// the base it replaced names.
    static func decodeWithJournalID(_ data: Data) throws(Problem) -> (
        searches: [RecentSearch], journal: String?, previousJournal: String?
    ) {
        let value = try parseJSON(Array(data))
        let header = try decodeJSON(Header.self, from: value)
        if header.version > JSONFileRecentsStore.formatVersion { throw .newerVersion(header.version) }
        guard header.version >= 1 else { throw .corrupt("unknown file format version \(header.version)") }
        let file = try decodeJSON(RecentsFile.self, from: value)
        let searches = try searches(file.entries, label: "entries")
        return (searches, file.journal, file.previousJournal)
    }

    static func encode(
        _ searches: [RecentSearch], journal: String? = nil, previousJournal: String? = nil
    ) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = try encoder.encode(RecentsFile(searches, journal: journal, previousJournal: previousJournal))
        data.append(0x0A)
        return data
    }

    /// The JSON document in `bytes`, strictly (no duplicate keys, valid UTF-8); a syntax error names its line and
    /// column, counted from `line`.
    static func parseJSON(_ bytes: [UInt8], line: Int = 1) throws(Problem) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw .corrupt("line \(error.line + line - 1), column \(error.column): \(error.message)")
        }
    }

    /// `type` from `value`: a value of the wrong kind, or a key missing, names its JSON path (`entries[3].uses`)
    /// after `path`, and after `line N: ` for the value of one line of a file.
    static func decodeJSON<T: Decodable>(_ type: T.Type, from value: JSONValue, path: String = "", line: Int? = nil)
        throws(Problem) -> T
    {
        do {
            return try JSONValueDecoder().decode(type, from: value)
        } catch {
            let at =
                path.isEmpty || error.path.isEmpty
                ? path + error.path : path + (error.path.hasPrefix("[") ? "" : ".") + error.path
            let reason = at.isEmpty ? error.message : "\(at): \(error.message)"
            throw .corrupt(line.map { "line \($0): \(reason)" } ?? reason)
        }
    }

    /// `type` from the JSON text in `bytes` (``parseJSON(_:line:)``, then ``decodeJSON(_:from:path:line:)``): the
    /// whole file, or its line `line`.
    static func decodeJSON<T: Decodable>(_ type: T.Type, from bytes: [UInt8], path: String = "", line: Int? = nil)
        throws(Problem) -> T
    {
        try decodeJSON(type, from: try parseJSON(bytes, line: line ?? 1), path: path, line: line)
    }
}
