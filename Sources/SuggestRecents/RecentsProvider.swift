public import Foundation
public import SuggestCore
public import SuggestPattern

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
/// Safe to use from many tasks at once: the searches and their index live behind a `Mutex`. A change updates the
/// index in place (O(log n) comparisons and a move of 8 bytes per search, plus the changed search's own bytes — not a
/// rebuild), and a keystroke reads it while holding the lock (a few microseconds at 1,000 searches).
public final class RecentsProvider: ConfigurableProvider, StoreReadingProvider {
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
        /// What the store held after the last load or full commit (`syncedTail` applied to it: after the last
        /// commit).
        var synced: RecentsLedger
        /// Changes appended to the store since `synced` was set, oldest first.
        var syncedTail: [RecentsChange] = []
        /// The file store's files as this provider's last commit left them (nil: the next commit reads and merges).
        var fileVersion: JSONFileRecentsStore.Version?
        /// Searches a file store still holds (until it is compacted) that the index evicted: made again, a search
        /// keeps its earlier uses, as it does when the store is read again.
        var evictedButStored: [String: RecentSearch] = [:]
        /// Changes not yet committed, oldest first.
        var pending: [RecentsChange] = []
        /// `synced` with `pending` applied: what is suggested, updated in place by every change.
        var index: RecentsIndex
        /// The entries a keystroke picks, reused from one keystroke to the next (under the lock, as the index).
        var picked: [(tier: MatchTier, index: Int)] = []
        var loadProblem: String?
        var saveProblem: String?
        /// Whether the load problem is still shown in diagnostics (until the next successful save).
        var reportsLoadProblem = false
        /// Whether the store dates some search well after the clock (``RecentsProvider/clampFutureDates(_:to:)``):
        /// the next commit rewrites it whole.
        var storeDatesAhead = false
        let systemImage: String?

        var notes: [String] {
            var notes: [String] = []
            if reportsLoadProblem, let loadProblem { notes.append(loadProblem) }
            if let saveProblem { notes.append(saveProblem) }
            return notes
        }

        /// Puts the current notes in the index (every keystroke reports them).
        mutating func renote() { index.notes = notes }

        /// A save that failed: the file is read again before the next append, and every keystroke notes why.
        mutating func failedToSave(_ error: any Error) {
            fileVersion = nil
            saveProblem = "could not save recent searches: \(error)"
            renote()
        }

        /// Builds the index again from `synced` with `pending` applied (after the store gave searches that other
        /// providers or processes changed).
        mutating func rebuild(capacity: Int, keepsEvicted: Bool) {
            index = RecentsIndex(synced, notes: notes, systemImage: systemImage)
            for change in pending {
                if keepsEvicted { applyToEvicted(change) }
                index.apply(change)
            }
            let evicted = index.evict(toCapacity: capacity)
            if keepsEvicted { for (key, search) in evicted { evictedButStored[key] = search } }
        }

        /// `synced` with `syncedTail` applied: what the store holds after the last commit.
        func materializedSynced(capacity: Int) -> RecentsLedger {
            guard !syncedTail.isEmpty else { return synced }
            var ledger = synced
            ledger.apply(syncedTail)
            ledger.evict(toCapacity: capacity)
            return ledger
        }

