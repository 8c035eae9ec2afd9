import Testing

@testable import SuggestCore

struct JSONParserTests {
    @Test func parsesEveryKindOfValueKeepingKeyOrder() throws {
        let value = try JSONParser.parse(#"{"b": [1, 2.5, -3e2], "a": {"t": true, "f": false, "n": null}, "s": "é\u00e9\ud83d\ude00\n"}"#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys == ["b", "a", "s"])
        #expect(object["b"] == .array([.number(1), .number(2.5), .number(-300)]))
        #expect(object["s"] == .string("éé😀\n"))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "trailing comma before '}'"),
        ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}' after the value of \"a\", found '\"'"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\""),
        ("[1, 2", 1, 6, "unexpected end of input, expected ',' or ']'"),
        ("{\"a\": tru}", 1, 7, "unexpected 't', expected a value"),
        ("\"\\ud800\"", 1, 8, "unpaired surrogate \\uD800"),
        ("01", 1, 1, "leading zero in number"),
        ("{} x", 1, 4, "unexpected 'x' after the JSON value"),
    ])
    func errorsSayLineColumnAndWhat(text: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONParser.SyntaxError(line: line, column: column, message: message)) {
            try JSONParser.parse(text)
        }
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        #expect(throws: JSONParser.SyntaxError.self) {
            try JSONParser.parse(String(repeating: "[", count: 600) + String(repeating: "]", count: 600))
        }
    }

    @Test func aByteOrderMarkIsNamedAsSuch() {
        do {
            _ = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8))
            Issue.record("parsed a document starting with a byte order mark")
        } catch {
            #expect(error.description == "1:1: unexpected byte order mark (U+FEFF), expected a value")
        }
    }

    /// A file's byte order mark is skipped once: lines and columns count from after it, byte offsets in the file.
    @Test func aFilesByteOrderMarkIsSkippedOnce() throws {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try JSONParser.parse(mark + Array("[1]".utf8), skippingByteOrderMark: true) == .array([.number(1)]))
        #expect(throws: JSONParser.SyntaxError(line: 1, column: 7, message: "invalid UTF-8 at byte 9")) {
            try JSONParser.parse(mark + Array(#"{"a":""#.utf8) + [0xFF, 0x22, 0x7D], skippingByteOrderMark: true)
        }
        #expect(throws: JSONParser.SyntaxError(line: 2, column: 3, message: "unexpected end of input, expected a value")) {
            try JSONParser.parse(mark + Array("[1,\n  ".utf8), skippingByteOrderMark: true)
        }
        #expect(
            throws: JSONParser.SyntaxError(
                line: 1, column: 1, message: "unexpected byte order mark (U+FEFF), expected a value")
        ) {
            try JSONParser.parse(mark + mark + Array("{}".utf8), skippingByteOrderMark: true)
        }
    }
}
