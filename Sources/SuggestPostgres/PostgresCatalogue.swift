import Foundation
public import PostgresNIO
public import SuggestCore
import SuggestIndex
import Logging

/// A dictionary table in PostgreSQL: `(text, weight, scope, folded)`, where `folded` is the entry's canonical key
/// (``IndexKey``: folded by ``TextNormalizer`` — case, diacritics, width — separators collapsed to one space),
/// written by ``PostgresImporter`` in Swift so that it folds exactly as the in-memory providers do.
///
/// Indexes: `folded text_pattern_ops` (prefixes, byte order whatever the database's collation), `weight DESC`
/// (the planner scans by weight and filters when a short prefix matches most rows), and a `pg_trgm` GIN index on
/// `folded` (word-prefix `LIKE '% york%'` and typo matches with `%>`).
public struct PostgresCatalogue: Hashable, Sendable {
    /// The table's name: lowercase letters, digits and `_`, starting with a letter or `_`, at most 40 characters
    /// (so that its index names fit PostgreSQL's 63).
    public let table: String

    /// - Throws: ``PostgresSettingsError`` when `table` is not a plain lowercase identifier.
    public init(table: String = "suggestions") throws(PostgresSettingsError) {
        guard Self.isValidName(table) else {
            throw PostgresSettingsError(
                "\"\(table)\" is not a table name: expected lowercase letters, digits and _ (starting with a letter or _), at most 40 characters")
        }
        self.table = table
    }

    static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...40).contains(bytes.count) else { return false }
        for (i, b) in bytes.enumerated() {
            let letter = (b >= 0x61 && b <= 0x7A) || b == 0x5F
            let digit = b >= 0x30 && b <= 0x39
            if !(letter || (i > 0 && digit)) { return false }
        }
        return true
    }

    /// The table's name, quoted for SQL.
    public var quoted: String { "\"\(table)\"" }

    /// The statements that create the extension, the table and its indexes (indexes after the rows are loaded:
    /// building them once is faster than updating them per row).
    public var createTable: String {
        "CREATE TABLE \(quoted) (text text NOT NULL, weight double precision NOT NULL, scope text, folded text NOT NULL)"
    }

    public var createIndexes: [String] {
        [
            "CREATE INDEX \"\(table)_folded_prefix\" ON \(quoted) (folded text_pattern_ops)",
            "CREATE INDEX \"\(table)_weight\" ON \(quoted) (weight DESC)",
            "CREATE INDEX \"\(table)_folded_trgm\" ON \(quoted) USING gin (folded gin_trgm_ops)",
        ]
    }

    /// One keystroke's SQL: `$1` the query's key, `$2` its prefix pattern, `$3` its word-prefix pattern (or NULL),
    /// `$4` rows fetched per tier, `$5` the scope (or NULL), `$6` whether to look for typos, `$7` typo rows,
    /// `$8` the limit.
    ///
    /// Four parts in one round trip: the exact entry, prefixes by weight, word prefixes by weight only when the
    /// prefixes did not fill `$8`, typo candidates (`pg_trgm` word similarity, best first) only when neither did.
    /// Each part is `MATERIALIZED` so the gates are evaluated once (a one-time filter skips the scan).
    var keystroke: String {
        let scope = "($5::text IS NULL OR scope IS NULL OR scope = $5::text)"
        return """
            WITH x AS MATERIALIZED (SELECT text, weight, folded FROM \(quoted) WHERE folded = $1::text AND \(scope) ORDER BY weight DESC LIMIT 1),
            p AS MATERIALIZED (SELECT text, weight, folded FROM \(quoted) WHERE folded LIKE $2::text AND \(scope) ORDER BY weight DESC LIMIT $4::int),
            w AS MATERIALIZED (SELECT text, weight, folded FROM \(quoted) WHERE $3::text IS NOT NULL AND (SELECT count(*) FROM p) < $8::int AND folded LIKE $3::text AND \(scope) ORDER BY weight DESC LIMIT $4::int),
            t AS MATERIALIZED (SELECT text, weight, folded FROM \(quoted) WHERE $6::bool AND (SELECT count(*) FROM p) + (SELECT count(*) FROM w) < $8::int AND folded %> $1::text AND folded NOT LIKE $2::text AND \(scope) ORDER BY folded <->> $1::text, weight DESC LIMIT $7::int)
            SELECT 0, text, weight, folded FROM x UNION ALL SELECT 1, text, weight, folded FROM p
            UNION ALL SELECT 2, text, weight, folded FROM w UNION ALL SELECT 3, text, weight, folded FROM t
            """
    }

    /// `LIKE` pattern text with `\`, `%` and `_` escaped (canonical keys hold none of them — they are separators —
    /// but the escape keeps any key literal).
    static func likeEscaped(_ key: String) -> String {
        var out = ""
        out.reserveCapacity(key.utf8.count)
        for c in key.unicodeScalars {
            if c == "\\" || c == "%" || c == "_" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out
    }
}

/// Loads a dictionary into a ``PostgresCatalogue`` table with `COPY … FROM STDIN`, in one transaction: the
/// `pg_trgm` extension (if missing), the table (dropped first with `replace`), the rows, the indexes, then `ANALYZE`.
/// Readers see the old table until the new one is committed.
public enum PostgresImporter: Sendable {
    /// What an import did.
    public struct Report: Hashable, Sendable {
        public var rows: Int
        /// Time spent sending rows (`COPY`) and building indexes.
        public var copy: Duration
        public var indexes: Duration
    }

