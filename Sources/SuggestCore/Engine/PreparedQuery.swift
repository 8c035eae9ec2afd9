/// A query prepared once per keystroke for every provider: the text folded to UTF-8 bytes and split into words.
///
/// Earlier words are complete; the last word is "still being typed" (prefix semantics) unless the text ends with
/// a separator.
public struct PreparedQuery: Sendable {
    /// The query after token extraction (its text is the remaining text, truncated if it was too long).
    public let query: SearchQuery
    /// The folded UTF-8 bytes of ``query``'s text, with leading and trailing separators kept.
    public let normalized: [UInt8]
    /// The words: ranges in ``normalized``, separators excluded.
    public let words: [Range<Int>]
    /// True when the text does not end with a separator, so the last word may still grow.
    public let lastWordIsPartial: Bool
    /// True when the query's text was cut to the engine's maximum length.
    public let wasTruncated: Bool

    /// Prepares `query`, cutting its text to at most `maximumLength` UTF-8 bytes (at a scalar boundary).
    public init(_ query: SearchQuery, maximumLength: Int = SuggestionEngine.defaultMaxQueryLength) {
        var bytes: [UInt8] = []
        var words: [Range<Int>] = []
        self.init(query, maximumLength: maximumLength, bytes: &bytes, words: &words)
    }

    /// Prepares `query` in the memory of `bytes` and `words` (taken: both are left empty), so that a typing session
    /// that hands the previous keystroke's arrays back allocates nothing here once they are unshared.
    init(_ query: SearchQuery, maximumLength: Int, bytes buffer: inout [UInt8], words wordBuffer: inout [Range<Int>]) {
        var query = query
        var truncated = false
        if query.text.utf8.count > maximumLength {
            query.text = Self.truncate(query.text, toUTF8Length: maximumLength)
            truncated = true
        }
        self.query = query
        self.wasTruncated = truncated
        var bytes: [UInt8] = []
        swap(&bytes, &buffer)
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(query.text.utf8.count)
        TextNormalizer.normalize(query.text, into: &bytes)
        self.normalized = bytes
        var words: [Range<Int>] = []
        swap(&words, &wordBuffer)
        words.removeAll(keepingCapacity: true)
        // Words are separated: at most one per two bytes, so one allocation holds them all.
        words.reserveCapacity((bytes.count + 1) / 2)
        var start = -1
        for (i, b) in bytes.enumerated() {
            if TextNormalizer.isSeparator(b) {
                if start >= 0 { words.append(start..<i) }
                start = -1
            } else if start < 0 {
                start = i
            }
        }
        if start >= 0 { words.append(start..<bytes.count) }
        self.words = words
        self.lastWordIsPartial = start >= 0
    }

    /// The query's text.
    public var text: String { query.text }
    /// True when the folded text has no word (empty or only separators).
    public var isEmpty: Bool { words.isEmpty }
    /// The folded bytes from the first word's start to the end, separators between words kept as they are.
    public var trimmed: ArraySlice<UInt8> {
        guard let first = words.first, let last = words.last else { return [] }
        return normalized[first.lowerBound..<last.upperBound]
    }
    /// The folded bytes of word `index`.
    public func word(_ index: Int) -> ArraySlice<UInt8> { normalized[words[index]] }

    static func truncate(_ text: String, toUTF8Length length: Int) -> String {
        let utf8 = text.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: length)
        // Step back to the start of a scalar.
        while end > utf8.startIndex && (utf8[end] & 0xC0) == 0x80 { end = utf8.index(before: end) }
        return String(text[..<end])
    }
}
