import Foundation
import SuggestCore

/// The journal of ``JSONFileRecentsStore`` (`recents.json.journal`): the changes made since the base file
/// (`recents.json`) was last rewritten, one JSON line each, appended with one `write` and an `fsync`.
///
/// ```
/// {"base":"6F1C…","v":1}
/// {"entry":{"firstUsed":1795308000,"lastUsed":1795308000,"score":1,"text":"Python","uses":1},"op":"use"}
/// {"at":1795308100,"key":"python","op":"remove"}
/// {"at":1795308200,"op":"clear"}
/// ```
/// The first line names the base it follows (the base's `journal` field). A journal that names the base this one
/// replaced (the base's `previousJournal`) was already compacted into it (the writer died before removing it) and is
/// ignored; one that names any other base (its header damaged, or the base replaced from elsewhere) is unreadable:
/// reported, and moved aside by the next write, never replaced. A last line without its newline, or not valid JSON,
/// was being written when its writer died: it is ignored.
struct RecentsJournal {
    struct Line: Codable {
        /// Header: the format version and the base's journal id.
        var v: Int?
        var base: String?
        /// Change: `use`, `remove` or `clear`.
        var op: String?
        var entry: RecentsFile.Entry?
        var key: String?
        var at: Double?
    }

    /// The changes of a journal that follows the base.
    var changes: [RecentsChange] = []
    /// Bytes up to the end of the last whole, valid line (a writer cuts the file there before appending).
    var validBytes = 0
    /// Change lines read.
    var lineCount = 0
    /// The journal is to be ignored and replaced: it names the base the base replaced (or another one, when the base
    /// does not say which it replaced), or it has no header.
    var isStale = true

    enum Problem: Error {
        case corrupt(String)
        case newerVersion(Int)
    }

    /// The changes of the lines of a journal that ``parse(_:baseID:previousID:stoppingAtBadLine:)`` finds
    /// unreadable, up to its first bad line: what can still be applied to the base (none when the journal is stale or
    /// its header is bad).
    static func changesBeforeBadLine(_ data: Data, baseID: String?, previousID: String?) -> [RecentsChange] {
        (try? parse(data, baseID: baseID, previousID: previousID, stoppingAtBadLine: true).changes) ?? []
    }

