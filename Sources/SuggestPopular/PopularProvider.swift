public import Foundation
public import SuggestCore
import SuggestIndex
public import SuggestPattern

/// Searches learned from everyone (`"type": "popular"`): what many different people searched, offered to all.
///
/// - **Learns** from searches observed with the person who made them: ``record(_:user:hadResults:at:)`` (or
///   ``observe(submit:user:hadResults:)``, the form a server calls for each person's submitted search). The engine's
///   own `SuggestionEngine/submit(_:)` records for ``Options/localUser`` (one install is one person); a server gives
///   each person's engine ``attributed(to:)``, a view of one shared provider that records for that person.
/// - **Counts people, not searches, to decide what is shown:** a search is offered only once ``Options/minUsers``
///   different people made it, so a rare, personal search never reaches anyone else. People are counted by a
///   32-bit salted hash of their id (the ids are never kept), exactly up to ``Options/userMemory``; a search by one
///   of the last ``Options/userMemory`` people who made it counts for nothing (one person cannot push a search up).
/// - **Ranks by popularity:** every counted search adds 1, and counts half as much every ``Options/halfLife``.
/// - **Leaves out** searches that had no results (`hadResults: false`), searches with tokens (they are often
///   personal: `from:alice`) and what ``Options/exclusion`` excludes (the recent provider's `SearchExclusion`).
/// - **Keeps at most ``Options/capacity`` searches** (shown or still counting people); beyond it the least popular
///   go.
/// - **Suggests** on an empty field the most popular searches (tier `.unfiltered`) in the "Popular" section; while
///   typing, the popular searches that match (exact, prefix, word-prefix, by the prefix index's rules), blended into
///   the engine's default section (``Options/blendWhileTyping``) and ranked there by popularity.
/// - **Stores** through a ``PopularStore`` (``PopularFileStore`` from JSON): after every change
///   (``Options/savesEveryChange``) or on ``synchronize()``. A store that cannot be read is never written (nothing in
///   it is lost): the provider starts empty and every keystroke notes why.
///
/// Safe to use from many tasks at once: the counts sit behind a lock, the matching popular searches in a
/// `LivePrefixIndex` (its own lock), which a keystroke searches without the counts' lock. Past a score of 64, a
/// search's weight in that index is updated when it has grown by an eighth, so while typing such a search may rank by
/// a popularity up to 12.5 % below its own (the empty field's list is exact).
public final class PopularProvider: ConfigurableProvider, StoreReadingProvider {
    /// Settings of a popular-searches provider.
    public struct Options: Hashable, Sendable {
        /// How many different people must have made a search before it is shown (default 5).
        public var minUsers: Int
        /// How many searches are kept, shown or not (default 10,000).
        public var capacity: Int
        /// How long until a search counts half as much (default 14 days).
        public var halfLife: Duration
        /// Count chosen suggestions as searches too (default false: only submitted searches).
        public var recordSelections: Bool
        /// The SF Symbol of the suggestions (default `chart.line.uptrend.xyaxis`; nil for none).
        public var systemImage: String?
        /// Searches that are never counted.
        public var exclusion: SearchExclusion
        /// Who the engine's own submits (``didSubmit(_:)``) are attributed to (default `"local"`: an app's store
        /// holds one install's searches, one person).
        public var localUser: String
        /// While typing, offer matches in the engine's default section (`SuggestionEngine.defaultSection`) rather
        /// than the provider's own, so that they rank among the dictionary's completions (default true). On an
        /// empty field they always go to the provider's section ("Popular" unless the configuration names one).
        public var blendWhileTyping: Bool
        /// Save after every change (default true); when false only ``synchronize()`` saves.
        public var savesEveryChange: Bool

