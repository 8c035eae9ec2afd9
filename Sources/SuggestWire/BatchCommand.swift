public import SuggestCore

/// One parsed `suggest batch` line (or one `suggest serve` request): what to do, with the tokens and scope.
public struct BatchCommand: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        /// A keystroke: the field now holds this text.
        case text(String)
        /// The search was submitted.
        case submit(String)
        /// The person chose the shown suggestion with this text.
        case select(String)
        /// The field was cleared and its typing state forgotten.
        case reset
    }

    public var action: Action
    public var tokens: [SearchToken]
    public var scope: SearchScope?
    /// For a keystroke (``Action/text(_:)``): text an input method is still composing after the committed text (the
    /// line's `"composing"`); the field holds the text followed by it. Nil or empty: nothing is being composed.
    public var composing: String?

    public init(action: Action, tokens: [SearchToken] = [], scope: SearchScope? = nil, composing: String? = nil) {
        self.action = action
        self.tokens = tokens
        self.scope = scope
        self.composing = composing
    }

    /// The search this command is about: its text (typed, submitted or selected; empty for `reset`) with the
    /// command's tokens and scope. A keystroke with text being composed (``composing``) has the committed text
    /// followed by it, and its `SearchQuery.markedRange` covering it.
    public var query: SearchQuery {
        let text: String
        switch action {
        case .text(let typed):
            if let composing, !composing.isEmpty {
                let start = typed.utf8.count
                return SearchQuery(
                    text: typed + composing, tokens: tokens, scope: scope,
                    markedRange: start..<(start + composing.utf8.count)
                )
            }
            text = typed
        case .submit(let submitted): text = submitted
        case .select(let selected): text = selected
        case .reset: text = ""
        }
        return SearchQuery(text: text, tokens: tokens, scope: scope)
    }

    /// The keys of a line.
    public static let keys = ["text", "composing", "tokens", "scope", "submit", "select", "reset"]
    /// The keys of a token.
    public static let tokenKeys = ["kind", "value", "display", "systemImage"]

    /// Why a line was refused: the message of its `{"error": …}` answer.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// Parses one line of JSON.
    /// - Throws: ``Problem`` (empty line, malformed JSON, unknown key, wrong type, no or several actions).
    public static func parse(_ line: [UInt8]) throws(Problem) -> BatchCommand {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { throw Problem("empty line") }
        return try parse(try value(in: line))
    }

    /// The keys of a request body (`suggest serve`'s `POST /submit` and `POST /select`), whose endpoint gives the
    /// action.
    public static let bodyKeys = ["text", "tokens", "scope"]

    /// Parses a request body, `{"text": string, "tokens"?: [...], "scope"?: string}`, with the same JSON reader and
    /// the same messages as a line; `action` makes the command's action of its text.
    /// - Throws: ``Problem``.
    public static func parse(body: [UInt8], action: (String) -> Action) throws(Problem) -> BatchCommand {
        let object = try object(in: body)
        try refuseUnknownKeys(of: object, known: bodyKeys)
        guard let text = object["text"]?.stringValue else { throw Problem("text: expected a string") }
        let scope = try self.scope(in: object)
        let tokens = try object["tokens"].map { raw throws(Problem) in try Self.tokens(raw) } ?? []
        return BatchCommand(action: action(text), tokens: tokens, scope: scope)
    }

    /// Parses the JSON text of a `"tokens"` array (`suggest serve`'s `tokens` parameter).
    /// - Throws: ``Problem``.
    public static func tokens(json: [UInt8]) throws(Problem) -> [SearchToken] {
        return try tokens(try value(in: json, named: "tokens: "))
    }

    /// The JSON value `bytes` hold; `name` starts the message of a syntax error.
    private static func value(in bytes: [UInt8], named name: String = "") throws(Problem) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw Problem("\(name)malformed JSON at column \(error.column): \(error.message)")
        }
    }

    /// The JSON object `bytes` hold.
    private static func object(in bytes: [UInt8]) throws(Problem) -> JSONObject {
        try object(of: try value(in: bytes))
    }

    /// `value` as an object.
    private static func object(of value: JSONValue) throws(Problem) -> JSONObject {
        guard case .object(let object) = value else {
            throw Problem("expected a JSON object, found \(value.kindDescription)")
        }
        return object
    }

    /// The first key of `object` that is not `known`, as an error with the nearest known key.
    private static func refuseUnknownKeys(of object: JSONObject, known: [String]) throws(Problem) {
        for key in object.keys where !known.contains(key) {
            var message = "unknown key \"\(key)\""
            if let nearest = NearestName.nearest(to: key, in: known) { message += " — did you mean \"\(nearest)\"?" }
            throw Problem(message)
        }
    }

    /// The `"scope"` of `object`, if it has one.
    private static func scope(in object: JSONObject) throws(Problem) -> SearchScope? {
        guard let raw = object["scope"] else { return nil }
        guard let name = raw.stringValue else { throw Problem("scope: expected a string") }
        return SearchScope(name)
    }

    /// Reads a parsed line.
    /// - Throws: ``Problem``.
    public static func parse(_ value: JSONValue) throws(Problem) -> BatchCommand {
        let object = try object(of: value)
        try refuseUnknownKeys(of: object, known: keys)
        let actions = ["text", "submit", "select", "reset"].filter { object[$0] != nil }
        guard actions.count == 1 else {
            throw Problem(
                actions.isEmpty
                    ? "expected one of \"text\", \"submit\", \"select\" or \"reset\""
                    : "give only one of \(actions.map { "\"\($0)\"" }.joined(separator: ", ")) per line"
            )
        }
        let tokens = try object["tokens"].map { raw throws(Problem) in try Self.tokens(raw) } ?? []
        let scope = try self.scope(in: object)
        var composing: String? = nil
        if let raw = object["composing"] {
            guard actions[0] == "text" else { throw Problem("composing: only with \"text\" (a keystroke)") }
            guard let marked = raw.stringValue else {
                throw Problem("composing: expected a string, found \(raw.kindDescription)")
            }
            composing = marked
        }
        let action: Action
        switch actions[0] {
        case "text":
            guard let text = object["text"]?.stringValue else {
                throw Problem("text: expected a string, found \(object["text"]!.kindDescription)")
            }
            action = .text(text)
        case "submit":
            guard let text = object["submit"]?.stringValue else { throw Problem("submit: expected a string") }
            action = .submit(text)
        case "select":
            guard let text = object["select"]?.stringValue else { throw Problem("select: expected a string") }
            action = .select(text)
        default:
            guard object["reset"] == .bool(true) else { throw Problem("reset: expected true") }
            action = .reset
        }
        return BatchCommand(action: action, tokens: tokens, scope: scope, composing: composing)
    }

    /// Reads a `"tokens"` array: `[{"kind": string, "value": string, "display"?: string, "systemImage"?: string}]`.
    /// - Throws: ``Problem``.
    public static func tokens(_ raw: JSONValue) throws(Problem) -> [SearchToken] {
        guard case .array(let items) = raw else { throw Problem("tokens: expected an array") }
        var tokens: [SearchToken] = []
        for (i, item) in items.enumerated() {
            guard case .object(let fields) = item, let kind = item["kind"]?.stringValue,
                let value = item["value"]?.stringValue
            else {
                throw Problem("tokens[\(i)]: expected {\"kind\": string, \"value\": string}")
            }
            // A token names its kind (`from:alice`): one without could not be told apart, nor removed by kind:value.
            guard !kind.isEmpty else { throw Problem("tokens[\(i)].kind: expected a non-empty string") }
            for key in fields.keys where !tokenKeys.contains(key) {
                var message = "tokens[\(i)]: unknown key \"\(key)\""
                if let nearest = NearestName.nearest(to: key, in: tokenKeys) {
                    message += " — did you mean \"\(nearest)\"?"
                }
                throw Problem(message)
            }
            for key in ["display", "systemImage"] {
                if let field = fields[key], field.stringValue == nil {
                    throw Problem("tokens[\(i)].\(key): expected a string, found \(field.kindDescription)")
                }
            }
            tokens.append(
                SearchToken(
                    kind: kind, value: value, display: item["display"]?.stringValue,
                    systemImage: item["systemImage"]?.stringValue
                )
            )
        }
        return tokens
    }
}
