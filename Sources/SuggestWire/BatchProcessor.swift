public import SuggestCore

/// The `suggest batch` protocol, one line at a time (kept apart from I/O for clarity): one field's typing state
/// (``session``, the last query and result, for `select`) over an engine. `suggest serve` keeps one per session id.
public struct BatchProcessor: Sendable {
    public let engine: SuggestionEngine
    public var session = TypingSession()
    public var lastQuery = SearchQuery()
    public var lastResult: SuggestionResult? = nil
    /// Whether each keystroke's answer also gives every provider's time (`"timings":{"prefix":3.5,"fuzzy":12.5}`).
    public var reportsProviders = false

    public static var keys: [String] { BatchCommand.keys }
    public static var tokenKeys: [String] { BatchCommand.tokenKeys }

    public init(engine: SuggestionEngine) { self.engine = engine }

    /// The answer to `line`, as one JSON line (without its `\n`) appended to `out`: a malformed line gets
    /// `{"error": …}`, a keystroke its suggestions — with every provider, asynchronous ones within their deadlines,
    /// when the engine has any — and `submit`, `select` and `reset` their acknowledgements.
    public mutating func answer(_ line: [UInt8], into out: inout JSONBytes) async {
        do {
            await answer(try BatchCommand.parse(line), into: &out)
        } catch {
            out.error(error.message)
        }
    }

    /// The answer to an already parsed command (a `suggest serve` request), as ``answer(_:into:)-([UInt8],_)`` gives.
    public mutating func answer(_ command: BatchCommand, into out: inout JSONBytes) async {
        guard case .text(let text) = command.action else { return perform(command, into: &out) }
        let query = command.query
        let result: SuggestionResult
        if engine.hasAsynchronousProviders {
            var session = self.session
            result = await engine.allSuggestions(for: query, session: &session)
            self.session = session
        } else {
            result = engine.suggestions(for: query, session: &session)
        }
        record(query, result, text: text, into: &out)
    }

    /// The answer to `line` from the synchronous providers only, for a caller that cannot wait (a fuzzing harness,
    /// a synchronous loop): asynchronous providers are reported skipped, as `SuggestionEngine.suggestions` does.
    public mutating func answerWithoutWaiting(_ line: [UInt8], into out: inout JSONBytes) {
        let command: BatchCommand
        do {
            command = try BatchCommand.parse(line)
        } catch {
            return out.error(error.message)
        }
        guard case .text(let text) = command.action else { return perform(command, into: &out) }
        let query = command.query
        record(query, engine.suggestions(for: query, session: &session), text: text, into: &out)
    }

    /// Records a keystroke's result (for `select`) and writes it, echoing the line's `text`.
    private mutating func record(
        _ query: SearchQuery, _ result: SuggestionResult, text: String, into out: inout JSONBytes
    ) {
        lastQuery = query
        lastResult = result
        out.result(result, text: text, providers: reportsProviders)
    }

    /// Submit, select and reset: the actions that are not a keystroke (a keystroke is answered by the caller).
    private mutating func perform(_ command: BatchCommand, into out: inout JSONBytes) {
        switch command.action {
        case .text:
            preconditionFailure("a keystroke is answered by answer(_:into:)")
        case .submit(let text):
            engine.submit(command.query)
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
