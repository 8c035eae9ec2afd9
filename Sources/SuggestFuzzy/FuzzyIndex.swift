public import SuggestCore
public import SuggestIndex
import Dispatch
import Synchronization

/// What the fuzzy provider needs beyond the shared `PrefixIndex`: a 32-bit letter mask and a 16-bit set of second
/// characters per key.
///
/// The sorted canonical keys of the `PrefixIndex` (folded, separators collapsed to one space) are the implicit
/// prefix trie the typo walk runs on (a trie node is a range of sorted keys sharing a prefix); its range-minimum
/// table over popularity ranks gives the top-k of any range (`PrefixIndex.mostPopularSortedPosition(in:)`). So a
/// configuration with a prefix and a fuzzy provider on one dictionary holds one copy of the keys:
/// ``FuzzyProvider/init(configuration:context:)`` obtains the prefix index through the same cache artifact as the
/// prefix provider (`"prefix-index:<path>:<lenient>"`).
///
/// Memory beyond the prefix index: 6 bytes per entry (the letter mask and the second-character set), about half a
/// byte per entry for the one-word keys (`OneWordKeys`) and, for large dictionaries, a table of the trie's top two
/// levels (tens of kilobytes); when they fit the budget or a provider asks for them (`FuzzyOptions.reversedKeys`),
/// the reversed keys (5 bytes per key). See ``extraByteCount``. Beyond these, the abbreviation patterns' kept keys
/// (`AbbreviationCache`) take at most 4 MB, whatever the dictionary's size.
///
/// Immutable and shared by reference: a keystroke that holds it retains one reference, not each of its arrays.
public final class FuzzyIndex: Sendable {
    /// The shared prefix index: sorted canonical keys, entry ids and popularity ranks.
    public let prefixIndex: PrefixIndex
    /// Letters (bits 0-25), digits (26), other ASCII (27), non-ASCII lead bytes (28 + b % 3) in sorted key `i`;
    /// bit 31 (``camelBit``) when the original text has a camelCase hump (an ASCII lowercase then uppercase letter).
    let masks: [UInt32]
    /// For sorted key `i`, the characters (as ``secondBit(_:)`` buckets) an abbreviation's second character can match
    /// in it: the bytes from its second scalar on up to and including the first that is neither a vowel nor a doubled
    /// letter, and the first byte of every word after the first. These are the only places
    /// `SubsequenceScorer.abbreviates` looks for the second character, so a key without the pattern's is skipped
    /// unchecked (a camelCase key is always checked: its humps start words too).
    let seconds: [UInt16]
    /// The children of the implicit trie's root and of each first-byte node (see ``TopLevels``); nil for small
    /// dictionaries, whose ranges stay in cache anyway.
    let top: TopLevels?
    /// The one-word keys (see ``OneWordKeys``).
    let oneWord: OneWordKeys
    /// The keys of at most ``reversedLength`` scalars in the order of their bytes read backwards, for whole-word
    /// corrections whose typos sit at the word's start (see `FuzzyMatcher.wholeWords`): made when a provider asks for
    /// them or they fit the budget (``prepareReversedKeys()``, `FuzzyOptions.reversedKeys`,
    /// ``reversedKeysFitTheBudget``), shared by every provider that holds this index.
    let reversedKeys = ReversedKeysBox()
    /// The keys abbreviation patterns abbreviate, kept from scans of whole first-letter ranges for later scans of the
    /// same or longer patterns (see ``AbbreviationCache``); shared by every provider that holds this index.
    let abbreviations = AbbreviationCache()

    /// The reversed keys, when made.
    var reversed: ReversedKeys? { reversedKeys.keys }

    /// The longest key (in scalars) of the reversed keys.
    static let reversedLength = 24

    /// From this many keys the reversed keys are made in the background.
    static let reversedInBackground = 100_000

    /// The dictionary the keys come from (the prefix index's, kept here too so that reading it copies nothing).
    public let dictionary: WeightedDictionary

    /// The number of keys (the dictionary's entry count).
    public var count: Int { prefixIndex.count }

