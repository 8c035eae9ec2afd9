/// Where an exact match (the whole folded text equals what was typed) of a provider ranks.
///
/// - ``first``: in its own tier above every prefix match, always shown: for entries that are real choices (a
///   product named "Go", a recent search, a static item, a token). The default of most providers.
/// - ``boost(_:)``: among the prefix matches, as if `factor` times as popular: for word lists and catalogues
///   whose every fragment is an entry (`compr`, `exi`), where the exact entry should earn its place. The default of
///   the `prefix` and `fuzzy` providers, chosen by measurement (see the Ranking guide).
/// - ``byPopularity``: among the prefix matches by its own popularity (`"none"` in JSON).
///
/// An exact match another provider offers with ``first`` (a recent search) stays first whatever this provider's
/// rule: the engine keeps the best match facts of every provider that offered a suggestion.
public struct ExactMatchRule: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case first
        case boost(Double)
    }

    let kind: Kind

    /// Exact matches rank first and are always shown.
    public static let first = ExactMatchRule(kind: .first)

    /// Exact matches rank among prefix matches, as if `factor` (1 or more, finite) times as popular.
    public static func boost(_ factor: Double) -> ExactMatchRule {
        ExactMatchRule(kind: .boost(factor.isFinite ? max(1, factor) : 1))
    }

    /// Exact matches rank among prefix matches by their own popularity (JSON `"none"`).
    public static let byPopularity = ExactMatchRule(kind: .boost(1))

    /// The default boost of the dictionary providers (`prefix`, `fuzzy`).
    public static let dictionaryDefault = ExactMatchRule.boost(ExactMatchRule.defaultBoost)

    /// The factor of `"exactMatch": "boost"` without a factor.
    public static let defaultBoost: Double = 3

    /// The factor an exact match's popularity is multiplied by, or nil for ``first``.
    public var boostFactor: Double? {
        switch kind {
        case .first: nil
        case .boost(let factor): factor
        }
    }

    public var description: String {
        switch kind {
        case .first: "first"
        case .boost(1): "none"
        case .boost(let factor): "boost \(factor)"
        }
    }
}
