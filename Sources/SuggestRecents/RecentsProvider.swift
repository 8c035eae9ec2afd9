public import Foundation
public import SuggestCore

/// Recent searches (`"type": "recent"`): what the person searched before, the most valuable suggestion there is,
/// and the most private.
///
/// - **Learns** from submitted searches (``didSubmit(_:)``, called by `SuggestionEngine/submit(_:)`) and, with
///   ``Options/recordSelections``, from chosen suggestions. A search is remembered whole: text, tokens and scope.
/// - **Dedupes** by ``RecentSearch/key`` (folded text without surrounding or repeated whitespace, plus tokens),
///   keeping the newest display form. Beyond ``Options/capacity`` the least valuable search by frecency goes
///   (every use counts 1 and halves every ``Options/halfLife``).
/// - **Suggests** on an empty field the most recent searches first (tier `.unfiltered`); with only tokens in the
///   field, the recent searches that had those tokens; while typing, the searches that match — prefix, then
///   word-prefix, then contains — each tier by frecency. They go to the "Recent" section (its quota, 3 by
///   default, is the engine's `EngineOptions/sections`) with the `clock` symbol.
/// - **Restores whole:** a recent search without tokens completes as its text; one made only of one token completes
///   as that token; any other completes as `.query` (its text and tokens, which `SearchSession.choose(_:)` puts
///   back in the field) and shows its tokens as the subtitle when it has text. ``storedQuery(for:)`` gives the
///   whole `SearchQuery` (text, tokens, scope).
/// - **Stores** through a ``RecentsStore``; without one (or `"ephemeral": true`) it keeps them in memory only.
///   Writing happens in ``record(_:)``, ``remove(_:)`` and ``clear()`` (on the caller's thread, never on a
///   keystroke); a store that cannot be read or written is reported in the keystroke's diagnostics notes.
///
/// Safe to use from many tasks at once: the searches live behind a `Mutex`, and a keystroke only takes a reference
/// to an immutable index of them.
public final class RecentsProvider: ConfigurableProvider {
    /// Settings of a recents provider.
    public struct Options: Hashable, Sendable {
        /// How many searches are kept (default 100).
        public var capacity: Int
        /// How long until a use counts half as much (default 14 days).
        public var halfLife: Duration
        /// Remember chosen suggestions as searches too (default false: only submitted searches).
        public var recordSelections: Bool
        /// The SF Symbol of the suggestions (default `clock`; nil for none).
        public var systemImage: String?
        /// Searches that are never remembered.
        public var exclusion: RecentsExclusion

        public init(
            capacity: Int = 100,
            halfLife: Duration = .seconds(14 * 86_400),
            recordSelections: Bool = false,
            systemImage: String? = "clock",
            exclusion: RecentsExclusion = .none
        ) {
            self.capacity = capacity
            self.halfLife = halfLife
            self.recordSelections = recordSelections
            self.systemImage = systemImage
            self.exclusion = exclusion
        }
    }

    public static let typeName = "recent"
    public static var defaultSection: String? { "Recent" }

    public let id: String
    public let options: Options
    /// The store, nil when the searches are kept in memory only.
    public let store: (any RecentsStore)?
    /// Half-life in seconds.
    let halfLife: Double
    let now: @Sendable () -> Date

    struct State: Sendable {
        /// What the store held after the last load or commit.
        var synced: RecentsLedger
        /// Changes not yet committed, oldest first.
        var pending: [RecentsChange] = []
        /// `synced` with `pending` applied: what is suggested.
        var current: RecentsLedger
        var index: RecentsIndex
        var loadProblem: String?
        var saveProblem: String?
        /// Whether the load problem is still shown in diagnostics (until the next successful save).
        var reportsLoadProblem = false
        let systemImage: String?

        var notes: [String] {
            var notes: [String] = []
            if reportsLoadProblem, let loadProblem { notes.append(loadProblem) }
            if let saveProblem { notes.append(saveProblem) }
            return notes
        }

        mutating func reindex() { index = RecentsIndex(current, notes: notes, systemImage: systemImage) }
    }

    let state: Locked<State>
    /// Serializes commits to the store (held during I/O; keystrokes never take it).
    let commitLock = Locked<Bool>(false)
    /// What the store gave the last commit and the ledger built from it: when the store gives the same searches
    /// again with more after them (a journal that grew), only those are added (no key or folded title again for
    /// the others). Used under `commitLock` only.
    private let lastStored = Locked<(searches: [RecentSearch], ledger: RecentsLedger)?>(nil)

