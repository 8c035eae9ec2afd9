#if Server
/// A dictionary that also keeps its keys in order of last use, so that the least recently used one is found and
/// removed in O(1): a hash table of slots, each slot a node of a doubly linked list threaded through arrays (no
/// allocation per node; freed slots are reused).
///
/// - Complexity: ``subscript(_:)`` (read, no reordering), ``touch(_:)``, ``insert(_:_:)``, ``removeValue(forKey:)``,
///   ``removeLeastRecent()`` and ``leastRecent`` are O(1) on average; `values` and `keys` O(n).
struct LRUTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private var slotOf: [Key: Int] = [:]
    private var keys: [Key?] = []
    private var values: [Value?] = []
    /// Towards more recent use.
    private var newer: [Int] = []
    /// Towards less recent use.
    private var older: [Int] = []
    /// The least and most recently used slots (-1: empty).
    private var oldest = -1
    private var newest = -1
    private var free: [Int] = []

    init() {}

    var count: Int { slotOf.count }
    var isEmpty: Bool { slotOf.isEmpty }

    /// The value for `key`, without marking it used.
    subscript(key: Key) -> Value? {
        guard let slot = slotOf[key] else { return nil }
        return values[slot]
    }

    /// Changes the value of a present key in place (not marking it used); no effect when `key` is absent.
    mutating func update(_ key: Key, _ body: (inout Value) -> Void) {
        guard let slot = slotOf[key] else { return }
        body(&values[slot]!)
    }

    /// Marks `key` as the most recently used. Returns false when it is absent.
    @discardableResult
    mutating func touch(_ key: Key) -> Bool {
        guard let slot = slotOf[key] else { return false }
        unlink(slot)
        linkNewest(slot)
        return true
    }

    /// Sets `key`'s value and marks it the most recently used.
    mutating func insert(_ key: Key, _ value: Value) {
        if let slot = slotOf[key] {
            values[slot] = value
            unlink(slot)
            linkNewest(slot)
            return
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            keys[slot] = key
            values[slot] = value
        } else {
            slot = keys.count
            keys.append(key)
            values.append(value)
            newer.append(-1)
            older.append(-1)
        }
        slotOf[key] = slot
        linkNewest(slot)
    }

    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slotOf.removeValue(forKey: key) else { return nil }
        return release(slot)
    }

    /// The least recently used key and its value.
    var leastRecent: (key: Key, value: Value)? {
        guard oldest >= 0 else { return nil }
        return (keys[oldest]!, values[oldest]!)
    }

    /// Removes and returns the least recently used key and its value.
    mutating func removeLeastRecent() -> (key: Key, value: Value)? {
        guard oldest >= 0 else { return nil }
        let slot = oldest
        let key = keys[slot]!
        slotOf[key] = nil
        return (key, release(slot))
    }

    /// Every key and value, least recently used first.
    var entries: [(key: Key, value: Value)] {
        var result: [(key: Key, value: Value)] = []
        result.reserveCapacity(count)
        var slot = oldest
        while slot >= 0 {
            result.append((keys[slot]!, values[slot]!))
            slot = newer[slot]
        }
        return result
    }

    private mutating func release(_ slot: Int) -> Value {
        unlink(slot)
        let value = values[slot]!
        keys[slot] = nil
        values[slot] = nil
        free.append(slot)
        return value
    }

    private mutating func unlink(_ slot: Int) {
        let before = older[slot], after = newer[slot]
        if before >= 0 { newer[before] = after } else { oldest = after }
        if after >= 0 { older[after] = before } else { newest = before }
        older[slot] = -1
        newer[slot] = -1
    }

    private mutating func linkNewest(_ slot: Int) {
        older[slot] = newest
        newer[slot] = -1
        if newest >= 0 { newer[newest] = slot } else { oldest = slot }
        newest = slot
    }
}
#endif