    /// Imports `dictionary` into `catalogue` over one connection to `settings`' database.
    /// - Throws: ``PostgresSettingsError`` with the server's message (an existing table without `replace`, a
    ///   missing `pg_trgm`, no permission) or the connection problem.
    public static func load(
        _ dictionary: WeightedDictionary,
        into catalogue: PostgresCatalogue,
        settings: PostgresConnectionSettings,
        replace: Bool
    ) async throws -> Report {
        let logger = Logger(label: "suggest.postgres.import")
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: try settings.connectionConfiguration(), id: 1, logger: logger)
        } catch {
            throw PostgresSettingsError("cannot connect: \(PostgresErrorText.describe(error))")
        }
        do {
            let report = try await load(dictionary, into: catalogue, connection: connection, replace: replace)
            try? await connection.close()
            return report
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Imports `dictionary` into `catalogue` over `connection`, in one transaction.
    public static func load(
        _ dictionary: WeightedDictionary,
        into catalogue: PostgresCatalogue,
        connection: PostgresConnection,
        replace: Bool
    ) async throws -> Report {
        let logger = Logger(label: "suggest.postgres.import")
        do {
            try await connection.query("BEGIN", logger: logger)
            do {
                let report = try await load(dictionary, into: catalogue, connection: connection, replace: replace, logger: logger)
                try await connection.query("COMMIT", logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: "ANALYZE \(catalogue.quoted)"), logger: logger)
                return report
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        } catch let error as PostgresSettingsError {
            throw error
        } catch {
            var message = PostgresErrorText.describe(error)
            if message.contains("already exists") { message += " (give --replace to replace its rows)" }
            throw PostgresSettingsError(message)
        }
    }

    static func load(
        _ dictionary: WeightedDictionary,
        into catalogue: PostgresCatalogue,
        connection: PostgresConnection,
        replace: Bool,
        logger: Logger
    ) async throws -> Report {
        // Another session may create the extension at the same moment: harmless with IF NOT EXISTS.
        try await connection.query("CREATE EXTENSION IF NOT EXISTS pg_trgm", logger: logger)
        if replace { try await connection.query(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(catalogue.quoted)"), logger: logger) }
        try await connection.query(PostgresQuery(unsafeSQL: catalogue.createTable), logger: logger)
        let clock = ContinuousClock()
        let start = clock.now
        try await connection.copyFrom(
            table: catalogue.table, columns: ["text", "weight", "scope", "folded"], logger: logger
        ) { writer in
            var chunk: [UInt8] = []
            chunk.reserveCapacity((1 << 20) + 4096)
            var key: [UInt8] = []
            var starts: [Int] = []
            let scopeBytes: [[UInt8]] = dictionary.scopeNames.map { Array($0.utf8) }
            for i in 0..<dictionary.count {
                dictionary.textBytes.withUnsafeBufferPointer { all in
                    let text = UnsafeBufferPointer(rebasing: all[dictionary.textRange(at: i)])
                    appendEscaped(text, to: &chunk)
                    chunk.append(0x09)
                    appendWeight(dictionary.weight(at: i), to: &chunk)
                    chunk.append(0x09)
                    let scope = Int(dictionary.scopeIndices[i])
                    if scope > 0 {
                        scopeBytes[scope - 1].withUnsafeBufferPointer { appendEscaped($0, to: &chunk) }
                    } else {
                        chunk.append(0x5C)
                        chunk.append(0x4E)  // \N: NULL
                    }
                    chunk.append(0x09)
                    key.removeAll(keepingCapacity: true)
                    starts.removeAll(keepingCapacity: true)
                    IndexKey.append(utf8: text, to: &key, wordStarts: &starts)
                    key.withUnsafeBufferPointer { appendEscaped($0, to: &chunk) }
                    chunk.append(0x0A)
                }
                if chunk.count >= 1 << 20 {
                    try await writer.write(ByteBuffer(bytes: chunk))
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            if !chunk.isEmpty { try await writer.write(ByteBuffer(bytes: chunk)) }
        }
        let copied = clock.now
        for statement in catalogue.createIndexes {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        return Report(rows: dictionary.count, copy: copied - start, indexes: clock.now - copied)
    }

    /// A weight as `COPY` text: integral weights without a fraction.
    static func weightText(_ weight: Double) -> String {
        if weight == weight.rounded(), abs(weight) < 1e15 { return String(Int64(weight)) }
        return "\(weight)"
    }

    static func appendWeight(_ weight: Double, to chunk: inout [UInt8]) {
        if weight == weight.rounded(), weight >= 0, weight < 1e15 {
            // Most weights are whole numbers: their digits without a String.
            var n = UInt64(weight)
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &digits) { d in
                repeat {
                    d[count] = UInt8(0x30 + n % 10)
                    n /= 10
                    count += 1
                } while n > 0
                for k in stride(from: count - 1, through: 0, by: -1) { chunk.append(d[k]) }
            }
        } else {
            chunk.append(contentsOf: weightText(weight).utf8)
        }
    }

    /// Appends `bytes` escaped for `COPY … FORMAT text`: backslash, tab, newline and carriage return.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to chunk: inout [UInt8]) {
        for b in bytes {
            switch b {
            case 0x5C: chunk.append(0x5C); chunk.append(0x5C)
            case 0x09: chunk.append(0x5C); chunk.append(0x74)
            case 0x0A: chunk.append(0x5C); chunk.append(0x6E)
            case 0x0D: chunk.append(0x5C); chunk.append(0x72)
            default: chunk.append(b)
            }
        }
    }
}

/// Readable text for postgres-nio's errors (whose `description` hides everything on purpose): the server's message
/// and SQLSTATE, or the connection problem underneath.
enum PostgresErrorText {
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                var text = message
                if let state = error.serverInfo?[.sqlState] { text += " (SQLSTATE \(state))" }
                return text
            }
            if let underlying = error.underlying { return "\(error.code): \(describe(underlying))" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}
