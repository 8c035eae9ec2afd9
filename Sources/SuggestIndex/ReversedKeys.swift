/// The sorted keys of a ``PrefixIndex`` read backwards, byte by byte from their last, in the byte order of their
/// bytes so read: the implicit trie of their ends. A typo walk over it reads a word from its last letter, so a
/// search whose typos sit at a word's start (where the forward trie branches most) stays narrow; the fuzzy
/// provider's whole-word corrections split their search between the two directions (Mihov and Schulz's forward and
/// backward tries).
///
/// The keys are not copied: each key kept is its place in the prefix index's own key bytes (whose arrays it
/// shares) — where it ends and its length, packed in 4 bytes — so that a walk reads a key's byte with two loads; and
/// its first byte (as written), so that a walk that keeps only words of some first letters can leave a subtree without
/// reading its keys.
/// Read backwards, a scalar of several bytes comes continuation bytes first and its lead byte last (a walk decodes
/// it so). Only keys of 1 to ``maxLength`` Unicode scalars are kept (an empty key is no word: with the first letter
/// kept exact, no whole-word search finds it), none when the keys' bytes reach ``maximumKeyBytes``.
public struct ReversedKeys: Sendable {
    /// The index whose keys these are.
    @usableFromInline let index: PrefixIndex
    /// The keys kept, in the byte order of the keys read backwards (equal keys by sorted position): each the offset
    /// of its end in the prefix index's key bytes, shifted left by ``lengthBits``, and its length in bytes.
    @usableFromInline let packed: [UInt32]
    /// The first byte of each key kept (its first byte as written, not read backwards), in this order: a walk that
    /// wants only words starting with one letter leaves a small subtree none of whose keys does after a scan of
    /// these bytes, without reading the keys.
    @usableFromInline let firstBytes: [UInt8]

    /// The bits of a packed key that hold its length (at most 24 scalars of 4 bytes).
    public static let lengthBits: UInt32 = 7
    /// Keys whose bytes together reach this are not kept (their ends would not fit the packed form).
    public static let maximumKeyBytes = 1 << (32 - Int(lengthBits))
    /// The longest key kept, in Unicode scalars (0 when none is: the keys' bytes reach ``maximumKeyBytes``).
    public let maxLength: Int

    /// The number of keys kept.
    public var count: Int { packed.count }

    /// Bytes held beyond the prefix index's (the packed keys and their first bytes).
    public var byteCount: Int { packed.count * Self.bytesPerKey }

    /// The bytes each key kept takes: its packed place (4) and its first byte (1).
    public static let bytesPerKey = 5

    /// The keys of `index` of at most `maxLength` Unicode scalars, in the byte order of the keys read backwards.
    /// - Complexity: O(n) passes of a radix sort over the keys.
    public init(_ index: PrefixIndex, maxLength: Int) {
        self.index = index
        // The keys kept, written backwards byte by byte, to sort them (dropped once sorted).
        var kept: [UInt32] = []
        var backwards: [UInt8] = []
        var ends: [UInt32] = [0]
        // Beyond the bytes the packed form holds, no end fits.
        let usable = index.withUnsafeSortedKeys { _, keyBytes in keyBytes.count < Self.maximumKeyBytes }
        self.maxLength = usable ? maxLength : 0
        index.withUnsafeSortedKeys { offsets, keyBytes in
            guard usable else { return }
            for p in 0..<index.count {
                let start = Int(offsets[p])
                let end = Int(offsets[p + 1])
                // An empty key would end where a key before it does.
                if end == start { continue }
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
        var packed = [UInt32](repeating: 0, count: n)
        var firstBytes = [UInt8](repeating: 0, count: n)
        index.withUnsafeSortedKeys { offsets, keyBytes in
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
                for i in 0..<n {
                    let p = Int(kept[Int(items[i].value)])
                    packed[i] = offsets[p + 1] << Self.lengthBits | (offsets[p + 1] - offsets[p])
                    firstBytes[i] = keyBytes[Int(offsets[p])]
                }
            }
        }
        }
        self.packed = packed
        self.firstBytes = firstBytes
    }

    /// Key `p` in this order, read backwards (for tests and diagnostics).
    public func key(at p: Int) -> [UInt8] { Array(index.sortedKey(at: forwardPosition(p)).reversed()) }

    /// Where key `p` in this order lies in the prefix index's key bytes (read it from its end to walk it). O(1).
    @inlinable
    public func byteRange(_ p: Int) -> Range<Int> {
        let value = packed[p]
        let end = Int(value >> Self.lengthBits)
        return (end - Int(value & (1 << Self.lengthBits - 1)))..<end
    }

    /// The prefix index's sorted position of key `p` in this order: the first key that ends where it does (an empty
    /// key, not kept, ends where the key before it does). O(log n).
    public func forwardPosition(_ p: Int) -> Int {
        let end = packed[p] >> Self.lengthBits
        return index.withUnsafeSortedKeys { offsets, _ in
            // The first position whose key ends at `end` or later.
            var low = 0
            var high = offsets.count - 1
            while low < high {
                let mid = (low + high) >> 1
                if offsets[mid + 1] < end { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    /// Calls `body` with the prefix index's key bytes and the packed keys in this order: key `p` ends at
    /// `Int(packed[p] >> lengthBits)` in `bytes` and is `Int(packed[p] & (1 << lengthBits - 1))` bytes long (read it
    /// from its end). The pointers are valid only inside `body`.
    @inlinable
    public func withUnsafeKeys<Result>(
        _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ packed: UnsafeBufferPointer<UInt32>) throws -> Result
    ) rethrows -> Result {
        try index.withUnsafeSortedKeys { _, bytes in
            try packed.withUnsafeBufferPointer { packed in try body(bytes, packed) }
        }
    }

    /// Calls `body` with each key's first byte (as written, not read backwards) in this order: `firstBytes[p]` is
    /// key `p`'s. The pointer is valid only inside `body`.
    @inlinable
    public func withUnsafeFirstBytes<Result>(
        _ body: (_ firstBytes: UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try firstBytes.withUnsafeBufferPointer(body)
    }

    /// The first byte (as written) of key `p` in this order. O(1).
    @inlinable
    public func firstByte(_ p: Int) -> UInt8 { firstBytes[p] }
}
