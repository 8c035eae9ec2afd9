/// A report's p99s against a baseline's: the whole engine's and each provider's.
///
/// A series has regressed when its p99 grew by more than ``maxRegression`` (0.1: 10%) *and* by more than
/// ``floorMicros``: a p99 of 0.4 µs that becomes 0.5 µs is clock resolution and scheduling noise, not a regression.
public struct BaselineComparison: Hashable, Sendable {
    /// One series compared.
    public struct Row: Hashable, Sendable {
        /// `engine`, or the provider's id.
        public var name: String
        public var baselineP99: Double
        public var currentP99: Double
        public var regressed: Bool

        /// The change, as a fraction of the baseline (0.25: 25% slower; -0.1: 10% faster); nil for a baseline of 0.
        public var change: Double? { baselineP99 > 0 ? currentP99 / baselineP99 - 1 : nil }
    }

    /// The growth allowed, as a fraction (0.1 = 10%).
    public var maxRegression: Double
    /// The growth in microseconds below which a series never counts as regressed.
    public var floorMicros: Double
    /// The engine first, then the providers in order.
    public var rows: [Row]

    /// The series that regressed.
    public var regressions: [Row] { rows.filter(\.regressed) }
    public var passed: Bool { regressions.isEmpty }

    /// Compares `current` with `baseline`.
    /// - Parameters:
    ///   - current: the run being checked.
    ///   - baseline: the earlier run it must not be slower than.
    ///   - maxRegression: the growth of p99 allowed, as a fraction (0.1 = 10%).
    ///   - floorMicros: growth smaller than this never counts (default 1 µs).
    ///   - file: the baseline's path, for errors.
    /// - Throws: ``BenchError`` when the baseline is of another configuration (another file name, other
    ///   providers).
    public init(
        current: LatencyReport,
        baseline: LatencyReport,
        maxRegression: Double,
        floorMicros: Double = 1,
        file: String = "baseline"
    ) throws(BenchError) {
        let was = baseline.configuration
        let now = current.configuration
        guard was.file == now.file else {
            throw .baseline(file, "it measured another configuration (\(was.file), this run \(now.file))")
        }
        guard was.providers == now.providers else {
            func list(_ providers: [LatencyRun.Provider]) -> String {
                providers.map { "\($0.id) (\($0.type))" }.joined(separator: ", ")
            }
            throw .baseline(
                file,
                "it measured another configuration: providers \(list(was.providers)); this run \(list(now.providers))"
            )
        }
        self.maxRegression = maxRegression
        self.floorMicros = floorMicros
        func row(_ name: String, _ old: Double, _ new: Double) -> Row {
            let regressed = new > old * (1 + maxRegression) && new - old > floorMicros
            return Row(name: name, baselineP99: old, currentP99: new, regressed: regressed)
        }
        rows = [row("engine", baseline.engine.latency.p99, current.engine.latency.p99)]
        for (old, new) in zip(baseline.providers, current.providers) {
            rows.append(row(new.id ?? "?", old.latency.p99, new.latency.p99))
        }
    }
}
