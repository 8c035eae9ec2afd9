#if Server
import Foundation
import Logging
import PostgresNIO
import SuggestCore
import Testing
@testable import SuggestPostgres

/// Per-keystroke time of the provider against an imported table; prints, asserts nothing (not a timed test).
///
/// ```
/// suggest import --postgres "$SUGGEST_TEST_POSTGRES_URL" Benchmarks/.data/pypi-names.tsv --table pypi
/// SUGGEST_TIMINGS=1 SUGGEST_TIMINGS_TABLE=pypi swift test --filter PostgresTimings
/// ```
/// Types the 150 heaviest names and 150 random ones letter by letter (at most 12 letters), then the same names
/// with two neighbouring letters swapped (typo keystrokes), one provider call per keystroke.
@Suite struct PostgresTimings {
    static var table: String? { ProcessInfo.processInfo.environment["SUGGEST_TIMINGS_TABLE"] }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SUGGEST_TIMINGS"] == "1" && TestDatabase.isAvailable && table != nil,
        "SUGGEST_TIMINGS=1, SUGGEST_TIMINGS_TABLE and SUGGEST_TEST_POSTGRES_URL print the provider's keystroke times"))
    func keystrokeTimes() async throws {
        let settings = try TestDatabase.settings()
        let catalogue = try PostgresCatalogue(table: Self.table!)
        let connection = try await PostgresConnection.connect(
            configuration: try settings.connectionConfiguration(), id: 9, logger: Logger(label: "timings"))
        var names: [String] = []
        for sql in [
            "SELECT text FROM \(catalogue.quoted) ORDER BY weight DESC LIMIT 150",
            "SELECT text FROM \(catalogue.quoted) WHERE random() < 0.001 LIMIT 150",
        ] {
            for try await (text,) in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "t")).decode((String,).self) {
                names.append(text)
            }
        }
        try await connection.close()
        let provider = PostgresProvider(settings: settings, catalogue: catalogue, deadline: .seconds(10))
        defer { provider.shutdown() }
        func run(_ words: [String]) async throws -> [Double] {
            var times: [Double] = []
            for word in words {
                var typed = ""
                for c in word.prefix(12) {
                    typed.append(c)
                    let request = SuggestionRequest(query: PreparedQuery(SearchQuery(text: typed)), limit: 10)
                    let start = ContinuousClock.now
                    _ = try await provider.suggestions(for: request)
                    let (s, a) = (ContinuousClock.now - start).components
                    times.append(Double(s) * 1000 + Double(a) / 1e15)
                }
            }
            return times.sorted()
        }
        _ = try await run(Array(names.prefix(5)))  // connect and warm up
        let swapped = names.map { name -> String in
            var c = Array(name)
            if c.count >= 5 { c.swapAt(2, 3) }
            return String(c)
        }
        for (label, words) in [("names", names), ("names with a swap at letters 3-4", swapped)] {
            let t = try await run(words)
            func p(_ q: Double) -> String { String(format: "%.2f", t[min(t.count - 1, Int(Double(t.count) * q))]) }
            print("postgres provider, \(Self.table!), \(label): \(t.count) keystrokes, ms p50 \(p(0.5)) p90 \(p(0.9)) p99 \(p(0.99)) max \(p(1))")
        }
    }
}
#endif
