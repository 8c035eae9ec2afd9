public import SuggestCore

/// One person's view of a shared ``PopularProvider`` (``PopularProvider/attributed(to:)``): it suggests what the
/// provider suggests, and counts the searches submitted (and, with `recordSelections`, chosen) through its engine for
/// ``user``. A server gives each person's engine a view of one provider, so that everyone's searches are counted
/// once, by person.
///
/// A view is not a `ConfigurableProvider`: name its section in its slot,
/// `ProviderSlot(view, section: PopularProvider.defaultSection)`, for the empty field's "Popular" section.
public struct PopularProviderView: SuggestionProvider {
    /// The shared provider.
    public let popular: PopularProvider
    /// Who this view's searches are counted for.
    public let user: String

    public var id: String { popular.id }
    public var exactMatch: ExactMatchRule { popular.exactMatch }

    public func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        try popular.suggest(request, into: &output)
    }

    public func didSubmit(_ query: SearchQuery) {
        popular.observe(submit: query, user: user)
    }

    public func didSelect(_ suggestion: Suggestion, for query: SearchQuery) {
        popular.didSelect(suggestion, for: query, user: user)
    }
}
