import Foundation
public import SuggestCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The binary file format (all integers in the writer's byte order, which the header records):
///
/// ```
/// header (40 bytes): magic "SGPREFIX" · version UInt32 · byte-order mark UInt32 (0x01020304)
///                    · payload length UInt64 · payload checksum UInt64 · reserved UInt64
/// payload: sections, each a UInt64 byte count, the bytes, zero padding to 8 bytes:
///   meta (UInt64s) · source · scope names · dictionary arrays · index arrays
/// ```
extension PrefixIndex {
    /// The format version this build writes and reads.
    public static let formatVersion: UInt32 = 1
    static let magic: [UInt8] = Array("SGPREFIX".utf8)
    static let byteOrderMark: UInt32 = 0x0102_0304
    static let headerSize = 40

    /// Saves the index (with its dictionary) to `path`, atomically.
    ///
    /// A symbolic link at `path` is written through (its target is replaced, the link stays); an existing file that
    /// is not a regular file (a FIFO, `/dev/full`) is refused; a full disk is an error, and the old file is then
    /// left as it was.
    /// - Throws: ``PrefixIndexError`` when the file cannot be written, with the reason (`No space left on device`).
    public func write(toFile path: String) throws(PrefixIndexError) {
        do {
            try AtomicFileWriter.write(serialized(), to: path)
        } catch {
            throw PrefixIndexError(.unwritable(error.reason), file: path)
        }
    }

    /// The saved form of the index.
    public func serialized() -> [UInt8] {
        // The header first, its length and checksum filled in at the end: the file is written into one buffer, once.
        var file: [UInt8] = []
        file.reserveCapacity(
            Self.headerSize + indexByteCount + dictionary.textBytes.count + dictionaryByteCount + 1024)
        file.append(contentsOf: Self.magic)
        withUnsafeBytes(of: Self.formatVersion) { file.append(contentsOf: $0) }
        withUnsafeBytes(of: Self.byteOrderMark) { file.append(contentsOf: $0) }
        file.append(contentsOf: repeatElement(0, count: Self.headerSize - file.count))
        let meta: [UInt64] = [
            UInt64(count), UInt64(infixPositions.count), UInt64(dictionary.skippedLines),
            sourceFingerprint == nil ? 0 : 1, sourceFingerprint?.byteCount ?? 0, sourceFingerprint?.hash ?? 0,
            (sourceFingerprint?.lenient ?? false) ? 1 : 0,
        ]
        Self.appendSection(meta, to: &file)
        Self.appendSection(Array(dictionary.source.utf8), to: &file)
        var names: [UInt8] = []
        for name in dictionary.scopeNames {
            let utf8 = Array(name.utf8)
            withUnsafeBytes(of: UInt32(utf8.count)) { names.append(contentsOf: $0) }
            names.append(contentsOf: utf8)
        }
        Self.appendSection(names, to: &file)
        Self.appendSection(dictionary.textBytes, to: &file)
        Self.appendSection(dictionary.textOffsets, to: &file)
        Self.appendSection(dictionary.weights, to: &file)
        Self.appendSection(dictionary.scopeIndices, to: &file)
        Self.appendSection(order, to: &file)
        Self.appendSection(keyBytes, to: &file)
        Self.appendSection(keyOffsets, to: &file)
        Self.appendSection(prefixRanks.values, to: &file)
        Self.appendSection(prefixRanks.table, to: &file)
        Self.appendSection(infixPositions, to: &file)
        Self.appendSection(infixOffsets, to: &file)
        Self.appendSection(infixRanks.values, to: &file)
        Self.appendSection(infixRanks.table, to: &file)

        let payloadLength = UInt64(file.count - Self.headerSize)
        file.withUnsafeMutableBytes { raw in
            let checksum = Checksum.hash(UnsafeRawBufferPointer(rebasing: raw[Self.headerSize...]))
            raw.storeBytes(of: payloadLength, toByteOffset: 16, as: UInt64.self)
            raw.storeBytes(of: checksum, toByteOffset: 24, as: UInt64.self)
        }
        return file
    }

    static func appendSection<T>(_ array: [T], to payload: inout [UInt8]) {
        array.withUnsafeBytes { raw in
            withUnsafeBytes(of: UInt64(raw.count)) { payload.append(contentsOf: $0) }
            payload.append(contentsOf: raw)
            let padding = (8 - raw.count % 8) % 8
            payload.append(contentsOf: repeatElement(0, count: padding))
        }
    }

    /// Loads an index saved by ``write(toFile:)`` with one read of the file; no rebuilding.
    /// - Throws: ``PrefixIndexError`` when the file is missing, truncated, corrupt (a checksum mismatch, or arrays
    ///   that disagree, keys out of byte order or not UTF-8 under a valid checksum), or of another format version.
    public init(contentsOfFile path: String) throws(PrefixIndexError) {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw PrefixIndexError(.notARegularFile(AtomicFileWriter.kind(of: info.st_mode)), file: path)
        }
        let result = MappedFile.withContents(ofFile: path) { raw -> Result<PrefixIndex, PrefixIndexError> in
            guard let raw else { return .failure(PrefixIndexError(.unreadable, file: path)) }
            return Result { () throws(PrefixIndexError) -> PrefixIndex in
                try PrefixIndex(serialized: raw, file: path)
            }
        }
        self = try result.get()
    }

    /// Reads an index from its saved bytes.
    /// - Parameters:
    ///   - raw: the bytes ``serialized()`` gave.
    ///   - file: the name errors mention.
    public init(serialized raw: UnsafeRawBufferPointer, file: String = "index") throws(PrefixIndexError) {
        func fail(_ code: PrefixIndexError.Code) -> PrefixIndexError { PrefixIndexError(code, file: file) }
        guard raw.count >= 8 else { throw fail(raw.isEmpty ? .truncated : .notAnIndex) }
        guard Array(raw[0..<8]) == Self.magic else { throw fail(.notAnIndex) }
        guard raw.count >= Self.headerSize else { throw fail(.truncated) }
        let version = raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        let mark = raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
        if mark != Self.byteOrderMark {
            if mark == Self.byteOrderMark.byteSwapped { throw fail(.wrongByteOrder) }
            throw fail(.notAnIndex)
        }
        guard version == Self.formatVersion else { throw fail(.unsupportedVersion(found: version)) }
        let payloadLength = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        let checksum = raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        let available = UInt64(raw.count - Self.headerSize)
        guard payloadLength <= available else { throw fail(.truncated) }
        guard payloadLength == available else { throw fail(.corrupt("trailing bytes after the payload")) }
        let payload = UnsafeRawBufferPointer(rebasing: raw[Self.headerSize...])
        let s = try Sections(payload, checksum: checksum, fail: fail)
        let n = s.order.count
        let m = s.infixPositions.count

        // Structure checks, so a file with a valid checksum but inconsistent arrays is an error, not a crash; on
        // two cores, each also finding half of the keys that equal a neighbour's (``twins``).
        guard s.textOffsets.count == n + 1, s.weights.count == n, s.scopeIndices.count == n,
            s.keyOffsets.count == n + 1, s.prefixRankValues.count == n,
            s.prefixTable.count == RangeMinimum.tableCount(for: n),
            s.infixOffsets.count == m, s.infixRankValues.count == m,
            s.infixTable.count == RangeMinimum.tableCount(for: m)
        else { throw fail(.corrupt("array lengths disagree")) }
        var firstProblem: PrefixIndexError.Code? = nil
        var secondProblem: PrefixIndexError.Code? = nil
        // The offsets are checked before the twins read keys through them; each half of the twin pairs sets bits
        // in its own words (the split is a multiple of 64), and the pair across the split is done after both.
        let split = (n / 2) & ~63
        var twins = [UInt64](repeating: 0, count: (n + 63) >> 6)
        var prefixBuckets: [UInt32] = []
        var infixBuckets: [UInt32] = []
        let keysInOrder = Self.isValidOffsets(s.keyOffsets, total: s.keyBytes.count)
        twins.withUnsafeMutableBufferPointer { bits in
            Parallel.run(if: n >= 16_384) {
                guard Self.isValidOffsets(s.textOffsets, total: s.textBytes.count), keysInOrder else {
                    return firstProblem = .corrupt("offsets out of order")
                }
                guard Self.maximum(s.scopeIndices) <= UInt16(clamping: s.scopeNames.count) else {
                    return firstProblem = .corrupt("scope index out of range")
                }
                guard Self.isPermutation(s.order) else { return firstProblem = .corrupt("order is not a permutation") }
                firstProblem = Self.keysProblem(s, pairs: 1..<max(split, 1), in: bits)
                prefixBuckets = Self.prefixBuckets(keyBytes: s.keyBytes, keyOffsets: s.keyOffsets)
            } and: {
                let bound = UInt32(clamping: n)
                guard n == 0 || Self.maximum(s.prefixRankValues) < bound,
                    n == 0 || Self.maximum(s.prefixTable) < bound,
                    m == 0 || Self.maximum(s.infixPositions) < bound, m == 0 || Self.maximum(s.infixRankValues) < bound,
                    m == 0 || Self.maximum(s.infixTable) < UInt32(clamping: m)
                else { return secondProblem = .corrupt("position out of range") }
                s.keyOffsets.withUnsafeBufferPointer { ko in
                    s.infixPositions.withUnsafeBufferPointer { ip in
                        s.infixOffsets.withUnsafeBufferPointer { io in
                            for i in 0..<m {
                                let p = Int(ip[i])
                                if Int(ko[p]) + Int(io[i]) > Int(ko[p + 1]) {
                                    secondProblem = .corrupt("infix offset beyond its key")
                                    return
                                }
                            }
                        }
                    }
                }
                guard keysInOrder else { return }
                secondProblem = Self.keysProblem(s, pairs: (split + 1)..<max(n, split + 1), in: bits)
                infixBuckets = Self.infixBuckets(
                    keyBytes: s.keyBytes, keyOffsets: s.keyOffsets, infixPositions: s.infixPositions,
                    infixOffsets: s.infixOffsets)
            }
            if keysInOrder, split >= 1, split < n, firstProblem == nil, secondProblem == nil {
                firstProblem = Self.keysProblem(s, pairs: split..<(split + 1), in: bits)
            }
        }
        if let firstProblem { throw fail(firstProblem) }
        if let secondProblem { throw fail(secondProblem) }

        let dictionary = WeightedDictionary(
            source: s.source,
            textBytes: s.textBytes,
            textOffsets: s.textOffsets,
            weights: s.weights,
            scopeIndices: s.scopeIndices,
            scopeNames: s.scopeNames,
            skippedLines: s.skippedLines
        )
        self.init(
            dictionary: dictionary,
            order: s.order,
            keyBytes: s.keyBytes,
            keyOffsets: s.keyOffsets,
            prefixRanks: RangeMinimum(values: s.prefixRankValues, table: s.prefixTable),
            infixPositions: s.infixPositions,
            infixOffsets: s.infixOffsets,
            infixRanks: RangeMinimum(values: s.infixRankValues, table: s.infixTable),
            sourceFingerprint: s.sourceFingerprint,
            twins: twins,
            buckets: (prefixBuckets, infixBuckets)
        )
    }

    /// The largest element (0 for an empty array).
    static func maximum<T: FixedWidthInteger>(_ values: [T]) -> T {
        values.withUnsafeBufferPointer { v in
            var largest: T = 0
            for x in v where x > largest { largest = x }
            return largest
        }
    }

    /// Whether `order` holds each of `0..<order.count` once.
    static func isPermutation(_ order: [UInt32]) -> Bool {
        let n = order.count
        var seen = [UInt64](repeating: 0, count: (n + 63) >> 6)
        return seen.withUnsafeMutableBufferPointer { bits in
            for entry in order {
                let e = Int(entry)
                guard e < n else { return false }
                let bit: UInt64 = 1 << UInt64(e & 63)
                if bits[e >> 6] & bit != 0 { return false }
                bits[e >> 6] |= bit
            }
            return true
        }
    }

    /// The twin bits of `pairs` (see ``markTwins(keyBytes:keyOffsets:pairs:in:)``) and what is wrong with their keys,
    /// or nil: each key must be valid UTF-8 and come after, or equal, the key ahead of it in byte order. The typo
    /// walk relies on both: it finds a node's children by binary search and steps through whole scalars. The
    /// offsets must be in order and within the key bytes.
    private static func keysProblem(
        _ s: Sections, pairs: Range<Int>, in bits: UnsafeMutableBufferPointer<UInt64>
    ) -> PrefixIndexError.Code? {
        if let p = markTwins(keyBytes: s.keyBytes, keyOffsets: s.keyOffsets, pairs: pairs, in: bits) {
            return .corrupt("keys out of order at sorted position \(p)")
        }
        // Key p of each pair, and key 0 with the first.
        let first = pairs.lowerBound == 1 ? 0 : pairs.lowerBound
        let end = min(pairs.upperBound, s.keyOffsets.count - 1)
        guard first < end else { return nil }
        let keys = first..<end
        let bad = s.keyBytes.withUnsafeBytes { k in
            s.keyOffsets.withUnsafeBufferPointer { o in firstKeyNotUTF8(k, o, keys: keys) }
        }
        return bad.map { .corrupt("key at sorted position \($0) is not UTF-8") }
    }

    /// The first of `keys` that is not valid UTF-8, or nil. ASCII is skipped 32 bytes at a time; only a key
    /// holding another byte is decoded.
    static func firstKeyNotUTF8(
        _ k: UnsafeRawBufferPointer, _ o: UnsafeBufferPointer<UInt32>, keys: Range<Int>
    ) -> Int? {
        var i = Int(o[keys.lowerBound])
        let end = Int(o[keys.upperBound])
        var next = keys.lowerBound
        while i < end {
            let high: UInt64 = 0x8080_8080_8080_8080
            while i + 32 <= end {
                let word = k.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    | k.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                    | k.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
                    | k.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
                if word & high != 0 { break }
                i += 32
            }
            while i + 8 <= end && k.loadUnaligned(fromByteOffset: i, as: UInt64.self) & high == 0 { i += 8 }
            while i < end && k[i] < 0x80 { i += 1 }
            guard i < end else { return nil }
            // The key holding byte i: o[lo] <= i < o[hi] throughout.
            var lo = next
            var hi = keys.upperBound
            while hi - lo > 1 {
                let mid = (lo + hi) >> 1
                if Int(o[mid]) <= i { lo = mid } else { hi = mid }
            }
            let key = UnsafeRawBufferPointer(rebasing: k[Int(o[lo])..<Int(o[lo + 1])])
            guard UTF8Scalars.firstInvalid(key) == nil else { return lo }
            next = lo + 1
            i = Int(o[next])
        }
        return nil
    }

    static func isValidOffsets(_ offsets: [UInt32], total: Int) -> Bool {
        guard offsets.first == 0, offsets.last.map(Int.init) == total else { return false }
        var previous: UInt32 = 0
        for o in offsets {
            if o < previous { return false }
            previous = o
        }
        return true
    }
}

