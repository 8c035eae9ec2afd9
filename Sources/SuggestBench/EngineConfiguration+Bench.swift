public import SuggestCore
import SuggestPopular
import SuggestRecents

extension EngineConfiguration {
    /// An engine over this configuration that saves nothing, for a bench or a demo: as
    /// `EngineConfiguration.makeEngine()` makes it (warmed up), except that a recent-searches provider keeps its
    /// searches in memory and starts empty, and a popular-searches provider reads its store but never writes it, so
    /// that the scripted searches of a bench or of `suggest demo` never reach what people searched.
    public func makeBenchEngine() -> SuggestionEngine {
        var slots = self.slots
        for i in slots.indices {
            if let recents = slots[i].provider as? RecentsProvider, recents.store != nil {
                slots[i].provider = RecentsProvider(id: recents.id, store: nil, options: recents.options)
            } else if let popular = slots[i].provider as? PopularProvider, let store = popular.store {
                slots[i].provider = PopularProvider(
                    id: popular.id, store: ReadOnlyPopularStore(base: store), options: popular.options)
            }
        }
        let engine = SuggestionEngine(slots: slots, options: options, logger: logger)
        engine.warmUp()
        return engine
    }
}

/// A store's searches, read and never written.
struct ReadOnlyPopularStore: PopularStore {
    let base: any PopularStore

    func load() throws -> PopularSnapshot? { try base.load() }

    func save(_ snapshot: PopularSnapshot) throws {}
}
