/// Decodes `Decodable` values from a ``JSONValue`` strictly: a value of the wrong type is an error naming its JSON
/// path, and ``unknownKeys()`` lists the object keys that no decoder asked for (misspellings), each with the nearest
/// key that was asked for.
///
/// Provider configurations are plain `Decodable` structs; read every key with `decodeIfPresent(...) ?? default`
/// (or `decode` for required ones) so that the strict check knows it.
public final class JSONValueDecoder {
    // Not Sendable: a decoder records the keys it was asked for while one configuration is read.
    /// For each object decoded through a keyed container: its path, its keys, and the keys asked for.
    final class Ledger {
        struct Entry {
            var path: String
            var keys: [String]
            var requested: Set<String>
        }
        var entries: [String: Entry] = [:]
        var order: [String] = []

        func open(_ path: String, keys: [String]) {
            if entries[path] == nil {
                entries[path] = Entry(path: path, keys: keys, requested: [])
                order.append(path)
            }
        }

        func request(_ key: String, at path: String) {
            entries[path]?.requested.insert(key)
        }
    }

    let ledger = Ledger()
    let pathPrefix: [any CodingKey]

    /// - Parameter pathPrefix: the JSON path of the value in its document (`providers[1]`), used in errors.
    public init(pathPrefix: [any CodingKey] = []) {
        self.pathPrefix = pathPrefix
    }

    /// Decodes `type` from `value`.
    /// - Throws: ``ConfigurationError`` naming the JSON path.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(ConfigurationError) -> T {
        do {
            return try T(from: ValueDecoder(value: value, codingPath: pathPrefix, ledger: ledger))
        } catch let error as ConfigurationError {
            throw error
        } catch let error as DecodingError {
            throw Self.configurationError(error)
        } catch {
            throw ConfigurationError(path: JSONPath.string(pathPrefix), message: "\(error)")
        }
    }

    /// Marks `key` of the object at `path` as known (keys the caller reads itself, like `type`).
    public func markKnown(_ keys: [String], at path: [any CodingKey]) {
        for key in keys { ledger.request(key, at: JSONPath.string(path)) }
    }

    /// Registers an object so that its keys are checked even if no container opened it.
    func open(_ object: JSONObject, at path: [any CodingKey]) {
        ledger.open(JSONPath.string(path), keys: object.keys)
    }

    /// Keys present in decoded objects that no decoder asked for, with the nearest known key.
    public func unknownKeys() -> [ConfigurationError] {
        var errors: [ConfigurationError] = []
        for path in ledger.order {
            guard let entry = ledger.entries[path] else { continue }
            for key in entry.keys where !entry.requested.contains(key) {
                var message = "unknown key \"\(key)\""
                if let nearest = NearestName.nearest(to: key, in: entry.requested.sorted()) {
                    message += " — did you mean \"\(nearest)\"?"
                } else if !entry.requested.isEmpty {
                    message += " (known keys: \(entry.requested.sorted().joined(separator: ", ")))"
                }
                errors.append(ConfigurationError(path: path, message: message))
            }
        }
        return errors
    }

    /// The keys of the object at `path` that no decoder asked for and that look like misspellings of one of `names`
    /// (of the keys asked for there when nil), each with the name it is nearest to. For an object whose decoding
    /// stopped at an error: its keys after that point were never asked for, so only a likely misspelling can be
    /// called unknown.
    func misspeltKeys(at path: String, of names: [String]? = nil) -> [ConfigurationError] {
        guard let entry = ledger.entries[path] else { return [] }
        let candidates = names ?? entry.requested.sorted()
        var errors: [ConfigurationError] = []
        for key in entry.keys where !entry.requested.contains(key) {
            guard let nearest = NearestName.nearest(to: key, in: candidates) else { continue }
            let message = "unknown key \"\(key)\" — did you mean \"\(nearest)\"?"
            errors.append(ConfigurationError(path: path, message: message))
        }
        return errors
    }

    static func configurationError(_ error: DecodingError) -> ConfigurationError {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return ConfigurationError(path: JSONPath.string(context.codingPath), message: context.debugDescription)
        case .keyNotFound(let key, let context):
            var error = ConfigurationError(
                path: JSONPath.string(context.codingPath),
                message: "missing required key \"\(key.stringValue)\""
            )
            error.missingKey = key.stringValue
            return error
        @unknown default:
            return ConfigurationError(message: "\(error)")
        }
    }
}