        public init(
            minUsers: Int = 5,
            capacity: Int = 10_000,
            halfLife: Duration = .seconds(14 * 86_400),
            recordSelections: Bool = false,
            systemImage: String? = "chart.line.uptrend.xyaxis",
            exclusion: SearchExclusion = .none,
            localUser: String = "local",
            blendWhileTyping: Bool = true,
            savesEveryChange: Bool = true
        ) {
            self.minUsers = minUsers
            self.capacity = capacity
            self.halfLife = halfLife
            self.recordSelections = recordSelections
            self.systemImage = systemImage
            self.exclusion = exclusion
            self.localUser = localUser
            self.blendWhileTyping = blendWhileTyping
            self.savesEveryChange = savesEveryChange
        }

        /// How many of the most recent people a search remembers (by hash): ``minUsers`` or 8, whichever is more.
        /// People are counted exactly up to this many.
        public var userMemory: Int { max(max(1, minUsers), 8) }
    }

    /// What recording one search did.
    public struct Outcome: Hashable, Sendable, CustomStringConvertible {
        enum Code: Hashable, Sendable { case counted, repeated, noResults, excluded, notText }
        let code: Code

        /// Counted: one more person (and search).
        public static let counted = Outcome(code: .counted)
        /// Not counted: one of the last people who made it made it again.
        public static let repeatedByRecentUser = Outcome(code: .repeated)
        /// Not counted: it had no results.
        public static let noResults = Outcome(code: .noResults)
        /// Not counted: the exclusion rules leave it out (or it is empty).
        public static let excluded = Outcome(code: .excluded)
        /// Not counted: it has tokens.
        public static let hasTokens = Outcome(code: .notText)

        public var description: String {
            switch code {
            case .counted: "counted"
            case .repeated: "repeated by a recent user"
            case .noResults: "no results"
            case .excluded: "excluded"
            case .notText: "has tokens"
            }
        }
    }

    public static let typeName = "popular"
    public static var defaultSection: String? { "Popular" }

    public let id: String
    public let options: Options
    /// The store, nil when the searches are kept in memory only.
    public let store: (any PopularStore)?
    /// Half-life in seconds.
    let halfLife: Double
    let now: @Sendable () -> Date
    /// Told of every search counted or repeated (see ``init(id:store:options:now:onCount:)``).
    let onCount: (@Sendable (CountedSearch) -> Void)?

    /// One search as ``record(_:user:hadResults:at:)`` counted it (``Outcome/counted``) or found it made already by
    /// one of the last remembered people (``Outcome/repeatedByRecentUser``): what a store shared by several
    /// processes needs to count it there too.
    public struct CountedSearch: Hashable, Sendable {
        /// The search in its display form.
        public var text: String
        /// The person's salted hash (never their id).
        public var userHash: UInt32
        /// When it was made.
        public var date: Date
    }

    struct State: Sendable {
        var ledger: PopularLedger
        let salt: UserHash
        /// The shown searches, by their display text and weight (see `indexedWeights`).
        var index: LivePrefixIndex
        /// The weight each shown search has in `index`, by key. Past ``PopularProvider/exactlyIndexedScore``, a
        /// search is put in the index again only when its weight grew by more than ``PopularProvider/reindexGrowth``
        /// since (or its text changed), so that a search made again and again costs the index a change now and
        /// then, not every time.
        var indexedWeights: [String: Double] = [:]
        /// Keys of the most popular shown searches, best first: the best `min(topCapacity, shown)` of them, or nil
        /// when it must be computed again.
        var top: [String]?
        var changesSinceSave = 0
        var loadProblem: String?
        var saveProblem: String?

        var notes: [String] { [loadProblem, saveProblem].compactMap { $0 } }
    }

    /// How many of the most popular searches the empty field can show.
    static let topCapacity = 64
    /// Changes the prefix index's overlay takes before it is rebuilt.
    static let compactThreshold = 128
    /// How much a shown search's weight grows before the index takes its new weight: while typing, searches rank by
    /// a popularity at most this factor too low.
    static let reindexGrowth = 1.125
    /// Up to this score a shown search's weight in the index is updated by every search (small counts stay in
    /// order: 10 searches before 9).
    static let exactlyIndexedScore = 64.0