/// The arrays of a saved index's payload, copied out, with the lengths of the file's sections checked (the arrays'
/// agreement with each other is checked by the caller).
///
/// The sections' places are read first (``SectionLayout``); then the big arrays are copied on two cores, the first
/// also hashing the payload for its checksum (a copy into fresh memory is bound by page faults, so one core cannot
/// go faster).
struct Sections {
    let source: String
    let scopeNames: [String]
    let skippedLines: Int
    let sourceFingerprint: SourceFingerprint?
    let textBytes: [UInt8]
    let textOffsets: [UInt32]
    let weights: [Double]
    let scopeIndices: [UInt16]
    let order: [UInt32]
    let keyBytes: [UInt8]
    let keyOffsets: [UInt32]
    let prefixRankValues: [UInt32]
    let prefixTable: [UInt32]
    let infixPositions: [UInt32]
    let infixOffsets: [UInt16]
    let infixRankValues: [UInt32]
    let infixTable: [UInt32]

    /// Reads the payload; the checksum is compared before anything the sections say is reported, so a damaged file
    /// is a checksum mismatch whichever byte changed.
    init(
        _ payload: UnsafeRawBufferPointer, checksum: UInt64, fail: (PrefixIndexError.Code) -> PrefixIndexError
    ) throws(PrefixIndexError) {
        let layout: SectionLayout
        do {
            layout = try SectionLayout(payload, fail: fail)
        } catch {
            guard Checksum.hash(payload) == checksum else { throw fail(.checksumMismatch) }
            throw error
        }
        source = layout.source
        scopeNames = layout.scopeNames
        skippedLines = layout.skippedLines
        sourceFingerprint = layout.sourceFingerprint

        var textBytes: [UInt8] = [], textOffsets: [UInt32] = [], weights: [Double] = [], scopeIndices: [UInt16] = []
        var order: [UInt32] = [], keyBytes: [UInt8] = [], keyOffsets: [UInt32] = [], prefixRankValues: [UInt32] = []
        var prefixTable: [UInt32] = [], infixPositions: [UInt32] = [], infixOffsets: [UInt16] = []
        var infixRankValues: [UInt32] = [], infixTable: [UInt32] = []
        let r = layout.arrays
        // Each copy with its size; the first core hashes the whole payload too (about a third of a copy's cost per
        // byte), and each copy goes to the core with less to do so far, largest first.
        var copies: [(bytes: Int, run: () -> Void)] = [
            (r[0].count, { textBytes = payload.array(r[0]) }), (r[1].count, { textOffsets = payload.array(r[1]) }),
            (r[2].count, { weights = payload.array(r[2]) }), (r[3].count, { scopeIndices = payload.array(r[3]) }),
            (r[4].count, { order = payload.array(r[4]) }), (r[5].count, { keyBytes = payload.array(r[5]) }),
            (r[6].count, { keyOffsets = payload.array(r[6]) }), (r[7].count, { prefixRankValues = payload.array(r[7]) }),
            (r[8].count, { prefixTable = payload.array(r[8]) }), (r[9].count, { infixPositions = payload.array(r[9]) }),
            (r[10].count, { infixOffsets = payload.array(r[10]) }),
            (r[11].count, { infixRankValues = payload.array(r[11]) }), (r[12].count, { infixTable = payload.array(r[12]) }),
        ]
        copies.sort { $0.bytes > $1.bytes }
        var first: [() -> Void] = [], second: [() -> Void] = []
        var firstLoad = payload.count / 3, secondLoad = 0
        for copy in copies {
            if firstLoad <= secondLoad {
                first.append(copy.run)
                firstLoad += copy.bytes
            } else {
                second.append(copy.run)
                secondLoad += copy.bytes
            }
        }
        var checksumMatches = false
        Parallel.run(if: payload.count >= 1 << 20) {
            checksumMatches = Checksum.hash(payload) == checksum
            for copy in first { copy() }
        } and: {
            for copy in second { copy() }
        }
        guard checksumMatches else { throw fail(.checksumMismatch) }
        self.textBytes = textBytes
        self.textOffsets = textOffsets
        self.weights = weights
        self.scopeIndices = scopeIndices
        self.order = order
        self.keyBytes = keyBytes
        self.keyOffsets = keyOffsets
        self.prefixRankValues = prefixRankValues
        self.prefixTable = prefixTable
        self.infixPositions = infixPositions
        self.infixOffsets = infixOffsets
        self.infixRankValues = infixRankValues
        self.infixTable = infixTable
        guard order.count == layout.entryCount, infixPositions.count == layout.infixCount else {
            throw fail(.corrupt("array lengths disagree"))
        }
    }
}

