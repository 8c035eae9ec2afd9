#if Server
import Foundation

/// A dictionary table in PostgreSQL: `(text, weight, scope, folded)`, where `folded` is the entry's canonical key
/// (`IndexKey`: folded by `TextNormalizer` — case, diacritics, width — separators collapsed to one space),
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
    /// `$8` the limit, `$9` the typo key (the key with what `pg_trgm` ignores as spaces).
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
            t AS MATERIALIZED (SELECT text, weight, folded FROM \(quoted) WHERE $6::bool AND (SELECT count(*) FROM p) + (SELECT count(*) FROM w) < $8::int AND folded %> $9::text AND folded NOT LIKE $2::text AND \(scope) ORDER BY folded <->> $9::text, weight DESC LIMIT $7::int)
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
#endif
