import Foundation
import SuggestCore
import SuggestIndex

/// Popular searches in a JSON Lines file: a header line, then one line per search.
///
/// ```
/// {"popular":1,"salt":"9f2c…(32 hex digits)"}
/// {"text":"New York","users":7,"score":6.5,"lastUsed":1795000000.5,"userHashes":[3410928811,12004,…]}
/// ```
/// - `popular`: the format version (1). A file with a newer version is an error (it is never overwritten).
/// - `salt`: the salt of the user hashes (see ``PopularQuery/userHashes``): ids are never stored.
/// - one line per search: `text` (non-empty), `users` (an integer of 1 or more), `score` (a finite number of 0
///   or more), `lastUsed` (seconds since 1970), `userHashes` (integers from 0 to 4294967295).
///
/// Reading is strict: an unknown key, a missing or wrong value, or a line that is not JSON is a
/// ``PopularStoreError`` naming `file:line` (and the column, for bad JSON). Two lines with the same search (by
/// ``PopularQuery/key(for:)``) are merged. A missing file is an empty store. Writing replaces the file
/// atomically (a temporary file next to it, flushed and renamed over it), following a symbolic link.
public struct PopularFileStore: PopularStore {
    /// The format version this build reads and writes.
    public static let formatVersion = 1

    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func load() throws -> PopularSnapshot? {
        let bytes: [UInt8]
        do {
            bytes = try TextFile.read(path)
        } catch {
            if error == .missing { return nil }
            throw PopularStoreError(path: path, message: error.description)
        }
        return try Self.parse(bytes, path: path)
    }

    public func save(_ snapshot: PopularSnapshot) throws {
        do {
            try AtomicFileWriter.write(Self.encode(snapshot), to: path)
        } catch {
            throw PopularStoreError(path: path, message: "cannot be written: \(error.reason)")
        }
    }

    /// The file's bytes for `snapshot`.
    static func encode(_ snapshot: PopularSnapshot) -> [UInt8] {
        var out = JSONBytes(capacity: 64 + snapshot.queries.count * 96)
        out.raw("{\"popular\":")
        out.integer(formatVersion)
        out.raw(",\"salt\":")
        out.quoted(snapshot.salt)
        out.raw("}\n")
        for query in snapshot.queries {
            out.raw("{\"text\":")
            out.quoted(query.text)
            out.raw(",\"users\":")
            out.integer(query.users)
            out.raw(",\"score\":")
            out.number(query.score)
            out.raw(",\"lastUsed\":")
            out.number(query.lastUsed.timeIntervalSince1970)
            out.raw(",\"userHashes\":[")
            for (i, hash) in query.userHashes.enumerated() {
                if i > 0 { out.byte(0x2C) }
                out.integer(Int(hash))
            }
            out.raw("]}\n")
        }
        return out.bytes.withUnsafeBufferPointer { Array($0) }
    }

    /// Reads a file's bytes (see the type's documentation).
    /// - Throws: ``PopularStoreError`` at the first bad line.
    static func parse(_ bytes: [UInt8], path: String) throws(PopularStoreError) -> PopularSnapshot {
        var salt: String? = nil
        var queries: [PopularQuery] = []
        for line in TextLines(bytes) {
            let text = bytes[line.range]
            if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            func fail(_ message: String) -> PopularStoreError {
                PopularStoreError(path: path, line: line.number, message: message)
            }
            let value: JSONValue
            do {
                value = try JSONParser.parse(Array(text))
            } catch {
                throw fail("column \(error.column): \(error.message)")
            }
            guard case .object(let object) = value else {
                throw fail("expected a JSON object, found \(value.kindDescription)")
            }
            if salt == nil {
                salt = try header(object, fail: fail)
                continue
            }
            queries.append(try query(object, fail: fail))
        }
        guard let salt else {
            throw PopularStoreError(path: path, line: 1, message: "empty file: expected the header line {\"popular\":1,\"salt\":…}")
        }
        return PopularSnapshot(salt: salt, queries: queries)
    }

    private static func header(
        _ object: JSONObject,
        fail: (String) -> PopularStoreError
    ) throws(PopularStoreError) -> String {
        guard case .number(let version)? = object["popular"] else {
            throw fail("expected the header line {\"popular\":1,\"salt\":…}")
        }
        guard version == version.rounded(), version >= 1 else {
            throw fail("\"popular\" must be a format version (1), found number \(version)")
        }
        guard version <= Double(formatVersion) else {
            throw fail("file format version \(Int(version)) is newer than this build reads (\(formatVersion))")
        }
        for key in object.keys where key != "popular" && key != "salt" {
            throw fail("unknown key \"\(key)\" in the header (keys: popular, salt)")
        }
        guard case .string(let salt)? = object["salt"], UserHash(hex: salt) != nil else {
            throw fail("\"salt\" must be 32 lowercase hex digits, found \(object["salt"]?.kindDescription ?? "nothing")")
        }
        return salt
    }

    static let queryKeys = ["text", "users", "score", "lastUsed", "userHashes"]

    private static func query(
        _ object: JSONObject,
        fail: (String) -> PopularStoreError
    ) throws(PopularStoreError) -> PopularQuery {
        for key in object.keys where !queryKeys.contains(key) {
            throw fail("unknown key \"\(key)\" (keys: \(queryKeys.joined(separator: ", ")))")
        }
        func found(_ key: String) -> String { object[key]?.kindDescription ?? "nothing" }
        guard case .string(let text)? = object["text"], !PopularQuery.key(for: text).isEmpty else {
            throw fail("\"text\" must be a search's text, found \(found("text"))")
        }
        guard case .number(let users)? = object["users"], users == users.rounded(), users >= 1 else {
            throw fail("\"users\" must be an integer of 1 or more, found \(found("users"))")
        }
        guard case .number(let score)? = object["score"], score.isFinite, score >= 0 else {
            throw fail("\"score\" must be a finite number of 0 or more, found \(found("score"))")
        }
        guard case .number(let lastUsed)? = object["lastUsed"], lastUsed.isFinite else {
            throw fail("\"lastUsed\" must be a time in seconds since 1970, found \(found("lastUsed"))")
        }
        var hashes: [UInt32] = []
        if let value = object["userHashes"] {
            guard case .array(let items) = value else {
                throw fail("\"userHashes\" must be an array of integers, found \(value.kindDescription)")
            }
            for (i, item) in items.enumerated() {
                guard case .number(let n) = item, n == n.rounded(), n >= 0, n <= Double(UInt32.max) else {
                    throw fail("\"userHashes\"[\(i)] must be an integer from 0 to 4294967295, found \(item.kindDescription)")
                }
                hashes.append(UInt32(n))
            }
        }
        return PopularQuery(
            text: PopularQuery.displayForm(of: text),
            users: users >= 9.2e18 ? Int.max : Int(users),
            score: score,
            lastUsed: Date(timeIntervalSince1970: lastUsed),
            userHashes: hashes
        )
    }
}
