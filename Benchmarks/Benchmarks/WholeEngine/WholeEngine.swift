import Benchmark
import Foundation
import Suggest

/// The whole engine as an app would configure it — recent searches, tokens, prefix completion and fuzzy matching on
/// the 1M-entry corpus, and a static list — answering a person typing, keystroke by keystroke, top 10.
/// DESIGN.md budget: p50 0.2 ms, p99 1 ms per keystroke.

let corpusPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".data/corpus-1m.tsv").path

let corpus: String = {
    let here = URL(fileURLWithPath: #filePath)
    let path = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".data/corpus-1m.tsv").path
    guard FileManager.default.fileExists(atPath: path) else {
        fatalError("The 1M-entry corpus is missing: run `bash Benchmarks/Scripts/make-corpus.sh` first (\(path))")
    }
    return path
}()

let configuration = """
    { "version": 1, "limit": 10,
      "sections": [ { "title": "Recent", "quota": 3 }, { "title": "Suggestions" } ],
      "providers": [
        { "type": "recent", "id": "history" },
        { "type": "tokens", "rules": [ { "kind": "from", "pattern": "\\\\bfrom:(?<value>\\\\S+)", "values": ["alice", "alex"] },
                                         { "kind": "tag", "pattern": "#(?<value>\\\\w+)" } ],
          "vocabulary": { "ingredient": ["Chicken", "Beef", "Avocado", "Sweet Potato"] } },
        { "type": "prefix", "dictionary": "\(corpus)" },
        { "type": "fuzzy", "dictionary": "\(corpus)" },
        { "type": "static", "items": [ { "title": "New York" }, { "title": "New Orleans" } ] } ] }
    """

/// Searches typed letter by letter: completions, multi-word, typos, an abbreviation, a token and a rule.
let searches = [
    "python tutorial", "new york times", "recieve", "seperately", "definately", "acommodation", "chicken soup ",
    "from:alice", "restaurant", "weather tomorrow", "gthb", "über", "café au lait", "population of",
]

let keystrokes: [String] = searches.flatMap { text in (1...text.count).map { String(text.prefix($0)) } }

let benchmarks: @Sendable () -> Void = {
    // Without the corpus, say how to make it and register nothing (instead of stopping at registration).
    guard FileManager.default.fileExists(atPath: corpusPath) else {
        FileHandle.standardError.write(
            Data("WholeEngine: \(corpusPath) is missing, its benchmarks are skipped; make it with `bash Benchmarks/Scripts/make-corpus.sh`\n".utf8))
        return
    }
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(10),
        maxIterations: 20_000
    )

    Benchmark("Whole engine, all providers, typing keystroke (1M entries, top 10)") { benchmark in
        // One sample is one keystroke; the engine is built once (a global) and the typing goes on between samples.
        let text = keystrokes[Typing.next % keystrokes.count]
        Typing.next += 1
        // A new search starts a new typing session, as in an app.
        if !text.hasPrefix(Typing.previous) { Typing.session.reset() }
        Typing.previous = text
        benchmark.startMeasurement()
        blackHole(engine.suggestions(for: SearchQuery(text: text), session: &Typing.session))
        benchmark.stopMeasurement()
    }
}

/// Built once, outside any measurement, with three searches remembered.
let engine: SuggestionEngine = {
    let engine = try! EngineConfiguration(json: configuration, registry: .builtIn).makeEngine()
    for search in ["python", "new york", "recipes"] { engine.submit(SearchQuery(text: search)) }
    return engine
}()

/// The typing session between samples. Benchmarks run one at a time on one thread, so unsynchronized state is safe.
enum Typing {
    nonisolated(unsafe) static var session = TypingSession()
    nonisolated(unsafe) static var previous = ""
    nonisolated(unsafe) static var next = 0
}
