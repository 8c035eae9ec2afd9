import Foundation
import Suggest
import SuggestBench
import Testing
import SuggestTestSupport

/// A custom provider that offers the texts that start with the query, after spinning for `spin`: an app's own
/// provider, made slower on purpose.
struct SpinningProvider: SuggestionProvider {
    let id = "custom"
    let spin: Duration
    let texts = ["paris", "parma", "porto", "prague", "pune"]

    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        let until = ContinuousClock.now + spin
        while ContinuousClock.now < until {}
        let typed = request.query.query.text.lowercased()
        for text in texts where text.hasPrefix(typed) {
            output.append(SuggestionCandidate(title: text, tier: .prefix, popularity: 1))
        }
    }
}

struct BaselineComparisonTests {
    let targets = BenchTargets([.init(name: "cities", entries: [("paris", 5), ("porto", 3), ("prague", 2)])])
    let options = TypingScript.Options(sessions: 60, typos: 0.2, seed: 11)

    func report(spin: Duration) -> LatencyReport {
        let engine = SuggestionEngine(providers: [SpinningProvider(spin: spin)])
        let script = TypingScript(drawingFrom: targets, options: options)
        let run = LatencyBench(engine: engine).run(script)
        return run.report(configuration: .init(file: "cities", providers: engine.providers), options: options)
    }

    /// The report of the run with the lowest engine p99 of five: on a busy machine one run's p99 can be a
    /// scheduling pause of a millisecond or more, longer than the 300 µs a slower provider adds.
    func quietReport(spin: Duration) -> LatencyReport {
        (0..<5).map { _ in report(spin: spin) }.min { $0.engine.latency.p99 < $1.engine.latency.p99 }!
    }

    @Test func aProviderThatBecameSlowerFailsTheComparison() throws {
        let baseline = quietReport(spin: .zero)
        let slower = report(spin: .microseconds(300))
        #expect(slower.providers[0].latency.p50 >= 300)
        let comparison = try BaselineComparison(current: slower, baseline: baseline, maxRegression: 0.1)
        #expect(!comparison.passed)
        #expect(comparison.regressions.map(\.name) == ["engine", "custom"])
        #expect(comparison.text(baseline: "base.json").contains("REGRESSED"))
    }

    @Test func aReportComparedWithItselfOrAFasterOnePasses() throws {
        let slow = report(spin: .microseconds(300))
        #expect(try BaselineComparison(current: slow, baseline: slow, maxRegression: 0).passed)
        let fast = quietReport(spin: .zero)
        let comparison = try BaselineComparison(current: fast, baseline: slow, maxRegression: 0.1)
        #expect(comparison.passed)
        #expect(comparison.rows.map(\.name) == ["engine", "custom"])
        #expect(comparison.rows.allSatisfy { ($0.change ?? 0) < 0 })
    }

    @Test func growthUnderTheFloorIsNotARegression() throws {
        var baseline = report(spin: .zero)
        var current = baseline
        baseline.engine.latency.p99 = 0.4
        current.engine.latency.p99 = 0.9
        let comparison = try BaselineComparison(current: current, baseline: baseline, maxRegression: 0.1)
        #expect(comparison.rows[0].regressed == false)
        let strict = try BaselineComparison(current: current, baseline: baseline, maxRegression: 0.1, floorMicros: 0)
        #expect(strict.rows[0].regressed)
    }

    @Test func aBaselineOfAnotherConfigurationIsAnError() throws {
        let baseline = report(spin: .zero)
        var other = baseline
        other.configuration.providers[0].id = "renamed"
        #expect(throws: BenchError.self) {
            try BaselineComparison(current: other, baseline: baseline, maxRegression: 0.1, file: "b.json")
        }
        other = baseline
        other.configuration.file = "other.suggest.json"
        do {
            _ = try BaselineComparison(current: other, baseline: baseline, maxRegression: 0.1, file: "b.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "baseline b.json: it measured another configuration (cities, this run other.suggest.json)")
        }
    }

    @Test func aReportReadsBackFromItsJSON() throws {
        let original = report(spin: .zero)
        let read = try LatencyReport(json: Array(original.jsonData()), file: "r.json")
        #expect(read == original)
    }

    @Test func aBaselineThatIsNotAReportGivesAClearError() throws {
        func message(_ text: String) -> String {
            do {
                _ = try LatencyReport(json: Array(text.utf8), file: "b.json")
                return ""
            } catch {
                return error.description
            }
        }
        #expect(message("{\"schema\": ") == "baseline b.json: not JSON: 1:12: unexpected end of input, expected a value")
        #expect(message("[1]") == "baseline b.json: expected a `suggest bench --json` report (an object), found an array")
        #expect(message("{}") == "baseline b.json: not a `suggest bench --json` report (no \"schema\" key)")
        #expect(message(#"{"schema": "swift-suggest-bench/9"}"#).contains("schema \"swift-suggest-bench/9\""))
        #expect(message(#"{"schema": "swift-suggest-bench/1", "engine": 3}"#).hasPrefix("baseline b.json: "))
        #expect(throws: BenchError.self) { try LatencyReport(baselineFile: "/nonexistent/base.json") }
        do {
            _ = try LatencyReport(baselineFile: "/nonexistent/base.json")
        } catch {
            #expect(error.description == "baseline /nonexistent/base.json: no such file")
        }
    }

    @Test func aBenchEngineNeverWritesTheRecentSearchesStore() throws {
        let folder = URL(fileURLWithPath: TestFolders.unique("bench-store-"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = #"{ "version": 1, "providers": [ { "type": "recent", "store": "recents.json" } ] }"#
        let configuration = try EngineConfiguration(json: json, baseDirectory: folder.path, registry: .builtIn)
        let engine = configuration.makeBenchEngine()
        let script = TypingScript(searches: ["paris", "porto"], options: .init(sessions: 4, typos: 0))
        let run = LatencyBench(engine: engine).run(script)
        #expect(run.submits.count == 4)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("recents.json").path))
        // The recent searches learnt in memory: typing "p" again shows them.
        #expect(engine.suggestions(for: "p").suggestions.count == 2)
    }
}
