public import Logging
import Synchronization

/// Merges and ranks the suggestions of its providers, once per keystroke.
///
/// One keystroke: token extraction (providers may move text into tokens), then the query is prepared once
/// (folded, split in words, cut to ``EngineOptions/maxQueryLength``), every synchronous provider suggests,
/// the candidates are merged (one suggestion per completion, keeping every provider that offered it), ranked in
/// tiers (exact > prefix > word-prefix > contains > subsequence > one typo > two typos; inside a tier weight ×
/// popularity × selection history; then the tiebreaks), and shaped into sections with quotas and the limit.
/// A provider that throws is reported in the diagnostics; the keystroke goes on without it.
///
/// The engine is `Sendable` and may be shared; per-field state lives in a ``TypingSession``.
public final class SuggestionEngine: Sendable {
    /// The section of suggestions whose provider names none.
    public static let defaultSection = "Suggestions"
    /// The default maximum query length in UTF-8 bytes.
    public static let defaultMaxQueryLength = 1_024

    public let slots: [ProviderSlot]
    /// True when a provider runs `.asynchronous(deadline:)`: only ``allSuggestions(for:session:)`` (and the other
    /// async entry points) hear from it; ``suggestions(for:session:)`` reports it as skipped.
    public var hasAsynchronousProviders: Bool {
        slots.contains { slot in
            if case .asynchronous = slot.provider.execution { return true }
            return false
        }
    }
    public let options: EngineOptions
    /// Where the engine logs what it notes, besides the result's diagnostics: a provider that failed (`warning`),
    /// missed its deadline (`notice`) or was skipped by the synchronous call (`debug`), a provider's note — a
    /// recents store that cannot be read or written, a typo walk cut at its limit — and a query cut to
    /// ``EngineOptions/maxQueryLength`` (`notice`), a token extraction that failed on submit (`warning`). Each
    /// message names its provider in the `suggest.source` metadata and is logged once until another replaces it
    /// (a note repeated on every keystroke is logged once). A keystroke with nothing to note logs nothing.
    public let logger: Logger
    /// Times each completion was selected, by merge key.
    let selections = Mutex(SelectionCounts())
    /// Section order and quotas, derived once.
    let layout: Layout
    /// What was logged last, per source (shared by engines made with the same memory, such as the per-user
    /// engines of one server).
    let logMemory: LogMemory

    /// An engine over providers with the engine-side settings of their configuration entries.
    /// - Parameters:
    ///   - slots: the providers, in order, each with its weight, section and exact-match rule.
    ///   - options: how results are merged, ranked and shaped.
    ///   - logger: where the engine logs what it notes (``logger``); by default one labelled `swift-suggest`.
    public convenience init(
        slots: [ProviderSlot],
        options: EngineOptions = EngineOptions(),
        logger: Logger = SuggestionEngine.makeDefaultLogger()
    ) {
        self.init(slots: slots, options: options, logger: logger, logMemory: LogMemory())
    }

    /// An engine that shares what it logged with other engines: one message is logged once across them (a
    /// server's per-user engines over one database that went down log it once, not once per user).
    package init(slots: [ProviderSlot], options: EngineOptions, logger: Logger, logMemory: LogMemory) {
        self.slots = slots
        self.options = options
        self.logger = logger
        self.logMemory = logMemory
        self.layout = Layout(slots: slots, options: options)
    }

    public convenience init(
        providers: [any SuggestionProvider],
        options: EngineOptions = EngineOptions(),
        logger: Logger = SuggestionEngine.makeDefaultLogger()
    ) {
        self.init(slots: providers.map { ProviderSlot($0) }, options: options, logger: logger)
    }

    /// The providers, in configuration order.
    public var providers: [any SuggestionProvider] { slots.map(\.provider) }

    /// Answers one keystroke with the synchronous providers (asynchronous ones are reported as skipped; use
    /// ``allSuggestions(for:session:)``, ``startSuggestions(for:session:)`` or ``results(for:)`` to include them).
    /// - Complexity: the providers' work plus O(c log c) for c candidates.
    public func suggestions(for query: SearchQuery, session: inout TypingSession) -> SuggestionResult {
        let start = ContinuousClock.now
        let (work, _) = keystroke(query, session: &session, asynchronous: .skip)
        let result = finish(work, generation: session.generation, since: start, scratch: &session.scratch)
        session.scratch.recycle(work)
        return result
    }