    /// Bytes this index adds to the prefix index (the masks and second-character sets, the one-word keys, the top
    /// levels' table, and the reversed keys once made).
    public var extraByteCount: Int {
        masks.count * 4 + seconds.count * 2 + (top?.byteCount ?? 0) + oneWord.byteCount + (reversed?.byteCount ?? 0)
    }

    /// Builds the prefix index of `dictionary`, then the fuzzy extras (when no prefix index is shared).
    public convenience init(_ dictionary: WeightedDictionary) {
        self.init(PrefixIndex(dictionary: dictionary))
    }

    /// The fuzzy extras over a (shared) prefix index.
    /// - Complexity: O(n) over the keys, on two cores.
    public init(_ prefixIndex: PrefixIndex) {
        self.prefixIndex = prefixIndex
        let n = prefixIndex.count
        let dictionary = prefixIndex.dictionary
        self.dictionary = dictionary
        let table = (0..<256).map { Self.maskBit(UInt8($0)) }
        let secondTable = (0..<256).map { Self.secondBit(UInt8($0)) }
        var seconds = [UInt16](repeating: 0, count: n)
        let masks = seconds.withUnsafeMutableBufferPointer { secondsBuffer in
            // A copy of the (inout) buffer pointer, for the two threads to capture.
            let secondBuffer = secondsBuffer
            return [UInt32](unsafeUninitializedCapacity: n) { buffer, count in
                table.withUnsafeBufferPointer { table in
                secondTable.withUnsafeBufferPointer { secondTable in
                dictionary.textBytes.withUnsafeBufferPointer { text in
                dictionary.textOffsets.withUnsafeBufferPointer { offsets in
                    func fill(_ positions: Range<Int>) {
                        for i in positions {
                            var mask: UInt32 = 0
                            let length = prefixIndex.sortedKeyLength(at: i)
                            for depth in 0..<length {
                                mask |= table[Int(prefixIndex.sortedKeyByte(at: i, depth: depth))]
                            }
                            secondBuffer[i] = Self.secondCharacters(
                                length: length, byte: { prefixIndex.sortedKeyByte(at: i, depth: $0) },
                                table: secondTable)
                            let entry = prefixIndex.entry(atSortedPosition: i)
                            var k = Int(offsets[entry]) + 1
                            let end = Int(offsets[entry + 1])
                            while k < end {
                                let a = text[k - 1]
                                let b = text[k]
                                if a >= 0x61 && a <= 0x7A && b >= 0x41 && b <= 0x5A {
                                    mask |= Self.camelBit
                                    break
                                }
                                k += 1
                            }
                            buffer[i] = mask
                        }
                    }
                    // Each half of the keys on its own core (they write disjoint elements).
                    Parallel.run(if: n >= 16_384) { fill(0..<(n / 2)) } and: { fill((n / 2)..<n) }
                }
                }
                }
                }
                count = n
            }
        }
        self.masks = masks
        self.seconds = seconds
        top = n >= TopLevels.minimumCount ? TopLevels(prefixIndex) : nil
        oneWord = OneWordKeys(prefixIndex)
    }

    /// The memory the indexes of a dictionary may take beyond its text, per entry (the project's budget).
    public static let bytesPerEntryBudget = 48

    /// Whether the dictionary, its prefix index, these extras and the reversed keys (5 bytes per key at most)
    /// together stay within ``bytesPerEntryBudget`` bytes per entry: what `FuzzyOptions.reversedKeys` `nil` keeps
    /// them for.
    public var reversedKeysFitTheBudget: Bool {
        let n = count
        guard n > 0 else { return false }
        let held = prefixIndex.indexByteCount + prefixIndex.dictionaryByteCount + extraByteCount
            - (reversed?.byteCount ?? 0)
        return held + ReversedKeys.bytesPerKey * n <= Self.bytesPerEntryBudget * n
    }

