import Benchmark
import Suggest

/// The engine's own cost per keystroke: query preparation, merge, rank, sections and diagnostics, with no provider
/// and with one trivial provider that offers three fixed candidates.
struct TrivialProvider: SuggestionProvider {
    let id = "trivial"
    let candidates = [
        SuggestionCandidate(title: "python", tier: .prefix, popularity: 3),
        SuggestionCandidate(title: "pytest", tier: .prefix, popularity: 2),
        SuggestionCandidate(title: "pyramid", tier: .prefix, popularity: 1),
    ]
    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        output.candidates.append(contentsOf: candidates)
    }
}

/// A person typing "python tutorial" keystroke by keystroke.
let keystrokes: [String] = {
    let text = "python tutorial"
    return (1...text.count).map { String(text.prefix($0)) }
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 1_000_000
    )

    Benchmark("Engine keystroke, no providers") { benchmark in
        let engine = SuggestionEngine(providers: [])
        var session = TypingSession()
        // Per keystroke only: making the engine (its logger, its layout) is not part of a keystroke.
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            blackHole(engine.suggestions(for: SearchQuery(text: keystrokes[i % keystrokes.count]), session: &session))
        }
    }

    Benchmark("Engine keystroke, one trivial provider") { benchmark in
        let engine = SuggestionEngine(providers: [TrivialProvider()])
        var session = TypingSession()
        // Per keystroke only: making the engine (its logger, its layout) is not part of a keystroke.
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            blackHole(engine.suggestions(for: SearchQuery(text: keystrokes[i % keystrokes.count]), session: &session))
        }
    }
}
