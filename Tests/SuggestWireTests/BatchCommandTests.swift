import Suggest
import SuggestWire
import Testing

/// `suggest batch` lines and `suggest serve` request bodies, read by one parser with one set of messages.
struct BatchCommandTests {
    @Test func aLineIsOneActionWithItsTokensAndScope() throws {
        let command = try BatchCommand.parse(
            Array(#"{"text":"pyt","tokens":[{"kind":"from","value":"alice"}],"scope":"docs"}"#.utf8))
        #expect(command.action == .text("pyt"))
        #expect(command.query == SearchQuery(
            text: "pyt", tokens: [SearchToken(kind: "from", value: "alice")], scope: SearchScope("docs")))
        #expect(try BatchCommand.parse(Array(#"{"submit":"python"}"#.utf8)).query.text == "python")
        #expect(try BatchCommand.parse(Array(#"{"reset":true}"#.utf8)).query == SearchQuery())
    }

    @Test(arguments: [
        ("", "empty line"),
        ("{", "malformed JSON at column 2: expected a string key, found end of input"),
        ("[1]", "expected a JSON object, found an array"),
        (#"{"txet":"a"}"#, #"unknown key "txet" — did you mean "text"?"#),
        (#"{"text":"a","submit":"b"}"#, #"give only one of "text", "submit" per line"#),
        (#"{"scope":1,"text":"a"}"#, "scope: expected a string"),
        (#"{"text":"a","tokens":[{"kind":"k","value":"v","dispaly":"x"}]}"#,
         #"tokens[0]: unknown key "dispaly" — did you mean "display"?"#),
    ])
    func aBadLineSaysWhatIsWrong(line: String, message: String) {
        #expect(throws: BatchCommand.Problem(message)) { try BatchCommand.parse(Array(line.utf8)) }
    }

    @Test func aBodyTakesItsActionFromTheEndpoint() throws {
        let body = Array(#"{"text":"python","scope":"docs"}"#.utf8)
        let command = try BatchCommand.parse(body: body) { .submit($0) }
        #expect(command == BatchCommand(action: .submit("python"), scope: SearchScope("docs")))
    }

    @Test(arguments: [
        ("{", "malformed JSON at column 2: expected a string key, found end of input"),
        ("true", "expected a JSON object, found true"),
        (#"{"text":"a","scopes":"x"}"#, #"unknown key "scopes" — did you mean "scope"?"#),
        (#"{"text":1}"#, "text: expected a string"),
        (#"{"text":"a","tokens":{}}"#, "tokens: expected an array"),
    ])
    func aBadBodySaysWhatIsWrongAsALineWould(body: String, message: String) {
        #expect(throws: BatchCommand.Problem(message)) {
            try BatchCommand.parse(body: Array(body.utf8)) { .select($0) }
        }
    }

    @Test func aTokensParameterIsReadWithTheSameReader() throws {
        #expect(try BatchCommand.tokens(json: Array(#"[{"kind":"k","value":"v"}]"#.utf8))
            == [SearchToken(kind: "k", value: "v")])
        #expect(throws: BatchCommand.Problem("tokens: malformed JSON at column 2: unexpected end of input, expected a value")) {
            try BatchCommand.tokens(json: Array("[".utf8))
        }
    }
}
