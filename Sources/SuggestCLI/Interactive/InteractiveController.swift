import Foundation
import Observation
import Suggest

/// The state of `suggest interactive` between keystrokes: a ``SearchSession`` (every engine decision — keystrokes,
/// tokens, Tab's common completion, choosing, submitting, backspace into a token — is the session's) plus the
/// selected row and the last thing submitted. No terminal here: keys in, an ``InteractiveFrame`` out.
@MainActor
final class InteractiveController {
    /// What a key asks the program to do next.
    enum Outcome: Equatable {
        case `continue`
        case quit
    }

    /// A row that can be selected, by identity, so that the selection survives an asynchronous update that
    /// reorders the list.
    enum Choice: Hashable {
        case suggestion(Suggestion.Completion)
        case token(SearchToken)
    }

    let session: SearchSession
    /// The row selected with ↑/↓; nil: none (Enter submits the text).
    private(set) var selection: Choice? = nil
    /// What the last Enter submitted, shown in the status line until the next edit.
    private(set) var submitted: String? = nil
    /// Called after the session's result changed: an asynchronous provider answered (or a key changed it — the
    /// caller redraws after a key anyway).
    var onUpdate: (@MainActor () -> Void)? = nil

    init(session: SearchSession) {
        self.session = session
        observeResult()
    }

    // MARK: Keys

    func handle(_ key: Key) -> Outcome {
        switch key {
        case .text(let text):
            edit { session.text += text }
        case .backspace:
            edit { session.deleteBackward() }
        case .control("w"):
            edit { deleteWord() }
        case .control("u"):
            edit { session.text = "" }
        case .escape:
            edit { session.clear() }
        case .up, .control("p"):
            move(by: -1)
        case .down, .control("n"):
            move(by: 1)
        case .pageUp:
            move(by: -5)
        case .pageDown:
            move(by: 5)
        case .tab:
            complete()
        case .enter:
            submit()
        case .control("s"):
            nextScope()
        case .control("c"):
            return .quit
        case .control("d"):
            if session.text.isEmpty && session.tokens.isEmpty { return .quit }
        default:
            break
        }
        return .continue
    }

    /// An edit of the field: the selection and the "submitted" note go.
    private func edit(_ change: () -> Void) {
        selection = nil
        submitted = nil
        change()
    }

    /// Ctrl-W: the last word of the text (and the spaces after it); on an empty text, backspace.
    private func deleteWord() {
        guard !session.text.isEmpty else { return session.deleteBackward() }
        var text = session.text
        while text.last?.isWhitespace == true { text.removeLast() }
        while let last = text.last, !last.isWhitespace { text.removeLast() }
        session.text = text
    }

    /// ↑/↓: from no selection ↓ selects the first row; ↑ from the first row goes back to the text.
    private func move(by offset: Int) {
        let choices = self.choices
        guard !choices.isEmpty else {
            selection = nil
            return
        }
        let current = selection.flatMap { choices.firstIndex(of: $0) }
        let target: Int? =
            switch current {
            case nil: offset > 0 ? min(offset, choices.count) - 1 : nil
            case let index?: index + offset < 0 ? nil : min(index + offset, choices.count - 1)
            }
        selection = target.map { choices[$0] }
    }

    /// Tab: applies the selected row (a text completion replaces the text, a token becomes a chip); with no
    /// selection, the result's common completion (``SuggestionResult/commonCompletion``) replaces the text.
    private func complete() {
        if let choice = currentSelection {
            edit { apply(choice) }
        } else if let common = session.result.commonCompletion, common != session.text {
            edit { session.text = common }
        }
    }

    /// Enter: applies the selected row, if any, then submits the field (recent searches learn from it).
    private func submit() {
        let choice = currentSelection
        guard choice != nil || !session.text.isEmpty || !session.tokens.isEmpty else { return }
        edit {
            if let choice { apply(choice) }
            let query = session.submit()
            submitted = Self.describe(query)
        }
    }

