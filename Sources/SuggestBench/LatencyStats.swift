import Foundation

/// The distribution of one series of samples (the whole engine's keystrokes, one provider's, the submits), in
/// microseconds.
///
/// Percentiles are nearest-rank: p-th percentile = the smallest sample that at least p% of the samples do not
/// exceed (`sorted[ceil(p/100 × count) − 1]`), so every figure is a measured sample, never an interpolation.
public struct LatencyStats: Codable, Hashable, Sendable {
    public var count: Int
    public var mean: Double
    public var p50: Double
    public var p90: Double
    public var p99: Double
    /// p99.9.
    public var p999: Double
    public var max: Double

    public init(count: Int, mean: Double, p50: Double, p90: Double, p99: Double, p999: Double, max: Double) {
        self.count = count
        self.mean = mean
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.p999 = p999
        self.max = max
    }

    /// The statistics of `samples` (all zero for no sample), each rounded to 0.01 µs.
    public init(samples: [Double]) {
        let sorted = samples.sorted()
        func at(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((q * Double(sorted.count)).rounded(.up))
            return Self.rounded(sorted[Swift.min(sorted.count, Swift.max(1, rank)) - 1])
        }
        count = sorted.count
        mean = sorted.isEmpty ? 0 : Self.rounded(sorted.reduce(0, +) / Double(sorted.count))
        p50 = at(0.5)
        p90 = at(0.9)
        p99 = at(0.99)
        p999 = at(0.999)
        max = Self.rounded(sorted.last ?? 0)
    }

    static func rounded(_ micros: Double) -> Double { (micros * 100).rounded() / 100 }
}

/// Counts of samples in log-spaced bins of time: ``binsPerDecade`` bins per factor of ten, from ``lowest`` µs; the
/// first bin also holds every smaller sample, the last every larger one.
public struct LatencyHistogram: Codable, Hashable, Sendable {
    /// The lower edge of the first bin, in microseconds.
    public static let lowest = 0.1
    public static let binsPerDecade = 10
    /// Bins up to 1 s (7 decades from 0.1 µs).
    public static let binCount = 70

    /// The lower edge of bin `i` in microseconds (`edge(binCount)` is the upper edge of the last bin).
    public static func edge(_ i: Int) -> Double {
        lowest * pow(10, Double(i) / Double(binsPerDecade))
    }

    /// The bin of a sample.
    public static func bin(of micros: Double) -> Int {
        guard micros > lowest else { return 0 }
        let i = Int((log10(micros / lowest) * Double(binsPerDecade)).rounded(.down))
        return Swift.min(binCount - 1, Swift.max(0, i))
    }

    /// `counts[i]`: the samples in bin `i`.
    public var counts: [Int]

    public init(samples: [Double]) {
        counts = Array(repeating: 0, count: Self.binCount)
        for sample in samples { counts[Self.bin(of: sample)] += 1 }
    }

    public init(counts: [Int]) { self.counts = counts }
}
