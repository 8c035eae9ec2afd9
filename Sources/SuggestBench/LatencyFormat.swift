import Foundation

/// How the bench writes numbers for people (also `suggest bench`'s progress line).
package enum LatencyFormat {
    /// `0.42 µs`, `12.3 µs`, `1.24 ms`, `1.50 s`: three significant figures, at most 9 characters.
    static func time(_ micros: Double) -> String {
        if micros < 10 { return String(format: "%.2f µs", micros) }
        if micros < 999.95 { return String(format: "%.1f µs", micros) }
        if micros < 9_999.5 { return String(format: "%.2f ms", micros / 1_000) }
        if micros < 999_950 { return String(format: "%.1f ms", micros / 1_000) }
        return String(format: "%.2f s", micros / 1_000_000)
    }

    /// A time axis label: `1 µs`, `10 µs`, `100 µs`, `1 ms`, `0.1 µs`, `1 s`.
    static func tick(_ micros: Double) -> String {
        func clean(_ x: Double) -> String {
            x == x.rounded() ? String(Int(x)) : String(format: "%g", x)
        }
        if micros < 1_000 { return "\(clean(micros)) µs" }
        if micros < 1_000_000 { return "\(clean(micros / 1_000)) ms" }
        return "\(clean(micros / 1_000_000)) s"
    }

    /// `12,345`.
    package static func count(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// `48.3 MB`.
    static func bytes(_ n: Int) -> String {
        let mb = Double(n) / 1_000_000
        return mb < 10 ? String(format: "%.2f MB", mb) : String(format: "%.1f MB", mb)
    }

    /// `+8.1%`, `-12.0%`.
    static func change(_ fraction: Double) -> String { String(format: "%+.1f%%", fraction * 100) }

    /// `text` cut to `width` characters (with `…`) and padded on the right (or left) with spaces.
    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        var t = text
        if t.count > width { t = String(t.prefix(max(0, width - 1))) + "…" }
        let fill = String(repeating: " ", count: max(0, width - t.count))
        return right ? fill + t : t + fill
    }
}
