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
        var payload: [UInt8] = []
        payload.reserveCapacity(indexByteCount + dictionary.textBytes.count + dictionaryByteCount + 1024)
        let meta: [UInt64] = [
            UInt64(count), UInt64(infixPositions.count), UInt64(dictionary.skippedLines),
            sourceFingerprint == nil ? 0 : 1, sourceFingerprint?.byteCount ?? 0, sourceFingerprint?.hash ?? 0,
            (sourceFingerprint?.lenient ?? false) ? 1 : 0,
        ]
        Self.appendSection(meta, to: &payload)
        Self.appendSection(Array(dictionary.source.utf8), to: &payload)
        var names: [UInt8] = []
        for name in dictionary.scopeNames {
            let utf8 = Array(name.utf8)
            withUnsafeBytes(of: UInt32(utf8.count)) { names.append(contentsOf: $0) }
            names.append(contentsOf: utf8)
        }
        Self.appendSection(names, to: &payload)
        Self.appendSection(dictionary.textBytes, to: &payload)
        Self.appendSection(dictionary.textOffsets, to: &payload)
        Self.appendSection(dictionary.weights, to: &payload)
        Self.appendSection(dictionary.scopeIndices, to: &payload)
        Self.appendSection(order, to: &payload)
        Self.appendSection(keyBytes, to: &payload)
        Self.appendSection(keyOffsets, to: &payload)
        Self.appendSection(prefixRanks.values, to: &payload)
        Self.appendSection(prefixRanks.table, to: &payload)
        Self.appendSection(infixPositions, to: &payload)
        Self.appendSection(infixOffsets, to: &payload)
        Self.appendSection(infixRanks.values, to: &payload)
        Self.appendSection(infixRanks.table, to: &payload)

        var out: [UInt8] = []
        out.reserveCapacity(Self.headerSize + payload.count)
        out.append(contentsOf: Self.magic)
        withUnsafeBytes(of: Self.formatVersion) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: Self.byteOrderMark) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(payload.count)) { out.append(contentsOf: $0) }
        let checksum = payload.withUnsafeBytes { Checksum.hash($0) }
        withUnsafeBytes(of: checksum) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(0)) { out.append(contentsOf: $0) }
        out.append(contentsOf: payload)
        return out
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
    /// - Throws: ``PrefixIndexError`` when the file is missing, truncated, corrupt, or of another format version.
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
        guard Checksum.hash(payload) == checksum else { throw fail(.checksumMismatch) }

        var reader = SectionReader(bytes: payload)
        func section<T>(_ type: T.Type, _ name: String) throws(PrefixIndexError) -> [T] {
            guard let array = reader.next(type) else { throw fail(.corrupt("section \(name) is cut short")) }
            return array
        }
        let meta = try section(UInt64.self, "meta")
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
        let n = Int(meta[0])
        let m = Int(meta[1])
        let source = String(decoding: try section(UInt8.self, "source"), as: UTF8.self)
        let nameBytes = try section(UInt8.self, "scope names")
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
        let textBytes = try section(UInt8.self, "text")
        let textOffsets = try section(UInt32.self, "text offsets")
        let weights = try section(Double.self, "weights")
        let scopeIndices = try section(UInt16.self, "scopes")
        let order = try section(UInt32.self, "order")
        let keyBytes = try section(UInt8.self, "keys")
        let keyOffsets = try section(UInt32.self, "key offsets")
        let prefixRankValues = try section(UInt32.self, "ranks")
        let prefixTable = try section(UInt32.self, "rank table")
        let infixPositions = try section(UInt32.self, "infix positions")
        let infixOffsets = try section(UInt16.self, "infix offsets")
        let infixRankValues = try section(UInt32.self, "infix ranks")
        let infixTable = try section(UInt32.self, "infix rank table")
        guard reader.isAtEnd else { throw fail(.corrupt("unexpected extra sections")) }

        // Structure checks, so a file with a valid checksum but inconsistent arrays is an error, not a crash.
        guard textOffsets.count == n + 1, weights.count == n, scopeIndices.count == n, order.count == n,
            keyOffsets.count == n + 1, prefixRankValues.count == n,
            prefixTable.count == RangeMinimum.tableCount(for: n),
            infixPositions.count == m, infixOffsets.count == m, infixRankValues.count == m,
            infixTable.count == RangeMinimum.tableCount(for: m)
        else { throw fail(.corrupt("array lengths disagree")) }
        guard Self.isValidOffsets(textOffsets, total: textBytes.count),
            Self.isValidOffsets(keyOffsets, total: keyBytes.count)
        else { throw fail(.corrupt("offsets out of order")) }
        let scopeLimit = UInt16(clamping: scopeNames.count)
        guard scopeIndices.allSatisfy({ $0 <= scopeLimit }) else { throw fail(.corrupt("scope index out of range")) }
        var seen = [Bool](repeating: false, count: n)
        for entry in order {
            guard Int(entry) < n, !seen[Int(entry)] else { throw fail(.corrupt("order is not a permutation")) }
            seen[Int(entry)] = true
        }
        let bound = UInt32(clamping: n)
        guard prefixRankValues.allSatisfy({ $0 < bound }), prefixTable.allSatisfy({ $0 < bound }),
            infixPositions.allSatisfy({ $0 < bound }), infixRankValues.allSatisfy({ $0 < bound }),
            infixTable.allSatisfy({ $0 < UInt32(clamping: m) })
        else { throw fail(.corrupt("position out of range")) }
        for i in 0..<m {
            let p = Int(infixPositions[i])
            guard Int(keyOffsets[p]) + Int(infixOffsets[i]) <= Int(keyOffsets[p + 1]) else {
                throw fail(.corrupt("infix offset beyond its key"))
            }
        }

        let dictionary = WeightedDictionary(
            source: source,
            textBytes: textBytes,
            textOffsets: textOffsets,
            weights: weights,
            scopeIndices: scopeIndices,
            scopeNames: scopeNames,
            skippedLines: skippedLines
        )
        self.init(
            dictionary: dictionary,
            order: order,
            keyBytes: keyBytes,
            keyOffsets: keyOffsets,
            prefixRanks: RangeMinimum(values: prefixRankValues, table: prefixTable),
            infixPositions: infixPositions,
            infixOffsets: infixOffsets,
            infixRanks: RangeMinimum(values: infixRankValues, table: infixTable),
            sourceFingerprint: meta[3] == 0
                ? nil : SourceFingerprint(byteCount: meta[4], hash: meta[5], lenient: meta[6] != 0)
        )
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

