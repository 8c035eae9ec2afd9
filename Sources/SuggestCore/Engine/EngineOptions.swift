/// How the engine merges, ranks and shapes results. Value type; ``EngineConfiguration`` reads it from JSON.
public struct EngineOptions: Hashable, Sendable {
    /// How suggestions of equal tier and score are ordered.
    public enum Tiebreak: String, Hashable, Sendable, CaseIterable, Codable {
        /// Shorter titles first.
        case shorter
        /// Alphabetical by title.
        case alphabetical
        /// Earlier providers (in configuration order) first.
        case provider
    }

    /// A section's title and how many suggestions it may show at most.
    public struct SectionRule: Hashable, Sendable {
        public var title: String
        public var quota: Int?

        public init(title: String, quota: Int? = nil) {
            self.title = title
            self.quota = quota
        }
    }

    /// How many suggestions a keystroke shows at most, over all sections.
    public var limit: Int = 8
    /// Section order and quotas. Sections no rule names follow in the order their providers are configured.
    public var sections: [SectionRule] = [SectionRule(title: "Recent", quota: 5)]
    /// When false, one merged list (titled ``SuggestionEngine/defaultSection``) in rank order; quotas still apply.
    public var groupsSections: Bool = true
    /// Applied in order after tier and score.
    public var tiebreak: [Tiebreak] = [.shorter, .alphabetical]
    /// Longer query text is cut to this many UTF-8 bytes (the result's diagnostics say so).
    public var maximumQueryLength: Int = SuggestionEngine.defaultMaximumQueryLength
    /// Rank suggestions the person chose before higher inside their tier.
    public var learnsFromSelections: Bool = true

    public init() {}
}

/// A provider with the engine-side settings of its configuration entry.
public struct ProviderSlot: Sendable {
    public var provider: any SuggestionProvider
    /// Multiplies the provider's popularity inside a tier.
    public var weight: Double
    /// The section its suggestions go to (default: ``SuggestionEngine/defaultSection``).
    public var section: String
    /// Where its exact matches rank (default: the provider's ``SuggestionProvider/exactMatch``).
    public var exactMatch: ExactMatchRule

    public init(
        _ provider: any SuggestionProvider,
        weight: Double = 1,
        section: String? = nil,
        exactMatch: ExactMatchRule? = nil
    ) {
        self.provider = provider
        self.weight = weight
        self.section = section ?? SuggestionEngine.defaultSection
        self.exactMatch = exactMatch ?? provider.exactMatch
    }
}
