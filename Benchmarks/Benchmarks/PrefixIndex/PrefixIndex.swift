import Benchmark
import Foundation
import SuggestCore
import SuggestFuzzy
import SuggestIndex
import SuggestPrefix

/// The prefix index on the 1M-entry corpus (Benchmarks/.data/corpus-1m.tsv, made by Scripts/make-corpus.sh):
/// build, load of a saved index, top-10 for 1- to 6-letter prefixes through the index-level API (reused buffer,
/// no allocation), the same through the provider (candidates with matched ranges), a typing session, and the
/// memory per entry (custom metric, also printed). Start-up on the 886k PyPI names
/// (Benchmarks/.data/pypi-names.tsv, made by Scripts/quality-report.sh): from the TSV file to the prefix index and
/// the fuzzy provider's extras, and the load of the saved index.

let corpusPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".data/corpus-1m.tsv").path

let pypiPath = URL(fileURLWithPath: corpusPath).deletingLastPathComponent()
    .appendingPathComponent("pypi-names.tsv").path

let corpus: WeightedDictionary = {
    guard FileManager.default.fileExists(atPath: corpusPath) else {
        fatalError("\(corpusPath) is missing: run `bash Benchmarks/Scripts/make-corpus.sh` first")
    }
    return try! DictionaryLoader.load(path: corpusPath)
}()

let index = PrefixIndex(dictionary: corpus)

let savedIndexPath: String = {
    let path = NSTemporaryDirectory() + "/swift-suggest-prefix-bench.idx"
    try! index.write(toFile: path)
    return path
}()

/// A realistic query list: the 2,000 most popular entries (what people type most) and every 500th entry of the
/// rest (the long tail), as canonical keys.
let queryTexts: [String] = {
    var order = Array(0..<corpus.count)
    order.sort { corpus.weights[$0] > corpus.weights[$1] || (corpus.weights[$0] == corpus.weights[$1] && $0 < $1) }
    var texts = order.prefix(2_000).map { corpus.text(at: $0) }
    texts += stride(from: 2_000, to: order.count, by: 500).map { corpus.text(at: order[$0]) }
    return texts
}()

/// The distinct `letters`-scalar prefixes of the query list's keys, in list order.
func prefixes(letters: Int) -> [[UInt8]] {
    var seen = Set<[UInt8]>()
    var out: [[UInt8]] = []
    for text in queryTexts {
        let key = String(decoding: IndexKey.key(text), as: UTF8.self)
        guard key.unicodeScalars.count >= letters else { continue }
        let prefix = Array(String(String.UnicodeScalarView(key.unicodeScalars.prefix(letters))).utf8)
        if prefix.last == 0x20 { continue }
        if seen.insert(prefix).inserted { out.append(prefix) }
    }
    return out
}

/// Someone typing a few searches, one keystroke at a time.
let typingKeystrokes: [String] = {
    let searches = ["new york times", "python tutorial", "the quick brown fox", "straße", "information", "bon appétit"]
    return searches.flatMap { text in (1...text.count).map { String(text.prefix($0)) } }
}()

/// The start-up benchmarks on the PyPI names (registered whether or not the 1M corpus exists).
func startUpBenchmarks() {
    guard FileManager.default.fileExists(atPath: pypiPath) else {
        FileHandle.standardError.write(
            Data(
                """
                PrefixIndex: \(pypiPath) is missing, the start-up benchmarks are skipped; make it with \
                `bash Benchmarks/Scripts/quality-report.sh`

                """.utf8))
        return
    }
    Benchmark(
        "PrefixIndex start-up: 886k PyPI names from TSV (read, parse, fold, sort, index, fuzzy extras)",
        configuration: .init(
            metrics: [.wallClock], timeUnits: .milliseconds, maxDuration: .seconds(30), maxIterations: 10)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let dictionary = try DictionaryLoader.load(path: pypiPath)
            let prefix = PrefixIndex.fingerprinted(dictionary: dictionary, path: pypiPath, lenient: false)
            blackHole(FuzzyIndex(prefix))
        }
    }
    Benchmark(
        "PrefixIndex start-up: load the saved index of 886k PyPI names",
        configuration: .init(
            metrics: [.wallClock], timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 30)
    ) { benchmark in
        let path = NSTemporaryDirectory() + "/swift-suggest-pypi-bench.idx"
        let dictionary = try DictionaryLoader.load(path: pypiPath)
        try PrefixIndex.fingerprinted(dictionary: dictionary, path: pypiPath, lenient: false).write(toFile: path)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try PrefixIndex(contentsOfFile: path)) }
    }
}

