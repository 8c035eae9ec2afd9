public import SuggestCore

/// The `suggest batch` protocol, one line at a time (kept apart from I/O for clarity): one field's typing state
/// (``session``, the last query and result, for `select`) over an engine. `suggest serve` keeps one per session id.
public struct BatchProcessor: Sendable {
    public let engine: SuggestionEngine
    public var session = TypingSession()
    public var lastQuery = SearchQuery()
    public var lastResult: SuggestionResult? = nil

    public static var keys: [String] { BatchCommand.keys }
    public static var tokenKeys: [String] { BatchCommand.tokenKeys }

    public init(engine: SuggestionEngine) { self.engine = engine }

    /// The answer to `line`, as one JSON line (without its `\n`) appended to `out`. Asynchronous providers are
    /// skipped (the synchronous engine call).
    public mutating func answer(_ line: [UInt8], into out: inout JSONBytes) {
        let command: BatchCommand
        do {
            command = try BatchCommand.parse(line)
        } catch {
            return out.error(error.message)
        }
        if case .text(let text) = command.action {
            let query = SearchQuery(text: text, tokens: command.tokens, scope: command.scope)
            let result = engine.suggestions(for: query, session: &session)
            return keystroke(query, result, into: &out)
        }
        perform(command, into: &out)
    }

    /// The answer to `line` with every provider, asynchronous ones within their deadlines (`suggest batch` when the
    /// configuration has a remote or PostgreSQL provider).
    public mutating func answerAll(_ line: [UInt8], into out: inout JSONBytes) async {
        let command: BatchCommand
        do {
            command = try BatchCommand.parse(line)
        } catch {
            return out.error(error.message)
        }
        await answer(command, into: &out)
    }

    /// The answer to `command` with every provider, asynchronous ones within their deadlines.
    public mutating func answer(_ command: BatchCommand, into out: inout JSONBytes) async {
        if case .text(let text) = command.action {
            let query = SearchQuery(text: text, tokens: command.tokens, scope: command.scope)
            var session = self.session
            let result = await engine.allSuggestions(for: query, session: &session)
            self.session = session
            return keystroke(query, result, into: &out)
        }
        perform(command, into: &out)
    }

    /// Records a keystroke's result (for `select`) and writes it.
    public mutating func keystroke(_ query: SearchQuery, _ result: SuggestionResult, into out: inout JSONBytes) {
        lastQuery = query
        lastResult = result
        out.result(result, text: query.text)
    }

    /// Submit, select and reset (the actions that are not a keystroke).
    public mutating func perform(_ command: BatchCommand, into out: inout JSONBytes) {
        switch command.action {
        case .text(let text):
            // Keystrokes go through `answer`; answer one here without asynchronous providers.
            let query = SearchQuery(text: text, tokens: command.tokens, scope: command.scope)
            let result = engine.suggestions(for: query, session: &session)
            keystroke(query, result, into: &out)
        case .submit(let text):
            engine.submit(SearchQuery(text: text, tokens: command.tokens, scope: command.scope))
            session.reset()
            lastResult = nil
            out.raw("{\"submitted\":")
            out.quoted(text)
            out.byte(0x7D)
        case .select(let text):
            engine.select(shownSuggestion(text) ?? Suggestion(title: text, completion: .text(text)), for: lastQuery)
            out.raw("{\"selected\":")
            out.quoted(text)
            out.byte(0x7D)
        case .reset:
            session.reset()
            lastResult = nil
            lastQuery = SearchQuery()
            out.raw("{\"reset\":true}")
        }
    }

    /// The suggestion of the last result whose text (or token value or title) folds to `text`'s.
    public func shownSuggestion(_ text: String) -> Suggestion? {
        let folded = TextNormalizer.normalizedString(text)
        return lastResult?.suggestions.first { suggestion in
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
    }
}