/// Reads the sections of a saved index, checking every length against what is left.
struct SectionReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func next<T>(_ type: T.Type) -> [T]? {
        guard offset + 8 <= bytes.count else { return nil }
        let length = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        guard length <= UInt64(bytes.count - offset), Int(length) % MemoryLayout<T>.stride == 0 else { return nil }
        let byteCount = Int(length)
        let count = byteCount / MemoryLayout<T>.stride
        let start = offset
        let array = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            if byteCount > 0 {
                MappedFile.adviseHugePages(UnsafeMutableRawPointer(buffer.baseAddress!), byteCount: byteCount)
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                    from: bytes.baseAddress! + start, byteCount: byteCount)
            }
            initialized = count
        }
        let padding = (8 - byteCount % 8) % 8
        guard offset + byteCount + padding <= bytes.count else { return nil }
        offset += byteCount + padding
        return array
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

    /// Asks the kernel to back the 2 MB-aligned part of a fresh large buffer with huge pages (Linux), which makes
    /// filling it several times cheaper (far fewer page faults). A hint only.
    @inline(__always)
    static func adviseHugePages(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
            let huge = 2 << 20
            guard byteCount >= 2 * huge else { return }
            let address = UInt(bitPattern: start)
            let alignedStart = (address + UInt(huge - 1)) & ~UInt(huge - 1)
            let alignedEnd = (address + UInt(byteCount)) & ~UInt(huge - 1)
            guard alignedEnd > alignedStart, let pointer = UnsafeMutableRawPointer(bitPattern: alignedStart) else {
                return
            }
            _ = madvise(pointer, Int(alignedEnd - alignedStart), MADV_HUGEPAGE)
        #endif
    }
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
        let fingerprint = FileManager.default.contents(atPath: path).map { data in
            data.withUnsafeBytes { SourceFingerprint(bytes: $0, lenient: lenient) }
        }
        return PrefixIndex(dictionary: dictionary, sourceFingerprint: fingerprint)
    }
}
