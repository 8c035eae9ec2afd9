/// The sorted keys of a ``PrefixIndex`` read backwards, byte by byte from their last, in the byte order of their
/// bytes so read: the implicit trie of their ends. A typo walk over it reads a word from its last letter, so a
/// search whose typos sit at a word's start (where the forward trie branches most) stays narrow; the fuzzy
/// provider's whole-word corrections split their search between the two directions (Mihov and Schulz's forward and
/// backward tries).
///
/// The keys are not copied: this is the order of the prefix index's own keys (whose arrays it shares), so the
/// memory is 4 bytes per key kept. Read backwards, a scalar of several bytes comes continuation bytes first and
/// its lead byte last (a walk decodes it so). Only keys of at most ``maxLength`` Unicode scalars are kept.
public struct ReversedKeys: Sendable {
    /// The index whose keys these are.
    @usableFromInline let index: PrefixIndex
    /// The prefix index's sorted positions of the keys kept, in the byte order of the keys read backwards (equal
    /// keys by sorted position).
    @usableFromInline let forward: [UInt32]
    /// The longest key kept, in Unicode scalars.
    public let maxLength: Int

    /// The number of keys kept.
    public var count: Int { forward.count }

    /// Bytes held beyond the prefix index's (the order).
    public var byteCount: Int { forward.count * 4 }

    /// The keys of `index` of at most `maxLength` Unicode scalars, in the byte order of the keys read backwards.
    /// - Complexity: O(n) passes of a radix sort over the keys.
    public init(_ index: PrefixIndex, maxLength: Int) {
        self.index = index
        self.maxLength = maxLength
        // The keys kept, written backwards byte by byte, to sort them (dropped once sorted).
        var kept: [UInt32] = []
        var backwards: [UInt8] = []
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
                var k = end
                while k > start {
                    k -= 1
                    backwards.append(keyBytes[k])
                }
                ends.append(UInt32(backwards.count))
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
        backwards.withUnsafeBufferPointer { k in
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
                for i in 0..<n { forward[i] = kept[Int(items[i].value)] }
            }
        }
        self.forward = forward
    }

    /// Key `p` in this order, read backwards (for tests and diagnostics).
    public func key(at p: Int) -> [UInt8] { Array(index.sortedKey(at: Int(forward[p])).reversed()) }

    /// The prefix index's sorted position of key `p` in this order.
    @inline(__always)
    public func forwardPosition(_ p: Int) -> Int { Int(forward[p]) }

    /// Calls `body` with the prefix index's key storage (as ``PrefixIndex/withUnsafeSortedKeys(_:)`` gives it) and
    /// this order: key `p` in this order is `bytes[Int(offsets[Int(order[p])])..<Int(offsets[Int(order[p]) + 1])]`,
    /// read from its end. The pointers are valid only inside `body`.
    @inlinable
    public func withUnsafeKeys<Result>(
        _ body: (
            _ offsets: UnsafeBufferPointer<UInt32>, _ bytes: UnsafeBufferPointer<UInt8>,
            _ order: UnsafeBufferPointer<UInt32>
        ) throws -> Result
    ) rethrows -> Result {
        try index.withUnsafeSortedKeys { offsets, bytes in
            try forward.withUnsafeBufferPointer { order in try body(offsets, bytes, order) }
        }
    }
}
