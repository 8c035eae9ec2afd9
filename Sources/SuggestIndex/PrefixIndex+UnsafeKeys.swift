extension PrefixIndex {
    /// Calls `body` with the sorted keys' storage: sorted position `p`'s key is
    /// `bytes[Int(offsets[p])..<Int(offsets[p + 1])]` (`offsets` has ``count`` + 1 elements). For matchers that walk
    /// the keys as an implicit trie in a hot loop (the fuzzy provider's typo walk); the pointers are valid only
    /// inside `body`.
    @inlinable
    public func withUnsafeSortedKeys<Result>(
        _ body: (_ offsets: UnsafeBufferPointer<UInt32>, _ bytes: UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try keyOffsets.withUnsafeBufferPointer { offsets in
            try keyBytes.withUnsafeBufferPointer { bytes in try body(offsets, bytes) }
        }
    }

    /// Calls `body` with the popularity ranks of the sorted positions (0 = the most popular; each rank once), for
    /// matchers that compare many of them in a hot loop; the pointer is valid only inside `body`.
    public func withUnsafeRanks<Result>(_ body: (_ ranks: UnsafeBufferPointer<UInt32>) throws -> Result) rethrows
        -> Result
    {
        try prefixRanks.values.withUnsafeBufferPointer { try body($0) }
    }
}
