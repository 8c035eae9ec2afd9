import Testing

import SuggestCore

/// The JSON byte writer against scalar-by-scalar escaping.
struct JSONBytesTests {
    /// The escaping `JSONWriter.quoted` did before answers were built as bytes (one scalar at a time).
    static func reference(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    @Test func quotedStringsAreEscapedAsBefore() {
        // Control characters, quotes, backslashes, the line separators and their neighbours (U+2027, U+202A share
        // the lead bytes E2 80), other E2 characters (€, …), two- and four-byte scalars.
        let pieces: [String] = [
            "a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "é", "€", "…", "\u{2027}",
            "\u{2028}", "\u{2029}", "\u{202A}", "😀", "東", "\u{E2}",
        ]
        var rng = SystemRandomNumberGenerator()
        var texts = pieces + ["", String(repeating: "x", count: 300)]
        for _ in 0..<3_000 {
            texts.append((0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
        }
        for text in texts {
            #expect(JSONWriter.quoted(text) == Self.reference(text), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func integersAndNumbersAreWrittenAsBefore() {
        for value in [0, 1, 9, 10, 99, 100, 12_345, -1, -10, -987_654_321, Int.max, Int.min] {
            #expect(JSONBytes.string { $0.integer(value) } == String(value))
        }
        #expect(JSONBytes.string { $0.integer(UInt64.max) } == String(UInt64.max))
        for value in [0.0, 1, -1, 7_080_000, 0.5, 12.3, -0.25, 1e15, 1e16, 1e-7, .infinity, -.infinity, .nan] {
            #expect(JSONBytes.string { $0.number(value) } == JSONWriter.number(value))
        }
    }

    @Test func aBufferGrowsPastItsCapacity() {
        var out = JSONBytes(capacity: 16)
        for i in 0..<1_000 { out.integer(i % 10) }
        #expect(out.bytes.count == 1_000)
        out.reset()
        out.raw("{\"reset\":true}")
        #expect(out.bytes.string == #"{"reset":true}"#)
    }
}
