/// How much work one PCRE2 match may do before it stops with ``PatternError/Kind/matchLimit`` instead of hanging
/// the keystroke on a catastrophic pattern such as `(a+)+$`.
public struct PatternLimits: Hashable, Sendable {
    /// PCRE2's match limit (backtracking steps; also bounds JIT matching). Default 100,000: a rule on a 1 KB query
    /// needs a few thousand.
    public var matchLimit: UInt32
    /// PCRE2's depth limit (backtracking depth of the interpreter). Default 2,000.
    public var depthLimit: UInt32

    public init(matchLimit: UInt32 = 100_000, depthLimit: UInt32 = 2_000) {
        self.matchLimit = matchLimit
        self.depthLimit = depthLimit
    }
}
