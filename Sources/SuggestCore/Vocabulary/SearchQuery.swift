/// What the person has typed so far: the field's text, the tokens already in it, and the selected scope.
public struct SearchQuery: Hashable, Sendable, Codable {
    /// The text in the search field (after any tokens).
    public var text: String
    /// Tokens already in the field, in order.
    public var tokens: [SearchToken]
    /// The selected scope, if the UI has scopes.
    public var scope: SearchScope?

    public init(text: String = "", tokens: [SearchToken] = [], scope: SearchScope? = nil) {
        self.text = text
        self.tokens = tokens
        self.scope = scope
    }

    /// True when there is no text and no token: the moment to show recent searches.
    public var isEmpty: Bool { text.isEmpty && tokens.isEmpty }
}

extension SearchQuery: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(text: value) }
}
