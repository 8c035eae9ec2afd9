/// Folds text for matching: case, diacritics and width ("Café" → "cafe", "STRASSE" and "straße" → "strasse",
/// "Ｆｕｌｌ" → "full"), every kind of whitespace to a plain space. Output is UTF-8 bytes; results always keep
/// the original text, the folded bytes are only compared.
///
/// ASCII takes a table lookup per byte; other scalars a dictionary lookup. No Foundation on this path.
public enum TextNormalizer: Sendable {
    /// Appends the folded UTF-8 bytes of `text` to `output`.
    /// - Complexity: O(n) in the UTF-8 length of `text`.
    public static func normalize(_ text: String, into output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            // ASCII fast path: the bytes before the first non-ASCII one copied at once, then folded in place.
            var i = 0
            while i < bytes.count, bytes[i] < 0x80 { i += 1 }
            if i > 0 {
                let start = output.count
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<i]))
                output.withUnsafeMutableBufferPointer { folded in
                    for k in start..<(start + i) { folded[k] = foldASCII(folded[k]) }
                }
            }
            if i == bytes.count { return }
            var offsets: [Int32]? = nil
            foldScalars(bytes, from: i, into: &output, offsets: &offsets)
        }
    }

    /// The folded UTF-8 bytes of `text`.
    public static func normalized(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        normalize(text, into: &output)
        return output
    }

    /// The folded form of `text` as a `String` (for keys, display in diagnostics and tests).
    public static func normalizedString(_ text: String) -> String {
        String(decoding: normalized(text), as: UTF8.self)
    }

    /// Whether a folded byte separates words: control characters, whitespace and ASCII punctuation (`-`, `_`, `.`,
    /// `/`, …) except `'` (which keeps "don't" one word). Bytes of 0x80 and above never separate.
    ///
    /// A bit test on two constants, inlinable into other modules' hot loops (a table would cost them a call and a
    /// lazy-initialisation check per byte).
    @inlinable @inline(__always)
    public static func isSeparator(_ byte: UInt8) -> Bool {
        // Bit b of `low` (bytes 0–63) and bit b − 64 of `high` (bytes 64–127): 1 for a separator.
        let low: UInt64 = 0xFC00_FF7F_FFFF_FFFF
        let high: UInt64 = 0xF800_0001_F800_0001
        if byte < 64 { return (low >> UInt64(byte)) & 1 != 0 }
        if byte < 128 { return (high >> UInt64(byte &- 64)) & 1 != 0 }
        return false
    }

    // MARK: Internals

    /// Whether every byte is below 0x80 (one branch-free pass; the package's providers use it too).
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var all: UInt8 = 0
        for b in bytes { all |= b }
        return all < 0x80
    }

    /// Folds the scalars of `bytes` from offset `start`, appending output bytes; if `offsets` is non-nil, appends
    /// for every output byte the UTF-8 offset in `bytes` of the scalar it came from.
    static func foldScalars(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from start: Int,
        into output: inout [UInt8],
        offsets: inout [Int32]?
    ) {
        var i = start
        let table = FoldTable.table
        while i < bytes.count {
            let b0 = bytes[i]
            if b0 < 0x80 {
                output.append(asciiFold[Int(b0)])
                offsets?.append(Int32(i))
                i += 1
                continue
            }
            let (scalarValue, length) = decodeScalar(bytes, at: i)
            if let folded = table[scalarValue] {
                output.append(contentsOf: folded)
                if offsets != nil { for _ in folded { offsets!.append(Int32(i)) } }
            } else if let scalar = Unicode.Scalar(scalarValue) {
                let properties = scalar.properties
                if properties.generalCategory == .nonspacingMark {
                    // A combining accent typed or stored decomposed: drop it, like the precomposed form.
                } else if properties.isWhitespace {
                    output.append(0x20)
                    offsets?.append(Int32(i))
                } else if properties.changesWhenLowercased {
                    let before = output.count
                    output.append(contentsOf: properties.lowercaseMapping.utf8)
                    if offsets != nil { for _ in before..<output.count { offsets!.append(Int32(i)) } }
                } else {
                    for k in 0..<length { output.append(bytes[i + k]) }
                    if offsets != nil { for _ in 0..<length { offsets!.append(Int32(i)) } }
                }
            }
            i += length
        }
    }

    @inline(__always)
    static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let b0 = UInt32(bytes[i])
        if b0 < 0xE0 {
            return (((b0 & 0x1F) << 6) | (UInt32(bytes[i + 1]) & 0x3F), 2)
        } else if b0 < 0xF0 {
            return (((b0 & 0x0F) << 12) | ((UInt32(bytes[i + 1]) & 0x3F) << 6) | (UInt32(bytes[i + 2]) & 0x3F), 3)
        } else {
            let v =
                ((b0 & 0x07) << 18) | ((UInt32(bytes[i + 1]) & 0x3F) << 12)
                | ((UInt32(bytes[i + 2]) & 0x3F) << 6) | (UInt32(bytes[i + 3]) & 0x3F)
            return (v, 4)
        }
    }

    /// How an ASCII byte folds, by arithmetic (no table load or lazy-initialisation check): A–Z to a–z, the ASCII
    /// whitespace controls (tab, line feed, vertical tab, form feed, carriage return) to a space, every other byte
    /// as it is.
    @inline(__always)
    static func foldASCII(_ b: UInt8) -> UInt8 {
        if b &- 0x41 < 26 { return b | 0x20 }
        if b &- 0x09 < 5 { return 0x20 }
        return b
    }

    /// ``foldASCII(_:)`` of every ASCII byte, for the loops that index a table.
    static let asciiFold: [UInt8] = (0..<128).map { foldASCII(UInt8($0)) }

}
