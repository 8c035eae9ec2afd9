import Foundation
import SuggestCore
import Testing

@testable import SuggestIndex
import SuggestTestSupport

struct SerializationTests {
    let index: PrefixIndex

    init() throws {
        index = PrefixIndex(
            dictionary: try Fixture.dictionary(),
            sourceFingerprint: SourceFingerprint(byteCount: 12, hash: 34, lenient: true)
        )
    }

    func temporaryPath() -> String {
        TestFolders.unique("prefix-index-", ".idx")
    }

    func load(_ bytes: [UInt8]) throws(PrefixIndexError) -> PrefixIndex {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PrefixIndexError) -> PrefixIndex in try PrefixIndex(serialized: raw, file: "t.idx") }
        }
        return try result.get()
    }

    func expectError(_ bytes: [UInt8], _ message: String) {
        do {
            _ = try load(bytes)
            Issue.record("loaded a broken index; expected \(message)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func roundTripsThroughAFile() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try index.write(toFile: path)
        let loaded = try PrefixIndex(contentsOfFile: path)
        #expect(loaded.count == index.count)
        #expect(loaded.infixCount == index.infixCount)
        #expect(loaded.sourceFingerprint == index.sourceFingerprint)
        #expect(loaded.dictionary.source == index.dictionary.source)
        for text in ["n", "new yo", "york", "rest", "cafe", "東", "🍎", "new "] {
            #expect(loaded.complete(text) == index.complete(text), "\(text)")
        }
        #expect(loaded.serialized() == index.serialized())
    }

    /// A dictionary big enough that loading copies and checks on two cores, each key folding like two others ("ab",
    /// "Ab", "àb"), shifted by 0–2 keys without twins so that twins fall on both sides of the point where the two
    /// cores split the twin bits: the loaded index knows the same twins as the built one, and answers the same.
    @Test(arguments: 0..<3) func loadingOnTwoCoresFindsTheSameTwins(shift: Int) throws {
        var entries: [(String, Double, String?)] = []
        for i in 0..<shift { entries.append(("0\(i)", 1, nil)) }
        for i in 0..<6_000 {
            let stem = "w\(String(i, radix: 36))"
            entries.append((stem + "ab", Double(i % 97), nil))
            entries.append((stem + "Ab", 1, nil))
            entries.append((stem + "àb", 2, nil))
        }
        let built = PrefixIndex(dictionary: WeightedDictionary(entries: entries))
        #expect(built.count >= 16_384)
        let loaded = try load(built.serialized())
        #expect(loaded.twins == built.twins)
        #expect(loaded.twins == PrefixIndex.twinBits(keyBytes: built.keyBytes, keyOffsets: built.keyOffsets))
        #expect((0..<built.count).allSatisfy { loaded.hasTwin($0) == ($0 >= shift) })
        for text in ["w1", "w2ab", "wa", "w3k", "wzz"] {
            #expect(loaded.complete(text) == built.complete(text), "\(text)")
        }
    }

    /// A payload of over 1 MB is copied on two cores, each taking whole arrays, the first also hashing the payload:
    /// the loaded index is the built one, byte for byte; a byte changed near the start, in the middle or near the
    /// end is a checksum mismatch.
    @Test func aLargeIndexIsReadOnTwoCoresWithEveryArrayWhole() throws {
        let entries = (0..<40_000).map { i in
            (text: "entry \(String(i * 7919, radix: 36)) word\(i % 211)", weight: Double(i % 1000), scope: String?.none)
        }
        let built = PrefixIndex(dictionary: WeightedDictionary(entries: entries))
        let bytes = built.serialized()
        let payload = bytes.count - PrefixIndex.headerSize
        #expect(payload >= 1 << 20)
        let loaded = try load(bytes)
        #expect(loaded.serialized() == bytes)
        for text in ["entry 1", "word2", "entry a word1"] {
            #expect(loaded.complete(text) == built.complete(text), "\(text)")
        }
        for offset in [10, payload / 2, payload - 3] {
            var damaged = bytes
            damaged[PrefixIndex.headerSize + offset] ^= 0x04
            expectError(damaged, "checksum mismatch")
        }
    }

    /// Whichever byte of the payload changes, a damaged file is a checksum mismatch (a section length too).
    @Test func aDamagedSectionLengthIsAChecksumMismatch() {
        var bytes = index.serialized()
        // The first section's byte count (meta).
        bytes[PrefixIndex.headerSize + 1] ^= 0x10
        expectError(bytes, "checksum mismatch")
        var last = index.serialized()
        last[last.count - 1] ^= 0x01
        expectError(last, "checksum mismatch")
    }

    @Test func roundTripsScopesAndEmptyDictionaries() throws {
        let scoped = PrefixIndex(dictionary: WeightedDictionary(entries: [("a b", 1, "x"), ("ab", 2, "y"), ("c", 3, nil)]))
        let loaded = try load(scoped.serialized())
        #expect(loaded.dictionary.scopeNames == ["x", "y"])
        #expect(loaded.complete("a", scope: "x") == ["a b"])
        let empty = try load(PrefixIndex(dictionary: WeightedDictionary(entries: [])).serialized())
        #expect(empty.count == 0)
        #expect(empty.complete("a").isEmpty)
    }

    @Test func truncatedFilesAreErrors() {
        let bytes = index.serialized()
        expectError([], "truncated")
        expectError(Array(bytes.prefix(20)), "truncated")
        expectError(Array(bytes.prefix(bytes.count - 1)), "truncated")
        expectError(Array(bytes.prefix(bytes.count / 2)), "truncated")
    }

    @Test func corruptFilesAreErrors() {
        var bytes = index.serialized()
        bytes[bytes.count / 2] ^= 0x40
        expectError(bytes, "checksum mismatch")
        expectError(Array("text\t1\n".utf8) + [UInt8](repeating: 0, count: 64), "not a swift-suggest prefix index")
        expectError(index.serialized() + [0], "trailing bytes")
    }

    @Test func wrongVersionIsAnError() {
        var bytes = index.serialized()
        bytes[8] = 99
        do {
            _ = try load(bytes)
            Issue.record("loaded an index of another version")
        } catch {
            #expect(error.isUnsupportedVersion)
            #expect(error.description.contains("version 99"))
        }
    }

    @Test func inconsistentArraysWithAValidChecksumAreErrors() {
        // Rewrite an order entry to point past the end, then fix the checksum: the structure checks catch it.
        var bytes = index.serialized()
        let offset = sectionStart(bytes, 7)  // the order section
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt32(1_000_000), toByteOffset: offset + 8, as: UInt32.self)
        }
        expectError(withValidChecksum(bytes), "corrupt prefix index")
    }

    /// A file whose rank tables point anywhere (positions in range, but not the minima of their blocks) passes the
    /// checksum and the structure checks: its searches give wrong orders, but end, within their limit, on entries that
    /// exist.
    @Test(arguments: 0..<4) func rankTablesThatLieGiveSearchesThatStillEnd(pattern: Int) throws {
        let entries = (0..<700).map { i in
            (text: "ca\(String(i, radix: 7)) word\(i % 13)", weight: Double(1 + (i * 7919) % 1000), scope: String?.none)
        }
        var bytes = PrefixIndex(dictionary: WeightedDictionary(entries: entries)).serialized()
        let offset = sectionStart(bytes, 11)  // the rank table
        let count = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) } / 4
        #expect(count > 0)
        bytes.withUnsafeMutableBytes { raw in
            for k in 0..<count {
                let value: UInt32 = switch pattern {
                case 0: 0
                case 1: 699
                case 2: UInt32((k * 37) % 700)
                default: UInt32(699 - k % 700)
                }
                raw.storeBytes(of: value, toByteOffset: offset + 8 + 4 * k, as: UInt32.self)
            }
        }
        let lying = try load(withValidChecksum(bytes))
        var buffer = PrefixIndex.SearchBuffer()
        for text in ["c", "ca", "ca1", "word", "ca w", "word1 ca"] {
            lying.search(PreparedQuery(SearchQuery(text: text)), limit: 10, infix: true, everyWord: true, into: &buffer)
            #expect(buffer.hits.count <= 10)
            #expect(buffer.hits.allSatisfy { Int($0.entry) < lying.count })
        }
    }

    /// An index of `before` keys "a000"…, then "b日", then keys "c000"… to `count` in all: on two cores the loader
    /// checks keys below position 64 on one and the rest on the other.
    func indexWithAWideKey(at before: Int, count: Int = 201) -> [UInt8] {
        let three = { (i: Int) in String(repeating: "0", count: 3 - String(i).count) + String(i) }
        let entries = (0..<count).map { i in
            (text: i < before ? "a" + three(i) : i == before ? "b日" : "c" + three(i), weight: 1.0, scope: String?.none)
        }
        return PrefixIndex(dictionary: WeightedDictionary(entries: entries)).serialized()
    }

    /// A saved index whose keys are not in byte order (or not UTF-8) with a valid checksum is an error that names the
    /// sorted position: the typo walk finds children by binary search and steps through whole scalars, so it would
    /// read past a key's end.
    @Test(arguments: [1, 63, 64, 65, 200]) func keysOutOfOrderWithAValidChecksumAreErrors(position: Int) {
        var bytes = indexWithAWideKey(at: 250)
        let keys = sectionStart(bytes, 8) + 8  // the sorted keys' bytes: four a key, the first "a000"
        bytes[keys + 4 * position] = 0x01  // "a017" → "\u{01}017", before "a016"
        expectError(withValidChecksum(bytes), "keys out of order at sorted position \(position)")
    }

    /// The loader's key comparison is byte order (a prefix first) for keys with long common prefixes, zero bytes,
    /// and keys at the very end of the buffer, where it cannot read 16 bytes ahead.
    @Test func theKeyComparisonIsByteOrder() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let shared = (0..<Int.random(in: 0...20, using: &generator)).map { _ in UInt8.random(in: 0...2, using: &generator) }
            let a = shared + (0..<Int.random(in: 0...3, using: &generator)).map { _ in UInt8.random(in: 0...2, using: &generator) }
            let b = shared + (0..<Int.random(in: 0...3, using: &generator)).map { _ in UInt8.random(in: 0...2, using: &generator) }
            let expected = a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
            for padding in [0, 1, 40] {
                let buffer = a + b + [UInt8](repeating: 7, count: padding)
                let order = buffer.withUnsafeBytes { PrefixIndex.compareBytes($0, 0, a.count, a.count, b.count) }
                #expect(order == expected, "\(a) \(b) padding \(padding)")
            }
        }
    }

    @Test(arguments: [30, 150]) func aKeyThatIsNotUTF8WithAValidChecksumIsAnError(position: Int) throws {
        var bytes = indexWithAWideKey(at: position)
        let keys = sectionStart(bytes, 8) + 8
        let wide = try #require((keys..<bytes.count).first { bytes[$0] == 0xE6 && bytes[$0 + 1] == 0x97 })
        #expect(wide == keys + 4 * position + 1)  // "b" then 日's three bytes
        bytes[wide + 1] = 0x41  // in the key's byte order still after the "a" keys and before the "c" ones
        expectError(withValidChecksum(bytes), "key at sorted position \(position) is not UTF-8")
        bytes[wide + 1] = 0x97
        _ = try load(withValidChecksum(bytes))
    }

    @Test func missingFileIsAnError() {
        do {
            _ = try PrefixIndex(contentsOfFile: "/nonexistent/words.idx")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.isUnreadable)
            #expect(error.description == "/nonexistent/words.idx: cannot be read")
        }
    }

    /// A copy of `bytes` with meta value `slot` set to `value` and the checksum made valid again.
    func withMeta(_ bytes: [UInt8], slot: Int, _ value: UInt64) -> [UInt8] {
        var bytes = bytes
        // The meta section comes first: its byte count, then the UInt64s.
        let offset = sectionStart(bytes, 0) + 8 + 8 * slot
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: offset, as: UInt64.self) }
        return withValidChecksum(bytes)
    }

    /// Where section `k` (0: meta) of a saved index starts: its byte count, then its bytes padded to 8.
    func sectionStart(_ bytes: [UInt8], _ k: Int) -> Int {
        var offset = PrefixIndex.headerSize
        for _ in 0..<k {
            let length = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
            offset += 8 + length + (8 - length % 8) % 8
        }
        return offset
    }

    /// `bytes` with the header's checksum made right for its payload again.
    func withValidChecksum(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        bytes.withUnsafeMutableBytes { raw in
            let checksum = Checksum.hash(UnsafeRawBufferPointer(rebasing: raw[PrefixIndex.headerSize...]))
            raw.storeBytes(of: checksum, toByteOffset: 24, as: UInt64.self)
        }
        return bytes
    }

    @Test(arguments: [
        (0, UInt64(1) << 63, "entry count 9223372036854775808 exceeds what the file can hold"),
        (0, UInt64.max, "entry count 18446744073709551615 exceeds what the file can hold"),
        (0, UInt64(Int.max), "entry count 9223372036854775807 exceeds what the file can hold"),
        (0, UInt64(1_000_000), "entry count 1000000 exceeds what the file can hold"),
        (1, UInt64(1) << 63, "infix position count 9223372036854775808 exceeds what the file can hold"),
        (2, UInt64(1) << 63, "skipped line count 9223372036854775808 is out of range"),
    ])
    func metaCountsBeyondTheFileWithAValidChecksumAreErrors(slot: Int, value: UInt64, message: String) {
        expectError(withMeta(index.serialized(), slot: slot, value), message)
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let path = temporaryPath()
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        do {
            _ = try PrefixIndex(contentsOfFile: path)
            Issue.record("loaded a FIFO")
        } catch {
            #expect(error.description == "\(path): cannot be read (not a regular file: a FIFO)")
        }
    }
}