    /// A provider with `options`, keeping its searches in `store` (memory only if nil).
    /// - Parameters:
    ///   - id: the provider's id in results and diagnostics.
    ///   - store: where the searches are kept (memory only if nil).
    ///   - options: capacity, decay, exclusions and the rest of its settings.
    ///   - now: the clock (tests pass their own).
    public init(
        id: String = "recent",
        store: (any RecentsStore)? = nil,
        options: Options = Options(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.id = id
        self.store = store
        self.options = options
        self.now = now
        let (seconds, attoseconds) = options.halfLife.components
        let halfLife = max(1e-3, Double(seconds) + Double(attoseconds) / 1e18)
        self.halfLife = halfLife
        var loaded: [RecentSearch] = []
        var loadProblem: String? = nil
        if let store {
            do {
                loaded = try store.load()
            } catch {
                loadProblem = "could not read recent searches: \(error); started empty"
            }
        }
        var ledger = RecentsLedger(loaded, halfLife: halfLife)
        ledger.remove(excludedBy: options.exclusion)
        ledger.evict(toCapacity: max(0, options.capacity))
        // One index build (it was built twice: empty of notes, then again by `reindex()`).
        let notes = loadProblem.map { [$0] } ?? []
        var state = State(
            synced: ledger,
            current: ledger,
            index: RecentsIndex(ledger, notes: notes, systemImage: options.systemImage),
            systemImage: options.systemImage
        )
        state.loadProblem = loadProblem
        state.reportsLoadProblem = loadProblem != nil
        self.state = Locked(state)
    }

    // MARK: Reading

    /// The remembered searches, most recent first.
    public var searches: [RecentSearch] { state.withLock { $0.current.searches } }

    /// Why the store could not be read when the provider started (it then started empty), if it could not.
    public var loadProblem: String? { state.withLock { $0.loadProblem } }

    /// The frecency of `search` at `date` with this provider's half-life: its uses, each halved every half-life.
    public func frecency(of search: RecentSearch, at date: Date = Date()) -> Double {
        search.frecency(at: date, halfLife: halfLife)
    }

    /// Why the last save failed, if it did (the changes are kept and saved with the next one).
    public var saveProblem: String? { state.withLock { $0.saveProblem } }

    /// How many changes (searches recorded, removed, cleared) are not in the store yet because saving them failed
    /// (disk full, a read-only file or folder). Before the app quits, call ``synchronize()``: it throws when they
    /// still cannot be saved, so that they are never dropped silently.
    public var unsavedChangeCount: Int { state.withLock { $0.pending.count } }

    /// The whole search (text, tokens, scope) a suggestion from this provider stands for, to put back in the field;
    /// nil if `suggestion` is not a remembered search.
    public func storedQuery(for suggestion: Suggestion) -> SearchQuery? {
        storedSearch(for: suggestion)?.query
    }

    /// The remembered search a suggestion from this provider stands for.
    public func storedSearch(for suggestion: Suggestion) -> RecentSearch? {
        let index = state.withLock { $0.index }
        let title = RecentSearch.collapsedFolded(suggestion.title)
        var best: RecentSearch? = nil
        var sameSubtitle: RecentSearch? = nil
        // Entries are in frecency order: the first with the same title, completion and subtitle is the one suggested
        // (then one with the same subtitle: a suggestion built by hand with a text completion).
        for search in index.searches where RecentSearch.collapsedFolded(search.title) == title {
            if search.suggestionSubtitle == suggestion.subtitle {
                if search.suggestionCompletion == suggestion.completion { return search }
                if sameSubtitle == nil { sameSubtitle = search }
            }
            if best == nil { best = search }
        }
        return sameSubtitle ?? best
    }

    // MARK: Changing

    /// Remembers one use of `query` (unless an exclusion rule rejects it) and saves.
    /// - Returns: whether it was remembered.
    @discardableResult
    public func record(_ query: SearchQuery) -> Bool {
        let query = RecentSearch.displayForm(of: query)
        guard !options.exclusion.excludes(query) else { return false }
        let date = now()
        change(.record(RecentSearch(query: query, firstUsed: date, lastUsed: date)))
        return true
    }

    /// Forgets `query` (compared by ``RecentSearch/key``) and saves.
    /// - Returns: whether it was remembered.
    @discardableResult
    public func remove(_ query: SearchQuery) -> Bool {
        let key = RecentSearch.key(for: query)
        guard state.withLock({ $0.current.entries[key] != nil }) else { return false }
        change(.remove(key: key, at: now()))
        return true
    }

    /// Forgets every search and saves.
    public func clear() {
        change(.clear(at: now()))
    }

    /// Saves what is not saved yet and takes in what other providers or processes sharing the store saved.
    /// - Throws: the store's error; ``unsavedChangeCount`` then says how many changes are not saved.
    public func synchronize() throws {
        guard store != nil else { return }
        if let error = commitPending(evenIfNothingChanged: true) { throw error }
    }

    func change(_ change: RecentsChange) {
        let capacity = max(0, options.capacity)
        state.withLock { state in
            state.current.apply(change)
            state.current.evict(toCapacity: capacity)
            if store != nil { state.pending.append(change) }
            state.reindex()
        }
        if store != nil { _ = commitPending(evenIfNothingChanged: false) }
    }

    /// Commits the pending changes (all of them, even ones added while committing is under way).
    private func commitPending(evenIfNothingChanged: Bool) -> (any Error)? {
        guard let store else { return nil }
        let capacity = max(0, options.capacity)
        let halfLife = self.halfLife
        let exclusion = options.exclusion
        return commitLock.withLock { _ -> (any Error)? in
            let (changes, synced) = state.withLock { ($0.pending, $0.synced) }
            // Another caller's commit already saved this change.
            if changes.isEmpty && !evenIfNothingChanged { return nil }
            do {
                // The ledger `merge` built: the same as one built again from what it returned (one key and one
                // folded title per search less at every save of a large store).
                var mergedLedger: RecentsLedger? = nil
                let lastStored = self.lastStored
                let merged = try store.commit(changes) { stored in
                    var ledger: RecentsLedger
                    if let stored {
                        ledger = Self.ledger(for: stored, after: lastStored.withLock { $0 }, halfLife: halfLife)
                        lastStored.withLock { $0 = (stored, ledger) }
                    } else {
                        ledger = synced
                    }
                    ledger.apply(changes)
                    ledger.remove(excludedBy: exclusion)
                    ledger.evict(toCapacity: capacity)
                    mergedLedger = ledger
                    return ledger.searches
                }
                state.withLock { state in
                    state.pending.removeFirst(min(changes.count, state.pending.count))
                    if let mergedLedger, mergedLedger.count == merged.count {
                        state.synced = mergedLedger
                    } else {
                        state.synced = RecentsLedger(merged, halfLife: halfLife)
                    }
                    state.current = state.synced
                    state.current.apply(state.pending)
                    state.current.evict(toCapacity: capacity)
                    state.saveProblem = nil
                    state.reportsLoadProblem = false
                    state.reindex()
                }
                return nil
            } catch {
                state.withLock { state in
                    state.saveProblem = "could not save recent searches: \(error)"
                    state.reindex()
                }
                return error
            }
        }
    }

    /// `RecentsLedger(stored)`, built from `last` when `stored` starts with the searches it was built from.
    static func ledger(
        for stored: [RecentSearch],
        after last: (searches: [RecentSearch], ledger: RecentsLedger)?,
        halfLife: Double
    ) -> RecentsLedger {
        guard let last, last.ledger.halfLife == halfLife, stored.count >= last.searches.count,
            stored[..<last.searches.count].elementsEqual(last.searches)
        else { return RecentsLedger(stored, halfLife: halfLife) }
        var ledger = last.ledger
        for search in stored[last.searches.count...] { ledger.add(search) }
        return ledger
    }

    // MARK: SuggestionProvider

    public func didSubmit(_ query: SearchQuery) {
        record(query)
    }

    public func didSelect(_ suggestion: Suggestion, for query: SearchQuery) {
        guard options.recordSelections else { return }
        if suggestion.providers.contains(id), let stored = storedQuery(for: suggestion) {
            record(stored)
            return
        }
        switch suggestion.completion {
        case .text(let text):
            record(SearchQuery(text: text, tokens: query.tokens, scope: query.scope))
        case .token(let token):
            var tokens = query.tokens
            if !tokens.contains(token) { tokens.append(token) }
            record(SearchQuery(text: "", tokens: tokens, scope: query.scope))
        case .query(let chosen):
            record(SearchQuery(text: chosen.text, tokens: chosen.tokens, scope: query.scope))
        }
    }

    public func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        let index = state.withLock { $0.index }
        if !index.notes.isEmpty { output.notes.append(contentsOf: index.notes) }
        guard index.count > 0, request.limit > 0 else { return }
        let now = self.now().timeIntervalSince1970
        if request.query.isEmpty {
            let tokens = request.tokens
            output.candidates.reserveCapacity(output.candidates.count + min(request.limit, index.count))
            var added = 0
            var shown: [Int] = []
            for i in index.byRecency where added < request.limit {
                let entry = Int(i)
                if !tokens.isEmpty {
                    // Only tokens in the field: the searches that had them and something more.
                    let search = index.searches[entry]
                    guard tokens.allSatisfy(search.query.tokens.contains),
                        !search.query.text.isEmpty || search.query.tokens.count > tokens.count
                    else { continue }
                }
                // One per completion: the most recent of the searches the engine would show as one.
                if index.shared[entry] {
                    if index.isDuplicate(entry, ofEntries: shown) { continue }
                    shown.append(entry)
                }
                // Ranked by recency: the popularity is a use's weight now, 1 when just made.
                var candidate = index.templates[entry]
                candidate.tier = .unfiltered
                candidate.popularity = exp2(-max(0, now - index.lastUsed[entry]) / halfLife)
                output.append(candidate)
                added += 1
            }
            return
        }
        var picked: [(tier: MatchTier, index: Int)] = []
        picked.reserveCapacity(request.limit * 3)
        index.select(request.query, limit: request.limit, into: &picked)
        output.candidates.reserveCapacity(output.candidates.count + picked.count)
        for (tier, i) in picked {
            var candidate = index.templates[i]
            candidate.tier = tier
            candidate.matchedRanges = index.matchedRanges(request.query, entry: i, tier: tier)
            candidate.popularity = index.scores[i] * exp2(-max(0, now - index.lastUsed[i]) / halfLife)
            output.append(candidate)
        }
    }
}
