import ArgumentParser
import Foundation
import Suggest
import SuggestDemo
import SuggestWire

/// `suggest query --config C TEXT`: one keystroke, as a table or JSON.
struct Query: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Suggest for one text and print the result.")

    @Option(name: .shortAndLong, help: "The JSON configuration file.")
    var config: String

    @Argument(help: "The text typed so far.")
    var text: String

    @Option(name: .long, help: "A token already in the field, as kind:value (repeatable).")
    var token: [String] = []

    @Option(name: .long, help: "The selected scope.")
    var scope: String?

    @Flag(name: .long, help: "Print the suggest batch JSON line instead of a table.")
    var json = false

    @Flag(name: .long, help: "Show each suggestion's tier, provider, weight, popularity and score.")
    var explain = false

    func validate() throws {
        // The arguments as the shell gave them: a byte that is not UTF-8 would reach the engine as U+FFFD and match
        // nothing, where `suggest batch` refuses the same text.
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            if let offset = JSONParser.firstInvalidUTF8(bytes) {
                let before = String(decoding: bytes[..<offset], as: UTF8.self)
                throw ValidationError("argument \(index) is not valid UTF-8 at byte \(offset) (after \"\(before)\")")
            }
        }
        for t in token { _ = try SearchToken.commandLine(t) }
    }

    func run() async throws {
        let configuration = try ConfigurationLoader.load(config)
        RecentsCheck.warnUnreadStores(configuration, file: config)
        let engine = configuration.makeEngine()
        let tokens = try token.map(SearchToken.commandLine)
        let query = SearchQuery(text: text, tokens: tokens, scope: scope.map { SearchScope($0) })
        // Remote and PostgreSQL providers answer within their deadlines.
        var session = TypingSession()
        let result =
            engine.hasAsynchronousProviders
            ? await engine.allSuggestions(for: query, session: &session) : engine.suggestions(for: query)
        if json {
            Console.out(JSONWriter.result(result, text: text))
        } else {
            Console.out(Table.render(result, explain: explain))
        }
        // A provider that failed is shown with the answer, and the status says so.
        if !result.diagnostics.errors.isEmpty { throw ExitCode(1) }
    }
}

/// A readable rendering of one result.
enum Table {
    static func render(_ result: SuggestionResult, explain: Bool) -> String {
        var lines: [String] = []
        if !result.tokens.isEmpty {
            lines.append("tokens: " + result.tokens.map { "[\($0.kind): \($0.display)]" }.joined(separator: " "))
        }
        if !result.tokens.isEmpty {
            lines.append("text:   \"\(result.remainingText)\"")
        }
        if !result.suggestedTokens.isEmpty {
            lines.append("suggested tokens: " + result.suggestedTokens.map { "[\($0.kind): \($0.display)]" }.joined(separator: " "))
        }
        if result.sections.isEmpty { lines.append("(no suggestions)") }
        var rank = 0
        for section in result.sections {
            lines.append("\(section.title)")
            for s in section.suggestions {
                rank += 1
                var line = pad("\(rank).", 4) + pad(highlight(s), 32)
                if case .token(let token) = s.completion { line += " → token \(token.kind):\(token.value)" }
                if explain {
                    line += "  " + pad(s.tier.description + (s.typos > 0 ? " (\(s.typos))" : ""), 13)
                    line += pad(s.providers.joined(separator: "+"), 14)
                    line += "weight \(JSONWriter.number(s.weight)) × popularity \(JSONWriter.number(s.popularity))"
                    line += " = score \(JSONWriter.number(s.score))"
                    if s.typoKindFactor != 1 {
                        let factor = (s.typoKindFactor * 1000).rounded() / 1000
                        line += " · kinds of typos ×\(JSONWriter.number(factor)) in popularity"
                    }
                    if s.wordsOutOfOrder { line += " · words in another order" }
                    if let synonym = s.synonym { line += " · synonym \(synonym.term) → \(synonym.replacement)" }
                } else if let subtitle = s.subtitle {
                    line += "  " + subtitle
                }
                lines.append("  " + line)
            }
        }
        var footer = "\(JSONWriter.micros(result.diagnostics.micros)) µs"
        if let common = result.commonCompletion { footer += " · Tab completes \"\(common)\"" }
        lines.append(footer)
        for error in result.diagnostics.errors { lines.append("error: \(error)") }
        for note in result.diagnostics.notes { lines.append("note: \(note)") }
        return lines.joined(separator: "\n")
    }

    /// The title with matched parts in *asterisks*.
    static func highlight(_ s: Suggestion) -> String {
        let utf8 = Array(s.title.utf8)
        var out: [UInt8] = []
        var position = 0
        for range in s.matchedRanges.sorted(by: { $0.lowerBound < $1.lowerBound })
        where range.lowerBound >= position && range.upperBound <= utf8.count {
            out += utf8[position..<range.lowerBound]
            out += [UInt8(ascii: "*")] + utf8[range] + [UInt8(ascii: "*")]
            position = range.upperBound
        }
        out += utf8[position...]
        return String(decoding: out, as: UTF8.self)
    }

    static func pad(_ s: String, _ width: Int) -> String { DemoScript.pad(s, width) }
}
