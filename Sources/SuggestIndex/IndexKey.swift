public import SuggestCore

/// The canonical form of a text that the prefix index stores and searches: folded by `TextNormalizer`, runs of
/// separators collapsed to one space, no leading or trailing separator ("New-York!" → "new york").
///
/// Canonical keys contain no byte below 0x21 except the single spaces between words, so every key that equals a
/// query or continues it with a whole word sorts in one contiguous run.
public enum IndexKey: Sendable {
    /// Appends the canonical key of the UTF-8 text `text` to `key`, and the key offsets (relative to where it
    /// started in `key`, never 0) where a later word starts (after a separator, or at a camelCase hump) to
    /// `wordStarts`.
    public static func append(
        utf8 text: UnsafeBufferPointer<UInt8>,
        to key: inout [UInt8],
        wordStarts: inout [Int]
    ) {
        var isASCII = true
        for b in text where b >= 0x80 {
            isASCII = false
            break
        }
        let start = key.count
        if isASCII {
            asciiKeyBytes.withUnsafeBufferPointer { table in
                var pendingSpace = false
                var previousLower = false
                var written = 0
                for b in text {
                    let folded = table[Int(b)]
                    if folded == 0 {
                        pendingSpace = written > 0
                        previousLower = false
                        continue
                    }
                    if pendingSpace {
                        key.append(0x20)
                        written += 1
                        wordStarts.append(written)
                        pendingSpace = false
                    } else if b &- 0x41 < 26 && previousLower && written > 0 {
                        wordStarts.append(written)
                    }
                    previousLower = b &- 0x61 < 26
                    key.append(folded)
                    written += 1
                }
            }
            return
        }
        let original = String(decoding: text, as: UTF8.self)
        var folded: [UInt8] = []
        folded.reserveCapacity(text.count + 4)
        TextNormalizer.normalize(original, into: &folded)
        let humps = hasCamelHump(original)
        // folded position -> key position, needed only to place camelCase humps.
        var positions: [Int] = humps ? [] : []
        if humps { positions.reserveCapacity(folded.count) }
        var pendingSpace = false
        let sepStartsCount = wordStarts.count
        for b in folded {
            if TextNormalizer.isSeparator(b) {
                pendingSpace = key.count > start
                if humps { positions.append(key.count - start) }
                continue
            }
            if pendingSpace && !UTF8Scalars.isContinuation(b) {
                key.append(0x20)
                wordStarts.append(key.count - start)
                pendingSpace = false
            }
            if humps { positions.append(key.count - start) }
            key.append(b)
        }
        if humps {
            // NormalizedText knows the humps in folded coordinates; map them to key positions.
            let normalized = NormalizedText(original)
            wordStarts.removeLast(wordStarts.count - sepStartsCount)
            var last = 0
            for s in normalized.wordStarts {
                let p = Int(s)
                guard p < positions.count else { continue }
                let k = positions[p]
                if k > last {
                    wordStarts.append(k)
                    last = k
                }
            }
        }
    }

    /// The canonical key of `text`.
    public static func key(_ text: String) -> [UInt8] {
        var key: [UInt8] = []
        var starts: [Int] = []
        var copy = text
        copy.withUTF8 { append(utf8: $0, to: &key, wordStarts: &starts) }
        return key
    }

    /// The canonical key of `text` and its inner word starts.
    public static func keyAndWordStarts(_ text: String) -> (key: [UInt8], wordStarts: [Int]) {
        var key: [UInt8] = []
        var starts: [Int] = []
        var copy = text
        copy.withUTF8 { append(utf8: $0, to: &key, wordStarts: &starts) }
        return (key, starts)
    }

    /// Writes a prepared query's canonical key (its words joined by single spaces) into `key`, replacing its
    /// contents; keeps the buffer's capacity.
    public static func query(_ query: PreparedQuery, into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        for (i, word) in query.words.enumerated() {
            if i > 0 { key.append(0x20) }
            key.append(contentsOf: query.normalized[word])
        }
    }

    /// The length in bytes of the canonical key ``query(_:into:)`` makes: the query's words joined by single spaces.
    @inlinable
    public static func length(of query: PreparedQuery) -> Int {
        var length = max(0, query.words.count - 1)
        for word in query.words { length += word.count }
        return length
    }

    /// The UTF-8 ranges of an ASCII `text` that its canonical key's bytes `keyRange` came from, one range per
    /// run of matched letters (so one per matched word); nil when a non-ASCII byte comes before the end of the
    /// match (use `NormalizedText` and `TextMatcher` then: folding may change lengths there).
    public static func originalRanges(ofASCII text: String, keyRange: Range<Int>) -> [Range<Int>]? {
        var ranges: [Range<Int>] = []
        return originalRanges(ofASCII: text, keyRange: keyRange, into: &ranges) ? ranges : nil
    }

    /// ``originalRanges(ofASCII:keyRange:)`` into `ranges`, replacing its contents and keeping its memory.
    /// - Returns: false (and `ranges` unspecified) when a non-ASCII byte comes before the end of the match.
    public static func originalRanges(ofASCII text: String, keyRange: Range<Int>, into ranges: inout [Range<Int>]) -> Bool {
        ranges.removeAll(keepingCapacity: true)
        var isASCII = true
        var copy = text
        copy.withUTF8 { bytes in
            var c = 0
            var started = false
            var pendingSpace = false
            for (i, b) in bytes.enumerated() {
                if b >= 0x80 {
                    isASCII = false
                    return
                }
                if TextNormalizer.isSeparator(asciiFold(b)) {
                    pendingSpace = started
                    continue
                }
                if pendingSpace {
                    c += 1
                    pendingSpace = false
                }
                started = true
                if keyRange.contains(c) {
                    if let last = ranges.last, last.upperBound == i {
                        ranges[ranges.count - 1] = last.lowerBound..<(i + 1)
                    } else {
                        ranges.append(i..<(i + 1))
                    }
                }
                c += 1
                if c >= keyRange.upperBound { break }
            }
        }
        return isASCII
    }

    /// For each ASCII byte, its folded key byte, or 0 when the folded byte separates words.
    static let asciiKeyBytes: [UInt8] = (0..<128).map { b in
        let folded = asciiFold(UInt8(b))
        return TextNormalizer.isSeparator(folded) ? 0 : folded
    }

    @inline(__always)
    package static func asciiFold(_ b: UInt8) -> UInt8 {
        if b >= 0x41 && b <= 0x5A { return b + 0x20 }
        if b >= 0x09 && b <= 0x0D { return 0x20 }
        return b
    }

    static func hasCamelHump(_ text: String) -> Bool {
        var previousLower = false
        for scalar in text.unicodeScalars {
            let p = scalar.properties
            if p.isUppercase && previousLower { return true }
            previousLower = p.isLowercase
        }
        return false
    }
}
