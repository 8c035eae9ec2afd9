import Foundation
import Testing

@testable import suggest
import SuggestDemo

/// `suggest interactive` driven in a real terminal: the built binary in a tmux pane, keys sent with `send-keys`,
/// the screen read with `capture-pane`. At 80×24 with the demo configuration (no scopes) the rows are: 0 the field,
/// 1 a rule, 2–21 the list, 22 the status line, 23 the help line.
@Suite(
    .enabled(if: TmuxPane.canRun, "tmux is not installed: the terminal tests of suggest interactive are skipped"),
    .timeLimit(.minutes(1))
)
struct InteractiveCommandTests {
    static let demo = DemoData.configurationURL!.path
    static let scoped = CLIRunner.fixture("interactive/scoped.suggest.json")
    static let long = CLIRunner.fixture("interactive/long.suggest.json")

    @Test func typingShowsSuggestionsAndTheEngineTime() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.demo])
        try pane.type("pyth")
        try pane.waitFor(row: 0, toBe: "Search: pyth")
        let rows = try pane.rows()
        #expect(rows[2] == "Suggestions")
        #expect(rows[3] == "  python")
        let status = rows[22]
        #expect(status.contains(" ms · 8 suggestions"), "\(status)")
        #expect(status.range(of: #"^\d+\.\d\d ms · "#, options: .regularExpression) != nil, "\(status)")
        #expect(status.contains("Tab: \"python\""))
        #expect(rows[23].hasPrefix("↑↓ select · Tab complete · ⏎ submit · Esc clear"))
        #expect(rows[23].hasSuffix("^C quit"))
    }

    @Test func arrowsMoveTheSelection() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.demo])
        try pane.type("pyth")
        try pane.waitFor(row: 3, toBe: "  python")
        try pane.press("Down")
        try pane.waitFor(row: 3, toBe: "> python")
        try pane.press("Down")
        try pane.waitFor(row: 4, toBe: "> path")
        #expect(try pane.rows()[3] == "  python")
        try pane.press("Up")
        try pane.waitFor(row: 3, toBe: "> python")
        // Up from the first row: back to the text, nothing selected.
        try pane.press("Up")
        try pane.waitFor(row: 3, toBe: "  python")
        #expect(try !pane.rows().contains { $0.hasPrefix(">") })
    }

    @Test func tabCompletesTheCommonCompletionOrTheSelectedRow() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.demo])
        try pane.type("pyth")
        try pane.waitFor("Tab: \"python\"")
        try pane.press("Tab")
        try pane.waitFor(row: 0, toBe: "Search: python")
        try pane.press("Escape")
        try pane.waitFor(row: 0, toBe: "Search:")
        try pane.type("pat")
        try pane.waitFor(row: 0, toBe: "Search: pat")
        try pane.waitFor("a second suggestion") { $0.split(separator: "\n").count > 4 }
        let second = try pane.rows()[4].trimmingCharacters(in: .whitespaces)
        #expect(second.hasPrefix("pat"))
        try pane.press("Down", "Down")
        try pane.waitFor(row: 4, toBe: "> " + second)
        try pane.press("Tab")
        try pane.waitFor(row: 0, toBe: "Search: " + second)
    }

    @Test func enterSubmitsTheSelectionAndTheRecentSearchShowsOnAnEmptyField() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.demo])
        try pane.type("pyth")
        try pane.waitFor(row: 3, toBe: "  python")
        try pane.press("Down", "Enter")
        try pane.waitFor("submitted \"python\"")
        #expect(try pane.rows()[0] == "Search: python")
        try pane.press("Escape")
        try pane.waitFor(row: 0, toBe: "Search:")
        try pane.waitFor(row: 2, toBe: "Recent")
        #expect(try pane.rows()[3] == "  python")
        // Enter without a selection submits the text.
        try pane.type("zebra")
        try pane.waitFor(row: 0, toBe: "Search: zebra")
        try pane.press("Enter")
        try pane.waitFor("submitted \"zebra\"")
        try pane.press("Escape")
        try pane.waitFor(row: 0, toBe: "Search:")
        try pane.waitFor("  zebra")
        // Both recent searches (the recent provider ranks them), nothing else.
        let rows = try pane.rows()
        #expect(rows[2] == "Recent")
        #expect(Set(rows[3...4]) == ["  python", "  zebra"], "\(rows)")
    }

    @Test func recentSearchesPersistWhenTheRecentProviderHasAStore() throws {
        let pane = try TmuxPane()
        let config = pane.folder + "/with-store.suggest.json"
        let store = pane.folder + "/recents.json"
        try Data(
            """
            { "version": 1, "providers": [
                { "type": "recent", "store": "recents.json" },
                { "type": "static", "items": [ { "title": "Apple" }, { "title": "Apricot" } ] } ] }
            """.utf8
        ).write(to: URL(fileURLWithPath: config))
        try pane.startInteractive([config])
        try pane.type("apr")
        try pane.waitFor("Apricot")
        try pane.press("Down", "Enter")
        try pane.waitFor("submitted \"Apricot\"")
        try pane.press("C-c")
        try pane.waitFor(TmuxPane.promptMark)
        #expect(try pane.lastStatus() == 0)
        #expect(try String(contentsOfFile: store, encoding: .utf8).contains("Apricot"))
        // A new run shows it on the empty field.
        try pane.startInteractive([config])
        try pane.waitFor(row: 2, toBe: "Recent")
        #expect(try pane.rows()[3] == "  Apricot")
    }

    @Test func aTokenRuleMakesAChipAndBackspaceOnAnEmptyFieldTakesItApart() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.demo])
        try pane.type("from:al")
        try pane.waitFor(row: 3, toBe: "  [From: alex]")
        try pane.type("ice ")
        try pane.waitFor(row: 0, toBe: "Search: [From: alice]")
        // Backspace on the empty text: the chip goes, its text comes back to be edited.
        try pane.press("BSpace")
        try pane.waitFor(row: 0, toBe: "Search: from:alice")
        // A delimiter (",") turns the text into a chip too; Backspace then Escape leave an empty field.
        // (A key typed within 40 ms after Escape would make it Alt with that key: wait for the Escape first.)
        try pane.press("Escape")
        try pane.waitFor(row: 0, toBe: "Search:")
        try pane.type("soup,")
        try pane.waitFor(row: 0, toBe: "Search: [soup]")
        try pane.press("BSpace")
        try pane.waitFor(row: 0, toBe: "Search: soup")
    }

    @Test func aSuggestedTokenIsARowThatTabTurnsIntoAChip() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.demo])
        try pane.type("chi")
        try pane.waitFor(row: 2, toBe: "Tokens")
        #expect(try pane.rows()[3] == "  [Chicken]")
        try pane.press("Down", "Tab")
        try pane.waitFor(row: 0, toBe: "Search: [Chicken]")
    }

    @Test func escapeClearsTheField() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.demo])
        try pane.type("#swift pyth")
        try pane.waitFor(row: 0, toBe: "Search: [swift] pyth")
        try pane.press("Escape")
        try pane.waitFor(row: 0, toBe: "Search:")
        #expect(try pane.rows()[2] == "  (no suggestions)")
    }

    @Test func controlCLeavesAndRestoresTheTerminal() throws {
        let pane = try TmuxPane()
        let before = pane.folder + "/before.txt"
        let after = pane.folder + "/after.txt"
        try pane.enter("stty -a > before.txt")
        try pane.startInteractive([Self.demo])
        try pane.type("pyth")
        try pane.press("Down")
        try pane.waitFor(row: 3, toBe: "> python")
        try pane.press("C-c")
        // The alternate screen is left: the shell's screen is back, the prompt last.
        let screen = try pane.waitFor("the prompt after the program") { $0.contains(TmuxPane.promptMark + "\n") }
        #expect(!screen.contains("^C quit"))
        // The command line is back on the shell's screen (joined: a long path wraps it at 80 columns).
        #expect(screen.replacingOccurrences(of: "\n", with: "").contains("'interactive'"))
        #expect(try pane.lastStatus() == 0)
        try pane.enter("stty -a > after.txt")
        #expect(try pane.lastStatus() == 0)
        #expect(try String(contentsOfFile: after, encoding: .utf8) == String(contentsOfFile: before, encoding: .utf8))
        // The cursor is shown again (tmux's view of the pane).
        #expect(try pane.run(["display-message", "-p", "-t", "test", "#{cursor_flag}"]).hasPrefix("1"))
    }

    @Test func controlDLeavesOnlyOnAnEmptyField() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.demo])
        try pane.type("py")
        try pane.waitFor(row: 0, toBe: "Search: py")
        try pane.press("C-d")
        try pane.type("t")
        try pane.waitFor(row: 0, toBe: "Search: pyt")
        try pane.press("Escape")
        try pane.waitFor(row: 0, toBe: "Search:")
        try pane.press("C-d")
        try pane.waitFor("the prompt") { !$0.contains("^C quit") && $0.contains(TmuxPane.promptMark) }
        #expect(try pane.lastStatus() == 0)
    }

    /// SIGTERM, and a crash signal: the terminal is restored, then the process ends as the signal says.
    @Test(arguments: [("TERM", Int32(143)), ("SEGV", Int32(139))])
    func aSignalRestoresTheTerminalBeforeTheProcessEnds(signal: String, status: Int32) throws {
        let pane = try TmuxPane()
        let before = pane.folder + "/before.txt"
        let after = pane.folder + "/after.txt"
        // No core file for the crash.
        try pane.enter("ulimit -c 0; stty -a > before.txt")
        try pane.startInteractive([Self.demo])
        try pane.type("pyth")
        try pane.waitFor(row: 3, toBe: "  python")
        let pid = try pane.foregroundProcess()
        kill(pid, signal == "TERM" ? SIGTERM : SIGSEGV)
        try pane.waitFor("the prompt after the signal") { !$0.contains("^C quit") && $0.contains(TmuxPane.promptMark) }
        #expect(try pane.lastStatus() == status)
        try pane.enter("stty -a > after.txt")
        #expect(try pane.lastStatus() == 0)
        #expect(try String(contentsOfFile: after, encoding: .utf8) == String(contentsOfFile: before, encoding: .utf8))
    }

    /// No colour or attribute at all; the selection keeps its `>`, chips their brackets.
    @Test(arguments: [["NO_COLOR": "1"], ["TERM": "dumb"]])
    func withoutColourTheSelectionIsMarkedWithAnArrow(environment: [String: String]) throws {
        let pane = try TmuxPane(environment: environment.mapValues { $0 })
        try pane.startInteractive([Self.demo])
        try pane.type("#swift pyth")
        try pane.press("Down")
        try pane.waitFor(row: 3, toBe: "> python")
        let screen = try pane.screen(escapes: true)
        #expect(!screen.contains("\u{1B}["), "an escape sequence in:\n\(screen)")
        #expect(try pane.rows()[0] == "Search: [swift] pyth")
        #expect(try pane.rows()[1].hasPrefix("-----"))
    }

    @Test func inColourMatchesAreBoldAndTheSelectionReversed() throws {
        let pane = try TmuxPane(environment: ["TERM": "xterm-256color"])
        try pane.startInteractive([Self.demo])
        try pane.type("pyth")
        try pane.press("Down")
        try pane.waitFor(row: 3, toBe: "> python")
        let rows = try pane.screen(escapes: true).split(separator: "\n").map(String.init)
        // tmux writes the attributes it holds for each cell: reverse video (7) on the selected row, bold (1) on
        // the matched part.
        #expect(rows[3].contains("\u{1B}[7m"), "\(rows[3].debugDescription)")
        #expect(rows[3].contains("\u{1B}[1mpyth"), "\(rows[3].debugDescription)")
    }

    @Test func aTerminalSmallerThanTheMinimumIsRefused() throws {
        let pane = try TmuxPane(width: 30, height: 8)
        try pane.enter(TmuxPane.quoted(CLIRunner.executable.path) + " interactive " + TmuxPane.quoted(Self.demo))
        try pane.waitFor("the refusal") {
            $0.replacingOccurrences(of: "\n", with: "").contains(
                "error: the terminal is 30×8; suggest interactive needs at least 40×10")
        }
        #expect(try pane.lastStatus() == 1)
    }

    @Test func aResizeRedrawsAndATooSmallWindowSaysSo() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.demo])
        try pane.type("pyth")
        try pane.waitFor(row: 3, toBe: "  python")
        try pane.resize(width: 50, height: 12)
        // tmux crops the old screen at once; the redraw puts the status and help lines at the new bottom.
        try pane.waitFor("the redraw at 50×12") { screen in
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return rows.count >= 12 && rows[10].contains(" ms · ") && rows[11] == "↑↓ Tab ⏎ Esc · ^C quit"
        }
        let rows = try pane.rows()
        #expect(rows.count == 12)
        #expect(rows[1] == String(repeating: "─", count: 50))
        #expect(rows[3] == "  python")
        #expect(rows[10].contains("8 suggestions"))
        #expect(rows.allSatisfy { TerminalText.width(of: $0) <= 50 })
        try pane.resize(width: 30, height: 8)
        try pane.waitFor(row: 0, toBe: "Terminal too small: needs")
        try pane.waitFor(row: 1, toBe: "40×10, now 30×8")
        // Keys typed while the field is not shown do not edit it.
        try pane.type("o")
        try pane.resize(width: 80, height: 24)
        try pane.waitFor(row: 3, toBe: "  python")
        #expect(try pane.rows()[0] == "Search: pyth")
    }

    @Test func longTitlesAreCutWithAnEllipsisAndNeverWrap() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.long])
        try pane.waitFor("Avocado")
        let rows = try pane.rows()
        #expect(rows.count == 24)
        #expect(rows[3].hasPrefix("  A very long suggestion title"))
        #expect(rows[3].hasSuffix("…"))
        #expect(TerminalText.width(of: rows[3]) == 80)
        #expect(rows[4].hasPrefix("  東京都 Tōkyō-to"))
        #expect(rows[4].hasSuffix("…"))
        #expect(TerminalText.width(of: rows[4]) <= 80)
        #expect(rows[5] == "  Avocado  Fruit")
    }

    @Test func multiByteTextAndUnknownKeys() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.demo])
        try pane.type("crème fr")
        try pane.waitFor(row: 0, toBe: "Search: crème fr")
        try pane.waitFor("[Crème Fraîche]")
        // A function key, Alt-x, Home and a mouse-like sequence are not typed into the field.
        try pane.press("F5", "M-x", "F12")
        try pane.type("\u{1B}[<0;10;5M")
        try pane.type("a")
        try pane.waitFor(row: 0, toBe: "Search: crème fra")
    }

    @Test func aBracketedPasteIsTypedAsOneLine() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.demo])
        try pane.paste("pyth\non")
        try pane.waitFor(row: 0, toBe: "Search: pyth on")
    }

    @Test func scopesCycleWithControlS() throws {
        let pane = try TmuxPane()
        try pane.startInteractive([Self.scoped])
        // Rows: 0 the field, 1 the scopes, 2 a rule, 3… the list.
        // In colour the active scope is in reverse video, one space either side.
        try pane.waitFor(row: 1, toBe: "Scope:  All  · fruits · vegetables")
        try pane.type("a")
        try pane.waitFor(row: 4, toBe: "  apple")
        #expect(try pane.rows()[23].contains("^S scope"))
        try pane.press("C-s")
        try pane.waitFor(row: 1, toBe: "Scope: All ·  fruits  · vegetables")
        try pane.press("C-s")
        try pane.waitFor(row: 4, toBe: "  asparagus")
        let rows = try pane.rows()
        #expect(rows[1] == "Scope: All · fruits ·  vegetables")
        #expect(!rows.contains("  apple"))
        try pane.press("C-s")
        try pane.waitFor(row: 4, toBe: "  apple")
    }
}

/// What `suggest interactive` does before it touches the terminal (no tmux needed).
struct InteractiveRefusalTests {
    @Test func withoutATerminalItRefusesAndPointsToBatch() throws {
        let config = CLIRunner.fixture("fruits.suggest.json")
        let output = try CLIRunner.run(["interactive", config])
        #expect(output.status == 64)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("needs a terminal on standard input and standard output"))
        #expect(output.stderr.contains("suggest batch --config \(config)"))
    }

    @Test func aBrokenConfigurationGetsTheErrorsOfValidate() throws {
        let config = CLIRunner.fixture("broken.json")
        let output = try CLIRunner.run(["interactive", config])
        let validate = try CLIRunner.run(["validate", config])
        #expect(output.status == 1)
        #expect(!output.stderr.isEmpty)
        #expect(output.stderr == validate.stderr)
        #expect(output.stdout.isEmpty)
    }

    @Test func aMissingConfigurationIsNamed() throws {
        let output = try CLIRunner.run(["interactive", "/nonexistent/x.suggest.json"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("/nonexistent/x.suggest.json"))
    }
}
