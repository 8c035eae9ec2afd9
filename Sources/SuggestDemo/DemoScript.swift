import Foundation
public import Suggest

/// What `suggest demo` (and `suggest-demo`, which `make demo` builds without the rest of the command) prints: the
/// engine's providers and load time, then each of ``DemoData/searches`` typed keystroke by keystroke with the
/// suggestions and each keystroke's time, each search submitted, and what an empty field shows after them.
public enum DemoScript: Sendable {
    /// Types the searches on `engine`, writing each line with `write`.
    /// - Parameters:
    ///   - engine: the engine (the embedded demo's, or a configuration's that saves nothing).
    ///   - loadTime: how long reading the configuration and building the indexes took.
    ///   - show: how many suggestions to print per keystroke.
    ///   - searches: what to type.
    ///   - write: one line of output.
    public static func run(
        engine: SuggestionEngine, loadTime: Duration, show: Int = 5, searches: [String] = DemoData.searches,
        write: (String) -> Void
    ) {
        let providers = engine.slots.map(\.provider.id).joined(separator: ", ")
        write("swift-suggest demo — \(engine.slots.count) providers: \(providers)")
        let loaded = LoadReport.line(entries: LoadReport.entryCount(engine.slots), elapsed: loadTime)
        write(loaded + " (configuration, indexes, warm-up)")
        #if DEBUG
            write("(a debug build: keystroke times are several times those of `swift run -c release suggest demo`)")
        #endif
        var session = TypingSession()
        for search in searches {
            write("")
            write("Typing \"\(search)\"")
            var typed = ""
            var tokens: [SearchToken] = []
            var last = SuggestionResult()
            for character in search {
                typed.append(character)
                last = engine.suggestions(for: SearchQuery(text: typed, tokens: tokens), session: &session)
                // Text that turned into tokens leaves the field, as it would in an app.
                tokens = last.tokens
                typed = last.remainingText
                let shown = last.suggestions.prefix(show).map { s -> String in
                    if case .token(let token) = s.completion { return "[\(token.kind): \(token.display)]" }
                    return s.section == "Recent" ? "↺ " + s.title : s.title
                }
                let field = tokens.map { "[\($0.display)]" }.joined(separator: " ") + (tokens.isEmpty ? "" : " ") + typed
                let time = JSONWriter.micros(last.diagnostics.micros)
                write("  " + pad("\"\(field)\"", 22) + pad("\(time) µs", 10) + shown.joined(separator: " · "))
            }
            _ = engine.submit(SearchQuery(text: typed, tokens: tokens))
            session.reset()
            write("  ⏎ submitted \"\(search)\"")
        }
        write("")
        write("Empty field after those searches:")
        let empty = engine.suggestions(for: SearchQuery(), session: &session)
        for s in empty.suggestions.prefix(show) { write("  \(s.section): \(s.title)") }
        if empty.suggestions.isEmpty { write("  (nothing: no recent-searches provider in this configuration)") }
    }

    /// `s` followed by spaces up to `width` characters (one space at least).
    public static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}

/// The start-up line `suggest demo` and `suggest serve` print: how many dictionary entries the providers loaded, and
/// how long reading the configuration and building or loading their indexes took.
public enum LoadReport: Sendable {
    /// The entries of the distinct dictionaries that the prefix and fuzzy providers of `slots` hold (a dictionary
    /// that both providers share counts once).
    public static func entryCount(_ slots: [ProviderSlot]) -> Int {
        var counts: [String: Int] = [:]
        for slot in slots {
            if let prefix = slot.provider as? PrefixProvider {
                let dictionary = prefix.index.base.dictionary
                counts[dictionary.source] = dictionary.count
            } else if let fuzzy = slot.provider as? FuzzyProvider {
                counts[fuzzy.index.dictionary.source] = fuzzy.index.count
            }
        }
        return counts.values.reduce(0, +)
    }

    /// `loaded N entries in T` (N grouped by thousands; T in seconds, or in milliseconds under 0.1 s).
    public static func line(entries: Int, elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        let total = Double(seconds) + Double(attoseconds) / 1e18
        let time = total < 0.1 ? String(format: "%.1f ms", total * 1000) : String(format: "%.2f s", total)
        return "loaded \(grouped(entries)) entries in \(time)"
    }

    /// `886323` → `886,323`.
    public static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }
}