    /// Answers one keystroke on a fresh typing session.
    public func suggestions(for query: SearchQuery) -> SuggestionResult {
        var session = TypingSession()
        return suggestions(for: query, session: &session)
    }

    /// Answers one keystroke for `text` on a fresh typing session.
    public func suggestions(for text: String) -> SuggestionResult {
        suggestions(for: SearchQuery(text: text))
    }

    /// Answers two throwaway keystrokes (on a typing session of its own; nothing is recorded, no selection learnt) so
    /// that the one-time costs of a process's first keystroke — lazily built tables, first touches of an index's
    /// memory, 2–8 ms on 886k entries — are paid now rather than on the person's first keystroke.
    /// ``EngineConfiguration/makeEngine()`` calls it; call it yourself (off the main thread) for an engine you build
    /// in Swift.
    public func warmUp() {
        var session = TypingSession()
        for text in ["e", "ea"] { _ = suggestions(for: SearchQuery(text: text), session: &session) }
    }

    /// Records a submitted search: cuts its text to ``EngineOptions/maxQueryLength`` as a keystroke does, runs
    /// token extraction as on return (a rule match at the end of the text becomes a token), tells every provider,
    /// and returns the query as submitted (with its tokens).
    @discardableResult
    public func submit(_ query: SearchQuery) -> SearchQuery {
        var notes: [String] = []
        return submit(query, notes: &notes)
    }

    /// Records a submitted search like ``submit(_:)`` and says what did not go as typed.
    /// - Parameters:
    ///   - query: the search as it stood when the person submitted it.
    ///   - notes: gets `query text truncated from N to M UTF-8 bytes` when the text was cut, and
    ///     `ID: token extraction: …` for a provider whose extraction failed (the search is recorded without it).
    /// - Complexity: the providers' extraction, on at most ``EngineOptions/maxQueryLength`` bytes of text.
    @discardableResult
    public func submit(_ query: SearchQuery, notes: inout [String]) -> SearchQuery {
        var submitted = query
        // Return commits the text being composed.
        submitted.markedRange = nil
        if submitted.text.utf8.count > options.maxQueryLength {
            notes.append(
                "query text truncated from \(submitted.text.utf8.count) to \(options.maxQueryLength) UTF-8 bytes"
            )
            log(.notice, "submitted query truncated", source: "engine", notes[notes.count - 1])
            submitted.text = PreparedQuery.truncate(submitted.text, toUTF8Length: options.maxQueryLength)
        }
        for slot in slots {
            do {
                if let extraction = try slot.provider.extractTokens(from: submitted, submitting: true) {
                    submitted.tokens = extraction.tokens
                    submitted.text = extraction.remainingText
                }
            } catch {
                notes.append("\(slot.provider.id): token extraction: \(error)")
                log(.warning, "token extraction failed on submit", source: slot.provider.id, "\(error)")
            }
        }
        for slot in slots { slot.provider.didSubmit(submitted) }
        return submitted
    }

    /// Records that the person chose `suggestion` while `query` was typed: it ranks higher inside its tier from now
    /// on (if ``EngineOptions/learnFromSelections``), and every provider hears of it.
    public func select(_ suggestion: Suggestion, for query: SearchQuery) {
        if options.learnFromSelections {
            selections.withLock { $0.record(suggestion.completion) }
        }
        for slot in slots { slot.provider.didSelect(suggestion, for: query) }
    }

    /// The text that backspace into `token` puts back in the field: the first provider's
    /// ``SuggestionProvider/editText(for:)`` that has one (a token rule's `editText`: `from:alice`), else the token's
    /// value. It carries no trailing space or delimiter, so it stays text while the person edits it.
    public func editText(for token: SearchToken) -> String {
        for slot in slots {
            if let text = slot.provider.editText(for: token) { return text }
        }
        return token.value
    }

    // MARK: The parts of a keystroke

