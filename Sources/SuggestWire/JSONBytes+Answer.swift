public import SuggestCore

// The `suggest batch` answer, written with SuggestCore's JSON writer.

extension JSONWriter {
    public static func tokens(_ tokens: [SearchToken]) -> String { JSONBytes.string { $0.tokens(tokens) } }

    /// The `suggest batch` answer for one keystroke.
    public static func result(_ result: SuggestionResult, text: String) -> String {
        JSONBytes.string { $0.result(result, text: text) }
    }

    /// `{"error": message}`.
    public static func error(_ message: String) -> String { JSONBytes.string { $0.error(message) } }
}

extension JSONBytes {
    public mutating func token(_ token: SearchToken) {
        raw("{\"kind\":")
        quoted(token.kind)
        raw(",\"value\":")
        quoted(token.value)
        raw(",\"display\":")
        quoted(token.display)
        if let image = token.systemImage {
            raw(",\"systemImage\":")
            quoted(image)
        }
        byte(0x7D)
    }

    public mutating func tokens(_ tokens: [SearchToken]) {
        byte(0x5B)
        for (i, token) in tokens.enumerated() {
            if i > 0 { byte(0x2C) }
            self.token(token)
        }
        byte(0x5D)
    }

    /// One suggestion: the contract's fields (`text`, `provider`, `score`, `section`, `token`), then extras.
    public mutating func suggestion(_ s: Suggestion) {
        raw("{\"text\":")
        switch s.completion {
        case .text(let text): quoted(text)
        case .token: quoted(s.title)
        case .query(let query): quoted(query.text.isEmpty ? s.title : query.text)
        }
        raw(",\"provider\":")
        quoted(s.provider)
        raw(",\"score\":")
        number(s.score)
        raw(",\"section\":")
        quoted(s.section)
        switch s.completion {
        case .text: break
        case .token(let token):
            raw(",\"token\":")
            self.token(token)
        case .query(let query):
            // A search of tokens only completes, as before `.query` existed, as its first token; `tokens` has all.
            if query.text.isEmpty, let first = query.tokens.first {
                raw(",\"token\":")
                self.token(first)
            }
            raw(",\"tokens\":[")
            for (i, token) in query.tokens.enumerated() {
                if i > 0 { byte(0x2C) }
                self.token(token)
            }
            byte(0x5D)
        }
        raw(",\"title\":")
        quoted(s.title)
        raw(",\"tier\":")
        quoted(s.tier.description)
        if s.typos > 0 {
            raw(",\"typos\":")
            integer(s.typos)
        }
        if s.typoKindFactor != 1 {
            raw(",\"typoKindFactor\":")
            number(s.typoKindFactor)
        }
        if s.wordsOutOfOrder { raw(",\"wordsOutOfOrder\":true") }
        if let synonym = s.synonym {
            raw(",\"synonym\":{\"term\":")
            quoted(synonym.term)
            raw(",\"replacement\":")
            quoted(synonym.replacement)
            byte(0x7D)
        }
        raw(",\"ranges\":[")
        for (i, range) in s.matchedRanges.enumerated() {
            if i > 0 { byte(0x2C) }
            byte(0x5B)
            integer(range.lowerBound)
            byte(0x2C)
            integer(range.upperBound)
            byte(0x5D)
        }
        byte(0x5D)
        if s.providers.count > 1 {
            raw(",\"providers\":")
            strings(s.providers)
        }
        if let subtitle = s.subtitle {
            raw(",\"subtitle\":")
            quoted(subtitle)
        }
        if let image = s.systemImage {
            raw(",\"systemImage\":")
            quoted(image)
        }
        byte(0x7D)
    }

    /// The `suggest batch` answer for one keystroke; with `providers`, also each provider's time in microseconds,
    /// by provider id in the engine's order (`"timings":{"prefix":3.5,"fuzzy":12.5}`).
    public mutating func result(_ result: SuggestionResult, text: String, providers: Bool = false) {
        raw("{\"text\":")
        quoted(text)
        raw(",\"micros\":")
        micros(result.diagnostics.micros)
        raw(",\"remaining\":")
        quoted(result.remainingText)
        raw(",\"tokens\":")
        tokens(result.tokens)
        raw(",\"suggestions\":[")
        var first = true
        for section in result.sections {
            // Through the buffer: each suggestion is borrowed, not copied (a copy retains each of its strings).
            section.suggestions.withUnsafeBufferPointer { suggestions in
                for i in suggestions.indices {
                    if !first { byte(0x2C) }
                    first = false
                    suggestion(suggestions[i])
                }
            }
        }
        raw("],\"suggestedTokens\":")
        tokens(result.suggestedTokens)
        raw(",\"generation\":")
        integer(result.generation)
        if let common = result.commonCompletion {
            raw(",\"commonCompletion\":")
            quoted(common)
        }
        if let marked = result.markedRange {
            // The text being composed: no asynchronous provider was asked, no text turned into tokens.
            raw(",\"composing\":")
            quoted(SearchQuery(text: result.remainingText, markedRange: marked).markedText)
        }
        let errors = result.diagnostics.errors
        if !errors.isEmpty {
            raw(",\"errors\":")
            strings(errors)
        }
        if !result.diagnostics.notes.isEmpty {
            raw(",\"notes\":")
            strings(result.diagnostics.notes)
        }
        if providers {
            raw(",\"timings\":{")
            for (i, report) in result.diagnostics.providers.enumerated() {
                if i > 0 { byte(0x2C) }
                quoted(report.provider)
                byte(0x3A)
                micros(report.micros)
            }
            byte(0x7D)
        }
        byte(0x7D)
    }

    public mutating func error(_ message: String) {
        raw("{\"error\":")
        quoted(message)
        byte(0x7D)
    }
}
