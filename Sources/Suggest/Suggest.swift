@_exported public import SuggestCore
@_exported public import SuggestRecents
@_exported public import SuggestPopular
@_exported public import SuggestIndex
@_exported public import SuggestPrefix
@_exported public import SuggestFuzzy
@_exported public import SuggestTokens
@_exported public import SuggestPattern

extension ProviderRegistry {
    /// Every provider type that ships with swift-suggest, listed explicitly:
    /// - `static`: `StaticProvider`
    /// - `recent`: `RecentsProvider`
    /// - `popular`: `PopularProvider`
    /// - `prefix`: `PrefixProvider`
    /// - `fuzzy`: `FuzzyProvider`
    /// - `tokens`: `TokenProvider`
    ///
    /// Copy it and `register(_:)` your own types.
    public static var builtIn: ProviderRegistry {
        var registry = ProviderRegistry()
        registry.register(StaticProvider.self)
        registry.register(RecentsProvider.self)
        registry.register(PopularProvider.self)
        registry.register(PrefixProvider.self)
        registry.register(FuzzyProvider.self)
        registry.register(TokenProvider.self)
        return registry
    }
}
