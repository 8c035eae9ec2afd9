import Foundation

extension LatencyReport {
    /// A chart of the latency distribution as one self-contained SVG image: a row per series (the whole engine,
    /// each provider, submit), each the histogram of its samples on one shared log time axis, with its p50 (solid)
    /// and p99 (red, dashed) marked and written beside it. Bar heights are the square root of each bin's share of
    /// its row (so that a tail of a few tenths of a percent shows beside a peak of 40 %). No script, no font or style from the network.
    public func svg() -> String {
        var rows: [(name: String, series: Series, strong: Bool)] = [("engine (every keystroke)", engine, true)]
        for p in providers {
            let id = p.id ?? "?"
            rows.append((p.type.map { $0 == id ? id : "\(id) (\($0))" } ?? id, p, false))
        }
        rows.append(("submit", submit, false))

        // The time axis: whole decades around every sample.
        let nonEmpty = rows.flatMap { row in row.series.histogram.indices.filter { row.series.histogram[$0] > 0 } }
        let per = LatencyHistogram.binsPerDecade
        let firstDecade = (nonEmpty.min() ?? 10) / per
        var lastDecade = ((nonEmpty.max() ?? 30) + per) / per
        lastDecade = max(lastDecade, firstDecade + 2)
        let decades = lastDecade - firstDecade

        let width = 980.0
        let left = 200.0
        let right = 230.0
        let plot = width - left - right
        let top = 78.0
        let rowHeight = 62.0
        let height = top + rowHeight * Double(rows.count) + 46
        func x(_ micros: Double) -> Double {
            let lowestDecade = LatencyHistogram.lowest * pow(10, Double(firstDecade))
            let position = log10(max(micros, lowestDecade) / lowestDecade) / Double(decades)
            return left + min(1, max(0, position)) * plot
        }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }

        let palette = ["#3465a4", "#c17d11", "#4e9a06", "#75507b", "#06989a", "#8f5902", "#5c3566", "#204a87"]
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="13" \
            role="img" aria-label="Keystroke latency of \(Self.escape(configuration.file))">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="16" y="28" font-size="19" font-weight="bold" fill="#222">Keystroke latency · \
            \(Self.escape(configuration.file))</text>
            <text x="16" y="50" fill="#555">\(Self.escape(subtitle))</text>

            """
        // Decade grid and labels.
        for d in 0...decades {
            let micros = LatencyHistogram.lowest * pow(10, Double(firstDecade + d))
            let gx = f(x(micros))
            svg += """
                <line x1="\(gx)" y1="\(f(top - 8))" x2="\(gx)" y2="\(f(top + rowHeight * Double(rows.count)))" \
                stroke="#d8d8d8"/>
                <text x="\(gx)" y="\(f(top + rowHeight * Double(rows.count) + 18))" text-anchor="middle" \
                fill="#444">\(Self.escape(LatencyFormat.tick(micros)))</text>

                """
        }
        svg += """
            <text x="\(f(left + plot / 2))" y="\(f(top + rowHeight * Double(rows.count) + 38))" text-anchor="middle" \
            fill="#555">time per keystroke (log scale) — bar height: square root of the share of the row's samples in each bin</text>
            <text x="\(f(width - right + 14))" y="\(f(top - 12))" fill="#555">p50 · p99 · max · samples</text>

            """
        for (i, row) in rows.enumerated() {
            let y0 = top + rowHeight * Double(i)
            let base = y0 + rowHeight - 10
            let color = row.strong ? "#222222" : palette[(i - 1) % palette.count]
            if i % 2 == 0 {
                svg += "<rect x=\"0\" y=\"\(f(y0))\" width=\"\(Int(width))\" height=\"\(f(rowHeight))\" fill=\"#f6f6f6\"/>\n"
            }
            svg += """
                <text x="\(f(left - 12))" y="\(f(y0 + rowHeight / 2 + 4))" text-anchor="end" fill="#222"\
                \(row.strong ? " font-weight=\"bold\"" : "")>\(Self.escape(row.name))</text>
                <line x1="\(f(left))" y1="\(f(base))" x2="\(f(left + plot))" y2="\(f(base))" stroke="#999"/>

                """
            let counts = row.series.histogram
            let l = row.series.latency
            guard l.count > 0, let peak = counts.max(), peak > 0 else {
                svg += "<text x=\"\(f(left + 8))\" y=\"\(f(base - 8))\" fill=\"#777\">no samples</text>\n"
                continue
            }
            let barTop = y0 + 12
            for (bin, count) in counts.enumerated() where count > 0 {
                let x0 = x(LatencyHistogram.edge(bin))
                let x1 = x(LatencyHistogram.edge(bin + 1))
                // Square-root heights: a bin of 0.5 % still shows beside one of 40 %, so the tail is visible.
                let h = max(1, (Double(count) / Double(peak)).squareRoot() * (base - barTop))
                svg += """
                    <rect x="\(f(x0 + 0.5))" y="\(f(base - h))" width="\(f(max(1, x1 - x0 - 1)))" height="\(f(h))" \
                    fill="\(color)" fill-opacity="0.75"><title>\(Self.escape(LatencyFormat.time(LatencyHistogram.edge(bin)))) \
                    – \(Self.escape(LatencyFormat.time(LatencyHistogram.edge(bin + 1)))): \(count) samples</title></rect>

