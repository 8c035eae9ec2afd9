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
    public var groupSections: Bool = true
    /// Applied in order after tier and score.
    public var tiebreak: [Tiebreak] = [.shorter, .alphabetical]
    /// Longer query text is cut to this many UTF-8 bytes (the result's diagnostics say so).
    public var maxQueryLength: Int = SuggestionEngine.defaultMaxQueryLength
    /// Rank suggestions the person chose before higher inside their tier, while text is typed (on an empty field the
    /// providers' own order stands: recent searches most recent first).
    public var learnFromSelections: Bool = true
    /// Terms that stand for one another while typing (none by default): the synchronous providers are also asked
    /// for the query with its end replaced, and what only that finds ranks below every direct match.
    public var synonyms = Synonyms()

    public init() {}

    // The names before the vocabulary was unified (one name per option, the JSON key's).
    @available(*, deprecated, renamed: "groupSections")
    public var groupsSections: Bool {
        get { groupSections }
        set { groupSections = newValue }
    }
    @available(*, deprecated, renamed: "maxQueryLength")
    public var maximumQueryLength: Int {
        get { maxQueryLength }
        set { maxQueryLength = newValue }
    }
    @available(*, deprecated, renamed: "learnFromSelections")
    public var learnsFromSelections: Bool {
        get { learnFromSelections }
        set { learnFromSelections = newValue }
    }
}

/// A provider with the engine-side settings of its configuration entry.
public struct ProviderSlot: Sendable {
    public var provider: any SuggestionProvider
    /// Multiplies the provider's popularity inside a tier.
    public var weight: Double
    /// The section its suggestions go to. Default: the provider type's ``ConfigurableProvider/defaultSection``
    /// ("Recent" for recent searches), else ``SuggestionEngine/defaultSection``, the same whether the engine is
    /// built in Swift or from JSON.
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
        self.section = section ?? Self.defaultSection(of: provider)
        self.exactMatch = exactMatch ?? provider.exactMatch
    }

    /// The section a provider's suggestions go to when nothing says otherwise.
    public static func defaultSection(of provider: any SuggestionProvider) -> String {
        if let configurable = provider as? any ConfigurableProvider {
            return type(of: configurable).defaultSection ?? SuggestionEngine.defaultSection
        }
        return SuggestionEngine.defaultSection
    }
}
