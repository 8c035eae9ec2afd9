import SuggestCore

/// Where a ``RecentsProvider`` keeps its searches: ``InMemoryRecentsStore``, ``JSONFileRecentsStore``, or your own
/// (an app's database, a sync service).
///
/// A store receives changes (``RecentsChange``), not whole states, so that several providers or processes can share
/// one store without overwriting each other: ``commit(_:merge:)`` reads what the store holds *now*, lets `merge`
/// apply the changes to it, and keeps the result.
///
/// ```swift
/// final class DatabaseStore: RecentsStore {
///     func load() throws -> [RecentSearch] { try db.fetchAllRecents() }
///     func commit(_ changes: [RecentsChange], merge: ([RecentSearch]?) throws -> [RecentSearch]) throws -> [RecentSearch] {
///         try db.transaction {
///             let merged = try merge(try db.fetchAllRecents())
///             try db.replaceAllRecents(with: merged)
///             return merged
///         }
///     }
/// }
/// ```
public protocol RecentsStore: Sendable {
    /// Reads the stored searches (any order; duplicates are merged).
    /// - Throws: when they cannot be read. The provider then starts empty and reports the error in the diagnostics
    ///   of every keystroke until it has saved again.
    func load() throws -> [RecentSearch]

    /// Saves `changes` made since the last commit: under the store's own exclusion (a transaction, a file lock),
    /// reads what is stored now, calls `merge` with it and stores what `merge` returns, which it also returns.
    /// `merge` works on every stored search, so a commit costs O(n log n) for n searches (the built-in
    /// ``JSONFileRecentsStore`` skips it when nobody else wrote since the provider's last commit: it appends).
    /// Pass nil to `merge` when what is stored cannot be read any more; the provider then merges onto what it last
    /// knew.
    /// - Throws: when the changes could not be saved; the provider keeps them and tries again on its next change.
    func commit(
        _ changes: [RecentsChange],
        merge: ([RecentSearch]?) throws -> [RecentSearch]
    ) throws -> [RecentSearch]
}

/// Keeps searches in memory only; share one instance between providers to share their searches.
///
/// Each commit merges the whole list (O(n log n) per submit for n searches): for tests and small histories. A
/// provider without a store (`"ephemeral": true`) keeps its searches in memory without that cost.
public final class InMemoryRecentsStore: RecentsStore {
    private let stored: Locked<[RecentSearch]>

    public init(_ searches: [RecentSearch] = []) {
        stored = Locked(searches)
    }

    /// What the store holds.
    public var searches: [RecentSearch] { stored.withLock { $0 } }

    public func load() throws -> [RecentSearch] { searches }

    public func commit(
        _ changes: [RecentsChange],
        merge: ([RecentSearch]?) throws -> [RecentSearch]
    ) throws -> [RecentSearch] {
        try stored.withLock { stored in
            let merged = try merge(stored)
            stored = merged
            return merged
        }
    }
}
