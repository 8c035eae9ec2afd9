public import SuggestCore
import SuggestFuzzy
import SuggestIndex
import SuggestPrefix

extension BenchTargets {
    /// The searches a configuration's own data holds: each prefix and fuzzy provider's dictionary (a file named by
    /// two providers counts once) by its weights, and each static provider's items (their titles) by popularity.
    /// Providers of other types (recent searches, tokens, custom ones) add nothing.
    public init(configuration: EngineConfiguration) {
        self.init(providers: configuration.slots.map(\.provider))
    }

    /// The searches `providers`' data holds, as ``init(configuration:)`` reads them.
    public init(providers: [any SuggestionProvider]) {
        var lists: [List] = []
        var seen: Set<String> = []
        func add(_ dictionary: WeightedDictionary, _ provider: String) {
            guard seen.insert(dictionary.source).inserted else { return }
            lists.append(List(name: dictionary.source, dictionary: dictionary))
        }
        for provider in providers {
            switch provider {
            case let prefix as PrefixProvider: add(prefix.index.base.dictionary, prefix.id)
            case let fuzzy as FuzzyProvider: add(fuzzy.index.dictionary, fuzzy.id)
            case let items as StaticProvider:
                lists.append(
                    List(
                        name: "\(items.id) (static items)",
                        entries: items.items.map { ($0.title, $0.popularity) }
                    ))
            default: continue
            }
        }
        self.init(lists)
    }
}
