/// One person typing in one search field: the keystroke counter and what each provider kept from the previous
/// keystroke. A value: keep one per field, pass it `inout` to the engine, ``reset()`` it for a new search.
public struct TypingSession: Sendable {
    /// The generation of the last keystroke answered (0 before the first).
    public internal(set) var generation: UInt64 = 0
    var states: [Int: any Sendable] = [:]

    public init() {}

    /// Starts a new typing session: providers start over (recent searches are kept by their provider).
    public mutating func reset() {
        states.removeAll(keepingCapacity: true)
    }
}
