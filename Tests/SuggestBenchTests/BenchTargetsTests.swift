import Foundation
import Suggest
import SuggestBench
import Testing
import SuggestTestSupport

struct BenchTargetsTests {
    @Test func entriesAreDrawnByWeightAndAZeroWeightNever() {
        let targets = BenchTargets([.init(name: "w", entries: [("heavy", 9), ("light", 1), ("never", 0)])])
        var rng = SplitMix64(seed: 1)
        var counts: [String: Int] = [:]
        for _ in 0..<10_000 { counts[targets.draw(using: &rng), default: 0] += 1 }
        #expect(counts["never"] == nil)
        #expect((8_700...9_300).contains(counts["heavy"] ?? 0))
    }

    @Test func aConfigurationGivesItsDictionaryOnceAndItsStaticItems() throws {
        let folder = URL(fileURLWithPath: TestFolders.unique("bench-targets-"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "python\t10\npandas\t5\n".write(to: folder.appendingPathComponent("words.tsv"), atomically: true, encoding: .utf8)
        let json = """
            { "version": 1, "providers": [ { "type": "recent" },
              { "type": "prefix", "dictionary": "words.tsv" }, { "type": "fuzzy", "dictionary": "words.tsv" },
              { "type": "static", "id": "places", "items": [ { "title": "Paris", "popularity": 3 } ] } ] }
            """
        let configuration = try EngineConfiguration(json: json, baseDirectory: folder.path, registry: .builtIn)
        let targets = BenchTargets(configuration: configuration)
        #expect(targets.lists.map(\.count) == [2, 1])
        #expect(targets.lists[1].name == "places (static items)")
        #expect(targets.lists[1].texts == ["Paris"])
    }

    @Test func aConfigurationWithoutDataHasNothingToDraw() throws {
        let configuration = try EngineConfiguration(
            json: #"{ "version": 1, "providers": [ { "type": "recent" } ] }"#, registry: .builtIn)
        let targets = BenchTargets(configuration: configuration)
        #expect(targets.isEmpty)
        #expect(BenchError.nothingToType(emptyLists: targets.emptyLists).description.contains("--queries"))
    }

    @Test func percentilesAreNearestRankSamples() {
        let stats = LatencyStats(samples: (1...1_000).map(Double.init).shuffled())
        #expect(stats.count == 1_000)
        #expect(stats.p50 == 500)
        #expect(stats.p90 == 900)
        #expect(stats.p99 == 990)
        #expect(stats.p999 == 999)
        #expect(stats.max == 1_000)
        #expect(stats.mean == 500.5)
        #expect(LatencyStats(samples: []).p99 == 0)
    }

    @Test func histogramBinsAreLogSpaced() {
        #expect(LatencyHistogram.bin(of: 0.05) == 0)
        #expect(LatencyHistogram.bin(of: 1.0001) == 10)
        #expect(LatencyHistogram.bin(of: 10.5) == 20)
        #expect(LatencyHistogram.bin(of: 1e9) == LatencyHistogram.binCount - 1)
        #expect(LatencyHistogram(samples: [1.5, 1.6, 150]).counts.reduce(0, +) == 3)
    }
}
