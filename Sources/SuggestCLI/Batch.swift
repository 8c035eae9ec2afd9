import ArgumentParser
import Foundation
import Suggest

/// `suggest batch --config C`: JSON Lines in, one JSON line out per input line, flushed, in order.
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer JSON lines on standard input, one JSON line each (see README: suggest batch).",
        discussion: """
            Input lines: {"text": "pyt"} (optional "tokens": [{"kind","value"}], "scope"), {"submit": "python"}, \
            {"select": "python"}, {"reset": true}. Consecutive text lines are one person typing. A malformed \
            line is answered with {"error": "..."} and the stream goes on.
            """
    )

    @Option(name: .shortAndLong, help: "The JSON configuration file.")
    var config: String

    func run() throws {
        let configuration = try ConfigurationLoader.load(config)
        var processor = BatchProcessor(engine: configuration.makeEngine())
        // A reader that goes away is a write error (EPIPE) reported below, not a silent death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var input = LineReader(descriptor: 0)
        var line: [UInt8] = []
        var out = JSONBytes()
        while input.next(into: &line) {
            // One answer per line, blank lines included, written with one `write(2)` as soon as it is computed:
            // an answer that cannot be written stops the stream.
            out.reset()
            processor.answer(line, into: &out)
            out.byte(0x0A)
            try out.bytes.withUnsafeBufferPointer { try Console.outOrExit($0) }
        }
        try RecentsCheck.saveOrFail(configuration)
    }
}

/// The `suggest batch` protocol, one line at a time (kept apart from I/O for clarity).
struct BatchProcessor {
    let engine: SuggestionEngine
    var session = TypingSession()
    var lastQuery = SearchQuery()
    var lastResult: SuggestionResult? = nil

    static let keys = ["text", "tokens", "scope", "submit", "select", "reset"]
    static let tokenKeys = ["kind", "value", "display", "systemImage"]

    init(engine: SuggestionEngine) { self.engine = engine }

    /// The answer to `line`, as one JSON line (without its `\n`) appended to `out`.
    mutating func answer(_ line: [UInt8], into out: inout JSONBytes) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return out.error("empty line") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return out.error("malformed JSON at column \(error.column): \(error.message)")
        }
        guard case .object(let object) = value else {
            return out.error("expected a JSON object, found \(value.kindDescription)")
        }
        for key in object.keys where !Self.keys.contains(key) {
            var message = "unknown key \"\(key)\""
            if let nearest = NearestName.nearest(to: key, in: Self.keys) { message += " — did you mean \"\(nearest)\"?" }
            return out.error(message)
        }
        let actions = ["text", "submit", "select", "reset"].filter { object[$0] != nil }
        guard actions.count == 1 else {
            return out.error(
                actions.isEmpty
                    ? "expected one of \"text\", \"submit\", \"select\" or \"reset\""
                    : "give only one of \(actions.map { "\"\($0)\"" }.joined(separator: ", ")) per line"
            )
        }
        var tokens: [SearchToken] = []
        if let raw = object["tokens"] {
            guard case .array(let items) = raw else { return out.error("tokens: expected an array") }
            for (i, item) in items.enumerated() {
                guard case .object(let fields) = item, let kind = item["kind"]?.stringValue,
                    let value = item["value"]?.stringValue
                else {
                    return out.error("tokens[\(i)]: expected {\"kind\": string, \"value\": string}")
                }
                for key in fields.keys where !Self.tokenKeys.contains(key) {
                    var message = "tokens[\(i)]: unknown key \"\(key)\""
                    if let nearest = NearestName.nearest(to: key, in: Self.tokenKeys) {
                        message += " — did you mean \"\(nearest)\"?"
                    }
                    return out.error(message)
                }
                for key in ["display", "systemImage"] {
                    if let field = fields[key], field.stringValue == nil {
                        return out.error("tokens[\(i)].\(key): expected a string, found \(field.kindDescription)")
                    }
                }
                tokens.append(
                    SearchToken(
                        kind: kind, value: value, display: item["display"]?.stringValue,
                        systemImage: item["systemImage"]?.stringValue
                    )
                )
            }
        }
        var scope: SearchScope? = nil
        if let raw = object["scope"] {
            guard let name = raw.stringValue else { return out.error("scope: expected a string") }
            scope = SearchScope(name)
        }
        switch actions[0] {
        case "text":
            guard let text = object["text"]?.stringValue else {
                return out.error("text: expected a string, found \(object["text"]!.kindDescription)")
            }
            let query = SearchQuery(text: text, tokens: tokens, scope: scope)
            let result = engine.suggestions(for: query, session: &session)
            lastQuery = query
            lastResult = result
            out.result(result, text: text)
        case "submit":
            guard let text = object["submit"]?.stringValue else { return out.error("submit: expected a string") }
            engine.submit(SearchQuery(text: text, tokens: tokens, scope: scope))
            session.reset()
            lastResult = nil
            out.raw("{\"submitted\":")
            out.quoted(text)
            out.byte(0x7D)
        case "select":
            guard let text = object["select"]?.stringValue else { return out.error("select: expected a string") }
            let folded = TextNormalizer.normalizedString(text)
            let shown = lastResult?.suggestions.first { suggestion in
                switch suggestion.completion {
                case .text(let completion): TextNormalizer.normalizedString(completion) == folded
                case .token(let token):
                    TextNormalizer.normalizedString(token.value) == folded
                        || TextNormalizer.normalizedString(suggestion.title) == folded
                case .query(let query):
                    TextNormalizer.normalizedString(query.text) == folded
                        || TextNormalizer.normalizedString(suggestion.title) == folded
                }
            }
            engine.select(shown ?? Suggestion(title: text, completion: .text(text)), for: lastQuery)
            out.raw("{\"selected\":")
            out.quoted(text)
            out.byte(0x7D)
        default:
            guard object["reset"] == .bool(true) else { return out.error("reset: expected true") }
            session.reset()
            lastResult = nil
            lastQuery = SearchQuery()
            out.raw("{\"reset\":true}")
        }
    }
}
