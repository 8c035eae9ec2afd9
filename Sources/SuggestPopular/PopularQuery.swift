public import Foundation
import SuggestCore

/// One search learned from everyone: its text, how many different people made it, and how much it is searched.
///
/// Two searches are the same when their ``key(for:)``s are equal: the text folded (case, diacritics, width), with
/// surrounding and repeated whitespace removed — the key recent searches are deduplicated by. The newest display
/// form is kept.
public struct PopularQuery: Hashable, Sendable {
    /// The search as last made, trimmed, with inner whitespace runs collapsed to one space.
    public var text: String
    /// How many different people made it. Exact while it is at most the provider's user memory
    /// (``PopularProvider/Options/userMemory``, at least ``PopularProvider/Options/minUsers``); beyond that a search by
    /// someone who is not among the last remembered people counts as one more.
    public var users: Int
    /// The searches counted, each worth 1 when made and half as much every half-life since, as of ``lastUsed``.
    /// A search by one of the last remembered people is not counted again.
    public var score: Double
    /// When it was last counted.
    public var lastUsed: Date
    /// The people who made it most recently (at most the provider's user memory), oldest first, as 32-bit salted
    /// hashes of their ids (never the ids). A store keeps them so that counting goes on after a restart.
    public var userHashes: [UInt32]

    public init(text: String, users: Int, score: Double, lastUsed: Date, userHashes: [UInt32] = []) {
        self.text = text
        self.users = users
        self.score = score
        self.lastUsed = lastUsed
        self.userHashes = userHashes
    }

    /// The popularity at `date`: ``score`` halved for every `halfLife` seconds since ``lastUsed``.
    public func popularity(at date: Date, halfLife: Double) -> Double {
        score * exp2(-max(0, date.timeIntervalSince(lastUsed)) / halfLife)
    }

    /// The identity searches are counted by: folded, trimmed, whitespace runs collapsed (`"  New   York "` and
    /// `"new york"` are one search).
    public static func key(for text: String) -> String {
        String(decoding: TextNormalizer.collapsedKey(text), as: UTF8.self)
    }

    /// `text` trimmed, with whitespace runs (tabs and line ends too) collapsed to one space; case and diacritics kept.
    public static func displayForm(of text: String) -> String {
        TextNormalizer.collapsingWhitespace(text)
    }
}