    /// Makes the reversed keys unless they are made or being made: at once below 100,000 keys, otherwise on a
    /// background thread, so that start-up does not wait for them (about 0.3 s for 886k keys). Until they are there,
    /// whole-word corrections are searched forward only: the same answers, with more work.
    public func prepareReversedKeys() {
        guard reversedKeys.claim() else { return }
        let prefixIndex = self.prefixIndex
        let box = reversedKeys
        if count < Self.reversedInBackground {
            box.keys = ReversedKeys(prefixIndex, maxLength: Self.reversedLength)
        } else {
            // A thread of its own (not the cooperative pool, which busy keystrokes may hold).
            DispatchQueue.global(qos: .userInitiated).async {
                box.keys = ReversedKeys(prefixIndex, maxLength: Self.reversedLength)
            }
        }
    }

    /// The folded (canonical) key of sorted position `i`, as a string (for tests and diagnostics).
    public func key(at i: Int) -> String {
        String(decoding: prefixIndex.sortedKey(at: i), as: UTF8.self)
    }

    /// The dictionary entry at sorted position `i`.
    @inline(__always)
    public func entry(at i: Int) -> Int { prefixIndex.entry(atSortedPosition: i) }

    /// Entry `entry`'s title (see `WeightedDictionary.title(at:)`), its length in UTF-8 bytes and whether it is
    /// ASCII.
    func title(ofEntry entry: Int) -> (title: String, length: Int, isASCII: Bool) {
        let range = dictionary.textRange(at: entry)
        let isASCII = dictionary.textBytes.withUnsafeBufferPointer {
            TextNormalizer.isASCII(UnsafeBufferPointer(rebasing: $0[range]))
        }
        return (dictionary.title(at: entry), range.count, isASCII)
    }

    /// Whether sorted positions `range` hold at least `count` distinct keys (see `PrefixIndex.hasDistinctKeys`).
    func hasDistinctKeys(_ count: Int, in range: Range<Int>) -> Bool { prefixIndex.hasDistinctKeys(count, in: range) }

    /// The dictionary weight of sorted position `i`.
    @inline(__always)
    func weight(at i: Int) -> Double { prefixIndex.dictionary.weights[prefixIndex.entry(atSortedPosition: i)] }

    // MARK: Ranks

    /// The position of the most popular key (the smallest rank: largest weight, then shorter key, then key order)
    /// in `range` of sorted positions (-1 when empty), from the prefix index's own range-minimum table.
    /// - Complexity: O(1).
    func argmax(_ range: Range<Int>) -> Int { prefixIndex.mostPopularSortedPosition(in: range) }

    @inline(__always)
    func rank(_ i: Int) -> Int { prefixIndex.rank(atSortedPosition: i) }

    // MARK: Helpers

    /// The mask bit of keys whose original text has a camelCase hump.
    static let camelBit: UInt32 = 1 << 31

    @inline(__always)
    static func maskBit(_ b: UInt8) -> UInt32 {
        if b >= 0x61 && b <= 0x7A { return 1 << UInt32(b - 0x61) }
        if b >= 0x30 && b <= 0x39 { return 1 << 26 }
        if b < 0x80 { return TextNormalizer.isSeparator(b) ? 0 : 1 << 27 }
        if UTF8Scalars.isContinuation(b) { return 0 }
        return 1 << (28 + UInt32(b % 3))
    }

    /// The bucket of a byte in the second-character sets: the 13 most frequent letters of English text their own,
    /// then three shared ones (`m f p g`, `w y b v k`, and every other byte).
    @inline(__always)
    static func secondBit(_ b: UInt8) -> UInt16 {
        switch b {
        case 0x65: return 1 << 0  // e
        case 0x74: return 1 << 1  // t
        case 0x61: return 1 << 2  // a
        case 0x6F: return 1 << 3  // o
        case 0x69: return 1 << 4  // i
        case 0x6E: return 1 << 5  // n
        case 0x73: return 1 << 6  // s
        case 0x68: return 1 << 7  // h
        case 0x72: return 1 << 8  // r
        case 0x64: return 1 << 9  // d
        case 0x6C: return 1 << 10  // l
        case 0x63: return 1 << 11  // c
        case 0x75: return 1 << 12  // u
        case 0x6D, 0x66, 0x70, 0x67: return 1 << 13  // m f p g
        case 0x77, 0x79, 0x62, 0x76, 0x6B: return 1 << 14  // w y b v k
        default: return 1 << 15
        }
    }