    /// Memory a keystroke's index search reuses.
    struct Scratch: Sendable {
        var buffer: PrefixIndex.SearchBuffer
        var matches: [LivePrefixIndex.Match] = []
        init(capacity: Int) { buffer = PrefixIndex.SearchBuffer(capacity: capacity) }
    }

    let state: Locked<State>
    /// The keystrokes' reused memory; a keystroke that finds it taken (another thread's) makes its own.
    let scratch = Locked<Scratch?>(nil)
    /// Serializes saves (held during I/O; keystrokes never take it).
    let saveLock = Locked<Int>(0)

    /// A provider with `options`, keeping its searches in `store` (memory only if nil).
    /// - Parameters:
    ///   - id: the provider's id in results and diagnostics.
    ///   - store: where the searches are kept (memory only if nil). Read once, here.
    ///   - options: the user threshold, capacity, decay, exclusions and the rest of its settings.
    ///   - now: the clock (tests pass their own).
    ///   - onCount: told of every search counted or repeated by a recent person, on the thread that recorded it,
    ///     after the provider's lock is released (a server sharing counts between processes sends them on).
    public init(
        id: String = "popular",
        store: (any PopularStore)? = nil,
        options: Options = Options(),
        now: @escaping @Sendable () -> Date = { Date() },
        onCount: (@Sendable (CountedSearch) -> Void)? = nil
    ) {
        self.id = id
        self.onCount = onCount
        self.store = store
        self.options = options
        self.now = now
        let (seconds, attoseconds) = options.halfLife.components
        let halfLife = max(1e-3, Double(seconds) + Double(attoseconds) / 1e18)
        self.halfLife = halfLife
        var snapshot: PopularSnapshot? = nil
        var loadProblem: String? = nil
        if let store {
            do {
                snapshot = try store.load()
            } catch {
                loadProblem =
                    "could not read popular searches: \(error); started empty, and nothing is saved until the store "
                    + "is fixed or removed"
            }
        }
        let started = now()
        var ledger = PopularLedger(halfLife: halfLife, epoch: started.timeIntervalSince1970)
        let memory = options.userMemory
        for var query in snapshot?.queries ?? [] where !Self.excludes(query.text, options.exclusion) {
            // A search last made in the future (a clock set wrong, a file edited by hand) counts as made now: its
            // score would otherwise outweigh every later count, and never decay.
            if query.lastUsed > started { query.lastUsed = started }
            ledger.add(query, userMemory: memory)
        }
        _ = ledger.evict(toCapacity: max(1, options.capacity))
        let salt = snapshot.flatMap { UserHash(hex: $0.salt) } ?? .random()
        let (index, indexedWeights) = Self.makeIndex(ledger, minUsers: options.minUsers)
        var state = State(ledger: ledger, salt: salt, index: index, indexedWeights: indexedWeights, top: nil)
        state.loadProblem = loadProblem
        self.state = Locked(state)
    }

    // MARK: Reading

    /// Every search kept (those still counting people too), most popular first.
    public var queries: [PopularQuery] { state.withLock { $0.ledger.ranked } }

    /// The searches shown to everyone (made by at least ``Options/minUsers`` people), most popular first.
    public var shownQueries: [PopularQuery] { queries.filter { $0.users >= options.minUsers } }

    /// The popularity of `query` at `date` with this provider's half-life.
    public func popularity(of query: PopularQuery, at date: Date = Date()) -> Double {
        query.popularity(at: date, halfLife: halfLife)
    }

    /// Why the store could not be read when the provider started, if it could not (it then started empty and
    /// never writes the store).
    public var loadProblem: String? { state.withLock { $0.loadProblem } }

    /// Why the last save failed, if it did.
    public var saveProblem: String? { state.withLock { $0.saveProblem } }

    /// Changes not saved yet.
    public var unsavedChangeCount: Int { state.withLock { $0.changesSinceSave } }

    // MARK: Learning

