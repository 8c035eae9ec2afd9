/// What a provider offers for one keystroke: a possible suggestion with its match facts. The engine merges
/// candidates from every provider into ``Suggestion``s and ranks them.
public struct SuggestionCandidate: Hashable, Sendable {
    public var title: String
    public var subtitle: String?
    public var completion: Suggestion.Completion
    /// UTF-8 offset ranges in ``title`` that matched.
    public var matchedRanges: [Range<Int>]
    public var tier: MatchTier
    public var typos: Int
    /// How popular the completion is (a dictionary weight, a frecency); ranks candidates inside a tier.
    public var popularity: Double
    public var systemImage: String?
    /// Overrides the provider's configured section for this candidate.
    public var section: String?
    /// Set by the engine on what a provider offered for a synonym's rewritten query (see ``Synonyms``).
    public var synonym: Synonyms.Match?
    /// How much the kinds of its typos changed ``popularity`` (already in it): above 1 for likely slips (a vowel
    /// for a vowel, a doubled letter, two neighbours swapped), below 1 for unlikely ones (a wrong first letter);
    /// 1 when the provider does not weigh them (the fuzzy provider's `weighTypoKinds` does). For explanations.
    public var typoKindFactor: Double = 1
    /// A typo match of several words whose words start the entry's words in another order than the typed one
    /// ("framwork django" → "django-rest-framework"). For explanations: it does not change the rank (a typo match
    /// in the typed order is not ranked above a more popular one in another order, which people typing the words
    /// of a name out of order with a typo were measured to find less often).
    public var wordsOutOfOrder = false

    @inlinable
    public init(
        title: String,
        subtitle: String? = nil,
        completion: Suggestion.Completion? = nil,
        matchedRanges: [Range<Int>] = [],
        tier: MatchTier,
        typos: Int = 0,
        popularity: Double = 1,
        systemImage: String? = nil,
        section: String? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.completion = completion ?? .text(title)
        self.matchedRanges = matchedRanges
        self.tier = tier
        self.typos = typos
        self.popularity = popularity
        self.systemImage = systemImage
        self.section = section
    }
}
