import SuggestCore

/// A part of a text folded like ``TextNormalizer`` does (case, diacritics, width; whitespace to a space), with
/// the original UTF-8 offset of every folded byte, for matching the vocabulary and rule values.
struct FoldedText {
    var bytes: [UInt8] = []
    /// For each folded byte, the original offset of the scalar it came from; one more closes the array.
    var offsets: [Int32] = []

    init(_ text: [UInt8], _ range: Range<Int>) {
        bytes.reserveCapacity(range.count)
        offsets.reserveCapacity(range.count + 1)
        var i = range.lowerBound
        while i < range.upperBound {
            let b = text[i]
            if b < 0x80 {
                bytes.append(Self.asciiFold(b))
                offsets.append(Int32(i))
                i += 1
                continue
            }
            var length = 1
            while i + length < range.upperBound && UTF8Scalars.isContinuation(text[i + length]) { length += 1 }
            let scalar = String(decoding: text[i..<(i + length)], as: UTF8.self)
            for folded in TextNormalizer.normalized(scalar) {
                bytes.append(folded)
                offsets.append(Int32(i))
            }
            i += length
        }
        offsets.append(Int32(range.upperBound))
    }

    @inline(__always)
    static func asciiFold(_ b: UInt8) -> UInt8 {
        if b >= 0x41 && b <= 0x5A { return b + 0x20 }
        if b == 0x09 || b == 0x0A || b == 0x0B || b == 0x0C || b == 0x0D { return 0x20 }
        return b
    }
}
