import Synchronization

/// Loads each dictionary file once and shares it (and anything built from it, like an index) between the providers
/// of one configuration.
public final class DictionaryCache: Sendable {
    private let dictionaries = Mutex<[String: WeightedDictionary]>([:])
    private let artifacts = Mutex<[String: any Sendable]>([:])
    private let loadCount = Atomic<Int>(0)

    /// Whether providers may write the files their configuration names for what they build (a prefix provider's
    /// `"index"`): false for a check that must leave every file as it is (`suggest validate`), which then reads an
    /// index file that matches and builds, without saving, one that is missing or stale.
    public let writesFiles: Bool

    /// A cache whose providers write the files they build.
    public init() { writesFiles = true }

    /// - Parameter writesFiles: whether providers may write the files they build (see ``writesFiles``).
    public init(writesFiles: Bool) { self.writesFiles = writesFiles }

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

    /// The dictionaries read leniently that had bad lines, by path (sorted), with the number of lines skipped.
    public var skippedLines: [(path: String, lines: Int)] {
        // Only a lenient read skips lines; a dictionary's source is the path it was read from.
        dictionaries.withLock { all in
            all.values.compactMap { $0.skippedLines > 0 ? ($0.source, $0.skippedLines) : nil }
        }.sorted { $0.path < $1.path }
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