    /// Counts one search of `text` by `user`.
    /// - Parameters:
    ///   - text: the search as submitted (trimmed and collapsed to its display form here).
    ///   - user: who made it: any stable id (an account id, a per-install id); only a salted hash is kept.
    ///   - hadResults: false for a search that found nothing: it is not counted.
    ///   - date: when it was made (default: now).
    /// - Returns: whether it was counted, and if not, why.
    /// - Complexity: O(1) amortized, plus a save when ``Options/savesEveryChange`` (O(n) for the file store).
    @discardableResult
    public func record(_ text: String, user: String, hadResults: Bool = true, at date: Date? = nil) -> Outcome {
        guard hadResults else { return .noResults }
        let display = PopularQuery.displayForm(of: text)
        guard !Self.excludes(display, options.exclusion) else { return .excluded }
        let key = PopularQuery.key(for: display)
        guard !key.isEmpty else { return .excluded }
        let time = (date ?? now()).timeIntervalSince1970
        let minUsers = options.minUsers
        let memory = options.userMemory
        let capacity = max(1, options.capacity)
        let (outcome, compact, userHash): (Outcome, LivePrefixIndex?, UInt32) = state.withLock { state in
            let userHash = state.salt.hash(user)
            let change = state.ledger.record(
                text: display, key: key, user: userHash, at: time, userMemory: memory)
            guard case .counted(_, let previousText) = change else { return (.repeatedByRecentUser, nil, userHash) }
            if state.ledger.rebased {
                (state.index, state.indexedWeights) = Self.makeIndex(state.ledger, minUsers: minUsers)
                state.top = nil
            } else if let entry = state.ledger.entries[key], entry.query.users >= minUsers {
                let renamed = previousText != nil && previousText != entry.query.text
                if renamed { state.index.remove(previousText!) }
                if renamed || entry.query.score <= Self.exactlyIndexedScore
                    || entry.weight > (state.indexedWeights[key] ?? 0) * Self.reindexGrowth
                {
                    try? state.index.insert(entry.query.text, weight: entry.weight)
                    state.indexedWeights[key] = entry.weight
                }
                Self.raise(key, weight: entry.weight, in: &state)
            }
            for (evictedKey, evicted) in state.ledger.evict(toCapacity: capacity) where evicted.query.users >= minUsers {
                state.index.remove(evicted.query.text)
                state.indexedWeights[evictedKey] = nil
                if state.top?.contains(evictedKey) ?? false { state.top = nil }
            }
            state.changesSinceSave += 1
            let index = state.index
            return (.counted, index.pendingChangeCount > Self.compactThreshold ? index : nil, userHash)
        }
        compact?.compact()
        onCount?(CountedSearch(text: display, userHash: userHash, date: Date(timeIntervalSince1970: time)))
        if outcome == .counted, store != nil, options.savesEveryChange { try? save() }
        return outcome
    }

    /// Takes `queries` as they are now in a store shared with other processes: each replaces the search of the same
    /// key (its counts, user hashes and text are the store's), and the shown searches are indexed again. Excluded
    /// searches are skipped; past ``Options/capacity`` the least popular go.
    /// - Complexity: O(n) in the searches kept when one of `queries` is or was shown, O(k) otherwise.
    public func absorb(_ queries: [PopularQuery]) {
        guard !queries.isEmpty else { return }
        let minUsers = options.minUsers
        let memory = options.userMemory
        let capacity = max(1, options.capacity)
        let exclusion = options.exclusion
        state.withLock { state in
            var shownChanged = false
            for query in queries where !Self.excludes(query.text, exclusion) {
                let key = PopularQuery.key(for: query.text)
                guard !key.isEmpty else { continue }
                let wasShown = (state.ledger.entries[key]?.query.users ?? 0) >= minUsers
                state.ledger.replace(query, key: key, userMemory: memory)
                if wasShown || query.users >= minUsers || state.ledger.rebased { shownChanged = true }
            }
            if !state.ledger.evict(toCapacity: capacity).isEmpty { shownChanged = true }
            if shownChanged {
                (state.index, state.indexedWeights) = Self.makeIndex(state.ledger, minUsers: minUsers)
                state.top = nil
            }
        }
    }

