import Benchmark
import Foundation
import Suggest

/// Realistic per-keystroke latency: typing sessions as `Scripts/quality-report.sh` types them through `suggest batch`.
///
/// 1,000 targets are drawn by weight (with replacement, fixed seed) from each data set — the 886k PyPI names
/// (`Benchmarks/.data/pypi-names.tsv`) and the 200k English words (`Benchmarks/.data/words-200k.tsv`), both
/// `text<TAB>weight`, made by `bash Benchmarks/Scripts/quality-report.sh` — and typed letter by letter. One benchmark
/// iteration is one keystroke; the iterations cycle through the precomputed keystrokes, so that the percentiles are
/// those of every keystroke of the 1,000 sessions (`maxIterations` = the number of keystrokes).
///
/// Engines (limit 10): the whole engine as `quality-report.sh` configures `suggest batch` (recent + prefix + fuzzy),
/// the same with a tokens provider in front, and each provider alone. Where a recent provider is part of the engine,
/// each target is submitted after its last keystroke (outside the measurement), as the quality report's `iid`
/// sessions do, so that the recent searches fill up as they would for a person.
///
/// Misspelt typing (from the files `Benchmarks/Scripts/typing_sessions.py` writes in `Benchmarks/.data/sessions/`):
/// for each data set and each misspelling source (codespell's list, nlpaug's natural noise), misspellings typed letter
/// by letter, and the same corrected with backspace, through the whole engine; every keystroke (backspaces too) is
/// one sample.
///
/// "Submitting …" measures `submit` (one per target, recent provider alone, default capacity 100).
///
/// p99.9 is not in package-benchmark's default table: each benchmark also prints its own summary line
/// (p50 / p90 / p99 / p99.9 / max over every keystroke) to standard error, or use
/// `--format histogramPercentiles --path stdout`.

let dataFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".data").path

/// How many targets each session list types.
let targetCount = 1_000

/// A small deterministic random number generator (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One action of a typing session: a keystroke (measured), a submitted search, or a new session.
enum Step: Sendable {
    case text(String)
    case submit(String)
    case reset
}

/// The sessions of a `Benchmarks/Scripts/typing_sessions.py` file (`suggest batch` lines: `{"text":…}`,
/// `{"submit":…}`, `{"reset":true}`), or nil when the file is missing.
func sessionSteps(_ file: String) -> [Step]? {
    guard let data = FileManager.default.contents(atPath: dataFolder + "/sessions/" + file) else { return nil }
    var steps: [Step] = []
    for line in data.split(separator: UInt8(ascii: "\n")) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { continue }
        if let text = object["text"] as? String {
            steps.append(.text(text))
        } else if let text = object["submit"] as? String {
            steps.append(.submit(text))
        } else if object["reset"] != nil {
            steps.append(.reset)
        }
    }
    return steps
}

/// One data set: its file, the targets drawn from it, and their keystrokes.
final class DataSet: Sendable {
    let name: String
    /// The data set's name in the session files' names (`words`, `pypi`).
    let sessionName: String
    let path: String
    let targets: [String]
    /// Every keystroke of typing every target, each target submitted after its last keystroke, then a new session.
    let steps: [Step]
    let cache = DictionaryCache()

