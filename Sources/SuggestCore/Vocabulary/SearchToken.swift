/// A structured piece of a search: what SwiftUI shows as a token "chip" in the search field.
///
/// Two tokens are the same token when their ``kind`` and ``value`` are equal; ``display`` and ``systemImage``
/// are presentation only and do not take part in equality.
public struct SearchToken: Hashable, Sendable, Codable, Identifiable, CustomStringConvertible {
    /// A token's identity: its kind and value (what SwiftUI's `searchable(text:tokens:)` needs to tell chips apart).
    public struct ID: Hashable, Sendable {
        public var kind: String
        public var value: String
    }

    /// The token's identity: equal for equal tokens, whatever their ``display``.
    public var id: ID { ID(kind: kind, value: value) }

    /// What the token means: `"ingredient"`, `"from"`, `"tag"`, or `"text"` for plain text turned into a token.
    public var kind: String
    /// The token's value: `"Chicken"`, `"alice"`.
    public var value: String
    /// The text the chip shows (`"From: alice"`); defaults to ``value``.
    public var display: String
    /// An SF Symbol name, if the token has an icon.
    public var systemImage: String?

    public init(kind: String, value: String, display: String? = nil, systemImage: String? = nil) {
        self.kind = kind
        self.value = value
        self.display = display ?? value
        self.systemImage = systemImage
    }

    public static func == (lhs: SearchToken, rhs: SearchToken) -> Bool {
        lhs.kind == rhs.kind && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(value)
    }

    private enum CodingKeys: String, CodingKey { case kind, value, display, systemImage }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        let value = try c.decode(String.self, forKey: .value)
        self.init(
            kind: kind,
            value: value,
            display: try c.decodeIfPresent(String.self, forKey: .display),
            systemImage: try c.decodeIfPresent(String.self, forKey: .systemImage)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(value, forKey: .value)
        try c.encode(display, forKey: .display)
        try c.encodeIfPresent(systemImage, forKey: .systemImage)
    }

    public var description: String { "\(kind):\(value)" }
}