/// Where a saved index's sections are in its payload, every length checked against the file; the small sections
/// (meta, source, scope names) already read.
struct SectionLayout {
    let source: String
    let scopeNames: [String]
    let skippedLines: Int
    let sourceFingerprint: SourceFingerprint?
    let entryCount: Int
    let infixCount: Int
    /// The byte ranges of the 13 array sections, in file order (text, text offsets, weights, scopes, order, keys,
    /// key offsets, ranks, rank table, infix positions, infix offsets, infix ranks, infix rank table).
    let arrays: [Range<Int>]

    init(_ payload: UnsafeRawBufferPointer, fail: (PrefixIndexError.Code) -> PrefixIndexError) throws(PrefixIndexError) {
        var reader = SectionReader(bytes: payload)
        func section<T>(_ type: T.Type, _ name: String) throws(PrefixIndexError) -> Range<Int> {
            guard let range = reader.next(type) else { throw fail(.corrupt("section \(name) is cut short")) }
            return range
        }
        let meta: [UInt64] = payload.array(try section(UInt64.self, "meta"))
        guard meta.count >= 7 else { throw fail(.corrupt("meta section too short")) }
        // Counts come from the file: check them against its size before any arithmetic or allocation uses them
        // (every entry and every infix position takes at least 4 bytes of the payload).
        let limit = UInt64(payload.count / 4)
        guard meta[0] <= limit else { throw fail(.corrupt("entry count \(meta[0]) exceeds what the file can hold")) }
        guard meta[1] <= limit else {
            throw fail(.corrupt("infix position count \(meta[1]) exceeds what the file can hold"))
        }
        guard let skippedLines = Int(exactly: meta[2]) else {
            throw fail(.corrupt("skipped line count \(meta[2]) is out of range"))
        }
        self.skippedLines = skippedLines
        entryCount = Int(meta[0])
        infixCount = Int(meta[1])
        sourceFingerprint = meta[3] == 0
            ? nil : SourceFingerprint(byteCount: meta[4], hash: meta[5], lenient: meta[6] != 0)
        source = String(decoding: UnsafeRawBufferPointer(rebasing: payload[try section(UInt8.self, "source")]), as: UTF8.self)
        let nameBytes: [UInt8] = payload.array(try section(UInt8.self, "scope names"))
        var scopeNames: [String] = []
        var at = 0
        while at < nameBytes.count {
            guard at + 4 <= nameBytes.count else { throw fail(.corrupt("scope names")) }
            let length = nameBytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
            at += 4
            guard at + length <= nameBytes.count else { throw fail(.corrupt("scope names")) }
            scopeNames.append(String(decoding: nameBytes[at..<(at + length)], as: UTF8.self))
            at += length
        }
        self.scopeNames = scopeNames
        arrays = [
            try section(UInt8.self, "text"), try section(UInt32.self, "text offsets"),
            try section(Double.self, "weights"), try section(UInt16.self, "scopes"), try section(UInt32.self, "order"),
            try section(UInt8.self, "keys"), try section(UInt32.self, "key offsets"), try section(UInt32.self, "ranks"),
            try section(UInt32.self, "rank table"), try section(UInt32.self, "infix positions"),
            try section(UInt16.self, "infix offsets"), try section(UInt32.self, "infix ranks"),
            try section(UInt32.self, "infix rank table"),
        ]
        guard reader.isAtEnd else { throw fail(.corrupt("unexpected extra sections")) }
        guard arrays[4].count / 4 == entryCount, arrays[9].count / 4 == infixCount else {
            throw fail(.corrupt("array lengths disagree"))
        }
    }
}