    /// Reads `text<TAB>weight` lines and draws the targets; nil (after printing how to make it) if the file is missing.
    init?(name: String, sessionName: String, file: String, seed: UInt64) {
        self.name = name
        self.sessionName = sessionName
        path = dataFolder + "/" + file
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(
                Data(
                    """
                    TypingSessions: \(path) is missing, the "\(name)" benchmarks are skipped. Create it with \
                    `bash Benchmarks/Scripts/quality-report.sh` (from the package root; it writes Benchmarks/.data/).

                    """.utf8
                )
            )
            return nil
        }
        var texts: [Substring] = []
        var cumulative: [Double] = []
        var total = 0.0
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard let text = fields.first, !text.isEmpty else { continue }
            let weight = fields.count > 1 ? Double(fields[1]) ?? 1 : 1
            total += max(weight, 0)
            texts.append(text)
            cumulative.append(total)
        }
        var rng = SplitMix(state: seed)
        targets = (0..<targetCount).map { _ in
            let x = Double.random(in: 0..<total, using: &rng)
            // The first entry whose cumulative weight exceeds x.
            var low = 0
            var high = cumulative.count - 1
            while low < high {
                let mid = (low + high) / 2
                if cumulative[mid] > x { high = mid } else { low = mid + 1 }
            }
            return String(texts[low])
        }
        steps = targets.flatMap { target in
            (1...target.count).map { n in Step.text(String(target.prefix(n))) } + [.submit(target), .reset]
        }
    }

    func dictionary(_ type: String) -> String { #"{ "type": "\#(type)", "dictionary": "\#(path)" }"# }

    /// A configuration with these providers (limit 10), sharing this data set's dictionary and indexes.
    func engine(_ providers: [String]) -> SuggestionEngine {
        let json = #"{ "version": 1, "limit": 10, "providers": [ \#(providers.joined(separator: ", ")) ] }"#
        do {
            return try EngineConfiguration(json: json, registry: .builtIn, cache: cache).makeEngine()
        } catch {
            fatalError("TypingSessions: \(error)")
        }
    }
}

