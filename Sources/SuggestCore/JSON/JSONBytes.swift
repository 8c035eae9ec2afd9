// The one JSON writer of the package; the one reader is `JSONParser`.

/// The one JSON writer: JSON text built by hand, fast, keys in the order written, no Foundation bridging. The
/// `String` functions are for one-off values; a stream of answers is built with ``JSONBytes`` into one reused buffer.
/// The wire formats (SuggestWire) add their answers to it.
public enum JSONWriter: Sendable {
    public static func quoted(_ s: String) -> String { JSONBytes.string { $0.quoted(s) } }

    /// A JSON number. JSON has no infinity: an infinite value prints as the largest finite one of its sign (so a
    /// huge score stays the largest, never 0); NaN prints as `null`.
    public static func number(_ value: Double) -> String {
        if value.isNaN { return "null" }
        if value.isInfinite {
            return value > 0 ? "\(Double.greatestFiniteMagnitude)" : "\(-Double.greatestFiniteMagnitude)"
        }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Rounds to one decimal (for microseconds).
    public static func micros(_ value: Double) -> String { number((value * 10).rounded() / 10) }

}

/// JSON text written straight into a byte buffer, escaping included; reuse one (``reset()``) to build line after
/// line without allocating.
public struct JSONBytes: ~Copyable, Sendable {
    public var bytes: WireBuffer

    public init(capacity: Int = 4096) { bytes = WireBuffer(capacity: capacity) }

    /// Builds a `String` with `body` (for the one-off ``JSONWriter`` functions).
    public static func string(_ body: (inout JSONBytes) -> Void) -> String {
        var out = JSONBytes(capacity: 64)
        body(&out)
        return out.bytes.string
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func reset() { bytes.removeAll() }

    /// Appends a literal as it is (no escaping): punctuation and keys. (A `String` overload would win for literals
    /// and append byte by byte: text that is not a literal goes through ``append(_:)``.)
    @inlinable
    public mutating func raw(_ text: StaticString) {
        if text.hasPointerRepresentation {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        } else {
            append(String(text.unicodeScalar))
        }
    }

    /// Appends `text` as it is (no escaping).
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    @inlinable
    public mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    /// A JSON string: `"`, `\`, the control characters and U+2028/U+2029 (which end a line in JavaScript) escaped.
    public mutating func quoted(_ s: String) {
        bytes.append(0x22)
        // Native strings (all of ours) give their bytes without a copy; `var s = s; s.withUTF8` would retain.
        if s.utf8.withContiguousStorageIfAvailable({ escape($0) }) == nil {
            var s = s
            s.withUTF8 { escape($0) }
        }
        bytes.append(0x22)
    }

    /// Appends `utf8` with the JSON escapes (for ``quoted(_:)``).
    private mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
        // Copies runs of plain bytes at once; stops at the bytes that need an escape (and at 0xE2, the lead
        // byte of U+2028 and U+2029).
        var run = 0
        var i = 0
        let count = utf8.count
        while i < count {
            let b = utf8[i]
            if b >= 0x20 && b != 0x22 && b != 0x5C && b != 0xE2 {
                i += 1
                continue
            }
            if b == 0xE2, i + 2 < count, utf8[i + 1] == 0x80, utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9 {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
                raw(utf8[i + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                i += 3
                run = i
                continue
            }
            if b == 0xE2 {
                i += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
            switch b {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            default:
                // A control character: \u00XX, lowercase hex.
                let low = b & 0x0F
                raw("\\u00")
                bytes.append(0x30 + (b >> 4))
                bytes.append(low < 10 ? 0x30 + low : 0x57 + low)
            }
            i += 1
            run = i
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<count]))
    }

    /// A JSON number, as ``JSONWriter/number(_:)`` writes it.
    public mutating func number(_ value: Double) {
        if value == value.rounded() && abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            append(JSONWriter.number(value))
        }
    }

    public mutating func integer(_ value: Int) { integer(Int64(value)) }

    public mutating func integer(_ value: UInt64) {
        if value <= UInt64(Int64.max) { integer(Int64(value)) } else { append(String(value)) }
    }

    /// Decimal digits written straight into the buffer (no `String`).
    public mutating func integer(_ value: Int64) {
        if value == .min { return append(String(value)) }
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        // At most 19 digits: written backwards into a fixed tuple, then appended in order.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var i = buffer.count
            repeat {
                i -= 1
                buffer[i] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[i...]))
        }
    }

    /// Rounds to one decimal (for microseconds).
    public mutating func micros(_ value: Double) { number((value * 10).rounded() / 10) }

    public mutating func strings(_ strings: [String]) {
        byte(0x5B)
        for (i, string) in strings.enumerated() {
            if i > 0 { byte(0x2C) }
            quoted(string)
        }
        byte(0x5D)
    }
}