    /// Parses a journal for the base whose id is `baseID`. `previousID`: the journal id of the base that `baseID`'s
    /// replaced (nil when the base does not say: a journal naming another base is then taken as stale). With
    /// `stoppingAtBadLine`, a line that cannot be read (but the header) ends the journal instead of making it
    /// unreadable.
    static func parse(
        _ data: Data, baseID: String?, previousID: String? = nil, stoppingAtBadLine: Bool = false
    ) throws(Problem) -> RecentsJournal {
        var journal = RecentsJournal()
        let bytes = [UInt8](data)
        var start = 0
        var lineNumber = 0
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: 0x0A) else { break }  // torn last line: ignored
            lineNumber += 1
            let isLast = end == bytes.count - 1
            let line: Line
            do {
                line = try RecentsFile.decodeJSON(Line.self, from: Array(bytes[start..<end]), line: lineNumber)
            } catch {
                if isLast { break }  // the last line, cut short by a crash: ignored
                if stoppingAtBadLine && lineNumber > 1 { break }
                switch error {
                case .corrupt(let reason): throw .corrupt(reason)
                case .newerVersion(let version): throw .newerVersion(version)
                }
            }
            if let version = line.v, version > JSONFileRecentsStore.formatVersion { throw .newerVersion(version) }
            if lineNumber == 1 {
                guard line.op == nil else { throw .corrupt("line 1: no header") }
                if line.base != baseID {
                    // Already compacted into the base: stale. A base that names no previous journal (written before
                    // it was kept) cannot tell a damaged header from a stale one: stale too.
                    guard let previousID, line.base != previousID else { return RecentsJournal() }
                    throw .corrupt(
                        "line 1: follows base \(line.base.map(shown) ?? "none"), neither the base's"
                            + " (\(baseID.map(shown) ?? "none")) nor the one it replaced (\(shown(previousID)))")
                }
                journal.isStale = false
            } else {
                do {
                    journal.changes.append(try change(line))
                } catch {
                    if isLast || stoppingAtBadLine { break }
                    throw .corrupt("line \(lineNumber): \(error.reason)")
                }
                journal.lineCount += 1
            }
            start = end + 1
            journal.validBytes = start
        }
        return journal
    }

    /// An id read from a file as an error message shows it: at most 64 characters, control characters escaped.
    static func shown(_ id: String) -> String {
        let scalars = id.unicodeScalars
        var text = ""
        for scalar in scalars.prefix(64) {
            text += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return scalars.count > 64 ? text + "…" : text
    }

    struct BadLine: Error {
        var reason: String
    }

    static func change(_ line: Line) throws(BadLine) -> RecentsChange {
        switch line.op {
        case "use":
            guard let entry = line.entry else { throw BadLine(reason: "a use without its entry") }
            do {
                return .record(try RecentsFile.search(entry))
            } catch {
                throw BadLine(reason: "uses, score, times or text out of range")
            }
        case "remove":
            guard let key = line.key, let at = line.at, at.isFinite else { throw BadLine(reason: "a removal without key or time") }
            return .remove(key: key, at: Date(timeIntervalSince1970: at))
        case "clear":
            guard let at = line.at, at.isFinite else { throw BadLine(reason: "a clear without its time") }
            return .clear(at: Date(timeIntervalSince1970: at))
        default:
            throw BadLine(reason: "unknown op \(line.op ?? "nil")")
        }
    }

    static func header(baseID: String?) throws -> Data {
        try encodeLine(Line(v: JSONFileRecentsStore.formatVersion, base: baseID))
    }

    static func lines(_ changes: [RecentsChange]) throws -> Data {
        var data = Data()
        for change in changes {
            switch change {
            case .record(let search):
                data.append(try encodeLine(Line(op: "use", entry: RecentsFile.Entry(search))))
            case .remove(let key, let at):
                data.append(try encodeLine(Line(op: "remove", key: key, at: at.timeIntervalSince1970)))
            case .clear(let at):
                data.append(try encodeLine(Line(op: "clear", at: at.timeIntervalSince1970)))
            }
        }
        return data
    }

    private static func encodeLine(_ line: Line) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = try encoder.encode(line)
        data.append(0x0A)
        return data
    }

    /// Applies `changes` to stored searches as ``RecentsLedger`` would (a removal or clear drops a search unless it
    /// was made after it), without merging duplicates (the provider merges them when it loads).
    static func replay(_ changes: [RecentsChange], onto searches: [RecentSearch]) -> [RecentSearch] {
        guard !changes.isEmpty else { return searches }
        var items: [RecentSearch?] = searches
        items.reserveCapacity(searches.count + changes.count)
        // Keys are computed only once a removal or clear needs them.
        var groups: [String: [Int]]? = nil
        func buildGroups() -> [String: [Int]] {
            var groups: [String: [Int]] = [:]
            for (i, item) in items.enumerated() {
                if let item { groups[item.key, default: []].append(i) }
            }
            return groups
        }
        func drop(_ indices: [Int], ifNotUsedAfter date: Date) -> Bool {
            let last = indices.compactMap { items[$0]?.lastUsed }.max()
            guard let last, last <= date else { return false }
            for i in indices { items[i] = nil }
            return true
        }
        for change in changes {
            switch change {
            case .record(let search):
                items.append(search)
                groups?[search.key, default: []].append(items.count - 1)
            case .remove(let key, let at):
                if groups == nil { groups = buildGroups() }
                if let indices = groups![key], drop(indices, ifNotUsedAfter: at) { groups![key] = nil }
            case .clear(let at):
                if groups == nil { groups = buildGroups() }
                groups = groups!.filter { !drop($0.value, ifNotUsedAfter: at) }
            }
        }
        return items.compactMap { $0 }
    }
}
