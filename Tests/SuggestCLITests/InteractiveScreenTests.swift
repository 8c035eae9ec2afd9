import Suggest
import Testing

@testable import suggest

/// The layout of `suggest interactive`, without a terminal.
struct InteractiveScreenTests {
    func frame(_ items: [InteractiveFrame.Item], selected: Int? = nil) -> InteractiveFrame {
        var frame = InteractiveFrame()
        frame.text = "pyt"
        frame.items = items
        frame.selected = selected
        frame.status = "0.12 ms · 2 suggestions"
        frame.help = InteractiveApp.help(scopes: false)
        return frame
    }

    @Test func everyRowFitsAndTheStatusAndHelpAreAtTheBottom() {
        let screen = InteractiveScreen(width: 40, height: 10, color: false)
        let python = Suggestion(title: "python", completion: .text("python"), matchedRanges: [0..<3])
        let (lines, cursor) = screen.render(frame([.header("Suggestions"), .suggestion(python)], selected: 1))
        #expect(lines.count == 10)
        #expect(
            lines.map(\.plain)[0...3] == [
                "Search: pyt", String(repeating: "-", count: 40), "Suggestions",
                "> python" + String(repeating: " ", count: 32),
            ])
        #expect(lines[8].plain == "0.12 ms · 2 suggestions")
        #expect(lines[9].plain.hasSuffix("…"))
        #expect(lines.allSatisfy { TerminalText.width(of: $0.plain) <= 40 })
        #expect(cursor.row == 0 && cursor.column == 11)
    }

    @Test func colourMarksMatchesSelectionAndChips() {
        let screen = InteractiveScreen(width: 80, height: 24, color: true)
        let python = Suggestion(title: "python", completion: .text("python"), matchedRanges: [0..<3])
        let alice = Suggestion(title: "From: alice", completion: .token(SearchToken(kind: "from", value: "alice")))
        let (lines, _) = screen.render(frame([.suggestion(python), .suggestion(alice)], selected: 0))
        #expect(lines[2].rendered(color: true).hasPrefix("\u{1B}[7m> \u{1B}[0m\u{1B}[1;7mpyt\u{1B}[0m\u{1B}[7mhon"))
        #expect(lines[3].rendered(color: true) == "  \u{1B}[36m[From: alice]\u{1B}[0m")
        #expect(lines[3].rendered(color: false) == "  [From: alice]")
    }

    @Test func longTextIsCutWithAnEllipsisAtWideCharactersToo() {
        var line = StyledLine(width: 10)
        line.append("abcdefghijklmnop")
        #expect(line.plain == "abcdefghi…")
        var wide = StyledLine(width: 10)
        wide.append("ab東京都大阪")
        // 2 + 2×4 = 10 columns would fit only without the ellipsis: the ninth column is padded.
        #expect(wide.plain == "ab東京都 …")
        #expect(TerminalText.width(of: wide.plain) == 10)
        var exact = StyledLine(width: 6)
        exact.append("abc")
        exact.append("def")
        #expect(exact.plain == "abcdef")
        var control = StyledLine(width: 10)
        control.append("a\tb\u{1B}c")
        #expect(control.plain == "a b c")
    }

    @Test func aLongFieldShowsItsEndSoTheCursorStaysVisible() {
        let screen = InteractiveScreen(width: 40, height: 10, color: false)
        var frame = frame([])
        frame.tokens = [SearchToken(kind: "from", value: "alice", display: "From: alice")]
        frame.text = "a rather long text that does not fit in forty columns"
        let (lines, cursor) = screen.render(frame)
        #expect(lines[0].plain == "Search: … does not fit in forty columns")
        #expect(cursor.column == 39)
        #expect(TerminalText.width(of: lines[0].plain) <= 40)
    }

    @Test func scopesShowTheActiveOne() {
        var frame = frame([])
        frame.scopes = ["fruits", "vegetables"]
        frame.scope = "fruits"
        let plain = InteractiveScreen(width: 80, height: 24, color: false).render(frame).lines
        #expect(plain[1].plain == "Scope: All · <fruits> · vegetables")
        let colour = InteractiveScreen(width: 80, height: 24, color: true).render(frame).lines
        #expect(colour[1].plain == "Scope: All ·  fruits  · vegetables")
    }

    @Test func theSelectionScrollsIntoView() {
        let items = (0..<30).map {
            InteractiveFrame.Item.suggestion(Suggestion(title: "item \($0)", completion: .text("item \($0)")))
        }
        let (lines, _) = InteractiveScreen(width: 40, height: 10, color: false).render(frame(items, selected: 20))
        // 10 rows: field, rule, 6 list rows, status, help; the selection is the last list row.
        #expect(lines[7].plain.hasPrefix("> item 20"))
        #expect(lines[2].plain == "  item 15")
    }

    @Test func aTooSmallTerminalGetsAMessage() {
        let (lines, _) = InteractiveScreen(width: 30, height: 5, color: false).render(frame([]))
        #expect(lines.count == 5)
        #expect(lines[0].plain == "Terminal too small: needs")
        #expect(lines[1].plain == "40×10, now 30×5")
        // Word-wrapped, the size needed first: what a narrow terminal shows.
        let narrow = InteractiveScreen(width: 12, height: 3, color: false).render(frame([])).lines.map(\.plain)
        #expect(narrow == ["Terminal too", "small: needs", "40×10, now"])
    }

    @Test(arguments: [
        ([:], true), (["TERM": "xterm-256color"], true), (["TERM": "xterm", "NO_COLOR": "1"], false),
        (["TERM": "xterm", "NO_COLOR": ""], true), (["TERM": "dumb"], false),
    ])
    func colourUnlessNoColorOrADumbTerminal(environment: [String: String], color: Bool) {
        var environment = environment
        if environment.isEmpty { environment = ["TERM": "screen"] }
        #expect(Interactive.usesColor(environment) == color)
    }
}
