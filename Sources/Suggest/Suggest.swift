@_exported public import SuggestCore

extension ProviderRegistry {
    /// Every provider type that ships with swift-suggest, listed explicitly:
    /// - `static`: ``StaticProvider``
    ///
    /// Copy it and ``register(_:)`` your own types.
    public static var builtIn: ProviderRegistry {
        var registry = ProviderRegistry()
        registry.register(StaticProvider.self)
        return registry
    }
}
