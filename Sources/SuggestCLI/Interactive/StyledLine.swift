/// One line of the screen being built: text in runs, each with its attributes; rendered never wider than its width —
/// text that does not fit is cut and ends with `…`.
struct StyledLine {
    /// Select Graphic Rendition attributes (ANSI): written only in colour mode.
    struct Attributes: OptionSet, Hashable {
        let rawValue: Int
        static let bold = Attributes(rawValue: 1)
        static let dim = Attributes(rawValue: 2)
        static let reverse = Attributes(rawValue: 4)
        static let underline = Attributes(rawValue: 8)
        /// The token chips' colour (cyan).
        static let chip = Attributes(rawValue: 16)

        var sgr: String {
            var codes: [String] = []
            if contains(.bold) { codes.append("1") }
            if contains(.dim) { codes.append("2") }
            if contains(.underline) { codes.append("4") }
            if contains(.reverse) { codes.append("7") }
            if contains(.chip) { codes.append("36") }
            return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
        }
    }

    struct Run: Hashable {
        var text: String
        var attributes: Attributes
    }

    let width: Int
    private var runs: [Run] = []
    /// The columns of all the text appended, whether it fits or not.
    private(set) var used = 0

    init(width: Int) { self.width = max(0, width) }

    /// Appends `text` (control characters become spaces: they would move the cursor); what goes past the width is
    /// cut when the line is rendered.
    mutating func append(_ text: some StringProtocol, _ attributes: Attributes = []) {
        guard !text.isEmpty else { return }
        var clean = String(text)
        if clean.unicodeScalars.contains(where: TerminalText.isControl) {
            clean = String(String.UnicodeScalarView(clean.unicodeScalars.map { TerminalText.isControl($0) ? " " : $0 }))
        }
        runs.append(Run(text: clean, attributes: attributes))
        used += TerminalText.width(of: clean)
    }

    /// Pads with spaces (in `attributes`) up to the full width: a selected row's reverse video spans the line.
    mutating func pad(_ attributes: Attributes = []) {
        guard used < width else { return }
        append(String(repeating: " ", count: width - used), attributes)
    }

    /// Whether the text is wider than the line (it is then cut, ending with `…`).
    var isTruncated: Bool { used > width }

    /// The runs that fit: all of them, or the first `width - 1` columns and `…` (in the attributes of the run it
    /// cuts).
    var fittedRuns: [Run] {
        guard isTruncated else { return runs }
        var out: [Run] = []
        var room = width - 1
        for run in runs {
            var fitted = ""
            for character in run.text {
                let w = TerminalText.width(of: character)
                if w > room { break }
                fitted.append(character)
                room -= w
            }
            if fitted.count < run.text.count {
                guard width > 0 else { return out }
                // A wide character that did not fit leaves a column: fill it so the line stays its width.
                fitted += String(repeating: " ", count: room) + "…"
                out.append(Run(text: fitted, attributes: run.attributes))
                return out
            }
            out.append(Run(text: fitted, attributes: run.attributes))
        }
        return out
    }

    /// The line's text without attributes.
    var plain: String { fittedRuns.map(\.text).joined() }

    /// The line with its attributes as SGR escapes (colour mode) or without them.
    func rendered(color: Bool) -> String {
        guard color else { return plain }
        // Neighbouring runs with the same attributes share one escape.
        var merged: [Run] = []
        for run in fittedRuns {
            if let last = merged.last, last.attributes == run.attributes {
                merged[merged.count - 1].text += run.text
            } else {
                merged.append(run)
            }
        }
        var out = ""
        for run in merged {
            let sgr = run.attributes.sgr
            out += sgr.isEmpty ? run.text : sgr + run.text + "\u{1B}[0m"
        }
        return out
    }
}

/// How many terminal columns text takes.
enum TerminalText {
    /// The columns of one character: 0 for a control character or a lone combining mark, 2 for East Asian wide and
    /// full-width characters and emoji shown as emoji, 1 otherwise.
    static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if isControl(first) { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        for scalar in character.unicodeScalars {
            if isWide(scalar) || scalar.properties.isEmojiPresentation { return 2 }
            if scalar.value == 0xFE0F && character.unicodeScalars.first!.properties.isEmoji { return 2 }
        }
        return 1
    }

    static func width(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// C0 and C1 control characters and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges (Unicode's EastAsianWidth.txt, main blocks).
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x2FFFD,
            0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