/// Reads the sections of a saved index, checking every length against what is left.
struct SectionReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    /// The byte range of the next section, whose length must be a whole number of `T`s.
    mutating func next<T>(_ type: T.Type) -> Range<Int>? {
        guard offset + 8 <= bytes.count else { return nil }
        let length = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        guard length <= UInt64(bytes.count - offset), Int(length) % MemoryLayout<T>.stride == 0 else { return nil }
        let byteCount = Int(length)
        let start = offset
        let padding = (8 - byteCount % 8) % 8
        guard offset + byteCount + padding <= bytes.count else { return nil }
        offset += byteCount + padding
        return start..<(start + byteCount)
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes at `range` (a whole number of `T`s) copied into a new array, its large part backed by huge pages
    /// where the system offers them.
    func array<T>(_ range: Range<Int>) -> [T] {
        let byteCount = range.count
        let count = byteCount / MemoryLayout<T>.stride
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            if byteCount > 0 {
                MappedFile.adviseHugePages(UnsafeMutableRawPointer(buffer.baseAddress!), byteCount: byteCount)
                MappedFile.prefault(UnsafeMutableRawPointer(buffer.baseAddress!), byteCount: byteCount)
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                    from: baseAddress! + range.lowerBound, byteCount: byteCount)
            }
            initialized = count
        }
    }
}

