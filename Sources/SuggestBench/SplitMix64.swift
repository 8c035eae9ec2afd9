/// A small, fast, seeded random number generator (SplitMix64): the same seed gives the same sequence on every
/// platform and in every release, so a bench's typing script is reproducible.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<1` (53 random bits), the same on every platform, unlike `Double.random(in:using:)`, whose
    /// way of using the generator's bits the standard library does not promise to keep.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A whole number in `0..<bound` (`bound` > 0), by the same rule everywhere.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next() % UInt64(bound))
    }
}