/// A coding key for JSON paths.
struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
    init(_ string: String) { self.stringValue = string }
    init(_ index: Int) { self.init(intValue: index) }
}

struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let ledger: JSONValueDecoder.Ledger
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var path: String { JSONPath.string(codingPath) }

    func mismatch(_ expected: String) -> ConfigurationError {
        ConfigurationError(path: path, message: "expected \(expected), found \(value.kindDescription)")
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch("an object") }
        ledger.open(path, keys: object.keys)
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else { throw mismatch("an array") }
        return UnkeyedContainer(array: array, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleContainer(decoder: self) }

    func child(_ value: JSONValue, _ key: any CodingKey) -> ValueDecoder {
        ValueDecoder(value: value, codingPath: codingPath + [key], ledger: ledger)
    }

    func decodeScalar<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is JSONValue.Type:
            return value as! T
        case is String.Type:
            guard case .string(let s) = value else { throw mismatch("a string") }
            return s as! T
        case is Bool.Type:
            guard case .bool(let b) = value else { throw mismatch("true or false") }
            return b as! T
        case is Double.Type:
            guard case .number(let n) = value, n.isFinite else { throw mismatch("a number") }
            return n as! T
        case is Float.Type:
            guard case .number(let n) = value, Float(n).isFinite else { throw mismatch("a number within Float's range") }
            return Float(n) as! T
        case is Int.Type:
            return try integer(Int.self) as! T
        case is Int64.Type:
            return try integer(Int64.self) as! T
        case is Int32.Type:
            return try integer(Int32.self) as! T
        case is UInt.Type:
            return try integer(UInt.self) as! T
        case is UInt64.Type:
            return try integer(UInt64.self) as! T
        case is UInt32.Type:
            return try integer(UInt32.self) as! T
        default:
            return try T(from: self)
        }
    }

    /// Every integer read from a configuration goes through here: a number that is not whole, or beyond what `I`
    /// holds (`1e19` for `Int`), is an error at this path that states the range — never a trap.
    /// Keys with a narrower valid range read themselves with `decodeIfPresent(_:forKey:in:)`.
    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let n) = value, n.isFinite, n == n.rounded() else { throw mismatch("an integer") }
        guard let i = I(exactly: n) else { throw mismatch("an integer from \(I.min) to \(I.max)") }
        return i
    }
}

struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let decoder: ValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        decoder.ledger.request(key.stringValue, at: decoder.path)
        return object[key.stringValue] != nil
    }

    func child(_ key: Key) throws -> ValueDecoder {
        decoder.ledger.request(key.stringValue, at: decoder.path)
        guard let value = object[key.stringValue] else {
            throw ConfigurationError(path: decoder.path, message: "missing required key \"\(key.stringValue)\"")
        }
        return decoder.child(value, key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.ledger.request(key.stringValue, at: decoder.path)
        return object[key.stringValue] == nil || object[key.stringValue] == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try child(key).decodeScalar(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

struct UnkeyedContainer: UnkeyedDecodingContainer {
    let array: [JSONValue]
    let decoder: ValueDecoder
    var currentIndex = 0

    init(array: [JSONValue], decoder: ValueDecoder) {
        self.array = array
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else {
            throw ConfigurationError(path: decoder.path, message: "expected more elements in the array")
        }
        defer { currentIndex += 1 }
        return decoder.child(array[currentIndex], JSONKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return true }
        if array[currentIndex] == .null {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeScalar(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

struct SingleContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeScalar(type) }
}

@available(*, unavailable)
extension JSONValueDecoder: Sendable {}
