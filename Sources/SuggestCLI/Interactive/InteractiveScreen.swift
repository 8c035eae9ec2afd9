import Suggest

/// What `suggest interactive` shows, independent of the terminal: the field, the scopes, the list, the status.
struct InteractiveFrame {
    /// One row of the list.
    enum Item: Hashable {
        /// A section's title ("Recent", "Suggestions", "Tokens").
        case header(String)
        case suggestion(Suggestion)
        /// A suggested token the suggestions do not already offer.
        case token(SearchToken)
    }

    var tokens: [SearchToken] = []
    var text: String = ""
    /// The scopes to cycle through after "All"; empty: no scope line.
    var scopes: [SearchScope] = []
    var scope: SearchScope? = nil
    var items: [Item] = []
    /// The index in ``items`` of the selected row (never a header).
    var selected: Int? = nil
    var status: String = ""
    var help: String = ""
}

/// Lays an ``InteractiveFrame`` out on a terminal of a given size: one line per row, none wider than the terminal
/// (long text ends with `…`), and where the cursor goes.
///
/// ```
/// Search: [From: alice] pyth█
/// Scope: All · fruits · vegetables          (only when the configuration's dictionaries have scopes)
/// ────────────────────────────────────────
/// Suggestions
/// > python                                  (the selection: `>`, and reverse video in colour)
///   pythagorean
///   …
/// 0.12 ms · 8 suggestions · Tab completes "python"
/// ↑↓ select · Tab complete · ⏎ submit · Esc clear · ^C quit
/// ```
///
/// In colour mode matched parts are bold, the selected row is in reverse video, section titles are bold and
/// underlined, chips cyan and the help line dim. Without colour (`NO_COLOR`, `TERM=dumb`) no attribute is written:
/// the selection keeps its `>`, chips their brackets, and matched parts are not marked.
struct InteractiveScreen {
    /// The smallest terminal the layout fits in.
    static let minimumWidth = 40
    static let minimumHeight = 10

    var width: Int
    var height: Int
    var color: Bool

    static let prompt = "Search: "

    var fits: Bool { width >= Self.minimumWidth && height >= Self.minimumHeight }

    static func tooSmallMessage(width: Int, height: Int) -> String {
        "the terminal is \(width)×\(height); suggest interactive needs at least \(minimumWidth)×\(minimumHeight)"
    }

    static func line(_ text: String, width: Int) -> StyledLine {
        var line = StyledLine(width: width)
        line.append(text)
        return line
    }

    /// The lines, top to bottom (exactly ``height`` of them), and the cursor's row and column (0-based).
    func render(_ frame: InteractiveFrame) -> (lines: [StyledLine], cursor: (row: Int, column: Int)) {
        guard fits else {
            // Word-wrapped, so that the size needed shows in a narrow terminal too.
            var lines: [StyledLine] = []
            var row = ""
            let message = "Terminal too small: needs \(Self.minimumWidth)×\(Self.minimumHeight), now \(width)×\(height)"
            for word in message.split(separator: " ") {
                let candidate = row.isEmpty ? String(word) : row + " " + word
                if TerminalText.width(of: candidate) <= width || row.isEmpty {
                    row = candidate
                } else {
                    lines.append(Self.line(row, width: width))
                    row = String(word)
                }
            }
            lines.append(Self.line(row, width: width))
            lines = Array(lines.prefix(max(0, height)))
            return (lines + Array(repeating: StyledLine(width: width), count: max(0, height - lines.count)), (0, 0))
        }
        var lines: [StyledLine] = []
        let (field, cursorColumn) = fieldLine(frame)
        lines.append(field)
        if !frame.scopes.isEmpty { lines.append(scopeLine(frame)) }
        var separator = StyledLine(width: width)
        separator.append(String(repeating: color ? "─" : "-", count: width), color ? [.dim] : [])
        lines.append(separator)
        let listRows = height - lines.count - 2
        lines += list(frame, rows: listRows)
        var status = StyledLine(width: width)
        status.append(frame.status)
        lines.append(status)
        var help = StyledLine(width: width)
        help.append(frame.help, [.dim])
        lines.append(help)
        return (lines, (0, cursorColumn))
    }

