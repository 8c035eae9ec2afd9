/// A text with its folded UTF-8 bytes, the map from folded bytes back to the original's UTF-8 offsets, and the
/// folded positions where words start (after separators and at camelCase humps).
///
/// Providers build one per entry they keep in memory (or per result they return) to report matched ranges in the
/// original text's coordinates.
public struct NormalizedText: Sendable, Hashable {
    /// The original text.
    public let original: String
    /// The folded UTF-8 bytes (see ``TextNormalizer``).
    public let bytes: [UInt8]
    /// For each folded byte, the UTF-8 offset in ``original`` of the scalar it came from; one extra element,
    /// the original's UTF-8 length, closes the array.
    public let originalOffsets: [Int32]
    /// Folded byte positions where a word starts: position 0, after a separator, and at a camelCase hump
    /// ("Framework" in "djangoRestFramework").
    public let wordStarts: [Int32]

    public init(_ text: String) {
        self.init(text, asciiFastPath: true)
    }

    /// `asciiFastPath: false` always takes the general path (tests compare the two).
    init(_ text: String, asciiFastPath: Bool) {
        original = text
        var copy = text
        let parts = copy.withUTF8 { buffer in
            asciiFastPath && TextNormalizer.isASCII(buffer) ? Self.asciiParts(buffer) : Self.generalParts(text, buffer)
        }
        self.bytes = parts.bytes
        self.originalOffsets = parts.offsets
        self.wordStarts = parts.wordStarts
    }

    typealias Parts = (bytes: [UInt8], offsets: [Int32], wordStarts: [Int32])

    /// Folds any text, with Unicode property look-ups.
    static func generalParts(_ text: String, _ buffer: UnsafeBufferPointer<UInt8>) -> Parts {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(buffer.count)
        var offsets: [Int32]? = []
        offsets!.reserveCapacity(buffer.count + 1)
        TextNormalizer.foldScalars(buffer, from: 0, into: &bytes, offsets: &offsets)
        offsets!.append(Int32(buffer.count))
        return (bytes, offsets!, findWordStarts(original: text, bytes: bytes, offsets: offsets!))
    }

    /// The same result as ``generalParts(_:_:)`` for ASCII text, without Unicode look-ups or a set of humps: one
    /// folded byte per byte, each from its own offset, and ASCII's only lowercase and uppercase letters are a–z
    /// and A–Z.
    static func asciiParts(_ buffer: UnsafeBufferPointer<UInt8>) -> Parts {
        let count = buffer.count
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var starts: [Int32] = []
        var previousWasLower = false
        var previousSeparator = true
        for i in 0..<count {
            let original = buffer[i]
            let folded = TextNormalizer.asciiFold[Int(original)]
            bytes.append(folded)
            let hump = previousWasLower && original >= 0x41 && original <= 0x5A
            previousWasLower = original >= 0x61 && original <= 0x7A
            let separator = TextNormalizer.isSeparator(folded)
            if !separator && (previousSeparator || hump) { starts.append(Int32(i)) }
            previousSeparator = separator
        }
        let offsets = [Int32](unsafeUninitializedCapacity: count + 1) { out, initialized in
            for i in 0...count { out[i] = Int32(i) }
            initialized = count + 1
        }
        return (bytes, offsets, starts)
    }

    /// The range in ``original``'s UTF-8 offsets that the folded byte range `range` came from.
    public func originalRange(of range: Range<Int>) -> Range<Int> {
        guard !range.isEmpty else {
            let at = Int(originalOffsets[min(range.lowerBound, originalOffsets.count - 1)])
            return at..<at
        }
        let lower = Int(originalOffsets[range.lowerBound])
        let last = originalOffsets[range.upperBound - 1]
        var j = range.upperBound
        while j < bytes.count && originalOffsets[j] == last { j += 1 }
        return lower..<Int(originalOffsets[j])
    }

    /// Whether a word starts at folded position `position`.
    public func isWordStart(_ position: Int) -> Bool {
        wordStarts.contains(Int32(position))
    }

    static func findWordStarts(original: String, bytes: [UInt8], offsets: [Int32]) -> [Int32] {
        var starts: [Int32] = []
        // Scalars of the original that are uppercase after a lowercase letter start a camelCase hump.
        var humps = Set<Int32>()
        var previousWasLower = false
        var offset: Int32 = 0
        for scalar in original.unicodeScalars {
            let p = scalar.properties
            if p.isUppercase && previousWasLower { humps.insert(offset) }
            previousWasLower = p.isLowercase
            offset += Int32(UTF8.width(scalar))
        }
        var previousSeparator = true
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let isContinuation = UTF8Scalars.isContinuation(b)
            if !isContinuation {
                let sep = TextNormalizer.isSeparator(b)
                if !sep && (previousSeparator || (humps.contains(offsets[i]) && (i == 0 || offsets[i - 1] != offsets[i])))
                {
                    starts.append(Int32(i))
                }
                previousSeparator = sep
            }
            i += 1
        }
        return starts
    }
}