/// Reads a file through a read-only memory map (pre-faulted on Linux), so loading copies each byte once, from the
/// page cache straight into the index's arrays.
enum MappedFile {
    static func withContents<R>(ofFile path: String, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
        // O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused as not a regular file).
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return body(nil) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return body(nil) }
        let size = Int(info.st_size)
        if size == 0 { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        #if os(Linux)
            let flags = MAP_PRIVATE | MAP_POPULATE
        #else
            let flags = MAP_PRIVATE
        #endif
        guard let base = mmap(nil, size, PROT_READ, flags, fd, 0), base != MAP_FAILED else {
            // Fall back to one read.
            guard let data = FileManager.default.contents(atPath: path) else { return body(nil) }
            return data.withUnsafeBytes { body($0) }
        }
        defer { munmap(base, size) }
        return body(UnsafeRawBufferPointer(start: base, count: size))
    }

    /// Asks the kernel to fault in the whole pages of a fresh buffer at once (Linux 5.14 and later), instead of one
    /// page fault per page as the copy first touches them. A hint only: older kernels refuse it.
    @inline(__always)
    static func prefault(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
            advise(start, byteCount: byteCount, alignment: 4096, minimum: 16 * 4096, 23)  // MADV_POPULATE_WRITE
        #endif
    }

