import ArgumentParser
import Foundation
import Suggest

/// `suggest demo`: types a few searches keystroke by keystroke on the embedded dictionary.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Type a few searches keystroke by keystroke on the embedded demo dictionary."
    )

    @Option(name: .shortAndLong, help: "Use this configuration instead of the embedded demo.")
    var config: String?

    @Option(name: .long, help: "How many suggestions to print per keystroke.")
    var show: Int = 5

    func run() throws {
        let start = ContinuousClock.now
        let engine: SuggestionEngine
        var indexLine: String? = nil
        if let config {
            engine = try ConfigurationLoader.load(config).makeEngine()
        } else {
            let (configuration, source): (EngineConfiguration, DemoData.IndexSource)
            do {
                (configuration, source) = try DemoData.configuration()
            } catch {
                for e in error.errors { Console.error("error: \(e)") }
                throw ExitCode(1)
            }
            engine = configuration.makeEngine()
            // A prebuilt index that exists but cannot be used is worth a warning; its absence is not.
            if case .builtAtStart(let reason) = source, DemoData.prebuiltIndexURL != nil {
                Console.error("warning: the prebuilt demo index is not used: \(reason)")
            }
            indexLine = "prefix index: \(source)"
        }
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        Console.out("swift-suggest demo — \(engine.slots.count) providers: "
            + engine.slots.map(\.provider.id).joined(separator: ", "))
        if let indexLine { Console.out(indexLine) }
        let rounded = JSONWriter.number((milliseconds * 10).rounded() / 10)
        Console.out("start-up (configuration, indexes, warm-up): \(rounded) ms")
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
