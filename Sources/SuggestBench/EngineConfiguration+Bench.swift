public import SuggestCore
import SuggestRecents

extension EngineConfiguration {
    /// An engine over this configuration for a bench: as `EngineConfiguration.makeEngine()` makes it (warmed up),
    /// except that a recent-searches provider keeps its searches in memory and starts empty, so that the submits of
    /// a bench never reach the searches a person saved in its `store`.
    public func makeBenchEngine() -> SuggestionEngine {
        var slots = self.slots
        for i in slots.indices {
            guard let recents = slots[i].provider as? RecentsProvider, recents.store != nil else { continue }
            slots[i].provider = RecentsProvider(id: recents.id, store: nil, options: recents.options)
        }
        let engine = SuggestionEngine(slots: slots, options: options, logger: logger)
        engine.warmUp()
        return engine
    }
}