    /// The state of one keystroke between its steps.
    struct Work: Sendable {
        var prepared: PreparedQuery
        var suggestedTokens: [SearchToken]
        var replacedRanges: [SearchToken: Range<Int>] = [:]
        var outputs: [[SuggestionCandidate]]
        var reports: [SuggestionResult.Diagnostics.ProviderReport?]
        var notes: [String]
        /// Notes providers added to their output ("id: note").
        var providerNotes: [String] = []
        /// The query with its end replaced by synonyms (``EngineOptions/synonyms``), each asked of every synchronous
        /// provider after the query itself.
        var synonymQueries: [(query: PreparedQuery, match: Synonyms.Match)] = []
        /// While text is being composed: the query as the field holds it, its marked part (whole scalars); the
        /// prepared query holds the committed text after token extraction.
        var composing: (query: SearchQuery, markedRange: Range<Int>)? = nil
    }

    /// Steps 1–2: token extraction and query preparation (in the session's reused arrays). While text is being
    /// composed (``SearchQuery/isComposing``) both work on the committed text, and ``finish`` reports the field as
    /// it is: text turns into tokens only once it is committed.
    func begin(_ query: SearchQuery, session: inout TypingSession) -> Work {
        var query = query
        var composing: (query: SearchQuery, markedRange: Range<Int>)? = nil
        if query.isComposing, let marked = query.markedRange {
            let (lower, upper) = SearchQuery.scalarBounds(of: marked, in: Array(query.text.utf8))
            composing = (query, lower..<upper)
            query.text = query.committedText
        }
        query.markedRange = nil
        var suggestedTokens: [SearchToken] = []
        var replacedRanges: [SearchToken: Range<Int>] = [:]
        var reports = session.scratch.takeReports(count: slots.count)
        var notes: [String] = []
        if query.text.utf8.count > options.maxQueryLength {
            notes.append(
                "query text truncated from \(query.text.utf8.count) to \(options.maxQueryLength) UTF-8 bytes"
            )
            log(.notice, "query truncated", source: "engine", notes[notes.count - 1])
            query.text = PreparedQuery.truncate(query.text, toUTF8Length: options.maxQueryLength)
        }
        for (index, slot) in slots.enumerated() {
            do {
                if let extraction = try slot.provider.extractTokens(from: query, submitting: false) {
                    // Ranges measured on text that this provider changed no longer hold.
                    if extraction.remainingText != query.text { replacedRanges.removeAll() }
                    for (token, range) in extraction.replacedRanges where replacedRanges[token] == nil {
                        replacedRanges[token] = range
                    }
                    query.tokens = extraction.tokens
                    query.text = extraction.remainingText
                    for token in extraction.suggestedTokens
                    where !query.tokens.contains(token) && !suggestedTokens.contains(token) {
                        suggestedTokens.append(token)
                    }
                }
            } catch {
                reports[index] = .init(
                    provider: slot.provider.id,
                    micros: 0,
                    outcome: .failed(message: "token extraction: \(error)")
                )
                log(.warning, "provider failed", source: slot.provider.id, "token extraction: \(error)")
            }
        }
        let prepared = PreparedQuery(
            query, maximumLength: options.maxQueryLength, bytes: &session.scratch.queryBytes,
            words: &session.scratch.queryWords)
        var work = Work(
            prepared: prepared,
            suggestedTokens: suggestedTokens,
            replacedRanges: replacedRanges,
            outputs: session.scratch.takeOutputs(count: slots.count),
            reports: reports,
            notes: notes,
            composing: composing
        )
        if !options.synonyms.isEmpty {
            for rewrite in options.synonyms.rewrites(of: prepared) {
                work.synonymQueries.append(
                    (PreparedQuery(rewrite.query, maximumLength: options.maxQueryLength), rewrite.match))
            }
        }
        return work
    }

    /// What one keystroke does with the asynchronous providers while the local ones answer.
    enum AsynchronousSlots {
        /// Not run: reported as skipped (the synchronous call).
        case skip
        /// Left to the caller, which runs them and reports them.
        case leave
        /// Left to the caller and reported as pending in the local answer.
        case markPending
    }

    /// The reason an asynchronous provider's report gives for a keystroke whose text was being composed.
    public static let notAskedWhileComposing = "not asked while text is being composed"

