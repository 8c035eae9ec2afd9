#if Server
import Foundation
import Logging
public import PostgresNIO
public import SuggestCore
import SuggestIndex

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
#endif
