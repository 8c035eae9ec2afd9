/// A search scope, like the segmented control under a SwiftUI `.searchable` field ("All", "Fruits", "Recipes").
///
/// A scope is a name. Providers that know scopes (a dictionary's third column) filter by it; the others ignore it.
public struct SearchScope: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The scope's name, compared exactly.
    public var name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral value: String) { self.name = value }

    public init(from decoder: any Decoder) throws {
        self.name = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    public var description: String { name }
}
