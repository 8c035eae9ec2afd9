import Suggest
import SuggestBench
import Testing

struct TypingScriptTests {
    let targets = BenchTargets([
        .init(name: "words", entries: [("python", 5), ("pandas", 3), ("numpy", 2), ("requests", 4), ("flask", 1)])
    ])

    /// The text each session submits and the last keystroke typed before it.
    func sessions(_ script: TypingScript) -> [(submitted: String, lastTyped: String, steps: [TypingStep])] {
        var out: [(String, String, [TypingStep])] = []
        var current: [TypingStep] = []
        for step in script.steps {
            switch step {
            case .keystroke: current.append(step)
            case .submit(let text):
                guard case .keystroke(let last, _) = current.last else {
                    Issue.record("a session without keystrokes")
                    return []
                }
                out.append((text, last, current))
            case .reset: current = []
            }
        }
        return out
    }

    @Test func theSameSeedTypesTheSameSessionsAndAnotherSeedOthers() {
        let options = TypingScript.Options(sessions: 200, typos: 0.3, seed: 42)
        let a = TypingScript(drawingFrom: targets, options: options)
        let b = TypingScript(drawingFrom: targets, options: options)
        var other = options
        other.seed = 43
        let c = TypingScript(drawingFrom: targets, options: other)
        #expect(a.steps == b.steps)
        #expect(a.steps != c.steps)
    }

    @Test func withoutTyposEverySessionTypesItsSearchLetterByLetterThenSubmitsAndResets() {
        let script = TypingScript(drawingFrom: targets, options: .init(sessions: 50, typos: 0, seed: 1))
        #expect(script.sessions == 50)
        #expect(script.misspelt == 0)
        let all = sessions(script)
        #expect(all.count == 50)
        for session in all {
            let expected = (1...session.submitted.count).map {
                TypingStep.keystroke(text: String(session.submitted.prefix($0)), backspace: false)
            }
            #expect(session.steps == expected)
        }
        #expect(script.steps.last == .reset)
    }

    @Test func misspeltSessionsTypeOneSlipAndCorrectedOnesBackspaceToItAndEndRight() throws {
        let script = TypingScript(drawingFrom: targets, options: .init(sessions: 300, typos: 1, corrections: 1, seed: 5))
        #expect(script.misspelt == 300)
        #expect(script.corrected == 300)
        for session in sessions(script) {
            // Corrected: the last keystroke is the search meant, and the person backspaced at least once.
            #expect(session.lastTyped == session.submitted)
            let backspaces = session.steps.filter { if case .keystroke(_, true) = $0 { true } else { false } }
            let typedWrong = session.steps.contains { step in
                guard case .keystroke(let text, _) = step else { return false }
                return !session.submitted.hasPrefix(text)
            }
            // A slip at the very end (a dropped last letter) needs no backspace; every other one does.
            #expect(!backspaces.isEmpty || !typedWrong)
        }
    }

    @Test func uncorrectedSlipsAreOneKeyboardSlipAwayFromTheSearch() {
        let script = TypingScript(drawingFrom: targets, options: .init(sessions: 400, typos: 1, corrections: 0, seed: 9))
        #expect(script.corrected == 0)
        for session in sessions(script) {
            let typed = Array(session.lastTyped)
            let meant = Array(session.submitted)
            #expect(typed != meant)
            #expect(Self.isOneSlip(typed, from: meant), "\(session.lastTyped) for \(session.submitted)")
        }
    }

    @Test func aShareOfSessionsIsMisspelt() {
        let script = TypingScript(drawingFrom: targets, options: .init(sessions: 2_000, typos: 0.2, seed: 3))
        #expect((300...500).contains(script.misspelt))
    }

    @Test func searchesFromAListAreTypedInOrderAndStartOver() {
        let script = TypingScript(searches: ["ab", "cd", "ef"], options: .init(sessions: 4, typos: 0, seed: 1))
        #expect(sessions(script).map(\.submitted) == ["ab", "cd", "ef", "ab"])
    }

    /// Whether `typed` is `meant` with two neighbouring letters swapped, one left out, one doubled, or one replaced
    /// by a key next to it.
    static func isOneSlip(_ typed: [Character], from meant: [Character]) -> Bool {
        if typed.count == meant.count - 1 {
            return meant.indices.contains { i in var m = meant; m.remove(at: i); return m == typed }
        }
        if typed.count == meant.count + 1 {
            return meant.indices.contains { i in var m = meant; m.insert(meant[i], at: i); return m == typed }
        }
        guard typed.count == meant.count else { return false }
        let differ = meant.indices.filter { typed[$0] != meant[$0] }
        if differ.count == 2 {
            return differ[1] == differ[0] + 1 && typed[differ[0]] == meant[differ[1]] && typed[differ[1]] == meant[differ[0]]
        }
        guard differ.count == 1 else { return false }
        let near = "qwertyuiopasdfghjklzxcvbnm1234567890"
        return near.contains(typed[differ[0]]) && typed[differ[0]] != meant[differ[0]]
    }
}