    private func apply(_ choice: Choice) {
        switch choice {
        case .suggestion(let completion):
            if let suggestion = session.result.suggestions.first(where: { $0.completion == completion }) {
                session.choose(suggestion)
            }
        case .token(let token):
            session.add(token)
        }
    }

    /// Ctrl-S: All, then each scope in turn, then All again.
    private func nextScope() {
        let scopes = session.scopes
        guard !scopes.isEmpty else { return }
        selection = nil
        if let scope = session.scope, let index = scopes.firstIndex(of: scope), index + 1 < scopes.count {
            session.scope = scopes[index + 1]
        } else {
            session.scope = session.scope == nil ? scopes[0] : nil
        }
    }

    // MARK: What is shown

    /// The suggested tokens that no suggestion already offers, shown as a "Tokens" section above the others.
    var extraTokens: [SearchToken] {
        let result = session.result
        let offered = Set(result.suggestions.compactMap(\.completion.token))
        return result.suggestedTokens.filter { !offered.contains($0) && !session.tokens.contains($0) }
    }

    /// Every selectable row, in display order.
    var choices: [Choice] {
        extraTokens.map(Choice.token) + session.result.suggestions.map { Choice.suggestion($0.completion) }
    }

    /// The selection if the list still has it.
    var currentSelection: Choice? {
        guard let selection, choices.contains(selection) else { return nil }
        return selection
    }

    func frame(help: String) -> InteractiveFrame {
        let result = session.result
        var frame = InteractiveFrame()
        frame.tokens = session.tokens
        frame.text = session.text
        frame.scopes = session.scopes
        frame.scope = session.scope
        let selected = currentSelection
        let tokens = extraTokens
        if !tokens.isEmpty {
            frame.items.append(.header("Tokens"))
            for token in tokens {
                if selected == .token(token) { frame.selected = frame.items.count }
                frame.items.append(.token(token))
            }
        }
        for section in result.sections {
            frame.items.append(.header(section.title))
            for suggestion in section.suggestions {
                if selected == .suggestion(suggestion.completion) { frame.selected = frame.items.count }
                frame.items.append(.suggestion(suggestion))
            }
        }
        frame.status = status
        frame.help = help
        return frame
    }

    /// `0.12 ms · 8 suggestions`, then what is going on: asynchronous providers still to answer, a failed provider,
    /// what was submitted, what Tab completes.
    var status: String {
        let result = session.result
        let count = result.suggestions.count + extraTokens.count
        var parts = [
            String(format: "%.2f ms", result.diagnostics.micros / 1000),
            count == 1 ? "1 suggestion" : "\(count) suggestions",
        ]
        let waiting = result.diagnostics.providers.filter { $0.outcome == .pending }.map(\.provider)
        if !waiting.isEmpty { parts.append("waiting for " + waiting.joined(separator: ", ")) }
        for error in result.diagnostics.errors { parts.append("error: " + error) }
        if let submitted { parts.append("submitted \"\(submitted)\"") }
        if let common = result.commonCompletion, common != session.text, currentSelection == nil {
            parts.append("Tab: \"\(common)\"")
        }
        return parts.joined(separator: " · ")
    }

    /// A query as the field shows it: chips, then the text.
    static func describe(_ query: SearchQuery) -> String {
        (query.tokens.map { "[\($0.display)]" } + (query.text.isEmpty ? [] : [query.text])).joined(separator: " ")
    }

    // MARK: Asynchronous answers

    /// Reports every change of the session's result that no key made: an asynchronous provider answered.
    private func observeResult() {
        withObservationTracking {
            _ = session.result
        } onChange: { [weak self] in
            // Called before the change is stored, on the thread making it (the main actor: the session is
            // main-actor isolated); look at the new result after it.
            Task { @MainActor in self?.resultChanged() }
        }
    }

    private func resultChanged() {
        observeResult()
        onUpdate?()
    }
}