    /// `Search: ` then the chips and the text; when they do not fit, their end is shown after `…` so that the
    /// cursor (after the text) stays visible.
    func fieldLine(_ frame: InteractiveFrame) -> (StyledLine, Int) {
        var runs: [(String, StyledLine.Attributes)] = []
        for token in frame.tokens {
            runs.append(("[" + token.display + "]", [.chip]))
            runs.append((" ", []))
        }
        runs.append((frame.text, []))
        let room = width - Self.prompt.count - 1  // the last column holds the cursor
        var total = runs.reduce(0) { $0 + TerminalText.width(of: $1.0) }
        var line = StyledLine(width: width)
        line.append(Self.prompt, [.bold])
        if total > room {
            // Drop characters from the start until the rest fits after `…`.
            var kept: [(String, StyledLine.Attributes)] = []
            var budget = room - 1
            for (text, attributes) in runs.reversed() {
                var part = ""
                for character in text.reversed() {
                    let w = TerminalText.width(of: character)
                    if w > budget { budget = 0; break }
                    part.insert(character, at: part.startIndex)
                    budget -= w
                }
                kept.insert((part, attributes), at: 0)
                if budget == 0 { break }
            }
            line.append("…")
            runs = kept
            total = 1 + runs.reduce(0) { $0 + TerminalText.width(of: $1.0) }
        }
        for (text, attributes) in runs { line.append(text, attributes) }
        return (line, Self.prompt.count + total)
    }

    /// `Scope: All · fruits · vegetables`, the active one in reverse video (colour) or in `<…>` (no colour).
    func scopeLine(_ frame: InteractiveFrame) -> StyledLine {
        var line = StyledLine(width: width)
        line.append("Scope: ", [.bold])
        let names: [SearchScope?] = [nil] + frame.scopes.map { Optional($0) }
        for (i, scope) in names.enumerated() {
            if i > 0 { line.append(" · ") }
            let name = scope?.name ?? "All"
            if scope == frame.scope {
                line.append(color ? " \(name) " : "<\(name)>", [.reverse])
            } else {
                line.append(name)
            }
        }
        return line
    }

    /// The list's rows, scrolled so that the selection is visible, padded with blank lines to `rows`.
    func list(_ frame: InteractiveFrame, rows: Int) -> [StyledLine] {
        var lines: [StyledLine] = []
        if frame.items.isEmpty {
            var line = StyledLine(width: width)
            line.append("  (no suggestions)", [.dim])
            lines.append(line)
        }
        var first = 0
        if let selected = frame.selected, selected >= rows { first = selected - rows + 1 }
        for (index, item) in frame.items.enumerated().dropFirst(first).prefix(rows) {
            lines.append(row(item, selected: index == frame.selected))
        }
        while lines.count < rows { lines.append(StyledLine(width: width)) }
        return Array(lines.prefix(rows))
    }

    func row(_ item: InteractiveFrame.Item, selected: Bool) -> StyledLine {
        var line = StyledLine(width: width)
        let base: StyledLine.Attributes = selected ? [.reverse] : []
        switch item {
        case .header(let title):
            line.append(title, [.bold, .underline])
            return line
        case .suggestion(let suggestion):
            line.append(selected ? "> " : "  ", base)
            let isToken = suggestion.completion.token != nil
            if isToken { line.append("[", base.union(.chip)) }
            for run in suggestion.titleRuns {
                var attributes = base
                if run.isMatched { attributes.insert(.bold) }
                if isToken { attributes.insert(.chip) }
                line.append(run.text, attributes)
            }
            if isToken { line.append("]", base.union(.chip)) }
            if let subtitle = suggestion.subtitle, !subtitle.isEmpty {
                line.append("  ", base)
                line.append(subtitle, base.union(.dim))
            }
        case .token(let token):
            line.append(selected ? "> " : "  ", base)
            line.append("[" + token.display + "]", base.union(.chip))
        }
        if selected { line.pad(base) }
        return line
    }
}
