/// A parsed JSON value. Objects keep their keys in document order.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short description of the value's kind and, for scalars, the value: `string "ten"`, `an array`.
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? "number \(Int(n))" : "number \(n)"
        case .string(let s): "string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .array: "an array"
        case .object: "an object"
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}

/// A JSON object: its members in document order.
public struct JSONObject: Hashable, Sendable {
    public private(set) var keys: [String] = []
    public private(set) var values: [String: JSONValue] = [:]

    public init() {}

    public init(_ members: KeyValuePairs<String, JSONValue>) {
        for (key, value) in members { self[key] = value }
    }

    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }

    public var count: Int { keys.count }
}

extension JSONValue: Decodable {
    /// Decodes any JSON value (``JSONValueDecoder`` hands the value over as it is).
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ValueDecoder {
            self = decoder.value
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            let members = try c.decode([String: JSONValue].self)
            var object = JSONObject()
            for key in members.keys.sorted() { object[key] = members[key] }
            self = .object(object)
        }
    }
}