    /// The salted hash this provider keeps for `user` (what ``CountedSearch/userHash`` holds).
    public func userHash(of user: String) -> UInt32 {
        state.withLock { $0.salt.hash(user) }
    }

    /// Counts one submitted search by `user` (the entry point for a server that sees every person's searches): its
    /// text, unless it has tokens.
    @discardableResult
    public func observe(submit query: SearchQuery, user: String, hadResults: Bool = true) -> Outcome {
        guard query.tokens.isEmpty else { return .hasTokens }
        return record(query.text, user: user, hadResults: hadResults)
    }

    /// A view of this provider for one person: it suggests what this provider suggests, and the searches submitted
    /// (and, with ``Options/recordSelections``, chosen) through its engine are counted for `user`. Give each
    /// person's engine its own view of one shared provider.
    public func attributed(to user: String) -> PopularProviderView {
        PopularProviderView(popular: self, user: user)
    }

    /// Saves what is not saved yet.
    /// - Throws: ``PopularStoreError`` when the store could not be read at start (it is never written then) or
    ///   cannot be written.
    public func synchronize() throws {
        try save()
    }

    private func save() throws {
        guard let store else { return }
        // The closure returns its error rather than throwing it through the lock.
        let failure: PopularStoreError? = saveLock.withLock { _ -> PopularStoreError? in
            let (snapshot, changes, problem) = state.withLock { state in
                (
                    PopularSnapshot(salt: state.salt.hex, queries: state.ledger.ranked),
                    state.changesSinceSave, state.loadProblem
                )
            }
            if let problem {
                return PopularStoreError(path: Self.describe(store), message: "not written: \(problem)")
            }
            do {
                try store.save(snapshot)
            } catch {
                let failure =
                    error as? PopularStoreError
                    ?? PopularStoreError(path: Self.describe(store), message: "\(error)")
                state.withLock { $0.saveProblem = "could not save popular searches: \(failure)" }
                return failure
            }
            state.withLock { state in
                state.changesSinceSave = max(0, state.changesSinceSave - changes)
                state.saveProblem = nil
            }
            return nil
        }
        if let failure { throw failure }
    }

    static func describe(_ store: any PopularStore) -> String {
        (store as? PopularFileStore)?.path ?? "\(type(of: store))"
    }

    // MARK: Exporting

    /// The shown searches as a weighted dictionary (`text<TAB>weight` lines, most popular first), the format the
    /// `prefix` provider loads; weights are popularities now, rounded to 3 decimals (at least 0.001).
    /// - Parameters:
    ///   - minUsers: the least number of people (default: ``Options/minUsers``).
    ///   - date: when popularity is measured (default: now).
    /// - Returns: the lines, and how many searches were left out because the format cannot hold their text (one
    ///   starting with `#`, a comment line there).
    public func dictionaryLines(minUsers: Int? = nil, at date: Date? = nil) -> (lines: [String], skipped: Int) {
        let threshold = max(1, minUsers ?? options.minUsers)
        let date = date ?? now()
        var lines: [String] = []
        var skipped = 0
        for query in queries where query.users >= threshold {
            if query.text.hasPrefix("#") {
                skipped += 1
                continue
            }
            let weight = max(0.001, (popularity(of: query, at: date) * 1000).rounded() / 1000)
            lines.append(query.text + "\t" + JSONWriter.number(weight))
        }
        return (lines, skipped)
    }

    // MARK: SuggestionProvider

    public func didSubmit(_ query: SearchQuery) {
        observe(submit: query, user: options.localUser)
    }

    public func didSelect(_ suggestion: Suggestion, for query: SearchQuery) {
        didSelect(suggestion, for: query, user: options.localUser)
    }

    func didSelect(_ suggestion: Suggestion, for query: SearchQuery, user: String) {
        guard options.recordSelections, query.tokens.isEmpty else { return }
        switch suggestion.completion {
        case .text(let text): record(text, user: user)
        case .query(let chosen) where chosen.tokens.isEmpty: record(chosen.text, user: user)
        default: break
        }
    }

