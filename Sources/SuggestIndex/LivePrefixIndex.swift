public import SuggestCore
import Synchronization

/// A ``PrefixIndex`` that learns: entries can be added, removed or reweighted without a rebuild.
///
/// Changes go to a small overlay (hidden base entries plus added ones) that every search merges in; ``compact()``
/// folds the overlay into a rebuilt base when it has grown (a full build, off the keystroke path: call it from a
/// background task). Thread-safe: the base and overlay sit behind a `Mutex`, and a search works on a snapshot.
///
/// ```swift
/// let live = LivePrefixIndex(PrefixIndex(dictionary: dictionary))
/// try live.insert("swiftui", weight: 500)     // new term, or a new weight for an existing one
/// live.remove("swiftly")                      // hidden from now on
/// ```
public final class LivePrefixIndex: Sendable {
    /// One completion: from the base index (with its entry id) or from the overlay.
    public struct Match: Hashable, Sendable {
        public var text: String
        public var weight: Double
        public var scope: String?
        public var tier: MatchTier
        /// The entry id in the base index's dictionary, nil for an added entry.
        public var entry: Int?
        /// Where the match starts in the text's canonical key (``IndexKey``); it is as long as the query's key.
        public var keyOffset: Int
        /// The typos of an every-word match with typos (`tier` is then `.oneTypo` or `.twoTypos`), 0 otherwise.
        public var typos: Int = 0
        /// An every-word match with typos in another word order than the query's (`PrefixIndex.Hit.wordsOutOfOrder`).
        public var wordsOutOfOrder = false
    }

    struct Added: Sendable {
        var text: String
        var key: [UInt8]
        var wordStarts: [Int]
        var weight: Double
        var scope: String?
    }

    /// The base index, boxed: a search takes its snapshot with one retain instead of one per array of the index.
    final class Base: Sendable {
        let index: PrefixIndex

        init(_ index: PrefixIndex) { self.index = index }

        /// The searched entries of `buffer` as matches, into `matches` (replacing its contents). A base entry's text
        /// comes from its dictionary's cache of recent titles (`WeightedDictionary.title(at:)`).
        func matches(of buffer: PrefixIndex.SearchBuffer, into matches: inout [Match]) {
            matches.removeAll(keepingCapacity: true)
            for hit in buffer.hits {
                let entry = Int(hit.entry)
                matches.append(
                    Match(
                        // A title shown lately is the same `String` (the dictionary's cache), not a new one.
                        text: index.dictionary.title(at: entry),
                        weight: index.dictionary.weight(at: entry),
                        scope: index.dictionary.scope(at: entry),
                        tier: hit.tier,
                        entry: entry,
                        keyOffset: Int(hit.keyOffset),
                        typos: Int(hit.typos),
                        wordsOutOfOrder: hit.wordsOutOfOrder
                    )
                )
            }
        }
    }

    struct State: Sendable {
        var base: Base
        /// Base entries removed or reweighted.
        var hidden: Set<UInt32> = []
        /// Added or reweighted entries by their exact text.
        var added: [String: Added] = [:]
        var version: UInt64 = 0
    }

    private let state: Mutex<State>

    public init(_ base: PrefixIndex) {
        state = Mutex(State(base: Base(base)))
    }

    /// The current base index (without the overlay).
    public var base: PrefixIndex { state.withLock { $0.base.index } }

    /// How many changes wait in the overlay (added entries plus hidden base entries).
    public var pendingChangeCount: Int { state.withLock { $0.added.count + $0.hidden.count } }

    /// Adds `text` with `weight`, or gives an entry with exactly this text a new weight (and scope).
    /// - Throws: ``PrefixIndexUpdateError`` for an empty text or a weight that is negative or not finite.
    public func insert(_ text: String, weight: Double, scope: String? = nil) throws(PrefixIndexUpdateError) {
        guard weight.isFinite, weight >= 0 else {
            throw PrefixIndexUpdateError("weight \(weight) for \"\(text)\" is not a finite number of 0 or more")
        }
        let (key, starts) = IndexKey.keyAndWordStarts(text)
        guard !key.isEmpty else { throw PrefixIndexUpdateError("\"\(text)\" has no letters or digits to index") }
        state.withLock { state in
            for entry in state.base.index.entries(withText: text, key: key) { state.hidden.insert(entry) }
            state.added[text] = Added(text: text, key: key, wordStarts: starts, weight: weight, scope: scope)
            state.version &+= 1
        }
    }

    /// Removes every entry with exactly this text.
    /// - Returns: whether there was one.
    @discardableResult
    public func remove(_ text: String) -> Bool {
        let key = IndexKey.key(text)
        return state.withLock { state in
            var found = state.added.removeValue(forKey: text) != nil
            for entry in state.base.index.entries(withText: text, key: key) where state.hidden.insert(entry).inserted {
                found = true
            }
            if found { state.version &+= 1 }
            return found
        }
    }

