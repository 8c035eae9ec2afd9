/// One person typing in one search field: the keystroke counter and what each provider kept from the previous
/// keystroke. A value: keep one per field, pass it `inout` to the engine, ``reset()`` it for a new search.
public struct TypingSession: Sendable {
    /// The generation of the last keystroke answered (0 before the first).
    public internal(set) var generation: UInt64 = 0
    var states: [Int: any Sendable] = [:]
    /// Memory the engine reuses from keystroke to keystroke (kept by ``reset()``).
    var scratch = KeystrokeScratch()

    public init() {}

    /// Starts a new typing session: providers start over (recent searches are kept by their provider).
    public mutating func reset() {
        states.removeAll(keepingCapacity: true)
    }

    /// Keeps what an asynchronous provider kept from its answer (``PendingKeystroke/updates(isolation:_:)``) for its next
    /// keystroke, if `update` answers this session's latest keystroke; an update of an older keystroke changes
    /// nothing.
    public mutating func record(_ update: SuggestionUpdate) {
        guard update.result.generation == generation else { return }
        states[update.slot] = update.state
    }
}