    /// The one slot loop of a keystroke: a new generation, token extraction and query preparation (`begin`), then
    /// each local provider in order (`runSynchronous`); the asynchronous ones are handled as `asynchronous` says.
    /// - Returns: the keystroke's work so far, and the indices of the asynchronous slots left to the caller (empty
    ///   for `.skip`).
    func keystroke(
        _ query: SearchQuery,
        session: inout TypingSession,
        asynchronous: AsynchronousSlots
    ) -> (work: Work, remote: [Int]) {
        session.generation &+= 1
        var work = begin(query, session: &session)
        var remote: [Int] = []
        for (index, slot) in slots.enumerated() {
            guard case .asynchronous = slot.provider.execution else {
                runSynchronous(index, slot, &work, &session)
                continue
            }
            if work.composing != nil {
                log(.debug, "provider skipped", source: slot.provider.id, "asynchronous, not asked while composing")
                work.reports[index] = .init(
                    provider: slot.provider.id,
                    micros: 0,
                    outcome: .cancelled(reason: Self.notAskedWhileComposing)
                )
                continue
            }
            switch asynchronous {
            case .skip:
                log(.debug, "provider skipped", source: slot.provider.id, "asynchronous, not run by a synchronous call")
                work.reports[index] = .init(
                    provider: slot.provider.id,
                    micros: 0,
                    outcome: .cancelled(reason: "asynchronous provider skipped by the synchronous call")
                )
            case .leave:
                remote.append(index)
            case .markPending:
                remote.append(index)
                work.reports[index] = .init(provider: slot.provider.id, micros: 0, outcome: .pending)
            }
        }
        return (work, remote)
    }

    /// Step 3 for one synchronous provider.
    func runSynchronous(_ index: Int, _ slot: ProviderSlot, _ work: inout Work, _ session: inout TypingSession) {
        if let report = work.reports[index], case .failed = report.outcome { return }
        var request = SuggestionRequest(
            query: work.prepared,
            limit: options.limit,
            previousState: session.states[index],
            generation: session.generation
        )
        if index > 0 && index == slots.count - 1 && !work.prepared.isEmpty {
            request.filledBefore = filledBefore(slot: index, work.outputs, scratch: &session.scratch)
        }
        // The slot's candidate array from the previous keystroke, emptied: a provider that appends reuses its memory.
        var output = ProviderOutput()
        swap(&output.candidates, &work.outputs[index])
        let t0 = ContinuousClock.now
        do {
            try slot.provider.suggest(request, into: &output)
            session.states[index] = output.state
            if !work.synonymQueries.isEmpty { askSynonyms(slot, session.generation, work.synonymQueries, &output) }
            let micros = Self.micros(since: t0)
            work.reports[index] = .init(
                provider: slot.provider.id,
                micros: micros,
                outcome: .answered(count: output.candidates.count)
            )
            swap(&output.candidates, &work.outputs[index])
            for note in output.notes {
                work.providerNotes.append("\(slot.provider.id): \(note)")
                log(.notice, "note", source: slot.provider.id, note)
            }
        } catch {
            output.candidates.removeAll(keepingCapacity: true)
            swap(&output.candidates, &work.outputs[index])
            work.reports[index] = .init(
                provider: slot.provider.id,
                micros: Self.micros(since: t0),
                outcome: .failed(message: "\(error)")
            )
            log(.warning, "provider failed", source: slot.provider.id, "\(error)")
        }
    }

