import Suggest
import SuggestWire
import Testing

/// One field's typing state over an engine, answering `suggest batch` lines.
struct BatchProcessorTests {
    static func makeProcessor() -> BatchProcessor {
        let recents = RecentsProvider()
        let fruits = StaticProvider(items: [.init(title: "Apple"), .init(title: "Apricot")])
        return BatchProcessor(engine: SuggestionEngine(slots: [ProviderSlot(recents), ProviderSlot(fruits)]))
    }

    func answers(_ lines: [String], waiting: Bool) async -> [String] {
        var processor = Self.makeProcessor()
        var answers: [String] = []
        var out = JSONBytes()
        for line in lines {
            out.reset()
            if waiting {
                await processor.answer(Array(line.utf8), into: &out)
            } else {
                processor.answerWithoutWaiting(Array(line.utf8), into: &out)
            }
            answers.append(out.bytes.string)
        }
        return answers
    }

    @Test func everyLineGetsOneAnswerInOrder() async throws {
        let lines = [#"{"text":"ap"}"#, #"{"select":"Apricot"}"#, #"{"submit":"apricot"}"#, "{", #"{"reset":true}"#]
        let answers = await answers(lines, waiting: true)
        #expect(answers.count == 5)
        #expect(answers[0].hasPrefix(#"{"text":"ap","micros":"#))
        #expect(answers[1] == #"{"selected":"Apricot"}"#)
        #expect(answers[2] == #"{"submitted":"apricot"}"#)
        #expect(answers[3] == #"{"error":"malformed JSON at column 2: expected a string key, found end of input"}"#)
        #expect(answers[4] == #"{"reset":true}"#)
    }

    @Test func withOnlyLocalProvidersWaitingOrNotGivesTheSameAnswers() async throws {
        let lines = [#"{"text":"a"}"#, #"{"text":"ap"}"#, #"{"submit":"apple"}"#, #"{"text":"a"}"#]
        func withoutTime(_ answer: String) throws -> JSONValue {
            guard case .object(var object) = try JSONParser.parse(answer) else { return .null }
            object["micros"] = nil
            return .object(object)
        }
        let waited = try await answers(lines, waiting: true).map(withoutTime)
        let notWaited = try await answers(lines, waiting: false).map(withoutTime)
        #expect(waited == notWaited)
    }
}
