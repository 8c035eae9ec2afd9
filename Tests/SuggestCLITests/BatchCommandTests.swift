import Foundation
import Testing
import SuggestTestSupport

struct BatchCommandTests {
    let config = CLIRunner.fixture("fruits.suggest.json")

    @Test func answersEveryLineWithTheContractFields() throws {
        let output = try CLIRunner.run(
            ["batch", "--config", config],
            lines: [
                #"{"text":"a"}"#, #"{"text":"ap"}"#, #"{"submit":"apple"}"#, #"{"select":"apple"}"#,
                #"{"reset":true}"#, #"{"text":"chi"}"#,
            ]
        )
        #expect(output.status == 0)
        let lines = output.lines
        #expect(lines.count == 6)
        let first = try CLIRunner.json(lines[0])
        for key in ["text", "micros", "remaining", "tokens", "suggestions", "suggestedTokens"] {
            #expect(first[key] != nil, "missing \(key)")
        }
        #expect(first["text"] as? String == "a")
        #expect(first["remaining"] as? String == "a")
        let suggestions = try #require(first["suggestions"] as? [[String: Any]])
        #expect(suggestions.map { $0["text"] as? String } == ["apple", "Apricot", "Green Apple"])
        #expect(suggestions[0]["provider"] as? String == "fruits")
        #expect(suggestions[0]["section"] as? String == "Suggestions")
        #expect(suggestions[0]["score"] as? Double == 50)
        #expect((first["micros"] as? Double ?? -1) >= 0)
        #expect(lines[2] == #"{"submitted":"apple"}"#)
        #expect(lines[3] == #"{"selected":"apple"}"#)
        #expect(lines[4] == #"{"reset":true}"#)
        let token = try #require((try CLIRunner.json(lines[5])["suggestions"] as? [[String: Any]])?.first)
        #expect(token["text"] as? String == "Chicken")
        #expect((token["token"] as? [String: String]) == ["kind": "ingredient", "value": "Chicken", "display": "Chicken"])
    }

