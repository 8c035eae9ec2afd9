import Foundation

extension RecentsProvider {
    /// `stored` with `changes` applied as a provider with `options` saves them: duplicates merged (uses added),
    /// excluded searches dropped, then the least valuable searches beyond ``Options/capacity`` evicted. A store that
    /// merges on its own (outside ``RecentsStore/commit(_:merge:)``, e.g. an asynchronous database write) gets the
    /// same result as the provider's own commit.
    /// - Parameters:
    ///   - stored: the stored searches (any order; duplicates are merged).
    ///   - changes: the changes to apply, oldest first.
    ///   - options: the capacity, half-life and exclusions of the provider.
    /// - Returns: the searches to keep, at most `options.capacity`.
    /// - Complexity: O(n log n) for n searches and changes.
    public static func merged(_ stored: [RecentSearch], applying changes: [RecentsChange], options: Options)
        -> [RecentSearch]
    {
        let (seconds, attoseconds) = options.halfLife.components
        let halfLife = max(1e-3, Double(seconds) + Double(attoseconds) / 1e18)
        var ledger = RecentsLedger(stored, halfLife: halfLife)
        ledger.apply(changes)
        ledger.remove(excludedBy: options.exclusion)
        ledger.evict(toCapacity: max(0, options.capacity))
        return ledger.searches
    }
}