        /// Keeps `evictedButStored` as the store will hold it once `change` is saved; a search made again that the
        /// store still holds goes back into the index with its earlier uses first.
        mutating func applyToEvicted(_ change: RecentsChange) {
            guard !evictedButStored.isEmpty else { return }
            switch change {
            case .record(let search):
                let key = search.key
                if !index.contains(key: key), let earlier = evictedButStored.removeValue(forKey: key) {
                    index.add(earlier)
                }
            case .remove(let key, let date):
                if let earlier = evictedButStored[key], earlier.lastUsed <= date { evictedButStored[key] = nil }
            case .clear(let date):
                evictedButStored = evictedButStored.filter { $0.value.lastUsed > date }
            }
        }
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
            } catch let error as RecentsStoreError where error.salvaged != nil {
                // Only the journal is unreadable: the searches read before its bad line are shown, not hidden.
                loaded = error.salvaged ?? []
                let count = loaded.count == 1 ? "1 search" : "\(loaded.count) searches"
                loadProblem = "could not read recent searches: \(error); started with the \(count) read before its bad line"
            } catch {
                loadProblem = "could not read recent searches: \(error); started empty"
            }
        }
        let datesAhead = Self.clampFutureDates(&loaded, to: now())
        var ledger = RecentsLedger(loaded, halfLife: halfLife)
        ledger.remove(excludedBy: options.exclusion)
        ledger.evict(toCapacity: max(0, options.capacity))
        // The index is built once here; from now on changes update it in place.
        let notes = loadProblem.map { [$0] } ?? []
        var state = State(
            synced: ledger,
            index: RecentsIndex(ledger, notes: notes, systemImage: options.systemImage),
            systemImage: options.systemImage
        )
        state.loadProblem = loadProblem
        state.reportsLoadProblem = loadProblem != nil
        state.storeDatesAhead = datesAhead
        self.state = Locked(state)
    }

    // MARK: Reading

    /// The remembered searches, most recent first.
    public var searches: [RecentSearch] { state.withLock { $0.index.searches } }

    /// Why the store could not be read when the provider started, if it could not: it then started empty, or, when
    /// only the journal was unreadable, with the searches read before its bad line.
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
        let searches = state.withLock { $0.index.searchesByRank }
        let title = RecentSearch.collapsedFolded(suggestion.title)
        var best: RecentSearch? = nil
        var sameSubtitle: RecentSearch? = nil
        // Entries are in frecency order: the first with the same title, completion and subtitle is the one suggested
        // (then one with the same subtitle: a suggestion built by hand with a text completion).
        for search in searches where RecentSearch.collapsedFolded(search.title) == title {
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
        guard state.withLock({ $0.index.contains(key: key) }) else { return false }
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
        let keepsEvicted = store is JSONFileRecentsStore
        state.withLock { state in
            if keepsEvicted { state.applyToEvicted(change) }
            state.index.apply(change)
            let evicted = state.index.evict(toCapacity: capacity)
            if keepsEvicted { for (key, search) in evicted { state.evictedButStored[key] = search } }
            if store != nil { state.pending.append(change) }
        }
        if store != nil { _ = commitPending(evenIfNothingChanged: false) }
    }

    /// Commits the pending changes (all of them, even ones added while committing is under way).
    ///
    /// With a ``JSONFileRecentsStore`` that nobody else wrote to since this provider's last commit, the changes are
    /// appended to its journal and nothing is read, merged or rebuilt: the cost does not grow with the number of
    /// searches. Otherwise (another provider or process wrote, compaction is due, ``synchronize()``, other stores)
    /// the store's searches are read and merged and the index is built again: O(n log n).
    /// How far ahead of this provider's clock a stored search's date may be and still be taken as it is: another
    /// process or device whose clock runs a little ahead made it (a clear here keeps it, as it was made after).
    static let clockSkewAllowance: TimeInterval = 3_600

    /// Searches last made more than ``clockSkewAllowance`` after `date` (a clock set wrong, then put right; a file
    /// edited by hand) count as made at `date`: they would otherwise stay first on an empty field until then, and
    /// their later uses would not count.
    /// - Returns: whether any was.
    @discardableResult
    static func clampFutureDates(_ searches: inout [RecentSearch], to date: Date) -> Bool {
        let limit = date.addingTimeInterval(clockSkewAllowance)
        var changed = false
        for i in searches.indices where searches[i].lastUsed > limit {
            searches[i].lastUsed = date
            if searches[i].firstUsed > date { searches[i].firstUsed = date }
            changed = true
        }
        return changed
    }

    private func commitPending(evenIfNothingChanged: Bool) -> (any Error)? {
        guard let store else { return nil }
        let capacity = max(0, options.capacity)
        let halfLife = self.halfLife
        let exclusion = options.exclusion
        let fileStore = store as? JSONFileRecentsStore
        return commitLock.withLock { _ -> (any Error)? in
            let (changes, version) = state.withLock { ($0.pending, $0.fileVersion) }
            // Another caller's commit already saved this change.
            if changes.isEmpty && !evenIfNothingChanged { return nil }
            // The store dates some search well after the clock (``clampFutureDates``): rewrite it whole, with the
            // dates put right, so that a removal or a clear replayed from a journal line cannot leave it behind.
            let rewrite = state.withLock { $0.storeDatesAhead }
            if !evenIfNothingChanged && !rewrite, let fileStore, let version {
                do {
                    if let next = try fileStore.append(changes, ifUnchangedSince: version) {
                        state.withLock { state in
                            state.pending.removeFirst(min(changes.count, state.pending.count))
                            state.syncedTail.append(contentsOf: changes)
                            state.fileVersion = next
                            state.saveProblem = nil
                            state.reportsLoadProblem = false
                            state.renote()
                        }
                        return nil
                    }
                } catch {
                    state.withLock { $0.failedToSave(error) }
                    return error
                }
            }
            let synced = state.withLock { $0.materializedSynced(capacity: capacity) }
            do {
                // The ledger `merge` built: the same as one built again from what it returned (one key and one
                // folded title per search less at every save of a large store).
                var mergedLedger: RecentsLedger? = nil
                // Before eviction: what the file keeps until it is compacted.
                var unevicted: RecentsLedger? = nil
                let lastStored = self.lastStored
                // What the store holds dated well after the clock counts as made now (``clampFutureDates``).
                let clamp = now()
                var datesAhead = false
                let merge = { (stored: [RecentSearch]?) throws -> [RecentSearch] in
                    var ledger: RecentsLedger
                    if var stored {
                        if Self.clampFutureDates(&stored, to: clamp) { datesAhead = true }
                        ledger = Self.ledger(for: stored, after: lastStored.withLock { $0 }, halfLife: halfLife)
                        lastStored.withLock { $0 = (stored, ledger) }
                    } else {
                        ledger = synced
                    }
                    ledger.apply(changes)
                    ledger.remove(excludedBy: exclusion)
                    if fileStore != nil && ledger.count > capacity { unevicted = ledger }
                    ledger.evict(toCapacity: capacity)
                    mergedLedger = ledger
                    return ledger.searches
                }
                let merged: [RecentSearch]
                var fileVersion: JSONFileRecentsStore.Version? = nil
                var compacted = true
                if let fileStore {
                    (merged, fileVersion, compacted) = try fileStore.commitReportingVersion(
                        changes, compacting: rewrite, merge: merge)
                } else {
                    merged = try store.commit(changes, merge: merge)
                }
                state.withLock { state in
                    state.pending.removeFirst(min(changes.count, state.pending.count))
                    if let mergedLedger, mergedLedger.count == merged.count {
                        state.synced = mergedLedger
                    } else {
                        state.synced = RecentsLedger(merged, halfLife: halfLife)
                    }
                    state.syncedTail = []
                    state.fileVersion = fileVersion
                    state.evictedButStored = [:]
                    if !compacted, let unevicted {
                        for (key, entry) in unevicted.entries where state.synced.entries[key] == nil {
                            state.evictedButStored[key] = entry.search
                        }
                    }
                    state.saveProblem = nil
                    state.reportsLoadProblem = false
                    state.storeDatesAhead = !compacted && (rewrite || datesAhead)
                    state.rebuild(capacity: capacity, keepsEvicted: fileStore != nil)
                }
                return nil
            } catch {
                state.withLock { $0.failedToSave(error) }
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
        let now = self.now().timeIntervalSince1970
        let halfLife = self.halfLife
        // Under the lock: the index is updated in place by changes (a copy per change would cost O(n)); this holds it
        // for the few microseconds of a keystroke.
        state.withLock { state in
            Self.suggest(request, from: state.index, picked: &state.picked, now: now, halfLife: halfLife, into: &output)
        }
    }

    private static func suggest(
        _ request: SuggestionRequest,
        from index: borrowing RecentsIndex,
        picked: inout [(tier: MatchTier, index: Int)],
        now: Double,
        halfLife: Double,
        into output: inout ProviderOutput
    ) {
        if !index.notes.isEmpty { output.notes.append(contentsOf: index.notes) }
        guard index.count > 0, request.limit > 0 else { return }
        if request.query.isEmpty {
            let tokens = request.tokens
            output.candidates.reserveCapacity(output.candidates.count + min(request.limit, index.count))
            var added = 0
            var shown: [Int32] = []
            for slot in index.byRecency where added < request.limit {
                let search = index.search(slot)
                if !tokens.isEmpty {
                    // Only tokens in the field: the searches that had them and something more.
                    guard tokens.allSatisfy(search.query.tokens.contains),
                        !search.query.text.isEmpty || search.query.tokens.count > tokens.count
                    else { continue }
                }
                // One per completion: the most recent of the searches the engine would show as one.
                if index.shared[Int(slot)] {
                    if index.isDuplicate(slot: slot, ofSlots: shown) { continue }
                    shown.append(slot)
                }
                // Ranked by recency: the popularity is a use's weight now, 1 when just made.
                var candidate = index.slots[Int(slot)]!.template
                candidate.tier = .unfiltered
                candidate.popularity = exp2(-max(0, now - search.lastUsed.timeIntervalSince1970) / halfLife)
                output.append(candidate)
                added += 1
            }
            return
        }
        picked.reserveCapacity(request.limit * 3)
        index.select(request.query, limit: request.limit, into: &picked)
        output.candidates.reserveCapacity(output.candidates.count + picked.count)
        for (tier, i) in picked {
            let slot = index.slot(ofEntry: i)
            var candidate = index.slots[slot]!.template
            candidate.tier = tier
            candidate.matchedRanges = index.matchedRanges(request.query, entry: i, tier: tier)
            let search = index.slots[slot]!.search
            candidate.popularity = search.score * exp2(-max(0, now - search.lastUsed.timeIntervalSince1970) / halfLife)
            output.append(candidate)
        }
    }
}
