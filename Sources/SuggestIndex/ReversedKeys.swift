/// The sorted keys of a ``PrefixIndex`` written backwards (Unicode scalar by scalar, each scalar's bytes kept in
/// order) and sorted again: the implicit trie of their ends. A typo walk over it reads a word from its last letter,
/// so a search whose typos sit at a word's start (where the forward trie branches most) stays narrow; the fuzzy
/// provider's whole-word corrections split their search between the two directions (Mihov and Schulz's forward and
/// backward tries).
///
/// Only keys of at most ``maxLength`` Unicode scalars are kept. Memory: the keys' bytes again, and 8 bytes per key
/// kept.
public struct ReversedKeys: Sendable {
    /// Reversed key `p` is `bytes[Int(offsets[p])..<Int(offsets[p + 1])]`, in byte order.
    @usableFromInline let offsets: [UInt32]
    @usableFromInline let bytes: [UInt8]
    /// The prefix index's sorted position of reversed key `p`.
    let forward: [UInt32]
    /// The longest key kept, in Unicode scalars.
    public let maxLength: Int

    /// The number of keys kept.
    public var count: Int { forward.count }

    /// Bytes held (the keys, their offsets and positions).
    public var byteCount: Int { bytes.count + offsets.count * 4 + forward.count * 4 }

    /// The keys of `index` of at most `maxLength` Unicode scalars, reversed and sorted (equal keys by sorted position).
    /// - Complexity: O(n) passes of a radix sort over the keys.
    public init(_ index: PrefixIndex, maxLength: Int) {
        self.maxLength = maxLength
        var kept: [UInt32] = []
        var reversed: [UInt8] = []
        var ends: [UInt32] = [0]
        index.withUnsafeSortedKeys { offsets, keyBytes in
            for p in 0..<index.count {
                let start = Int(offsets[p])
                let end = Int(offsets[p + 1])
                if end - start > maxLength {
                    var scalars = 0
                    for k in start..<end where keyBytes[k] & 0xC0 != 0x80 { scalars += 1 }
                    if scalars > maxLength { continue }
                }
                // Scalars from the last: a scalar starts at a byte that is not a continuation byte (10xxxxxx).
                var i = end
                while i > start {
                    var s = i - 1
                    while s > start && keyBytes[s] & 0xC0 == 0x80 { s -= 1 }
                    for k in s..<i { reversed.append(keyBytes[k]) }
                    i = s
                }
                ends.append(UInt32(reversed.count))
                kept.append(UInt32(p))
            }
        }
        let n = kept.count
        let items = UnsafeMutableBufferPointer<RadixItem>.allocate(capacity: max(n, 1))
        let scratch = UnsafeMutableBufferPointer<RadixItem>.allocate(capacity: max(n, 1))
        defer {
            items.deallocate()
            scratch.deallocate()
        }
        var forward = [UInt32](repeating: 0, count: n)
        var sortedBytes: [UInt8] = []
        sortedBytes.reserveCapacity(reversed.count)
        var sortedOffsets: [UInt32] = [0]
        sortedOffsets.reserveCapacity(n + 1)
        reversed.withUnsafeBufferPointer { k in
            ends.withUnsafeBufferPointer { e in
                for i in 0..<n {
                    items[i] = RadixItem(key: RadixSort.head(k, Int(e[i]), Int(e[i + 1])), value: UInt32(i))
                }
                let all = UnsafeMutableBufferPointer(rebasing: items[0..<n])
                let spare = UnsafeMutableBufferPointer(rebasing: scratch[0..<n])
                let starts = RadixSort.bucketByTopBytes(all, scratch: spare)
                // Ties (equal keys) by the order kept, which is the forward sorted order.
                RadixSort.sortBuckets(
                    all, scratch: spare, starts: starts, buckets: 0..<(starts.count - 1),
                    strings: EntryKeys(bytes: k, ends: e))
                for i in 0..<n {
                    let v = Int(items[i].value)
                    forward[i] = kept[v]
                    sortedBytes.append(contentsOf: k[Int(e[v])..<Int(e[v + 1])])
                    sortedOffsets.append(UInt32(sortedBytes.count))
                }
            }
        }
        self.forward = forward
        self.bytes = sortedBytes
        self.offsets = sortedOffsets
    }

    /// The reversed key at `p` (for tests and diagnostics).
    public func key(at p: Int) -> ArraySlice<UInt8> { bytes[Int(offsets[p])..<Int(offsets[p + 1])] }

    /// The prefix index's sorted position of reversed key `p`.
    @inline(__always)
    public func forwardPosition(_ p: Int) -> Int { Int(forward[p]) }

    /// Calls `body` with the reversed keys' storage, laid out as ``PrefixIndex/withUnsafeSortedKeys(_:)``'s.
    @inlinable
    public func withUnsafeKeys<Result>(
        _ body: (_ offsets: UnsafeBufferPointer<UInt32>, _ bytes: UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try offsets.withUnsafeBufferPointer { offsets in
            try bytes.withUnsafeBufferPointer { bytes in try body(offsets, bytes) }
        }
    }
}
