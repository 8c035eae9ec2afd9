public import SuggestCore

/// Plays a ``TypingScript`` against an engine and times every keystroke and every submit.
///
/// Each keystroke is one call of `SuggestionEngine.suggestions(for:session:)` on one `TypingSession` (a reset
/// starts a new one, as a search field does after a submit), timed around the call with `ContinuousClock`: what the
/// caller waits for. Each provider's time for that keystroke is the engine's own measure
/// (`SuggestionResult.Diagnostics.ProviderReport.micros`: the provider's `suggest`, not its token extraction);
/// an asynchronous provider, which this synchronous call skips, contributes no sample. Submits
/// (`SuggestionEngine.submit(_:)`, where recent searches learn) are timed apart.
///
/// ```swift
/// let engine = SuggestionEngine(providers: [myProvider])
/// let targets = BenchTargets([.init(name: "cities", entries: [("Paris", 10), ("Lyon", 3)])])
/// let script = TypingScript(drawingFrom: targets, options: .init(sessions: 500, typos: 0.2, seed: 7))
/// let run = LatencyBench(engine: engine).run(script)
/// print(run.report(configuration: .init(file: "cities", providers: engine.providers)).engine.latency.p99)
/// ```
public struct LatencyBench: Sendable {
    public let engine: SuggestionEngine
    /// How many of the slowest keystrokes to keep, with their text.
    public var slowestCount: Int

    public init(engine: SuggestionEngine, slowestCount: Int = 10) {
        self.engine = engine
        self.slowestCount = slowestCount
    }

    /// Plays `script` once.
    /// - Parameters:
    ///   - script: the keystrokes, submits and resets to time.
    ///   - progress: called with (steps done, steps in all) each time another hundredth is done, between timed
    ///     calls (never inside one).
    /// - Complexity: the engine's work per step; the bookkeeping is O(1) per keystroke plus one sample per provider.
    public func run(_ script: TypingScript, progress: ((_ done: Int, _ total: Int) -> Void)? = nil) -> LatencyRun {
        let slots = engine.slots
        var run = LatencyRun(providers: slots.map { LatencyRun.Provider($0.provider) })
        run.engine.reserveCapacity(script.keystrokes)
        for i in run.providerSamples.indices { run.providerSamples[i].reserveCapacity(script.keystrokes) }
        var session = TypingSession()
        let total = script.steps.count
        var reported = -1
        let start = ContinuousClock.now
        for (i, step) in script.steps.enumerated() {
            switch step {
            case .keystroke(let text, let backspace):
                let query = SearchQuery(text: text)
                let t0 = ContinuousClock.now
                let result = engine.suggestions(for: query, session: &session)
                let micros = Self.micros(ContinuousClock.now - t0)
                run.engine.append(micros)
                if backspace { run.backspaces += 1 }
                var slowest: (index: Int, micros: Double)? = nil
                for (index, report) in result.diagnostics.providers.enumerated() where index < slots.count {
                    if case .cancelled = report.outcome { continue }
                    if case .pending = report.outcome { continue }
                    run.providerSamples[index].append(report.micros)
                    if slowest == nil || report.micros > slowest!.micros { slowest = (index, report.micros) }
                }
                run.keep(
                    LatencyRun.Keystroke(
                        text: text, micros: micros, backspace: backspace,
                        provider: slowest.map { slots[$0.index].provider.id }, providerMicros: slowest?.micros
                    ),
                    slowestCount: slowestCount
                )
            case .submit(let text):
                let t0 = ContinuousClock.now
                engine.submit(SearchQuery(text: text))
                run.submits.append(Self.micros(ContinuousClock.now - t0))
            case .reset:
                session.reset()
            }
            if let progress {
                let hundredths = (i + 1) * 100 / Swift.max(1, total)
                if hundredths != reported {
                    reported = hundredths
                    progress(i + 1, total)
                }
            }
        }
        run.seconds = Self.micros(ContinuousClock.now - start) / 1e6
        run.sessions = script.sessions
        run.misspelt = script.misspelt
        run.corrected = script.corrected
        return run
    }

    static func micros(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}

/// What one ``LatencyBench/run(_:progress:)`` measured: every sample, in microseconds.
public struct LatencyRun: Sendable {
    /// A provider of the engine, as the report names it.
    public struct Provider: Codable, Hashable, Sendable {
        public var id: String
        /// Its configuration type name (`prefix`), or its Swift type's name for a provider that is not configurable.
        public var type: String

        public init(id: String, type: String) {
            self.id = id
            self.type = type
        }

        public init(_ provider: any SuggestionProvider) {
            id = provider.id
            if let configurable = provider as? any ConfigurableProvider {
                type = Swift.type(of: configurable).typeName
            } else {
                type = String(describing: Swift.type(of: provider))
            }
        }
    }

    /// One keystroke among the slowest.
    public struct Keystroke: Codable, Hashable, Sendable {
        /// The field's text after the key.
        public var text: String
        /// The whole engine's time.
        public var micros: Double
        /// Whether the key was a backspace.
        public var backspace: Bool
        /// The provider that took longest on this keystroke, and its time.
        public var provider: String?
        public var providerMicros: Double?

        public init(text: String, micros: Double, backspace: Bool, provider: String?, providerMicros: Double?) {
            self.text = text
            self.micros = micros
            self.backspace = backspace
            self.provider = provider
            self.providerMicros = providerMicros
        }
    }

    public var providers: [Provider]
    /// The whole engine's time for each keystroke, in order.
    public var engine: [Double] = []
    /// `providerSamples[i]`: provider `i`'s time for each keystroke it answered.
    public var providerSamples: [[Double]]
    /// Each submit's time.
    public var submits: [Double] = []
    /// The slowest keystrokes, slowest first.
    public var slowest: [Keystroke] = []
    public var backspaces = 0
    public var sessions = 0
    public var misspelt = 0
    public var corrected = 0
    /// The run's wall time.
    public var seconds = 0.0

    public init(providers: [Provider]) {
        self.providers = providers
        providerSamples = Array(repeating: [], count: providers.count)
    }

    /// Keeps `keystroke` if it is among the `slowestCount` slowest so far.
    mutating func keep(_ keystroke: Keystroke, slowestCount: Int) {
        guard slowestCount > 0 else { return }
        if slowest.count == slowestCount {
            guard keystroke.micros > slowest[slowest.count - 1].micros else { return }
            slowest.removeLast()
        }
        let at = slowest.firstIndex { $0.micros < keystroke.micros } ?? slowest.count
        slowest.insert(keystroke, at: at)
    }
}
