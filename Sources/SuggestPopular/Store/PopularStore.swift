/// Where a ``PopularProvider`` keeps what it learned. ``PopularFileStore`` is the built-in one (a JSON Lines file);
/// a server that shares popular searches between replicas implements its own (a database table).
///
/// The provider calls ``load()`` once, when it is made, and ``save(_:)`` after changes (on the thread that made
/// them, never on a keystroke) and from ``PopularProvider/synchronize()``.
public protocol PopularStore: Sendable {
    /// What was saved, or nil when nothing was saved yet.
    /// - Throws: when what is stored cannot be read (the provider then starts empty and never calls ``save(_:)``,
    ///   so that nothing stored is lost).
    func load() throws -> PopularSnapshot?

    /// Replaces what is stored with `snapshot`, atomically: a reader sees the old or the new contents, never a mix.
    func save(_ snapshot: PopularSnapshot) throws
}

/// Everything a ``PopularProvider`` stores: the salt its user hashes were made with, and the searches.
public struct PopularSnapshot: Hashable, Sendable {
    /// The salt of the user hashes: 32 lowercase hex digits. A store without it (a new one) gets a random one.
    public var salt: String
    /// The searches, most popular first.
    public var queries: [PopularQuery]

    public init(salt: String, queries: [PopularQuery]) {
        self.salt = salt
        self.queries = queries
    }
}
