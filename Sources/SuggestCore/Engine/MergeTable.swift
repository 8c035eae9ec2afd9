/// The merge keys of one keystroke (see ``MergeKey``) as bytes in one arena, found through a small open-addressing
/// hash table: the engine's merge looks every candidate up without building a `String` or a `Dictionary` entry.
/// Reused from keystroke to keystroke: once its arrays have grown, a keystroke allocates nothing here.
///
/// A key's bytes: `1` then the folded text for a text completion; `2`, the token kind's UTF-8 length (4 bytes,
/// little-endian), the kind's UTF-8 bytes, then the folded value for a token. Two completions have equal bytes
/// exactly when their ``MergeKey``s have byte-for-byte equal strings.
struct MergeTable: Sendable {
    /// The keys of the current keystroke, back to back; key `k` is `bytes[starts[k]..<starts[k + 1]]`.
    private(set) var bytes: [UInt8] = []
    /// Where each key starts in ``bytes``, plus one closing element.
    private var starts: [Int32] = [0]
    private var hashes: [UInt64] = []
    /// Key index + 1 per slot, 0 for an empty slot; a power of two, at least twice the number of keys.
    private var slots: [Int32] = []

    /// How many keys the table holds.
    var count: Int { hashes.count }

    /// Forgets every key, keeping the memory; `expected` is a hint of how many keys will come.
    mutating func removeAll(expected: Int) {
        bytes.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        starts.append(0)
        hashes.removeAll(keepingCapacity: true)
        var size = 16
        while size < 2 * expected { size <<= 1 }
        if slots.count < size {
            slots = [Int32](repeating: 0, count: size)
        } else {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
    }

    /// The key `completion` merges under: the index of an equal key already in the table, or the index of the key
    /// just added.
    /// - Complexity: O(*m*) for a key of *m* bytes, on average.
    mutating func insert(_ completion: Suggestion.Completion) -> (index: Int, inserted: Bool) {
        let start = bytes.count
        Self.appendKey(completion, to: &bytes)
        let hash = Self.hash(bytes, start..<bytes.count)
        if let found = find(hash: hash, start..<bytes.count) {
            bytes.removeSubrange(start...)
            return (found, false)
        }
        if 2 * (count + 1) > slots.count { grow() }
        let index = count
        hashes.append(hash)
        starts.append(Int32(bytes.count))
        place(index, hash: hash)
        return (index, true)
    }

    /// The bytes of key `index`.
    func key(_ index: Int) -> ArraySlice<UInt8> { bytes[Int(starts[index])..<Int(starts[index + 1])] }

    /// The hash of key `index`.
    func hash(ofKey index: Int) -> UInt64 { hashes[index] }

    /// The folded text of key `index` when it is a text key (without its tag byte); nil for a token key.
    func text(ofKey index: Int) -> ArraySlice<UInt8>? {
        let range = Int(starts[index])..<Int(starts[index + 1])
        return bytes[range.lowerBound] == Self.textTag ? bytes[(range.lowerBound + 1)..<range.upperBound] : nil
    }

    private func find(hash: UInt64, _ range: Range<Int>) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { return nil }
            let k = stored - 1
            if hashes[k] == hash && key(k).elementsEqual(bytes[range]) { return k }
            slot = (slot + 1) & mask
        }
    }

    private mutating func place(_ index: Int, hash: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index + 1)
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: max(16, slots.count * 2))
        for k in 0..<count { place(k, hash: hashes[k]) }
    }

    // MARK: Key bytes

    static let textTag: UInt8 = 1
    static let tokenTag: UInt8 = 2

    /// Appends the key bytes of `completion` (see the type's documentation), as ``MergeKey/init(_:)`` identifies it.
    static func appendKey(_ completion: Suggestion.Completion, to bytes: inout [UInt8]) {
        switch completion {
        case .text(let text):
            bytes.append(textTag)
            TextNormalizer.normalize(text, into: &bytes)
        case .token(let token):
            appendToken(token, to: &bytes)
        case .query(let query):
            if query.text.isEmpty, let token = query.tokens.first {
                appendToken(token, to: &bytes)
            } else {
                bytes.append(textTag)
                TextNormalizer.normalize(query.text, into: &bytes)
            }
        }
    }

    private static func appendToken(_ token: SearchToken, to bytes: inout [UInt8]) {
        bytes.append(tokenTag)
        let length = UInt32(truncatingIfNeeded: token.kind.utf8.count)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        bytes.append(contentsOf: token.kind.utf8)
        TextNormalizer.normalize(token.value, into: &bytes)
    }

    /// FNV-1a over `bytes[range]`.
    static func hash(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in range {
            h ^= UInt64(bytes[i])
            h &*= 0x0000_0100_0000_01b3
        }
        // FNV's low bits mix poorly for short keys; the table indexes with them.
        return h ^ (h >> 29)
    }
}