    /// Folds the overlay into a rebuilt base index. The build runs outside the lock; if the overlay changed
    /// meanwhile, nothing is replaced and the result is false (call again).
    @discardableResult
    public func compact() -> Bool {
        let snapshot = state.withLock { $0 }
        guard !snapshot.added.isEmpty || !snapshot.hidden.isEmpty else { return true }
        let dictionary = snapshot.base.index.dictionary
        var entries: [(text: String, weight: Double, scope: String?)] = []
        entries.reserveCapacity(dictionary.count + snapshot.added.count)
        for i in 0..<dictionary.count where !snapshot.hidden.contains(UInt32(i)) {
            entries.append((dictionary.text(at: i), dictionary.weight(at: i), dictionary.scope(at: i)))
        }
        for added in snapshot.added.values.sorted(by: { $0.text < $1.text }) {
            entries.append((added.text, added.weight, added.scope))
        }
        let rebuilt = PrefixIndex(dictionary: WeightedDictionary(source: dictionary.source, entries: entries))
        return state.withLock { state in
            guard state.version == snapshot.version else { return false }
            state = State(base: Base(rebuilt), version: snapshot.version &+ 1)
            return true
        }
    }

    /// The best completions of `query` from the base index and the overlay: at most `limit`, exact matches
    /// first, then prefix, then (with `infix`) word-prefix matches, each most popular first.
    /// - Parameters:
    ///   - query: the prepared query (its words; the last one may be partial).
    ///   - limit: the most completions to return.
    ///   - infix: whether inner word starts match too.
    ///   - buffer: reused memory for the base search.
    ///   - everyWord: whether a query of several words whose words as typed fill less than `limit` also
    ///     matches entries where every word starts a word, in any order (see `PrefixIndex/search(_:limit:infix:everyWord:exactBeyondLimit:into:)`).
    public func search(
        _ query: PreparedQuery,
        limit: Int,
        infix: Bool = true,
        everyWord: Bool = false,
        buffer: inout PrefixIndex.SearchBuffer
    ) -> [Match] {
        var matches: [Match] = []
        search(query, limit: limit, infix: infix, everyWord: everyWord, buffer: &buffer, into: &matches)
        return matches
    }

    /// ``search(_:limit:infix:everyWord:buffer:)`` into `matches`, replacing its contents and keeping its memory. A base
    /// entry's text comes from its dictionary's cache of recent titles (`WeightedDictionary.title(at:)`), so that a
    /// search over entries shown lately allocates nothing once `buffer` and `matches` have grown.
    ///
    /// With `exactBeyondLimit`, an exact match does not take a completion's place: up to `limit` other matches
    /// follow it (see `PrefixIndex/search(_:limit:infix:everyWord:exactBeyondLimit:into:)`).
    public func search(
        _ query: PreparedQuery,
        limit: Int,
        infix: Bool = true,
        everyWord: Bool = false,
        exactBeyondLimit: Bool = false,
        buffer: inout PrefixIndex.SearchBuffer,
        into matches: inout [Match]
    ) {
        guard !query.isEmpty, limit > 0 else { return matches.removeAll(keepingCapacity: true) }
        let (base, hidden, added) = state.withLock { ($0.base, $0.hidden, $0.added) }
        // Overlay entries first: the base search then fetches as many more, so that after dropping the base
        // entries an added one shares its key with ("Café" added beside "cafe") the list is still full.
        var extra: [(match: Match, key: [UInt8])] = []
        if !added.isEmpty {
            var q: [UInt8] = []
            IndexKey.query(query, into: &q)
            let whole = q + [0x20]
            let scopeName = query.query.scope?.name
            for entry in added.values {
                // As in the base: a selected scope keeps its own entries and the unscoped ones.
                if let scopeName, let scope = entry.scope, scope != scopeName { continue }
                guard
                    let (tier, offset, typos, outOfOrder) = Self.tier(
                        of: entry, q: q, whole: whole, partial: query.lastWordIsPartial, infix: infix)
                        ?? (everyWord && infix ? Self.everyWordTier(of: entry, query: query) : nil)
                else { continue }
                extra.append(
                    (Match(
                        text: entry.text, weight: entry.weight, scope: entry.scope, tier: tier, entry: nil,
                        keyOffset: offset, typos: typos, wordsOutOfOrder: outOfOrder), entry.key))
            }
        }
        let fetch = limit + extra.count
        if hidden.isEmpty {
            base.index.search(
                query, limit: fetch, infix: infix, everyWord: everyWord, exactBeyondLimit: exactBeyondLimit,
                into: &buffer)
        } else {
            base.index.search(
                query, limit: fetch, infix: infix, everyWord: everyWord, exactBeyondLimit: exactBeyondLimit,
                into: &buffer, accept: { !hidden.contains($0) })
        }
        base.matches(of: buffer, into: &matches)
        // Without added entries the base search fetched `limit` (and the exact match beside them) already.
        guard !extra.isEmpty else { return }
        var keyed = matches.map { (match: $0, key: IndexKey.key($0.text)) }
        keyed.append(contentsOf: extra)
        keyed.sort { a, b in
            if a.match.tier != b.match.tier { return a.match.tier < b.match.tier }
            if a.match.weight != b.match.weight { return a.match.weight > b.match.weight }
            let la = a.match.text.utf8.count
            let lb = b.match.text.utf8.count
            if la != lb { return la < lb }
            return a.match.text < b.match.text
        }
        // One match per canonical key, the best one (as the base search does).
        var seen = Set<[UInt8]>()
        matches.removeAll(keepingCapacity: true)
        var kept = limit
        for item in keyed where matches.count < kept && seen.insert(item.key).inserted {
            matches.append(item.match)
            if exactBeyondLimit && item.match.tier == .exact { kept += 1 }
        }
    }

