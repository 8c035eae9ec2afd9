public import SuggestCore

extension TokenProvider {
    /// Backspace into a token: removes the query's last token and puts its text back in the field.
    ///
    /// In SwiftUI, pressing backspace at the start of an empty search field deletes the last token chip. An app that
    /// wants the token to turn back into editable text (as a mail client does with `from:alice`) calls this from
    /// its backspace handling — when the field's text is empty — and sets the field's text and tokens from the
    /// result. The text put back is ``editableText(for:)``: a rule's `editText` (`"from:$value"` → `from:alice`), or
    /// the token's value. It carries no trailing space or delimiter, so it stays text while the person edits it, and
    /// becomes a token again once they type a space (vocabulary, rules) or a delimiter.
    ///
    /// If the field still has text, the token's text goes before it, separated by a space — which completes it, so
    /// the next keystroke turns it back into a token: call this on an empty field.
    ///
    /// ```swift
    /// if searchText.isEmpty, !tokens.isEmpty {
    ///     let edited = provider.removingLastToken(from: SearchQuery(text: searchText, tokens: tokens))
    ///     tokens = edited.tokens
    ///     searchText = edited.text
    /// }
    /// ```
    /// - Returns: `query` without its last token, its text the token's text (before any text it had); `query`
    ///   unchanged if it has no token.
    public func removingLastToken(from query: SearchQuery) -> SearchQuery {
        guard let last = query.tokens.last else { return query }
        var edited = query
        edited.tokens.removeLast()
        let text = editableText(for: last)
        edited.text = query.text.isEmpty ? text : text + " " + query.text
        return edited
    }

    /// The text that makes `token` again: the `editText` of the first rule of its kind that has one
    /// (`$value`/`$kind` replaced), else the token's value.
    public func editableText(for token: SearchToken) -> String {
        editText(for: token) ?? token.value
    }

    /// The `editText` of the first rule of `token`'s kind that has one (`$value`/`$kind` replaced), else nil: what
    /// `SuggestionEngine.editText(for:)` and so `SearchSession.deleteBackward()` put back in the field.
    public func editText(for token: SearchToken) -> String? {
        for rule in rules where rule.kind == token.kind {
            if let template = rule.editText {
                return TokenRule.render(template, value: token.value, kind: token.kind)
            }
        }
        return nil
    }
}

extension SearchQuery {
    /// Backspace into a token without a ``TokenProvider`` at hand: removes the last token and puts its value back
    /// as text (see ``TokenProvider/removingLastToken(from:)``, which also knows a rule's `editText`).
    public func removingLastToken() -> SearchQuery {
        TokenProvider(delimiters: []).removingLastToken(from: self)
    }
}