    /// Asks the kernel to back the 2 MB-aligned part of a fresh large buffer with huge pages (Linux), which makes
    /// filling it several times cheaper (far fewer page faults). A hint only.
    @inline(__always)
    static func adviseHugePages(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
            advise(start, byteCount: byteCount, alignment: 2 << 20, minimum: 4 << 20, MADV_HUGEPAGE)
        #endif
    }

    #if os(Linux)
        /// `madvise(advice)` on the part of a buffer of at least `minimum` bytes that is aligned to `alignment` (a
        /// power of two); its result is ignored (the advice is a hint).
        @inline(__always)
        private static func advise(
            _ start: UnsafeMutableRawPointer, byteCount: Int, alignment: Int, minimum: Int, _ advice: Int32
        ) {
            guard byteCount >= minimum else { return }
            let address = UInt(bitPattern: start)
            let alignedStart = (address + UInt(alignment - 1)) & ~UInt(alignment - 1)
            let alignedEnd = (address + UInt(byteCount)) & ~UInt(alignment - 1)
            guard alignedEnd > alignedStart, let pointer = UnsafeMutableRawPointer(bitPattern: alignedStart) else {
                return
            }
            _ = madvise(pointer, Int(alignedEnd - alignedStart), advice)
        }
    #endif
}

extension PrefixIndex {
    /// The configuration cache's key for the prefix index of the dictionary file at `path`. The prefix provider (with
    /// or without a saved `index` file) and the fuzzy provider obtain the index under this key, so a configuration
    /// that names one dictionary in both holds one prefix index, whichever provider comes first.
    public static func cacheKey(dictionaryPath path: String, lenient: Bool) -> String {
        "prefix-index:\(path):\(lenient)"
    }

    /// Builds the index of `dictionary`, loaded from the file at `path`, with that file's fingerprint (so that it can
    /// be saved and later recognised by a prefix provider's `index` file). Without a readable file, no fingerprint.
    public static func fingerprinted(dictionary: WeightedDictionary, path: String, lenient: Bool) -> PrefixIndex {
        let fingerprint = SourceFingerprint(contentsOfFile: path, lenient: lenient)
        return PrefixIndex(dictionary: dictionary, sourceFingerprint: fingerprint)
    }
}
