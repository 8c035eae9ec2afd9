public import Foundation

/// A change to the remembered searches, as a store receives it. Changes are operations, not states, so that a
/// store shared by several processes can apply them to what it holds now instead of overwriting it.
public enum RecentsChange: Hashable, Sendable {
    /// One use of a search (its ``RecentSearch/lastUsed`` is the time, its ``RecentSearch/uses`` 1).
    case record(RecentSearch)
    /// Forget the search with this key, unless it was made again after `at`.
    case remove(key: String, at: Date)
    /// Forget every search not made after `at`.
    case clear(at: Date)
}
