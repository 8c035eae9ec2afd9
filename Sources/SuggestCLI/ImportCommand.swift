#if Server
import ArgumentParser
import Foundation
import Suggest
import SuggestPostgres
import Synchronization

/// `suggest import --postgres URL DICTIONARY`: loads a TSV dictionary into a PostgreSQL table for the `postgres`
/// provider (folded keys computed here, in Swift, as the in-memory providers fold), with its indexes and `pg_trgm`.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load a TSV dictionary into PostgreSQL for the \"postgres\" provider (table, indexes, pg_trgm)."
    )

    @Option(name: .long, help: "The database: postgres://user:password@host:port/database[?sslmode=disable].")
    var postgres: String

    @Argument(help: "The TSV dictionary: text<TAB>weight[<TAB>scope].")
    var dictionary: String

    @Option(name: .long, help: "The table (lowercase letters, digits and _).")
    var table = "suggestions"

    @Flag(name: .long, help: "Replace the table if it exists (in one transaction: readers see the old rows until the end).")
    var replace = false

    @Flag(name: .long, help: "Skip bad dictionary lines instead of failing.")
    var lenient = false

    func run() async throws {
        let settings: PostgresConnectionSettings
        let catalogue: PostgresCatalogue
        do {
            settings = try PostgresConnectionSettings(url: postgres)
            catalogue = try PostgresCatalogue(table: table)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        let start = ContinuousClock.now
        let loaded: WeightedDictionary
        do {
            // The same TSV rules and `file:line` errors as every in-memory dictionary.
            loaded = try DictionaryLoader.load(path: dictionary, lenient: lenient)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        let parsed = ContinuousClock.now - start
        let outcome: Result<PostgresImporter.Report, any Error>
        do {
            outcome = .success(
                try await PostgresImporter.load(loaded, into: catalogue, settings: settings, replace: replace))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .failure(let error):
            Console.error("error: \(settings.displayName): \(error)")
            throw ExitCode(1)
        case .success(let report):
            var line =
                "\(settings.displayName) table \(catalogue.table): \(report.rows) rows in \(Self.text(ContinuousClock.now - start))"
                + " (read \(Self.text(parsed)), copy \(Self.text(report.copy)), indexes \(Self.text(report.indexes)))"
            if loaded.skippedLines > 0 { line += "; \(loaded.skippedLines) bad lines skipped" }
            Console.out(line)
        }
    }

    static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        return milliseconds >= 10_000 ? "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s" : "\(milliseconds) ms"
    }
}
#endif