    public func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        let now = self.now().timeIntervalSince1970
        let (index, notes, ledgerEpochFactor) = state.withLock { state in
            (state.index, state.notes, exp2((state.ledger.epoch - now) / state.ledger.halfLife))
        }
        if !notes.isEmpty { output.notes.append(contentsOf: notes) }
        guard request.limit > 0, request.tokens.isEmpty else { return }
        if request.query.isEmpty {
            let minUsers = options.minUsers
            let top: [(text: String, weight: Double)] = state.withLock { state in
                if state.top == nil { state.top = Self.computeTop(state.ledger, minUsers: minUsers) }
                return state.top!.prefix(request.limit).compactMap { key in
                    state.ledger.entries[key].map { ($0.query.text, $0.weight) }
                }
            }
            for (text, weight) in top {
                output.append(
                    SuggestionCandidate(
                        title: text, tier: .unfiltered, popularity: weight * ledgerEpochFactor,
                        systemImage: options.systemImage))
            }
            return
        }
        // The previous keystroke's buffers, unless another thread has them.
        var scratch = self.scratch.withLock { $0.take() } ?? Scratch(capacity: request.limit)
        defer { self.scratch.withLock { $0 = scratch } }
        index.search(request.query, limit: request.limit, buffer: &scratch.buffer, into: &scratch.matches)
        let section = options.blendWhileTyping ? SuggestionEngine.defaultSection : nil
        for match in scratch.matches {
            output.append(
                SuggestionCandidate(
                    title: match.text,
                    matchedRanges: TextMatcher.match(request.query, in: NormalizedText(match.text))?.1 ?? [],
                    tier: match.tier,
                    popularity: match.weight * ledgerEpochFactor,
                    systemImage: options.systemImage,
                    section: section
                )
            )
        }
    }

    // MARK: Internals

    static func excludes(_ text: String, _ exclusion: SearchExclusion) -> Bool {
        exclusion.excludes(SearchQuery(text: text))
    }

    /// A prefix index of the shown searches, weighted by their weights, and those weights by key.
    static func makeIndex(_ ledger: PopularLedger, minUsers: Int) -> (LivePrefixIndex, [String: Double]) {
        var entries: [(text: String, weight: Double, scope: String?)] = []
        var weights: [String: Double] = [:]
        for (key, entry) in ledger.entries where entry.query.users >= minUsers {
            entries.append((entry.query.text, entry.weight, nil))
            weights[key] = entry.weight
        }
        entries.sort { $0.text < $1.text }
        let index = PrefixIndex(dictionary: WeightedDictionary(source: "popular", entries: entries))
        return (LivePrefixIndex(index), weights)
    }

    /// The keys of the most popular shown searches, best first.
    static func computeTop(_ ledger: PopularLedger, minUsers: Int) -> [String] {
        var shown: [(key: String, weight: Double, text: String)] = []
        for (key, entry) in ledger.entries where entry.query.users >= minUsers {
            shown.append((key, entry.weight, entry.query.text))
        }
        shown.sort { $0.weight != $1.weight ? $0.weight > $1.weight : $0.text < $1.text }
        return shown.prefix(topCapacity).map(\.key)
    }

    /// Keeps `state.top` right after the shown search `key`'s weight grew to `weight`.
    static func raise(_ key: String, weight: Double, in state: inout State) {
        guard var top = state.top else { return }
        let entries = state.ledger.entries
        func weightOf(_ k: String) -> Double { entries[k]?.weight ?? 0 }
        if let at = top.firstIndex(of: key) {
            top.remove(at: at)
        } else if top.count >= topCapacity, let last = top.last, weightOf(last) >= weight {
            return
        }
        let position = top.firstIndex { weightOf($0) < weight } ?? top.count
        top.insert(key, at: position)
        if top.count > topCapacity { top.removeLast() }
        state.top = top
    }
}
