public import SuggestCore

/// The figures of a bench, as `suggest bench --json` writes them and `--baseline` reads them back.
///
/// The JSON schema is ``schema`` (`swift-suggest-bench/1`); its fields are documented in the article "Measuring
/// latency on your configuration". Times are microseconds. A later schema version may add fields; a reader must
/// ignore fields it does not know.
public struct LatencyReport: Codable, Hashable, Sendable {
    /// The schema this build writes and reads.
    public static let currentSchema = "swift-suggest-bench/1"

    /// The configuration benched: its file's name (no folder, so that a baseline made in another checkout matches)
    /// and its providers in order.
    public struct Configuration: Codable, Hashable, Sendable {
        public var file: String
        public var providers: [LatencyRun.Provider]

        public init(file: String, providers: [LatencyRun.Provider]) {
            self.file = file
            self.providers = providers
        }

        /// The configuration of an engine built in Swift, named `file`.
        public init(file: String, providers: [any SuggestionProvider]) {
            self.init(file: file, providers: providers.map(LatencyRun.Provider.init))
        }
    }

    /// How the run was made.
    public struct Run: Codable, Hashable, Sendable {
        /// When it ran (ISO 8601, UTC).
        public var date: String
        /// The swift-suggest version (`SuggestVersion.current`).
        public var version: String
        /// `dictionaries` (drawn by weight from the configuration's data) or `queries` (a file of searches).
        public var source: String
        /// How many searches the sessions were drawn from.
        public var targets: Int
        public var sessions: Int
        public var keystrokes: Int
        public var backspaces: Int
        public var misspelt: Int
        public var corrected: Int
        public var seed: UInt64
        public var typos: Double
        public var corrections: Double
        /// The time the sessions took, load excluded.
        public var seconds: Double

        public init(
            date: String, version: String, source: String, targets: Int, sessions: Int, keystrokes: Int,
            backspaces: Int, misspelt: Int, corrected: Int, seed: UInt64, typos: Double, corrections: Double,
            seconds: Double
        ) {
            self.date = date
            self.version = version
            self.source = source
            self.targets = targets
            self.sessions = sessions
            self.keystrokes = keystrokes
            self.backspaces = backspaces
            self.misspelt = misspelt
            self.corrected = corrected
            self.seed = seed
            self.typos = typos
            self.corrections = corrections
            self.seconds = seconds
        }
    }

    /// One series of samples: its statistics and its histogram (``LatencyHistogram``'s bins).
    public struct Series: Codable, Hashable, Sendable {
        /// The provider's id and type; nil for the whole engine and for submits.
        public var id: String?
        public var type: String?
        public var latency: LatencyStats
        public var histogram: [Int]

        public init(id: String? = nil, type: String? = nil, samples: [Double]) {
            self.id = id
            self.type = type
            latency = LatencyStats(samples: samples)
            histogram = LatencyHistogram(samples: samples).counts
        }
    }

    /// The histograms' bins, repeated in the file so that a reader needs no other source.
    public struct Bins: Codable, Hashable, Sendable {
        public var lowestMicros: Double = LatencyHistogram.lowest
        public var perDecade: Int = LatencyHistogram.binsPerDecade
        public var count: Int = LatencyHistogram.binCount
        public init() {}
    }

    public var schema: String
    public var configuration: Configuration
    public var run: Run
    /// The configuration's load time (reading, indexing, warm-up) in milliseconds, when the caller measured it.
    public var loadMillis: Double?
    /// The process's peak resident memory in bytes (`getrusage`), when the caller measured it.
    public var peakMemoryBytes: Int?
    /// Every keystroke, the whole engine.
    public var engine: Series
    /// Each provider, in the engine's order.
    public var providers: [Series]
    public var submit: Series
    public var slowest: [LatencyRun.Keystroke]
    public var bins: Bins

    /// The report of `run`.
    public init(
        run: LatencyRun,
        configuration: Configuration,
        details: Run,
        loadMillis: Double? = nil,
        peakMemoryBytes: Int? = nil
    ) {
        schema = Self.currentSchema
        self.configuration = configuration
        self.run = details
        self.loadMillis = loadMillis
        self.peakMemoryBytes = peakMemoryBytes
        engine = Series(samples: run.engine)
        providers = zip(run.providers, run.providerSamples).map { provider, samples in
            Series(id: provider.id, type: provider.type, samples: samples)
        }
        submit = Series(samples: run.submits)
        slowest = run.slowest.map { keystroke in
            var k = keystroke
            k.micros = LatencyStats.rounded(k.micros)
            k.providerMicros = k.providerMicros.map(LatencyStats.rounded)
            return k
        }
        bins = Bins()
    }
}

extension LatencyRun {
    /// The report of this run, with the run details a caller does not give filled in from the run.
    public func report(
        configuration: LatencyReport.Configuration,
        options: TypingScript.Options = .init(),
        source: String = "dictionaries",
        targets: Int = 0,
        date: String = "",
        loadMillis: Double? = nil,
        peakMemoryBytes: Int? = nil
    ) -> LatencyReport {
        LatencyReport(
            run: self,
            configuration: configuration,
            details: .init(
                date: date, version: SuggestVersion.current, source: source, targets: targets, sessions: sessions,
                keystrokes: engine.count, backspaces: backspaces, misspelt: misspelt, corrected: corrected,
                seed: options.seed, typos: options.typos, corrections: options.corrections,
                seconds: (seconds * 1000).rounded() / 1000
            ),
            loadMillis: loadMillis,
            peakMemoryBytes: peakMemoryBytes
        )
    }
}
