import Benchmark
import Foundation
import SuggestCore
import SuggestFuzzy
import SuggestIndex
import Synchronization

/// The fuzzy provider on the 1M-entry corpus (Benchmarks/.data/corpus-1m.tsv, made by Scripts/make-corpus.sh),
/// through the engine (top 10): the index build, one keystroke of a typing session (each keystroke extends the
/// previous one, the provider narrows its previous state), and cold queries (a new session per query).

let corpusPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".data/corpus-1m.tsv").path

let corpus: WeightedDictionary = {
    guard FileManager.default.fileExists(atPath: corpusPath) else {
        fatalError("\(corpusPath) is missing: run `bash Benchmarks/Scripts/make-corpus.sh` first")
    }
    return try! DictionaryLoader.load(path: corpusPath)
}()

let index = FuzzyIndex(corpus)

/// Common English misspellings (as listed in Wikipedia's "Lists of common misspellings"), typed out whole.
let misspellings = [
    "recieve", "seperate", "acommodate", "occured", "definately", "goverment", "enviroment", "wierd",
    "untill", "begining", "beleive", "calender", "existance", "foriegn", "independant", "neccessary",
    "occassion", "persistant", "posession", "recomend", "refered", "sucessful", "tommorow", "truely",
    "adress", "arguement", "basicly", "comming", "commited", "concious", "embarass", "finaly", "greatful",
    "harrass", "knowlege", "libary", "millenium", "noticable", "pyhton", "publically", "relevent",
    "rythm", "speach", "thier", "wich", "writting", "accross", "agressive", "apparant", "buisness",
]

/// Abbreviations and initials, typed out whole.
let abbreviations = ["nyt", "gthb", "btn", "mgmt", "ctrl", "pwd", "nsw", "dept", "usa", "bbc"]

/// The keystrokes of typing every text of `texts`, one character at a time; `true` marks a new session.
func keystrokes(_ texts: [String]) -> [(text: String, newSession: Bool)] {
    texts.flatMap { text in (1...text.count).map { (String(text.prefix($0)), $0 == 1) } }
}

/// One typing session that the benchmark closure advances by one keystroke per run.
final class Typist: Sendable {
    let steps: [(text: String, newSession: Bool)]
    let engine: SuggestionEngine
    let state = Mutex<(next: Int, session: TypingSession)>((0, TypingSession()))

    init(_ texts: [String], engine: SuggestionEngine) {
        steps = keystrokes(texts)
        self.engine = engine
    }

    func keystroke() -> SuggestionResult {
        state.withLock { s in
            let step = steps[s.next % steps.count]
            s.next += 1
            if step.newSession { s.session = TypingSession() }
            return engine.suggestions(for: SearchQuery(text: step.text), session: &s.session)
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    // Without the corpus, say how to make it and register nothing (instead of stopping at registration).
    guard FileManager.default.fileExists(atPath: corpusPath) else {
        FileHandle.standardError.write(
            Data("Fuzzy: \(corpusPath) is missing, its benchmarks are skipped; make it with `bash Benchmarks/Scripts/make-corpus.sh`\n".utf8))
        return
    }
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        maxDuration: .seconds(5),
        maxIterations: 1_000_000
    )
    var options = EngineOptions()
    options.limit = 10
    let engine = SuggestionEngine(slots: [ProviderSlot(try! FuzzyProvider(index: index))], options: options)
    let misspellingTypist = Typist(misspellings, engine: engine)
    let abbreviationTypist = Typist(abbreviations, engine: engine)

    Benchmark(
        "Fuzzy index build (1M entries)",
        configuration: .init(metrics: [.wallClock, .peakMemoryResident], timeUnits: .milliseconds, maxIterations: 3)
    ) { _ in
        blackHole(FuzzyIndex(corpus))
    }

    Benchmark(
        "Fuzzy extras over a shared PrefixIndex (1M entries)",
        configuration: .init(
            metrics: [.wallClock, .custom("bytes per entry beyond text", useScalingFactor: false)],
            timeUnits: .milliseconds, maxIterations: 3
        )
    ) { benchmark in
        // What a prefix + fuzzy configuration on one dictionary holds: the dictionary (beyond its texts), one
        // PrefixIndex, and the fuzzy extras (letter masks, rank table) built over it.
        let prefixIndex = index.prefixIndex
        var built: FuzzyIndex? = nil
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { built = FuzzyIndex(prefixIndex) }
        benchmark.stopMeasurement()
        let extras = built!.extraByteCount
        let n = Double(prefixIndex.count)
        let total = Double(prefixIndex.dictionaryByteCount + prefixIndex.indexByteCount + extras) / n
        print(
            """
            Fuzzy: \(prefixIndex.count) entries; text \(String(format: "%.2f", Double(corpus.textBytes.count) / n)) B/entry; \
            dictionary \(String(format: "%.2f", Double(prefixIndex.dictionaryByteCount) / n)) + prefix index \
            \(String(format: "%.2f", Double(prefixIndex.indexByteCount) / n)) + fuzzy extras \
            \(String(format: "%.2f", Double(extras) / n)) = \(String(format: "%.2f", total)) B/entry beyond the text
            """
        )
        benchmark.measurement(.custom("bytes per entry beyond text", useScalingFactor: false), Int(total.rounded()))
    }

    Benchmark("Fuzzy typing session keystroke (misspellings)") { _ in
        blackHole(misspellingTypist.keystroke())
    }

    Benchmark("Fuzzy typing session keystroke (abbreviations)") { _ in
        blackHole(abbreviationTypist.keystroke())
    }

    let nextMisspelling = Mutex(0)
    Benchmark("Fuzzy cold query (whole misspelling)") { _ in
        let i = nextMisspelling.withLock { n in
            n += 1
            return n
        }
        blackHole(engine.suggestions(for: SearchQuery(text: misspellings[i % misspellings.count])))
    }
}