    /// The first tier (in rank order) whose candidates from slot `p` cannot be shown, given what the slots before it
    /// offered (``SuggestionRequest/filledBefore``); nil when every tier may be. Counts the different completions of
    /// each tier (as the merge keys them, in the scratch's merge table, which the merge empties before it uses it)
    /// among the earlier slots in sections without a quota, leaving out synonym matches and candidates that name
    /// their own section: an entry such a slot offered is shown, or ranks before every candidate of a worse tier,
    /// whatever the sections with a quota hold. A completion offered twice counts at the tier it was first seen with
    /// (the merged one is that or better). Slot `p`'s own section must have no quota (its candidates would take
    /// those places first), and no slot may come after it (a later slot's offer of a completion `p` skipped would
    /// put it in that slot's section).
    func filledBefore(slot p: Int, _ outputs: [[SuggestionCandidate]], scratch: inout KeystrokeScratch) -> MatchTier? {
        func hasQuota(_ section: Int) -> Bool { section < layout.quotas.count && layout.quotas[section] != nil }
        guard !hasQuota(layout.slotSections[p]) else { return nil }
        var total = 0
        for q in 0..<p where !hasQuota(layout.slotSections[q]) { total += outputs[q].count }
        guard total >= options.limit else { return nil }
        scratch.table.removeAll(expected: total)
        // Different completions per tier, indexed by rank order (``MatchTier/order``).
        scratch.tierCounts.removeAll(keepingCapacity: true)
        scratch.tierCounts.append(contentsOf: repeatElement(0, count: MatchTier.inRankOrder.count))
        for q in 0..<p where !hasQuota(layout.slotSections[q]) {
            let exactBoost = slots[q].exactMatch.boostFactor
            // By index, reading fields in place (a copy of a candidate would retain its strings).
            for c in outputs[q].indices {
                guard outputs[q][c].synonym == nil, outputs[q][c].section == nil, outputs[q][c].tier != .unfiltered
                else { continue }
                guard scratch.table.insert(outputs[q][c].completion).inserted else { continue }
                // An exact match that must earn its place is merged as a prefix match.
                let tier = outputs[q][c].tier == .exact && exactBoost != nil ? MatchTier.prefix : outputs[q][c].tier
                scratch.tierCounts[tier.order] += 1
            }
        }
        var before = 0
        for order in scratch.tierCounts.indices {
            if before >= options.limit { return MatchTier.inRankOrder[order] }
            before += scratch.tierCounts[order]
        }
        return nil
    }

    /// Asks `slot`'s provider for each synonym rewrite of the query (afresh: no state from earlier keystrokes, and
    /// none kept) and appends what it offers to `output`, each candidate marked with its synonym. A rewrite the
    /// provider fails on adds nothing; the query's own answer stands.
    func askSynonyms(
        _ slot: ProviderSlot,
        _ generation: UInt64,
        _ rewrites: [(query: PreparedQuery, match: Synonyms.Match)],
        _ output: inout ProviderOutput
    ) {
        for rewrite in rewrites where !rewrite.query.isEmpty {
            var extra = ProviderOutput()
            let request = SuggestionRequest(
                query: rewrite.query, limit: options.limit, previousState: nil, generation: generation)
            do {
                try slot.provider.suggest(request, into: &extra)
            } catch {
                continue
            }
            for var candidate in extra.candidates {
                candidate.synonym = rewrite.match
                output.candidates.append(candidate)
            }
        }
    }

    /// Steps 4–7: merge, rank, shape, result (in memory of its own).
    func finish(_ work: Work, generation: UInt64, since start: ContinuousClock.Instant) -> SuggestionResult {
        var scratch = KeystrokeScratch()
        return finish(work, generation: generation, since: start, scratch: &scratch)
    }

    /// Steps 4–7: merge, rank, shape, result, in `scratch`'s reused memory.
    func finish(
        _ work: Work,
        generation: UInt64,
        since start: ContinuousClock.Instant,
        scratch: inout KeystrokeScratch
    ) -> SuggestionResult {
        // Chosen suggestions rank higher only for typed text: on an empty field the providers' own order stands (a
        // recent search chosen once is not kept above newer ones).
        let learns = options.learnFromSelections && !work.prepared.query.text.isEmpty
        let selectionCounts = learns ? selections.withLock { $0 } : SelectionCounts()
        let (sections, common) = arrange(
            work.outputs, query: work.prepared, selectionCounts: selectionCounts, scratch: &scratch)
        var notes = work.notes
        if work.prepared.wasTruncated && notes.isEmpty {
            notes.append("query text truncated to \(options.maxQueryLength) UTF-8 bytes")
        }
        notes.append(contentsOf: work.providerNotes)
        var result = SuggestionResult(
            generation: generation,
            sections: sections,
            tokens: work.composing?.query.tokens ?? work.prepared.query.tokens,
            remainingText: work.composing?.query.text ?? work.prepared.query.text,
            suggestedTokens: work.composing == nil ? work.suggestedTokens : [],
            replacedRanges: work.composing == nil ? work.replacedRanges : [:],
            commonCompletion: work.composing == nil ? common : nil,
            diagnostics: .init(providers: scratch.reportList(work.reports), notes: notes),
            markedRange: work.composing?.markedRange
        )
        result.diagnostics.micros = Self.micros(since: start)
        return result
    }

    static func micros(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        let (seconds, attoseconds) = d.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
