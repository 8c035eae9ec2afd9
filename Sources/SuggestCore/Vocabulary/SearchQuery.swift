/// What the person has typed so far: the field's text, the tokens already in it, and the selected scope.
public struct SearchQuery: Hashable, Sendable, Codable {
    /// The text in the search field (after any tokens), including any text an input method is still composing.
    public var text: String
    /// Tokens already in the field, in order.
    public var tokens: [SearchToken]
    /// The selected scope, if the UI has scopes.
    public var scope: SearchScope?
    /// The part of ``text`` that an input method is still composing (marked text: the kana of `東京とう` before it
    /// is converted), as UTF-8 offsets into ``text``, like UIKit's `markedTextRange` and AppKit's `markedRange()`;
    /// nil (or empty) when nothing is being composed.
    ///
    /// While text is being composed the engine answers for ``committedText`` with its synchronous providers only
    /// and asks no asynchronous one, and no text turns into tokens (see ``SuggestionEngine``).
    public var markedRange: Range<Int>?

    public init(
        text: String = "",
        tokens: [SearchToken] = [],
        scope: SearchScope? = nil,
        markedRange: Range<Int>? = nil
    ) {
        self.text = text
        self.tokens = tokens
        self.scope = scope
        self.markedRange = markedRange
    }

    /// True when there is no text and no token: the moment to show recent searches.
    public var isEmpty: Bool { text.isEmpty && tokens.isEmpty }

    /// True when part of ``text`` is being composed by an input method (``markedRange`` is not empty).
    public var isComposing: Bool {
        guard let marked = markedRange else { return false }
        return max(marked.lowerBound, 0) < min(marked.upperBound, text.utf8.count)
    }

    /// ``text`` without the part being composed: all of ``text`` when nothing is. A ``markedRange`` beyond the text
    /// is cut to it, and one that splits a character's UTF-8 bytes is widened to whole Unicode scalars.
    /// - Complexity: O(n) in the UTF-8 length of ``text``.
    public var committedText: String {
        guard isComposing, let marked = markedRange else { return text }
        let utf8 = Array(text.utf8)
        let (lower, upper) = Self.scalarBounds(of: marked, in: utf8)
        return String(decoding: utf8[..<lower] + utf8[upper...], as: UTF8.self)
    }

    /// The text being composed (the part of ``text`` that ``markedRange`` covers, widened as ``committedText``
    /// says); empty when nothing is.
    public var markedText: String {
        guard isComposing, let marked = markedRange else { return "" }
        let utf8 = Array(text.utf8)
        let (lower, upper) = Self.scalarBounds(of: marked, in: utf8)
        return String(decoding: utf8[lower..<upper], as: UTF8.self)
    }

    /// `range` cut to `utf8` and widened to whole scalars (a continuation byte never starts or ends a bound).
    static func scalarBounds(of range: Range<Int>, in utf8: [UInt8]) -> (Int, Int) {
        var lower = min(max(range.lowerBound, 0), utf8.count)
        var upper = min(max(range.upperBound, lower), utf8.count)
        while lower > 0 && lower < utf8.count && utf8[lower] & 0xC0 == 0x80 { lower -= 1 }
        while upper < utf8.count && utf8[upper] & 0xC0 == 0x80 { upper += 1 }
        return (lower, upper)
    }
}

extension SearchQuery: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(text: value) }
}
