/// Stepping through UTF-8 bytes one Unicode scalar at a time, for the code that works on folded bytes (the index,
/// the fuzzy walks, token extraction, pattern matching). The bytes are valid UTF-8 (they come from a `String` or
/// from `TextNormalizer`). Inlinable and allocation-free: the per-keystroke loops of other modules call them.
public enum UTF8Scalars: Sendable {
    /// Whether `byte` continues a scalar (10xxxxxx) rather than starting one.
    @inlinable @inline(__always)
    public static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    /// The number of bytes of the scalar that `lead` starts: 1 to 4.
    @inlinable @inline(__always)
    public static func length(lead: UInt8) -> Int { lead < 0x80 ? 1 : (lead >= 0xF0 ? 4 : (lead >= 0xE0 ? 3 : 2)) }

    /// The value bits that the lead byte `lead` contributes to its scalar (all of it for ASCII).
    @inlinable @inline(__always)
    public static func leadBits(_ lead: UInt8) -> UInt32 {
        lead < 0x80 ? UInt32(lead) : UInt32(lead) & (lead >= 0xF0 ? 0x07 : (lead >= 0xE0 ? 0x0F : 0x1F))
    }

    /// The first byte of `scalar`'s UTF-8 form.
    @inlinable @inline(__always)
    public static func leadByte(of scalar: UInt32) -> UInt8 {
        if scalar < 0x80 { return UInt8(scalar) }
        if scalar < 0x800 { return 0xC0 | UInt8(truncatingIfNeeded: scalar >> 6) }
        if scalar < 0x1_0000 { return 0xE0 | UInt8(truncatingIfNeeded: scalar >> 12) }
        return 0xF0 | UInt8(truncatingIfNeeded: scalar >> 18)
    }

    /// `value` continued by the continuation byte `byte`.
    @inlinable @inline(__always)
    public static func appending(_ byte: UInt8, to value: UInt32) -> UInt32 { (value << 6) | (UInt32(byte) & 0x3F) }

    /// The index of the first byte of `bytes` that does not start a valid UTF-8 scalar (a stray continuation byte,
    /// an overlong form, a surrogate, a value past U+10FFFF, or a scalar cut short by the end), or nil when all of
    /// `bytes` is valid UTF-8.
    @inlinable
    public static func firstInvalid<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Int?
    where Bytes.Index == Int {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var minimum: UInt32
            var value: UInt32
            switch b {
            case 0xC2...0xDF: length = 2; value = UInt32(b & 0x1F); minimum = 0x80
            case 0xE0...0xEF: length = 3; value = UInt32(b & 0x0F); minimum = 0x800
            case 0xF0...0xF4: length = 4; value = UInt32(b & 0x07); minimum = 0x10000
            default: return i
            }
            guard end - i >= length else { return i }
            for k in 1..<length {
                let c = bytes[i + k]
                guard isContinuation(c) else { return i }
                value = appending(c, to: value)
            }
            if value < minimum || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { return i }
            i += length
        }
        return nil
    }

    /// The scalar that starts at `index` of `bytes` and its length in bytes; a scalar cut short by the end of
    /// `bytes` is decoded from the bytes there are.
    @inlinable
    public static func decode<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes,
        at index: Bytes.Index
    ) -> (value: UInt32, length: Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = Self.length(lead: lead)
        var value = leadBits(lead)
        var position = bytes.index(after: index)
        var decoded = 1
        while decoded < length && position != bytes.endIndex {
            value = appending(bytes[position], to: value)
            position = bytes.index(after: position)
            decoded += 1
        }
        return (value, length)
    }

    /// The scalars of `bytes`, as their values.
    @inlinable
    public static func values<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let (value, length) = decode(bytes, at: index)
            result.append(value)
            index = bytes.index(index, offsetBy: length, limitedBy: bytes.endIndex) ?? bytes.endIndex
        }
        return result
    }

    /// The number of scalars in `bytes`.
    @inlinable
    public static func count<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Int {
        var count = 0
        for byte in bytes where !isContinuation(byte) { count += 1 }
        return count
    }
}
