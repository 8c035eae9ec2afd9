import SuggestCore
import Synchronization

/// The suggested tokens of the last extraction, keyed by the text and tokens they were found for: when the engine
/// then asks ``TokenProvider/suggest(_:into:)`` about that same remaining text and tokens, the answer is reused
/// instead of matching every rule again. Any other text or tokens (another session, another thread) miss the cache
/// and are analysed afresh, so sharing the provider stays correct.
final class PartialsCache: Sendable {
    struct Entry: Sendable {
        var text: String
        var tokens: [SearchToken]
        var partials: [TokenProvider.Partial]
    }

    private let entry = Mutex<Entry?>(nil)

    func store(text: String, tokens: [SearchToken], partials: [TokenProvider.Partial]) {
        entry.withLock { $0 = Entry(text: text, tokens: tokens, partials: partials) }
    }

    func partials(text: String, tokens: [SearchToken]) -> [TokenProvider.Partial]? {
        entry.withLock { entry in
            guard let entry, entry.text == text, entry.tokens == tokens else { return nil }
            return entry.partials
        }
    }
}