let benchmarks: @Sendable () -> Void = {
    startUpBenchmarks()
    // Without the corpus, say how to make it and register nothing (instead of stopping at registration).
    guard FileManager.default.fileExists(atPath: corpusPath) else {
        FileHandle.standardError.write(
            Data("PrefixIndex: \(corpusPath) is missing, its benchmarks are skipped; make it with `bash Benchmarks/Scripts/make-corpus.sh`\n".utf8))
        return
    }
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 1_000_000
    )
    Benchmark(
        "PrefixIndex build (1M entries)",
        configuration: .init(
            metrics: [.wallClock, .custom("bytes per entry beyond text", useScalingFactor: false)],
            timeUnits: .milliseconds, maxDuration: .seconds(30), maxIterations: 5
        )
    ) { benchmark in
        var built: PrefixIndex? = nil
        for _ in benchmark.scaledIterations { built = PrefixIndex(dictionary: corpus) }
        benchmark.stopMeasurement()
        let index = built!
        let bytesPerEntry = Double(index.indexByteCount + index.dictionaryByteCount) / Double(index.count)
        print(
            """
            PrefixIndex: \(index.count) entries, \(index.infixCount) inner word starts; text \
            \(String(format: "%.2f", Double(corpus.textBytes.count) / Double(index.count))) B/entry; \
            index \(String(format: "%.2f", Double(index.indexByteCount) / Double(index.count))) B/entry + dictionary \
            \(String(format: "%.2f", Double(index.dictionaryByteCount) / Double(index.count))) B/entry = \
            \(String(format: "%.2f", bytesPerEntry)) B/entry beyond the text
            """
        )
        benchmark.measurement(.custom("bytes per entry beyond text", useScalingFactor: false), Int(bytesPerEntry.rounded()))
    }

    Benchmark(
        "PrefixIndex load saved index (1M entries)",
        configuration: .init(metrics: [.wallClock], timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 30)
    ) { benchmark in
        let path = savedIndexPath
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try PrefixIndex(contentsOfFile: path)) }
    }

    for letters in 1...6 {
        let keys = prefixes(letters: letters)
        Benchmark(
            "PrefixIndex top-10, \(letters)-letter prefix (index API)",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, .throughput], timeUnits: .nanoseconds,
                maxDuration: .seconds(3), maxIterations: 1_000_000
            )
        ) { benchmark in
            var buffer = PrefixIndex.SearchBuffer()
            index.search(keys[0], limit: 10, into: &buffer)  // grow the buffer once
            var i = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                index.search(keys[i], limit: 10, into: &buffer)
                blackHole(buffer.hits.count)
                i = i + 1 == keys.count ? 0 : i + 1
            }
        }
    }

    let provider = PrefixProvider(index: index)
    for letters in [1, 3, 6] {
        let queries = prefixes(letters: letters).map {
            PreparedQuery(SearchQuery(text: String(decoding: $0, as: UTF8.self)))
        }
        Benchmark("PrefixIndex top-10, \(letters)-letter prefix (provider, with matched ranges)") { benchmark in
            var i = 0
            for _ in benchmark.scaledIterations {
                var output = ProviderOutput()
                try provider.suggest(SuggestionRequest(query: queries[i], limit: 10), into: &output)
                blackHole(output)
                i = i + 1 == queries.count ? 0 : i + 1
            }
        }
    }

    Benchmark("PrefixIndex typing session keystroke (prepare + provider)") { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            var output = ProviderOutput()
            let query = PreparedQuery(SearchQuery(text: typingKeystrokes[i]))
            try provider.suggest(SuggestionRequest(query: query, limit: 10), into: &output)
            blackHole(output)
            i = i + 1 == typingKeystrokes.count ? 0 : i + 1
        }
    }
}