                    """
            }
            let x50 = f(x(l.p50))
            let x99 = f(x(l.p99))
            svg += """
                <line x1="\(x50)" y1="\(f(y0 + 4))" x2="\(x50)" y2="\(f(base + 4))" stroke="#111" stroke-width="2"/>
                <text x="\(f(x(l.p50) - 3))" y="\(f(y0 + 10))" text-anchor="end" font-size="10" fill="#111">p50</text>
                <line x1="\(x99)" y1="\(f(y0 + 4))" x2="\(x99)" y2="\(f(base + 4))" stroke="#cc0000" stroke-width="2" \
                stroke-dasharray="5,3"/>
                <text x="\(f(x(l.p99) + 3))" y="\(f(y0 + 10))" text-anchor="start" font-size="10" fill="#cc0000">p99</text>
                <text x="\(f(width - right + 14))" y="\(f(y0 + rowHeight / 2 - 2))" fill="#111">\
                \(Self.escape(LatencyFormat.time(l.p50))) · \
                <tspan fill="#cc0000" font-weight="bold">\(Self.escape(LatencyFormat.time(l.p99)))</tspan></text>
                <text x="\(f(width - right + 14))" y="\(f(y0 + rowHeight / 2 + 15))" fill="#666" font-size="11">max \
                \(Self.escape(LatencyFormat.time(l.max))) · \(LatencyFormat.count(l.count)) samples</text>

                """
        }
        svg += "</svg>\n"
        return svg
    }

    /// The chart in a self-contained HTML page, with the table of figures and the slowest keystrokes under it.
    public func html() -> String {
        func cell(_ v: Double) -> String { "<td>\(Self.escape(LatencyFormat.time(v)))</td>" }
        func tableRow(_ name: String, _ l: LatencyStats, bold: Bool = false) -> String {
            let n = bold ? "<th class=\"name\">\(Self.escape(name))</th>" : "<td class=\"name\">\(Self.escape(name))</td>"
            return "<tr>\(n)<td>\(LatencyFormat.count(l.count))</td>" + cell(l.p50) + cell(l.p90) + cell(l.p99)
                + cell(l.p999) + cell(l.max) + "</tr>\n"
        }
        var rows = tableRow("engine", engine.latency, bold: true)
        for p in providers { rows += tableRow(p.id ?? "?", p.latency) }
        rows += tableRow("submit", submit.latency)
        var slow = ""
        for k in slowest {
            slow += "<tr><td>\(Self.escape(LatencyFormat.time(k.micros)))</td><td class=\"name\"><code>\(Self.escape(k.text))</code>"
                + (k.backspace ? " ⌫" : "") + "</td><td class=\"name\">\(Self.escape(k.provider ?? ""))</td><td>"
                + Self.escape(k.providerMicros.map(LatencyFormat.time) ?? "") + "</td></tr>\n"
        }
        var facts: [String] = []
        if let loadMillis { facts.append("load \(LatencyFormat.time(loadMillis * 1_000))") }
        if let peakMemoryBytes { facts.append("peak memory \(LatencyFormat.bytes(peakMemoryBytes))") }
        facts.append("sessions took \(LatencyFormat.time(run.seconds * 1_000_000))")
        facts.append("swift-suggest \(run.version)")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <title>Keystroke latency · \(Self.escape(configuration.file))</title>
            <style>
            body { font-family: Helvetica, Arial, sans-serif; margin: 24px; color: #222; }
            table { border-collapse: collapse; margin: 12px 0 24px; }
            th, td { padding: 3px 12px; text-align: right; border-bottom: 1px solid #e4e4e4; }
            th.name, td.name { text-align: left; }
            p { color: #555; }
            </style></head><body>
            \(svg())
            <p>\(Self.escape(facts.joined(separator: " · ")))</p>
            <table><tr><th class="name">per keystroke</th><th>count</th><th>p50</th><th>p90</th><th>p99</th>\
            <th>p99.9</th><th>max</th></tr>
            \(rows)</table>
            <table><tr><th>slowest</th><th class="name">text in the field</th><th class="name">slowest provider</th>\
            <th></th></tr>
            \(slow)</table>
            </body></html>

            """
    }

    var subtitle: String {
        let date = run.date.isEmpty ? "" : " · \(run.date.prefix(10))"
        return "\(LatencyFormat.count(run.sessions)) sessions · \(LatencyFormat.count(run.keystrokes)) keystrokes "
            + "(\(LatencyFormat.count(run.misspelt)) sessions misspelt, \(LatencyFormat.count(run.backspaces)) "
            + "backspaces) · seed \(run.seed)\(date)"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
