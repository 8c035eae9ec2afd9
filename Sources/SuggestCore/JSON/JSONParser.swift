/// A strict JSON parser (RFC 8259) whose errors say where: line, column and what was expected.
///
/// Used for configuration files and for every line of `suggest batch`. Rejects duplicate keys, trailing commas,
/// comments, invalid UTF-8 and nesting deeper than 512.
public struct JSONParser: Sendable {
    /// A syntax error at a 1-based line and column.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var message: String
        public var description: String { "\(line):\(column): \(message)" }
    }

    private let bytes: [UInt8]
    private var i = 0
    /// Where the text starts (after a skipped byte order mark): line 1, column 1.
    private var textStart = 0
    private var depth = 0

    /// Parses one JSON document from `bytes`.
    /// - Throws: ``SyntaxError`` naming the line and column.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        try parse(bytes, skippingByteOrderMark: false)
    }

    /// Parses one JSON document from the bytes of a file, which may start with a UTF-8 byte order mark (skipped:
    /// it is not part of the JSON); errors count lines and columns from after it and byte offsets in the file.
    /// - Throws: ``SyntaxError`` naming the line and column.
    public static func parse(_ bytes: [UInt8], skippingByteOrderMark: Bool) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        if skippingByteOrderMark && bytes.starts(with: byteOrderMark) {
            parser.i = byteOrderMark.count
            parser.textStart = byteOrderMark.count
        }
        if let bad = UTF8Scalars.firstInvalid(bytes[parser.textStart...]) {
            throw parser.error("invalid UTF-8 at byte \(bad)", at: bad)
        }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.i < bytes.count { throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value") }
        return value
    }

    /// Parses one JSON document from `text`.
    public static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// The UTF-8 byte order mark, which a file may start with (``EngineConfiguration`` skips it).
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The offset of the first byte that is not valid UTF-8, if any.
    public static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? { UTF8Scalars.firstInvalid(bytes) }

    // MARK: Grammar

    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        guard i < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONValue {
        try enter()
        i += 1
        var object = JSONObject()
        skipWhitespace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
            i += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw error(
                    i < bytes.count && bytes[i] == UInt8(ascii: "}")
                        ? "trailing comma before '}'" : "expected a string key, found \(describeCurrent())"
                )
            }
            let keyStart = i
            let key = try parseString()
            if object[key] != nil { throw error("duplicate key \"\(key)\"", at: keyStart) }
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                throw error("expected ':' after key \"\(key)\", found \(describeCurrent())")
            }
            i += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input, expected ',' or '}'") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; break }
            throw error("expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent())")
        }
        depth -= 1
        return .object(object)
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONValue {
        try enter()
        i += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            array.append(try parseValue())
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input, expected ',' or ']'") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw error("expected ',' or ']' after an array element, found \(describeCurrent())")
        }
        depth -= 1
        return .array(array)
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        let start = i
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; break }
            if b < 0x20 { throw error("control character U+\(hex(UInt32(b))) in a string (escape it)") }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw error("unterminated string", at: start) }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate \\u\(hex(scalar))")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate \\u\(hex(scalar))") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("unpaired surrogate \\u\(hex(scalar))")
                }
                out.append(contentsOf: Array(String(Unicode.Scalar(scalar)!).utf8))
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: i - 2)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("expected 4 hex digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("expected a hex digit after \\u, found \(describeCurrent())")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else { throw error("expected a digit in number") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count && isDigit(bytes[i]) { throw error("leading zero in number", at: start) }
        } else {
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else { throw error("expected a digit after '.'") }
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { throw error("expected a digit in exponent") }
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number \(text) is out of range", at: start) }
        return value
    }

    private mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let expected = word.withUTF8Buffer { Array($0) }
        guard i + expected.count <= bytes.count, Array(bytes[i..<(i + expected.count)]) == expected else {
            throw error("unexpected \(describeCurrent()), expected a value")
        }
        i += expected.count
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > 512 { throw error("nesting deeper than 512 levels") }
    }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    private func describeCurrent() -> String {
        guard i < bytes.count else { return "end of input" }
        let b = bytes[i]
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if bytes[i...].starts(with: Self.byteOrderMark) { return "byte order mark (U+FEFF)" }
        return "byte 0x\(String(b, radix: 16))"
    }

    private func error(_ message: String, at offset: Int? = nil) -> SyntaxError {
        let at = min(offset ?? i, bytes.count)
        var line = 1
        var lineStart = min(textStart, at)
        for k in lineStart..<at where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        // Columns count characters, not bytes.
        let column = String(decoding: bytes[lineStart..<at], as: UTF8.self).count + 1
        return SyntaxError(line: line, column: column, message: message)
    }
}