    /// The second-character set of a folded key of `length` bytes (see ``seconds``), `table` mapping each byte to
    /// its ``secondBit(_:)``.
    @inline(__always)
    static func secondCharacters(
        length n: Int, byte: (Int) -> UInt8, table: UnsafeBufferPointer<UInt16>
    ) -> UInt16 {
        guard n > 0 else { return 0 }
        var set: UInt16 = 0
        // Directly after the first scalar, then past vowels and doubled letters (as `abbreviates` walks).
        var i = UTF8Scalars.length(lead: byte(0))
        var previous = byte(min(i, n) - 1)
        while i < n {
            let c = byte(i)
            set |= table[Int(c)]
            if !(SubsequenceScorer.isVowel(c) || (c == previous && c < 0x80)) { break }
            previous = c
            i += 1
        }
        // The first byte of each later word.
        var before = byte(0)
        for k in 1..<n {
            let c = byte(k)
            if TextNormalizerProxy.isSeparator(before) { set |= table[Int(c)] }
            before = c
        }
        return set
    }

    static let asciiLower: [UInt8] = (0..<128).map { b in
        if b >= 0x41 && b <= 0x5A { return UInt8(b + 0x20) }
        if b == 0x09 || b == 0x0A || b == 0x0B || b == 0x0C || b == 0x0D { return 0x20 }
        return UInt8(b)
    }
}


/// The children of the implicit trie's root and of each first-byte node, with their ranges. Those nodes span much of
/// the index, so finding their children by binary search costs a cache miss per probe; the typo walk visits every
/// first-byte node when a wrong first letter is forgiven.
struct TopLevels: Sendable {
    /// Below this many keys the table is not built.
    static let minimumCount = 4096

    struct Child: Sendable {
        var byte: UInt8
        var lo: Int32
        var hi: Int32
    }
    /// The root's children, then each first-byte node's children in first-byte order.
    let children: [Child]
    /// The root's children: `children[0..<rootCount]`.
    let rootCount: Int
    /// For a first byte `b`, its node's children: `children[Int(starts[b])..<Int(starts[b + 1])]`.
    let starts: [Int32]

    var byteCount: Int { children.count * MemoryLayout<Child>.stride + starts.count * 4 }

    init(_ index: PrefixIndex) {
        let n = index.count
        var root: [Child] = []
        var second: [[Child]] = Array(repeating: [], count: 256)
        var i = 0
        while i < n && index.sortedKeyLength(at: i) == 0 { i += 1 }
        while i < n {
            let b0 = index.sortedKeyByte(at: i, depth: 0)
            var j = i
            while j < n && index.sortedKeyByte(at: j, depth: 0) == b0 { j += 1 }
            root.append(Child(byte: b0, lo: Int32(i), hi: Int32(j)))
            var k = i
            while k < j && index.sortedKeyLength(at: k) == 1 { k += 1 }
            while k < j {
                let b1 = index.sortedKeyByte(at: k, depth: 1)
                var e = k
                while e < j && index.sortedKeyByte(at: e, depth: 1) == b1 { e += 1 }
                second[Int(b0)].append(Child(byte: b1, lo: Int32(k), hi: Int32(e)))
                k = e
            }
            i = j
        }
        var children = root
        var starts = [Int32](repeating: 0, count: 257)
        for b in 0..<256 {
            starts[b] = Int32(children.count)
            children.append(contentsOf: second[b])
        }
        starts[256] = Int32(children.count)
        self.children = children
        self.rootCount = root.count
        self.starts = starts
    }
}

/// The reversed keys of a ``FuzzyIndex``, set once when made (see `FuzzyIndex.reversedKeys`).
final class ReversedKeysBox: Sendable {
    private let made = Mutex<(claimed: Bool, keys: ReversedKeys?)>((false, nil))

    var keys: ReversedKeys? {
        get { made.withLock { $0.keys } }
        set { made.withLock { $0.keys = newValue } }
    }

    /// True for the first caller only: the one that makes them.
    func claim() -> Bool {
        made.withLock { state in
            if state.claimed { return false }
            state.claimed = true
            return true
        }
    }
}
