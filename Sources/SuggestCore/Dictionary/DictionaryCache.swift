import Synchronization

/// Loads each dictionary file once and shares it (and anything built from it, like an index) between the providers
/// of one configuration.
public final class DictionaryCache: Sendable {
    private let dictionaries = Mutex<[String: WeightedDictionary]>([:])
    private let artifacts = Mutex<[String: any Sendable]>([:])
    private let loadCount = Atomic<Int>(0)

    public init() {}

    /// How many dictionary files this cache has read (a dictionary asked for again is not read again).
    public var loads: Int { loadCount.load(ordering: .relaxed) }

    /// The dictionary at `path` (an absolute or resolved path), loading it on first use.
    /// - Throws: ``DictionaryError``.
    public func dictionary(atPath path: String, lenient: Bool = false) throws(DictionaryError) -> WeightedDictionary {
        let key = lenient ? "lenient:" + path : path
        if let cached = dictionaries.withLock({ $0[key] }) { return cached }
        let loaded = try DictionaryLoader.load(path: path, lenient: lenient)
        loadCount.add(1, ordering: .relaxed)
        return dictionaries.withLock { all in
            if let cached = all[key] { return cached }
            all[key] = loaded
            return loaded
        }
    }

    /// Something built from a dictionary (an index, normalized keys), built once per `key` and shared.
    public func artifact<T: Sendable>(_ key: String, build: () throws -> T) rethrows -> T {
        if let cached = artifacts.withLock({ $0[key] }) as? T { return cached }
        let built = try build()
        return artifacts.withLock { all in
            if let cached = all[key] as? T { return cached }
            all[key] = built
            return built
        }
    }
}
