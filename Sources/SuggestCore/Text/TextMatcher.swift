/// The engine's standard word-wise matching of a prepared query against a text, for providers without an index
/// (static lists, recent searches): exact, prefix, word-prefix and, if asked, contains.
///
/// Query words must match text words in order; every query word but a still-typed last one must match a whole
/// word. "new yo" is a prefix of "New York"; "york" is a word-prefix of "New York" and of "NewYork".
public enum TextMatcher: Sendable {
    /// The tier and matched ranges (UTF-8 offsets in `text.original`), or nil when the query does not match.
    /// An empty query matches nothing.
    public static func match(
        _ query: PreparedQuery,
        in text: NormalizedText,
        allowContains: Bool = false
    ) -> (MatchTier, [Range<Int>])? {
        guard !query.isEmpty else { return nil }
        var ranges: [Range<Int>] = []
        if let end = matchWords(query, in: text, from: 0, ranges: &ranges) {
            let rest = text.bytes[end...]
            let complete = rest.allSatisfy(TextNormalizer.isSeparator)
            return (complete ? .exact : .prefix, ranges.map(text.originalRange(of:)))
        }
        for start in text.wordStarts where start > 0 {
            ranges.removeAll(keepingCapacity: true)
            if matchWords(query, in: text, from: Int(start), ranges: &ranges) != nil {
                return (.wordPrefix, ranges.map(text.originalRange(of:)))
            }
        }
        if allowContains {
            let needle = query.trimmed
            if let at = find(needle, in: text.bytes) {
                return (.contains, [text.originalRange(of: at..<(at + needle.count))])
            }
        }
        return nil
    }

    /// Matches the query's words from folded position `start`; returns the end of the last matched word.
    static func matchWords(
        _ query: PreparedQuery,
        in text: NormalizedText,
        from start: Int,
        ranges: inout [Range<Int>]
    ) -> Int? {
        let bytes = text.bytes
        var position = start
        for (j, word) in query.words.enumerated() {
            let isLast = j == query.words.count - 1
            let length = word.count
            guard position + length <= bytes.count else { return nil }
            var k = 0
            while k < length {
                if bytes[position + k] != query.normalized[word.lowerBound + k] { return nil }
                k += 1
            }
            let end = position + length
            let mayBePrefix = isLast && query.lastWordIsPartial
            if !mayBePrefix {
                // A whole word: it must end at a separator, the end, or a camelCase hump.
                let endsWord = end == bytes.count || TextNormalizer.isSeparator(bytes[end]) || text.isWordStart(end)
                if !endsWord { return nil }
            }
            ranges.append(position..<end)
            if isLast { return end }
            // The next query word must start at the next word start.
            var next = end
            while next < bytes.count && TextNormalizer.isSeparator(bytes[next]) { next += 1 }
            guard next < bytes.count, text.isWordStart(next) else { return nil }
            position = next
        }
        return position
    }

    static func find(_ needle: ArraySlice<UInt8>, in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        let first = needle.first!
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
