import ArgumentParser
import Foundation
import Suggest
import SuggestBench
import SuggestWire

/// `suggest demo`: types a few searches keystroke by keystroke on the embedded dictionary.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Type a few searches keystroke by keystroke on the embedded demo dictionary."
    )

    @Option(name: .shortAndLong, help: "Use this configuration instead of the embedded demo (its stores are read, never written).")
    var config: String?

    @Option(name: .long, help: "How many suggestions to print per keystroke.")
    var show: Int = 5

    func validate() throws {
        guard show >= 0 else { throw ValidationError("--show \(show): expected 0 or more") }
    }

    func run() throws {
        let start = ContinuousClock.now
        let engine: SuggestionEngine
        if let config {
            // Its scripted searches are not the person's: nothing is saved to the configuration's stores.
            engine = try ConfigurationLoader.load(config).makeBenchEngine()
        } else {
            do {
                engine = try DemoData.configuration().makeEngine()
            } catch {
                for e in error.errors { Console.error("error: \(e)") }
                throw ExitCode(1)
            }
        }
        let elapsed = ContinuousClock.now - start
        Console.out("swift-suggest demo — \(engine.slots.count) providers: "
            + engine.slots.map(\.provider.id).joined(separator: ", "))
        Console.out(
            LoadReport.line(entries: LoadReport.entryCount(engine.slots), elapsed: elapsed)
                + " (configuration, indexes, warm-up)")
        #if DEBUG
            Console.out("(a debug build: keystroke times are several times those of `swift run -c release suggest demo`)")
        #endif
        var session = TypingSession()
        var history: [SearchQuery] = []
        for search in DemoData.searches {
            Console.out("")
            Console.out("Typing \"\(search)\"")
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
                Console.out("  " + Table.pad("\"\(field)\"", 22) + Table.pad("\(time) µs", 10) + shown.joined(separator: " · "))
            }
            let submitted = engine.submit(SearchQuery(text: typed, tokens: tokens))
            history.append(submitted)
            session.reset()
            Console.out("  ⏎ submitted \"\(search)\"")
        }
        Console.out("")
        Console.out("Empty field after those searches:")
        let empty = engine.suggestions(for: SearchQuery(), session: &session)
        for s in empty.suggestions.prefix(show) { Console.out("  \(s.section): \(s.title)") }
        if empty.suggestions.isEmpty { Console.out("  (nothing: no recent-searches provider in this configuration)") }
    }
}

/// The start-up line `suggest demo` and `suggest serve` print: how many dictionary entries the providers loaded, and
/// how long reading the configuration and building or loading their indexes took.
enum LoadReport {
    /// The entries of the distinct dictionaries that the prefix and fuzzy providers of `slots` hold (a dictionary
    /// that both providers share counts once).
    static func entryCount(_ slots: [ProviderSlot]) -> Int {
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
    static func line(entries: Int, elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        let total = Double(seconds) + Double(attoseconds) / 1e18
        let time = total < 0.1 ? String(format: "%.1f ms", total * 1000) : String(format: "%.2f s", total)
        return "loaded \(grouped(entries)) entries in \(time)"
    }

    /// `886323` → `886,323`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }
}
