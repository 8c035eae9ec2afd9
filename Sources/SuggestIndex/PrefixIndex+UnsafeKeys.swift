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
}