    @Test func diagnosticsListEachProvidersTime() throws {
        let output = try CLIRunner.run(["batch", "--diagnostics", "--config", config], lines: [#"{"text":"a"}"#])
        #expect(output.status == 0)
        let answer = try CLIRunner.json(try #require(output.lines.first))
        let timings = try #require(answer["timings"] as? [String: Double])
        #expect(timings["fruits"] != nil)
        #expect(timings.values.allSatisfy { $0 >= 0 })
        let plain = try CLIRunner.run(["batch", "--config", config], lines: [#"{"text":"a"}"#])
        #expect(try CLIRunner.json(try #require(plain.lines.first))["timings"] == nil)
    }

    @Test func aMalformedLineGetsAnErrorAndTheStreamGoesOn() throws {
        var input = Data()
        input.append(Data(#"{"text":"ap""#.utf8))
        input.append(0x0A)
        input.append(contentsOf: [0x7B, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D, 0x0A])  // {"text":"\xFF"}
        for line in [#"[1,2]"#, #"{"txt":"a"}"#, #"{"text":5}"#, #"{"text":"a","submit":"b"}"#, #"{"reset":false}"#, #"{"text":"ba"}"#] {
            input.append(Data((line + "\n").utf8))
        }
        let output = try CLIRunner.run(["batch", "--config", config], stdin: input)
        #expect(output.status == 0)
        let lines = output.lines
        #expect(lines.count == 8)
        #expect(lines[0] == #"{"error":"malformed JSON at column 13: unexpected end of input, expected ',' or '}'"}"#)
        #expect(lines[1] == #"{"error":"malformed JSON at column 10: invalid UTF-8 at byte 9"}"#)
        #expect(lines[2] == #"{"error":"expected a JSON object, found an array"}"#)
        #expect(lines[3] == #"{"error":"unknown key \"txt\" — did you mean \"text\"?"}"#)
        #expect(lines[4] == #"{"error":"text: expected a string, found number 5"}"#)
        #expect(lines[5] == #"{"error":"give only one of \"text\", \"submit\" per line"}"#)
        #expect(lines[6] == #"{"error":"reset: expected true"}"#)
        #expect(try CLIRunner.json(lines[7])["text"] as? String == "ba")
    }

    /// `"composing"`: text an input method is still composing after `text`. The answer is for the committed text
    /// (asynchronous providers are not asked), says what is being composed, and leaves the field as it is.
    @Test func aKeystrokeWithTextBeingComposedIsAnsweredForTheCommittedText() throws {
        let output = try CLIRunner.run(
            ["batch", "--config", config],
            lines: [
                #"{"text":"ap","composing":"r"}"#, #"{"text":"apr"}"#, #"{"text":"","composing":"あ"}"#,
                #"{"text":"ap","composing":""}"#, #"{"submit":"apple","composing":"r"}"#,
                #"{"text":"ap","composing":7}"#, #"{"text":"ap","composin":"r"}"#,
            ]
        )
        #expect(output.status == 0)
        let lines = output.lines
        #expect(lines.count == 7)
        let composing = try CLIRunner.json(lines[0])
        #expect(composing["text"] as? String == "ap")
        #expect(composing["composing"] as? String == "r")
        #expect(composing["remaining"] as? String == "apr")  // the field as it is: committed and composed text
        let titles = (composing["suggestions"] as? [[String: Any]])?.map { $0["text"] as? String }
        #expect(titles == ["apple", "Apricot", "Green Apple"])  // for "ap", not "apr"
        let committed = try CLIRunner.json(lines[1])
        #expect(committed["composing"] == nil)
        #expect((committed["suggestions"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Apricot"])
        let allComposed = try CLIRunner.json(lines[2])
        #expect(allComposed["composing"] as? String == "あ")
        #expect(allComposed["remaining"] as? String == "あ")
        #expect((allComposed["suggestions"] as? [[String: Any]])?.count == 2)  // the empty field's suggestions
        #expect(try CLIRunner.json(lines[3])["composing"] == nil)  // nothing is being composed
        #expect(lines[4] == #"{"error":"composing: only with \"text\" (a keystroke)"}"#)
        #expect(lines[5] == #"{"error":"composing: expected a string, found number 7"}"#)
        #expect(lines[6] == #"{"error":"unknown key \"composin\" — did you mean \"composing\"?"}"#)
    }

    @Test func flushesEachAnswerBeforeTheNextLineArrives() throws {
        let batch = try BatchProcess(config: config)
        let first = try #require(try batch.send(#"{"text":"b"}"#))
        #expect(first.contains(#""text":"Banana""#))
        let second = try #require(try batch.send(#"{"text":"ba"}"#))
        #expect(second.contains(#""text":"ba""#))
        #expect(batch.close() == 0)
    }

    @Test func truncatesAHugeQueryAndSaysSo() throws {
        let huge = String(repeating: "a", count: 1 << 20)
        let output = try CLIRunner.run(["batch", "--config", config], lines: [#"{"text":"\#(huge)"}"#])
        #expect(output.status == 0)
        let answer = try CLIRunner.json(try #require(output.lines.first))
        #expect((answer["remaining"] as? String)?.utf8.count == 1024)
        #expect((answer["notes"] as? [String])?.first == "query text truncated from 1048576 to 1024 UTF-8 bytes")
    }

    /// Standard input that cannot be read (a folder) is an error, not an end of input that looks like success.
    @Test func standardInputThatCannotBeReadIsAnError() throws {
        let store = TestFolders.unique("suggest-popular-", ".json")
        for arguments in [["batch", "--config", config], ["popular", "record", "--store", store]] {
            let folder = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/"))
            let output = try CLIRunner.run(arguments, stdinFile: folder)
            #expect(output.status == 1, "\(arguments[0]): \(output.stderr)")
            #expect(output.stderr.contains("error: cannot read standard input: Is a directory"), "\(output.stderr)")
        }
    }

    @Test func anInvalidConfigurationExitsWithOneAndListsTheErrors() throws {
        let output = try CLIRunner.run(["batch", "--config", CLIRunner.fixture("broken.json")], lines: [])
        #expect(output.status == 1)
        #expect(output.stderr.contains(#"unknown provider type "statik""#))
        // Only the errors: no stray "Error: configuration" line after them.
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0.hasPrefix("error: ") }, "\(output.stderr)")
    }

    @Test func blankLinesAreAnsweredToo() throws {
        let output = try CLIRunner.run(
            ["batch", "--config", config], lines: [#"{"text":"a"}"#, "", "   ", "\t\r", #"{"reset":true}"#]
        )
        #expect(output.status == 0)
        #expect(output.lines.count == 5)
        #expect(Array(output.lines[1...3]) == Array(repeating: #"{"error":"empty line"}"#, count: 3))
        #expect(output.lines[4] == #"{"reset":true}"#)
    }

    @Test func answersEscapeQuotesBackslashesControlCharactersAndLineSeparators() throws {
        let text = #"a\"b\\c\n\r\t\u0001\u001f\u2028\u2029é€😀 \u007f"#
        let output = try CLIRunner.run(["batch", "--config", config], lines: [#"{"submit":"\#(text)"}"#])
        #expect(output.lines == [#"{"submitted":"a\"b\\c\n\r\t\u0001\u001f\u2028\u2029é€😀 \#u{7F}"}"#])
    }

    @Test func aLastLineWithoutNewlineIsAnsweredAndLongLinesCrossReadBlocks() throws {
        // Lines longer than the 64 KB read block, and a last line with no newline.
        let long = String(repeating: "x", count: 150_000)
        var input = Data((#"{"submit":"\#(long)"}"# + "\n").utf8)
        input.append(Data(#"{"reset":true}"#.utf8))
        let output = try CLIRunner.run(["batch", "--config", config], stdin: input)
        #expect(output.status == 0)
        #expect(output.lines == [#"{"submitted":"\#(long)"}"#, #"{"reset":true}"#])
    }

    @Test func tokensWithUnknownKeysOrNonStringFieldsAreErrors() throws {
        let output = try CLIRunner.run(
            ["batch", "--config", config],
            lines: [
                #"{"text":"a","tokens":[{"kind":"k","value":"v","dispaly":"V"}]}"#,
                #"{"text":"a","tokens":[{"kind":"k","value":"v","display":5}]}"#,
                #"{"text":"a","tokens":[{"kind":"k","value":"v","systemImage":["x"]}]}"#,
                #"{"text":"a","tokens":[{"kind":"k","value":"v","display":"V","systemImage":"tag"}]}"#,
                #"{"submit":"x","tokens":[{"kind":"","value":"v"}]}"#,
            ]
        )
        #expect(output.lines.count == 5)
        #expect(output.lines[4] == #"{"error":"tokens[0].kind: expected a non-empty string"}"#)
        #expect(output.lines[0] == #"{"error":"tokens[0]: unknown key \"dispaly\" — did you mean \"display\"?"}"#)
        #expect(output.lines[1] == #"{"error":"tokens[0].display: expected a string, found number 5"}"#)
        #expect(output.lines[2] == #"{"error":"tokens[0].systemImage: expected a string, found an array"}"#)
        let tokens = try CLIRunner.json(output.lines[3])["tokens"] as? [[String: String]]
        #expect(tokens == [["kind": "k", "value": "v", "display": "V", "systemImage": "tag"]])
    }

    /// Runs `suggest batch` through the shell, so that standard output can be `/dev/full` or closed.
    func runInShell(_ redirection: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"printf '{"text":"a"}\n{"text":"b"}\n' | "$0" batch --config "$1" \#(redirection)"#,
            CLIRunner.executable.path, config,
        ]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func anAnswerThatCannotBeWrittenStopsWithAnError() throws {
        let full = try runInShell(">/dev/full")
        #expect(full.status == 1)
        #expect(full.stderr == "error: cannot write to standard output: No space left on device\n")
        let closed = try runInShell(">&-")
        #expect(closed.status == 1)
        #expect(closed.stderr == "error: cannot write to standard output: Bad file descriptor\n")
    }

    @Test func aConfigurationStartingWithAByteOrderMarkIsRead() throws {
        let folder = TestFolders.unique("suggest-bom-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/bom.suggest.json"
        try Data([0xEF, 0xBB, 0xBF] + Array(#"{"version":1,"providers":[{"type":"static","items":[{"title":"Apple"}]}]}"#.utf8))
            .write(to: URL(fileURLWithPath: path))
        let validate = try CLIRunner.run(["validate", path])
        #expect(validate.status == 0, "\(validate.stderr)")
        let output = try CLIRunner.run(["batch", "--config", path], lines: [#"{"text":"ap"}"#])
        #expect(output.status == 0)
        #expect(output.lines.first?.contains(#""text":"Apple""#) == true)
    }
}
