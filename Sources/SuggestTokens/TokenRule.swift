public import SuggestCore
public import SuggestPattern

/// A pattern that turns matching text into a token: `from:alice` → `from:alice` with display "From: alice".
///
/// The named group `value` (or the whole match) gives the token's value; a group named `kind` overrides ``kind``.
/// A match becomes a token once it is complete: followed by a space or a delimiter, or when the search is
/// submitted. While it is still being typed at the end of the text, ``values`` that start with the typed value are
/// offered as suggested tokens.
public struct TokenRule: Sendable {
    /// The token kind (unless the pattern's `kind` group matched).
    public let kind: String
    /// The compiled pattern.
    public let pattern: any CompiledPattern
    /// The chip's text: `$value` and `$kind` are replaced (default: the value).
    public let display: String?
    /// An SF Symbol name for the token.
    public let systemImage: String?
    /// Known values, offered while a value is being typed (`from:al` → alice, alex).
    public let values: [String]
    /// The text a backspace into the token puts back (`"from:$value"`); default: the value.
    public let editText: String?
    /// ``values``, folded.
    let foldedValues: [[UInt8]]

    /// Compiles `pattern` with `engine`.
    /// - Throws: `PatternError` when the pattern does not compile.
    public init(
        kind: String,
        pattern: String,
        display: String? = nil,
        systemImage: String? = nil,
        values: [String] = [],
        editText: String? = nil,
        engine: PatternEngine = .default,
        limits: PatternLimits = PatternLimits()
    ) throws(PatternError) {
        self.init(
            kind: kind,
            compiled: try engine.compile(pattern, limits: limits),
            display: display,
            systemImage: systemImage,
            values: values,
            editText: editText
        )
    }

    /// A rule with an already compiled pattern (your own `CompiledPattern`).
    public init(
        kind: String,
        compiled pattern: any CompiledPattern,
        display: String? = nil,
        systemImage: String? = nil,
        values: [String] = [],
        editText: String? = nil
    ) {
        self.kind = kind
        self.pattern = pattern
        self.display = display
        self.systemImage = systemImage
        self.values = values
        self.editText = editText
        self.foldedValues = values.map(TextNormalizer.normalized)
    }

    /// The token for `value` (and a matched `kind`, if any).
    public func token(value: String, kind matchedKind: String? = nil) -> SearchToken {
        let kind = matchedKind.flatMap { $0.isEmpty ? nil : $0 } ?? self.kind
        return SearchToken(
            kind: kind,
            value: value,
            display: display.map { Self.render($0, value: value, kind: kind) },
            systemImage: systemImage
        )
    }

    /// `template` with `$value` and `$kind` replaced.
    static func render(_ template: String, value: String, kind: String) -> String {
        guard template.utf8.contains(UInt8(ascii: "$")) else { return template }
        return template.replacing("$value", with: value).replacing("$kind", with: kind)
    }

    /// The UTF-8 offset of the value inside the rendered display, when the display shows it once.
    func valueOffsetInDisplay(kind: String) -> Int? {
        guard let display else { return 0 }
        guard let range = display.firstRange(of: "$value") else { return nil }
        let before = Self.render(String(display[..<range.lowerBound]), value: "", kind: kind)
        return before.utf8.count
    }
}