let recent = #"{ "type": "recent" }"#
let tokens = #"""
    { "type": "tokens", "rules": [ { "kind": "from", "pattern": "\\bfrom:(?<value>\\S+)", "values": ["alice", "alex"] },
                                   { "kind": "tag", "pattern": "#(?<value>\\w+)" } ],
      "vocabulary": { "ingredient": ["Chicken", "Beef", "Avocado", "Sweet Potato"] } }
    """#

/// One engine typing one data set's sessions, one keystroke per call; records every measured keystroke.
/// Benchmarks run one at a time on one thread: the unsynchronized state is only touched from there.
final class Typist: @unchecked Sendable {
    let data: DataSet
    let providers: [String]
    let steps: [Step]
    let submits: Bool
    var engine: SuggestionEngine?
    var session = TypingSession()
    var next = 0
    var nanoseconds: [UInt64] = []

    /// Types `steps` (by default the data set's targets drawn by weight) with an engine of `providers`.
    init(_ data: DataSet, _ providers: [String], steps: [Step]? = nil) {
        self.data = data
        self.providers = providers
        self.steps = steps ?? data.steps
        submits = providers.contains(recent)
    }

    /// The number of measured keystrokes.
    var keystrokes: Int { steps.count(where: { if case .text = $0 { true } else { false } }) }

    /// Builds the engine (indexes are built once per data set) before the first keystroke is measured.
    func setUp() {
        if engine == nil { engine = data.engine(providers) }
        nanoseconds.reserveCapacity(keystrokes)
    }

    /// The next keystroke, measured; submits (where the engine holds a recent provider) and new sessions before it
    /// are not.
    func keystroke(_ benchmark: Benchmark) {
        let engine = engine!
        while true {
            let step = steps[next % steps.count]
            next += 1
            switch step {
            case .text(let text):
                let query = SearchQuery(text: text)
                benchmark.startMeasurement()
                let start = DispatchTime.now().uptimeNanoseconds
                let result = engine.suggestions(for: query, session: &session)
                let end = DispatchTime.now().uptimeNanoseconds
                benchmark.stopMeasurement()
                blackHole(result)
                nanoseconds.append(end - start)
                return
            case .submit(let text):
                if submits { engine.submit(SearchQuery(text: text)) }
            case .reset:
                // A new search starts a new typing session, as in an app (and in `suggest batch` after a submit).
                session.reset()
            }
        }
    }

    /// Prints p50 / p90 / p99 / p99.9 / max of the measured keystrokes, then forgets them.
    func summary(_ name: String) {
        guard !nanoseconds.isEmpty else { return }
        let sorted = nanoseconds.sorted()
        func at(_ q: Double) -> String {
            let index = min(sorted.count - 1, Int((q * Double(sorted.count)).rounded(.up)) - 1)
            return String(format: "%.1f", Double(sorted[max(0, index)]) / 1_000)
        }
        let line =
            "\(name): \(sorted.count) keystrokes, µs p50 \(at(0.5)) p90 \(at(0.9)) p99 \(at(0.99)) p99.9 \(at(0.999)) "
            + "max \(at(1))\n"
        FileHandle.standardError.write(Data(line.utf8))
        nanoseconds.removeAll(keepingCapacity: true)
    }
}

/// Submits the targets one per call to a recent provider alone (the submitted searches are not part of `micros` in
/// `suggest batch`, but an app pays for them on return).
final class Submitter: @unchecked Sendable {
    let data: DataSet
    var engine: SuggestionEngine?
    var next = 0

    init(_ data: DataSet) { self.data = data }

    func setUp() {
        if engine == nil { engine = data.engine([recent]) }
    }

    func submit(_ benchmark: Benchmark) {
        let engine = engine!
        let query = SearchQuery(text: data.targets[next % data.targets.count])
        next += 1
        benchmark.startMeasurement()
        blackHole(engine.submit(query))
        benchmark.stopMeasurement()
    }
}

/// One benchmark whose iterations are `typist`'s keystrokes, every one measured once.
func register(_ typist: Typist, _ name: String) {
    Benchmark(
        name,
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal],
            timeUnits: .microseconds,
            warmupIterations: 0,
            maxDuration: .seconds(300),
            maxIterations: typist.keystrokes
        ),
        closure: { benchmark in typist.keystroke(benchmark) },
        setup: { typist.setUp() },
        teardown: { typist.summary(name) }
    )
}

let benchmarks: @Sendable () -> Void = {
    let dataSets = [
        DataSet(name: "PyPI names", sessionName: "pypi", file: "pypi-names.tsv", seed: 1),
        DataSet(name: "English words", sessionName: "words", file: "words-200k.tsv", seed: 2),
    ].compactMap { $0 }
    for data in dataSets {
        let prefix = data.dictionary("prefix")
        let fuzzy = data.dictionary("fuzzy")
        let engines: [(String, [String])] = [
            ("recent+prefix+fuzzy", [recent, prefix, fuzzy]),
            ("recent+tokens+prefix+fuzzy", [recent, tokens, prefix, fuzzy]),
            ("prefix alone", [prefix]),
            ("fuzzy alone", [fuzzy]),
            ("recent alone (targets submitted)", [recent]),
        ]
        for (label, providers) in engines {
            let typist = Typist(data, providers)
            let name = "Typing \(data.name), \(label) (1,000 targets by weight, top 10)"
            register(typist, name)
        }
        // Misspelt typing, from `typing_sessions.py`'s files: each source's misspellings typed letter by letter, and
        // corrected with backspace, through the whole engine.
        for kind in ["misspelled", "backspace"] {
            for source in ["codespell", "natural"] {
                let file = "\(data.sessionName)-\(kind)-\(source).jsonl"
                guard let steps = sessionSteps(file) else {
                    FileHandle.standardError.write(
                        Data(
                            "TypingSessions: \(file) is missing, skipped (python3 Benchmarks/Scripts/typing_sessions.py)\n"
                                .utf8))
                    continue
                }
                let typist = Typist(data, [recent, prefix, fuzzy], steps: steps)
                let how = kind == "misspelled" ? "misspelt" : "misspelt then corrected with backspace"
                let name = "Typing \(data.name) \(how) (\(source)), recent+prefix+fuzzy (top 10)"
                register(typist, name)
            }
        }
        let submitter = Submitter(data)
        Benchmark(
            "Submitting \(data.name), recent provider alone (capacity 100, the 1,000 targets)",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal],
                timeUnits: .microseconds,
                warmupIterations: 0,
                maxDuration: .seconds(300),
                maxIterations: data.targets.count
            ),
            closure: { benchmark in submitter.submit(benchmark) },
            setup: { submitter.setUp() }
        )
    }
}
