extension KeyedDecodingContainer {
    /// Decodes the integer at `key`, if present, and checks that it lies in `range`.
    ///
    /// A number that is not a whole number, or lies outside `range` (including numbers beyond the integer type,
    /// such as `1e19`), is a ``ConfigurationError`` at the key's JSON path that states the range:
    /// `providers[0].capacity: expected an integer from 1 to 100000, found number 1e+19`. Never traps.
    /// - Throws: ``ConfigurationError``.
    public func decodeIfPresent<I: FixedWidthInteger & Decodable & Sendable>(
        _ type: I.Type,
        forKey key: Key,
        in range: ClosedRange<I>
    ) throws -> I? {
        guard let value = try decodeIfPresent(JSONValue.self, forKey: key), value != .null else { return nil }
        if case .number(let n) = value, let i = I(exactly: n), range.contains(i) { return i }
        throw ConfigurationError(
            path: JSONPath.string(codingPath + [key]),
            message: "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(value.kindDescription)"
        )
    }

    /// Decodes the number at `key`, if present, and checks that it is finite and lies in `range`.
    /// - Throws: ``ConfigurationError`` at the key's JSON path, stating the range.
    public func decodeIfPresent(_ type: Double.Type, forKey key: Key, in range: ClosedRange<Double>) throws -> Double? {
        guard let value = try decodeIfPresent(JSONValue.self, forKey: key), value != .null else { return nil }
        if case .number(let n) = value, n.isFinite, range.contains(n) { return n }
        throw ConfigurationError(
            path: JSONPath.string(codingPath + [key]),
            message: "expected a number from \(NumberText.text(range.lowerBound)) to \(NumberText.text(range.upperBound)), "
                + "found \(value.kindDescription)"
        )
    }
}

/// Numbers as a person writes them in a configuration: `100000`, `0.5`, `1e+15`.
enum NumberText {
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