    /// How an added entry matches: its tier, where the match starts in its key, its typos, and whether a typo
    /// match's words are in another order than the query's.
    typealias AddedMatch = (tier: MatchTier, offset: Int, typos: Int, outOfOrder: Bool)

    /// The every-word match of an added entry for a query of two or more words: without typos, or with them (a typo
    /// tier and their number).
    static func everyWordTier(of entry: Added, query: PreparedQuery) -> AddedMatch? {
        guard query.words.count >= 2 else { return nil }
        if let tier = EveryWord.tier(query: query.normalized, words: query.words, key: entry.key) {
            return (tier, 0, 0, false)
        }
        guard let match = EveryWord.typoMatch(query: query.normalized, words: query.words, key: entry.key),
            match.typos > 0
        else { return nil }
        return (.typos(match.typos), 0, match.typos, !match.inOrder)
    }

    static func tier(of entry: Added, q: [UInt8], whole: [UInt8], partial: Bool, infix: Bool) -> AddedMatch? {
        let key = entry.key
        if key == q { return (.exact, 0, 0, false) }
        if key.starts(with: partial ? q : whole) { return (.prefix, 0, 0, false) }
        guard infix else { return nil }
        for s in entry.wordStarts {
            let rest = key[s...]
            if partial ? rest.starts(with: q) : (rest.elementsEqual(q) || rest.starts(with: whole)) {
                return (.wordPrefix, s, 0, false)
            }
        }
        return nil
    }
}

/// A live update that cannot be applied (an empty text, a bad weight).
public struct PrefixIndexUpdateError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension PrefixIndex {
    /// The ids of the entries whose text is exactly `text` (`key` is its canonical key). O(log n).
    func entries(withText text: String, key: [UInt8]) -> [UInt32] {
        guard !key.isEmpty else { return [] }
        let runs = PrefixRuns(index: self)
        let lo = lowerBound(runs, key, key.count, from: 0, to: count) { $0 != -1 }
        let hi = lowerBound(runs, key, key.count, from: lo, to: count) { $0 > 0 }
        var found: [UInt32] = []
        for p in lo..<hi where dictionary.text(at: Int(order[p])) == text { found.append(order[p]) }
        return found
    }

    /// ``search(_:limit:infix:everyWord:exactBeyondLimit:into:)`` that skips the entries `accept` rejects.
    func search(
        _ query: PreparedQuery,
        limit: Int,
        infix: Bool,
        everyWord: Bool = false,
        exactBeyondLimit: Bool = false,
        into buffer: inout SearchBuffer,
        accept: (UInt32) -> Bool
    ) {
        buffer.hits.removeAll(keepingCapacity: true)
        guard !query.isEmpty else { return }
        IndexKey.query(query, into: &buffer.query)
        buffer.query.append(0x20)
        run(
            &buffer, lastWordIsPartial: query.lastWordIsPartial, limit: limit,
            scope: scopeFilter(for: query.query.scope), infix: infix, everyWord: everyWord,
            exactBeyondLimit: exactBeyondLimit, accept: accept)
    }

    /// ``search(_:limit:infix:everyWord:exactBeyondLimit:into:)`` over the entries `accept` lets through (by entry id) instead of the
    /// query's scope, which it ignores (a provider with its own scope rule); of entries that share a key, the most
    /// popular accepted one is offered.
    public func search(
        _ query: PreparedQuery,
        limit: Int,
        infix: Bool,
        everyWord: Bool = false,
        accepting accept: (UInt32) -> Bool,
        into buffer: inout SearchBuffer
    ) {
        buffer.hits.removeAll(keepingCapacity: true)
        guard !query.isEmpty else { return }
        IndexKey.query(query, into: &buffer.query)
        buffer.query.append(0x20)
        run(
            &buffer, lastWordIsPartial: query.lastWordIsPartial, limit: limit, scope: nil, infix: infix,
            everyWord: everyWord, accept: accept)
    }
}
