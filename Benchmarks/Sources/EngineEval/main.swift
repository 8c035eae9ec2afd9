// EngineEval: types `suggest batch` session files through an engine made from a configuration, in one thread and
// without Swift concurrency, so that `valgrind --tool=callgrind` can count the instructions the keystrokes take
// (the `suggest` command's asynchronous main does not run under valgrind).
//
//   EngineEval CONFIG.suggest.json SESSIONS.jsonl [SESSIONS.jsonl ...] [--repeat N] [--settle SECONDS]
//
// Lines: `{"text": ...}` (a keystroke), `{"submit": ...}`, `{"reset": true}`, as Benchmarks/Scripts/typing_sessions.py
// writes them. Prints the keystrokes typed, their total and median time, and a checksum of the suggestions' titles
// (the same for two builds that answer the same). Under callgrind, count only the keystrokes with
// `--toggle-collect='*EngineEval*keystroke*'`. `--settle SECONDS` waits that long after making the engine, before the
// first keystroke: a fuzzy provider over 100,000 keys or more makes its reversed keys on a background thread, and
// under valgrind (which runs one thread at a time, about 50 times slower) the keystrokes typed before they are there
// are answered by forward walks alone (the same answers, more instructions): 10 s is enough for 200k keys.
import Foundation
import Suggest

@inline(never)
func keystroke(_ engine: SuggestionEngine, _ text: String, _ session: inout TypingSession) -> SuggestionResult {
    engine.suggestions(for: SearchQuery(text: text), session: &session)
}

@main
struct EngineEval {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var repeats = 1
        if let i = arguments.firstIndex(of: "--repeat"), i + 1 < arguments.count {
            repeats = Int(arguments[i + 1]) ?? 1
            arguments.removeSubrange(i...(i + 1))
        }
        var settle = 0.0
        if let i = arguments.firstIndex(of: "--settle"), i + 1 < arguments.count {
            settle = Double(arguments[i + 1]) ?? 0
            arguments.removeSubrange(i...(i + 1))
        }
        guard arguments.count >= 2 else {
            print("usage: EngineEval CONFIG SESSIONS.jsonl [SESSIONS.jsonl ...] [--repeat N] [--settle SECONDS]")
            return
        }
        let configuration = try EngineConfiguration(contentsOf: arguments[0], registry: .builtIn)
        let engine = configuration.makeEngine()
        if settle > 0 { Thread.sleep(forTimeInterval: settle) }
        var steps: [(kind: Int, text: String)] = []
        for file in arguments.dropFirst() {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            for line in data.split(separator: UInt8(ascii: "\n")) {
                guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { continue }
                if let text = object["text"] as? String {
                    steps.append((0, text))
                } else if let text = object["submit"] as? String {
                    steps.append((1, text))
                } else if object["reset"] != nil {
                    steps.append((2, ""))
                }
            }
        }
        let clock = ContinuousClock()
        var times: [Double] = []
        var checksum: UInt64 = 0xcbf2_9ce4_8422_2325
        for _ in 0..<repeats {
            var session = TypingSession()
            for step in steps {
                switch step.kind {
                case 0:
                    let start = clock.now
                    let result = keystroke(engine, step.text, &session)
                    let elapsed = clock.now - start
                    times.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
                    for suggestion in result.suggestions {
                        for byte in suggestion.title.utf8 { checksum = (checksum ^ UInt64(byte)) &* 0x100_0000_01b3 }
                    }
                case 1:
                    engine.submit(SearchQuery(text: step.text))
                default:
                    session = TypingSession()
                }
            }
        }
        times.sort()
        let total = times.reduce(0, +)
        print(
            "\(times.count) keystrokes, total \(Int(total / 1000)) ms, p50 \(times[times.count / 2]) µs, "
                + "p99 \(times[times.count * 99 / 100]) µs, titles \(String(checksum, radix: 16))")
    }
}
