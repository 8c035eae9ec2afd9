/// One thing a person does in a search field, in the order a ``TypingScript`` plays them.
public enum TypingStep: Hashable, Sendable {
    /// A key was pressed: `text` is what the field holds after it. Every keystroke is one latency sample.
    case keystroke(text: String, backspace: Bool)
    /// The search was submitted (recent searches learn from it); timed apart from the keystrokes.
    case submit(String)
    /// The field starts a new typing session (after a submit, as in an app).
    case reset
}

/// How a misspelt search differs from the one meant: the four slips of a finger on a keyboard.
public enum Misspelling: String, CaseIterable, Hashable, Sendable {
    /// Two letters typed in the wrong order (`pyhton`).
    case swap
    /// A letter left out (`pthon`).
    case drop
    /// A letter typed twice (`pythhon`).
    case double
    /// A letter replaced by a key next to it on a QWERTY keyboard (`pytjon`).
    case replace
}
