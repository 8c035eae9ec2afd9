import Foundation

extension LatencyReport {
    /// The report for a terminal: a header, the table of percentiles (engine, each provider, submit), a histogram
    /// of the engine's keystrokes on a log time axis with p50 and p99 marked, and the slowest keystrokes. Every line
    /// fits in 80 columns.
    /// - Parameter color: ANSI bold and colour (only for a terminal that wants it: not when `NO_COLOR` is set).
    public func text(color: Bool = false) -> String {
        let s = Style(color: color)
        var lines: [String] = []
        let r = run
        let date = r.date.isEmpty ? "" : " · \(r.date)"
        lines.append(s.bold("suggest bench · \(configuration.file)") + date)
        let drawn = r.source == "queries" ? "from a queries file of" : "drawn by weight from"
        lines.append(
            "\(LatencyFormat.count(r.sessions)) sessions \(drawn) \(LatencyFormat.count(r.targets)) searches · "
                + "seed \(r.seed)")
        lines.append(
            "\(LatencyFormat.count(r.keystrokes)) keystrokes, \(LatencyFormat.count(r.backspaces)) of them backspaces"
                + " · \(LatencyFormat.count(r.misspelt)) misspelt, \(LatencyFormat.count(r.corrected)) corrected")
        var facts: [String] = []
        if let loadMillis { facts.append("load \(LatencyFormat.time(loadMillis * 1_000))") }
        facts.append("sessions \(LatencyFormat.time(r.seconds * 1_000_000))")
        if let peakMemoryBytes { facts.append("peak memory \(LatencyFormat.bytes(peakMemoryBytes))") }
        lines.append(facts.joined(separator: " · "))
        lines.append("")
        lines.append(contentsOf: table(s))
        lines.append("")
        lines.append(contentsOf: histogramLines(s))
        if !slowest.isEmpty {
            lines.append("")
            lines.append(s.bold("slowest keystrokes") + "                                      slowest provider")
            for k in slowest {
                let text = String(String.UnicodeScalarView(k.text.unicodeScalars.map(Self.printable)))
                let quoted = "\"" + LatencyFormat.pad(text, 38) .trimmingSuffixSpaces() + "\"" + (k.backspace ? " ⌫" : "")
                let provider = k.provider.map { "\($0) \(LatencyFormat.time(k.providerMicros ?? 0))" } ?? ""
                lines.append(
                    "  " + LatencyFormat.pad(LatencyFormat.time(k.micros), 9, right: true) + "  "
                        + LatencyFormat.pad(quoted, 44) + " " + LatencyFormat.pad(provider, 22))
            }
        }
        return lines.map { $0.trimmingSuffixSpaces() }.joined(separator: "\n") + "\n"
    }

    /// A control character of a typed text (an ESC could drive the terminal) as U+FFFD.
    static func printable(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        scalar.properties.generalCategory == .control ? "\u{FFFD}" : scalar
    }

    /// The percentile table: 79 columns.
    func table(_ s: Style) -> [String] {
        func row(_ name: String, _ l: LatencyStats) -> String {
            LatencyFormat.pad(name, 18) + LatencyFormat.pad(LatencyFormat.count(l.count), 7, right: true)
                + [l.p50, l.p90, l.p99, l.p999, l.max].map {
                    LatencyFormat.pad(LatencyFormat.time($0), 9, right: true)
                }.joined()
        }
        var lines = [
            s.bold(
                LatencyFormat.pad("per keystroke", 18) + LatencyFormat.pad("count", 7, right: true)
                    + ["p50", "p90", "p99", "p99.9", "max"].map { LatencyFormat.pad($0, 9, right: true) }.joined())
        ]
        lines.append(s.bold(row("engine", engine.latency)))
        for p in providers {
            let id = p.id ?? "?"
            let name = p.type.map { $0 == id ? id : "\(id) (\($0))" } ?? id
            lines.append(row("  " + name, p.latency))
        }
        lines.append(row("submit", submit.latency))
        return lines
    }

    /// The engine's histogram, two of the report's bins a line (5 a decade), from the first to the last bin that
    /// holds a sample.
    func histogramLines(_ s: Style) -> [String] {
        let counts = engine.histogram
        guard let first = counts.firstIndex(where: { $0 > 0 }), let last = counts.lastIndex(where: { $0 > 0 }) else {
            return []
        }
        let total = Double(counts.reduce(0, +))
        let start = first / 2
        let end = last / 2
        let merged = (start...end).map { i in counts[2 * i] + (2 * i + 1 < counts.count ? counts[2 * i + 1] : 0) }
        let peak = Double(merged.max() ?? 1)
        let p50 = LatencyHistogram.bin(of: engine.latency.p50) / 2
        let p99 = LatencyHistogram.bin(of: engine.latency.p99) / 2
        let barWidth = 50
        var lines = [s.bold("engine, every keystroke") + " (log time axis; a line per ×1.58)"]
        for (offset, count) in merged.enumerated() {
            let i = start + offset
            let label = LatencyFormat.pad(LatencyFormat.time(LatencyHistogram.edge(2 * i)), 9, right: true)
            let bar = Self.bar(Double(count) / peak * Double(barWidth))
            var marks: [String] = []
            if i == p50 { marks.append("p50") }
            if i == p99 { marks.append("p99") }
            let share = LatencyFormat.pad(String(format: "%.1f%%", Double(count) / total * 100), 6, right: true)
            let mark = marks.isEmpty ? "" : " ◀ " + marks.joined(separator: ", ")
            lines.append(label + " │" + s.cyan(LatencyFormat.pad(bar, barWidth)) + share + mark)
        }
        return lines
    }

    /// A bar of `width` character cells, in eighths.
    static func bar(_ width: Double) -> String {
        let eighths = Int((width * 8).rounded())
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + partial[eighths % 8]
    }
}

extension BaselineComparison {
    /// The comparison for a terminal: a line per series, the regressed ones marked, then the verdict.
    public func text(baseline: String, color: Bool = false) -> String {
        let s = Style(color: color)
        let allowed = String(format: "%g%%", maxRegression * 100)
        var lines = [s.bold("p99 against \(baseline)") + " (allowed: +\(allowed), and more than \(LatencyFormat.time(floorMicros)))"]
        for row in rows {
            let change = row.change.map(LatencyFormat.change) ?? "new"
            let verdict = row.regressed ? s.red("REGRESSED") : s.green("ok")
            lines.append(
                "  " + LatencyFormat.pad(row.name, 18) + LatencyFormat.pad(LatencyFormat.time(row.baselineP99), 9, right: true)
                    + " → " + LatencyFormat.pad(LatencyFormat.time(row.currentP99), 9, right: true) + "  "
                    + LatencyFormat.pad(change, 8, right: true) + "  " + verdict)
        }
        if passed {
            lines.append(s.green("no p99 grew more than \(allowed)"))
        } else {
            let names = regressions.map(\.name).joined(separator: ", ")
            lines.append(s.red("p99 regressed more than \(allowed): \(names)"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// ANSI styles, or none.
struct Style {
    var color: Bool
    func wrap(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { wrap(text, "1") }
    func cyan(_ text: String) -> String { wrap(text, "36") }
    func red(_ text: String) -> String { wrap(text, "1;31") }
    func green(_ text: String) -> String { wrap(text, "32") }
}

extension String {
    func trimmingSuffixSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
