import SuggestCore
import SuggestIndex

/// Which sorted positions a keystroke may offer: those of the selected scope (all without one), and one per
/// canonical key ("a", "à" and "A" are offered once, as the most popular of them).
struct PositionFilter {
    let index: FuzzyIndex
    /// The selected scope's number in the dictionary (`UInt16.max` when the dictionary has no such scope).
    let scopeIndex: UInt16?

    init(index: FuzzyIndex, scope: String?) {
        self.index = index
        scopeIndex = scope.map { name in
            index.dictionary.scopeNames.firstIndex(of: name).map { UInt16($0 + 1) } ?? UInt16.max
        }
    }

    @inline(__always)
    func inScope(_ position: Int) -> Bool {
        guard let scopeIndex else { return true }
        return index.dictionary.scopeIndices[index.entry(at: position)] == scopeIndex
    }

    @inline(__always)
    func allowed(_ position: Int) -> Bool {
        inScope(position) && !index.prefixIndex.isShadowed(sortedPosition: position, visible: { inScope($0) })
    }
}

/// One keystroke of ``FuzzyProvider``: the typo walk, the tiers, the subsequence scan, the candidates.
struct FuzzyMatcher {
    let index: FuzzyIndex
    let options: FuzzyOptions
    var candidates: [SuggestionCandidate] = []
    var state: FuzzyState? = nil
    /// The earlier keystrokes' states kept with ``state`` (see ``FuzzyKept``).
    var earlier: [FuzzyStateBox] = []
    /// Diagnostics: trie nodes visited, subsequence keys checked.
    var visited = 0
    var checked = 0
    /// Whether a typo walk or the abbreviation scan stopped at its ceiling (``FuzzyOptions/maxWalkNodes``,
    /// ``FuzzyOptions/maxAbbreviationChecks``): the keystroke's answer may then be incomplete.
    var walkCut = false
    var scanCut = false
    /// Time and work per step, when ``FuzzyOptions/profile`` is on.
    var profile: FuzzyProfile? = nil
    /// The memory this keystroke works in (see ``FuzzyScratch``); ``candidates`` is made in its candidate array.
    var scratch: FuzzyScratch

    /// The nodes the typo walks of this keystroke may still visit.
    var walkBudget: Int {
        options.maxWalkNodes == 0 ? Int.max : max(0, options.maxWalkNodes - visited)
    }

    init(index: FuzzyIndex, options: FuzzyOptions, scratch: FuzzyScratch = FuzzyScratch()) {
        self.index = index
        self.options = options
        self.scratch = scratch
        candidates = Array.take(&self.scratch.candidates)
    }

    /// What the next keystroke narrows from: ``state`` and ``earlier``, moved out instead of copied (both are left
    /// empty).
    mutating func takeKept() -> FuzzyKept? {
        guard let state = state.take() else { return nil }
        var list: [FuzzyStateBox] = []
        swap(&list, &earlier)
        return FuzzyKept(last: FuzzyStateBox(state), earlier: list)
    }

    /// The scratch, with the candidate array, for the next keystroke (``candidates`` is left empty).
    mutating func takeScratch() -> FuzzyScratch {
        swap(&scratch.candidates, &candidates)
        var taken = FuzzyScratch()
        swap(&taken, &scratch)
        return taken
    }

    /// One keystroke, in steps: (1) the typo walk — below the previous keystroke's hits when this one extends it —
    /// or, when the prefix matches fill the list, the plain prefix range; (2) the exact, prefix and typo tiers, each
    /// its own top `limit` by weight; (2b) whole words with a wrong first letter; (3) abbreviations; (4) whole words
    /// beyond the completion budget; (5) every-word matches of a query of several words. Its candidates go to
    /// ``candidates``, what the next keystroke narrows from to ``state``. (The steps up to (4) stay in one function:
    /// split into functions passing the walk's closures and ranges on, typing slowed by a quarter at p90.) Works in
    /// ``scratch``: the arrays it needs are taken out of it and put back at the end.
    /// `filledBefore`: the first tier the engine would not show (``SuggestionRequest/filledBefore``); with the typo
    /// and abbreviation tiers beyond it, steps 1–4 do what they do when the provider's own prefix matches fill the
    /// list, and with the tiers of every-word matches (from `.wordPrefix`) beyond it, step 5 does not run.
    mutating func run(
        query: PreparedQuery, limit: Int, previous lastKeystroke: FuzzyKept?, filledBefore: MatchTier? = nil
    ) {
        // The canonical key of the query (words joined by single spaces), as the prefix index's keys are.
        var trimmed = Array.take(&scratch.trimmed)
        defer { swap(&scratch.trimmed, &trimmed) }
        IndexKey.query(query, into: &trimmed)
        guard !trimmed.isEmpty else { return }
        if options.profile {
            profile = FuzzyProfile()
            profile?.start()
        }
        let scalars = Self.scalars(trimmed)
        // Narrow from the last keystroke, or after a backspace from the last one whose text this one extends.
        let previous = FuzzyState.base(for: scalars, previous: lastKeystroke)
        let wholeWord = !query.lastWordIsPartial
        let queryWords = query.words.count
        let scope = query.query.scope?.name
        let index = self.index
        let filter = PositionFilter(index: index, scope: scope)

        // 1. Typo walk (or a plain prefix range for very long queries).
        // What an earlier keystroke found stays valid for narrowing any keystroke that extends its text: a step that
        // does not run on this keystroke (the prefix matches fill the list, or the list is full before the whole
        // words) passes its last walk or scan on, so that the next keystroke that needs it narrows instead of walking
        // afresh. A step that runs replaces its own part.
        var newState = previous ?? FuzzyState()
        newState.text = scalars
        earlier = FuzzyState.earlier(for: scalars, previous: lastKeystroke)
        // The budget follows the longest typed word, as Typesense's per-word `min_len_1typo`/`min_len_2typo` do: "proto
        // pl" is two short words, not eight letters that may hold two typos (that walk cost 1–2 ms on 886k names).
        var typos = options.typos(forLength: queryWords == 1 ? scalars.count : Self.longestWord(query))
        var pieces = Array.take(&scratch.pieces)
        var endings = Array.take(&scratch.endings)
        var smallerBudget = false
        defer {
            swap(&scratch.pieces, &pieces)
            swap(&scratch.endings, &endings)
        }
        // When the provider's own prefix matches already fill the limit, nothing of a lower tier can be shown
        // (tiers rank first): skip the typo walk and the subsequence scan. Not with a scope (the prefix range
        // may hold other scopes) nor with prefix matches off.
        let prefix = index.prefixRange(trimmed)
        // With the text ending in a separator ("django-"), the last word is whole: the prefix matches are the key
        // itself and the keys that go on with another word ("django rest framework"), as the prefix provider's.
        var continuation = 0..<0
        if wholeWord && options.prefixMatches {
            scratch.key.removeAll(keepingCapacity: true)
            scratch.key.append(contentsOf: trimmed)
            scratch.key.append(0x20)
            continuation = index.prefixRange(scratch.key)
        }
        let continuationPiece = TypoHit(
            lo: Int32(continuation.lowerBound), hi: Int32(continuation.upperBound), typos: 0,
            depth: Int32(trimmed.count))
        let threshold = options.typoThreshold == 0 ? limit : min(options.typoThreshold, limit)
        let ownPrefixFills = options.prefixMatches && scope == nil
            && index.hasDistinctKeys(threshold, in: wholeWord ? continuation : prefix)
        // The providers before this one fill the list above every typo and abbreviation tier.
        let othersFill = filledBefore.map { $0 <= .subsequence } ?? false
        let prefixFills = ownPrefixFills || othersFill
        if prefixFills || scalars.count > options.maxTypoQueryLength {
            typos = 0
            let range = prefix
            let lower = range.lowerBound
            let upper =
                wholeWord ? lower + index.endingCount(lower, range.upperBound, trimmed.count) : range.upperBound
            if lower < upper {
                pieces.append(TypoHit(lo: Int32(lower), hi: Int32(upper), typos: 0, depth: Int32(trimmed.count)))
            }
            if !continuation.isEmpty { pieces.append(continuationPiece) }
        } else {
            // A query of several words whose first words, as typed, start at least `limit` keys ("python " starts
            // thousands of names): the typos go to the words after them first, the way Typesense corrects a token only
            // when the exact ones find nothing; the longest such run of words is kept ("pyobjc framwork c": "pyobjc",
            // as at "pyobjc framwork", so that the keystroke narrows from the one before). A typo in those words is
            // looked for only when that walk finds nothing at all. (A budget grown by the last word over the whole of
            // "python dateutil" walked 9,497 nodes; below an exact "python", 2,310.) The separator after them may
            // still be an edit ("cerberus-py" finds "cerberuspy"). Words that start fewer keys may be misspelt
            // ("hypotesis-js"): those queries walk with the typos anywhere.
            var exactPrefix = options.exactPrefixLength
            if queryWords > 1 { exactPrefix = exactWords(scalars, trimmed, limit: limit) ?? exactPrefix }
            var restricted = 0
            var search: TypoSearch
            // The walk's matches hold half the list without the tier of the full budget (see `smallerBudgetWalk`).
            if let smaller = smallerBudgetWalk(
                scalars, typos: typos, exactPrefix: exactPrefix, wholeWord: wholeWord, queryWords: queryWords,
                previous: previous, limit: limit, pieces: &pieces, filter, tried: &restricted)
            {
                search = smaller
                typos -= 1
                smallerBudget = true
            } else {
                search = walk(scalars, typos: typos, exactPrefix: exactPrefix, wholeWord: wholeWord, previous: previous)
            }
            // The walk is in prefix mode also when the last word is whole (the text ends with a separator): its
            // endings are then the matches, and its hits what the next word narrows from ("pyobjc-freamework-",
            // then "pyobjc-freamework-c").
            if exactPrefix > options.exactPrefixLength && (wholeWord ? search.endings : search.hits).isEmpty
                && !search.cut
            {
                restricted += search.visited
                scratch.walk = search.takeBuffers()
                exactPrefix = options.exactPrefixLength
                search = walk(scalars, typos: typos, exactPrefix: exactPrefix, wholeWord: wholeWord, previous: previous)
            }
            visited = restricted + search.visited
            walkCut = search.cut
            // A walk cut short is not narrowed from: the next keystroke walks afresh.
            if !search.cut {
                newState.scalars = scalars
                newState.typos = typos
                newState.exactPrefix = exactPrefix
                newState.hits = FuzzyScratch.copy(search.hits)
            }
            // With the last word whole, the matches are the walk's endings: the whole words within the budget, and
            // the keys that go on with another word after a corrected one ("annnotated-" → "annotated-types"), as
            // `continuation` does for the words typed right.
            FuzzyIndex.disjointPieces(
                wholeWord ? search.endings : search.hits, extra: continuation.isEmpty ? nil : continuationPiece,
                into: &pieces, sorted: &scratch.sortedHits, stack: &scratch.stack)
            if !wholeWord { endings.append(contentsOf: search.endings) }
            scratch.walk = search.takeBuffers()
        }
        state = newState
        profile?.end(.walk, work: visited)

        // 2. Exact, prefix and typo tiers, each its own top `limit` by weight.
        let exactEnd = prefix.lowerBound + index.endingCount(prefix.lowerBound, prefix.upperBound, trimmed.count)
        let exactRange = prefix.lowerBound..<exactEnd
        var heap = Array.take(&scratch.heap)
        var wholeRanges = Array.take(&scratch.wholeRanges)
        var wholeDepths = Array.take(&scratch.wholeDepths)
        var ranges = Array.take(&scratch.ranges)
        var depths = Array.take(&scratch.depths)
        var pulled = Array.take(&scratch.pulled)
        var top = Array.take(&scratch.top)
        var best = Array.take(&scratch.best)
        // Exact and prefix matches that another provider offers (``FuzzyOptions/offersPrefixMatches`` off) are not
        // made at all. Nothing below depends on them: the steps that look at this keystroke's candidates (whole
        // words, 2b and 4) run only when no key starts with the typed text, when there are none.
        let offersPrefix = options.prefixMatches && options.offersPrefixMatches
        if offersPrefix {
            ranges.append(exactRange)
            index.forEachHeaviestWhile(in: ranges, limit: limit, heap: &heap, skip: { !filter.allowed($0) }) {
                position, _ in
                candidates.append(candidate(position, tier: .exact, typos: 0, matched: trimmed.count))
                return true
            }
        }
        for typoCount in 0...typos {
            if typoCount == 0 && !offersPrefix { continue }
            let tier: MatchTier = typoCount == 0 ? .prefix : .typos(typoCount)
            // Whole-word corrections first (typo tiers only): keys that end where the query's alignment ends.
            wholeRanges.removeAll(keepingCapacity: true)
            wholeDepths.removeAll(keepingCapacity: true)
            if typoCount > 0 {
                for ending in endings where Int(ending.typos) == typoCount {
                    wholeRanges.append(Int(ending.lo)..<Int(ending.hi))
                    wholeDepths.append(Int(ending.depth))
                }
                wholeRanges.sortIfNeeded { $0.lowerBound < $1.lowerBound }
                // The heaviest, weighed by the kinds of their edits: pulled deeper when that can reorder them.
                pulled.removeAll(keepingCapacity: true)
                index.forEachHeaviestWhile(
                    in: wholeRanges,
                    limit: options.weighTypoKinds ? limit * Self.wholeWordDepth : limit,
                    heap: &heap,
                    // A key whose prefix needs fewer typos is offered in that better tier.
                    skip: { Self.typos(at: $0, in: pieces) != typoCount || !filter.allowed($0) }
                ) { position, rangeIndex in
                    var popularity = index.weight(at: position) * options.wholeWordBoost
                    if index.wordCount(position) > queryWords { popularity /= options.phrasePenalty }
                    let factor = Self.typoFactor(
                        options, index, &scratch.typoCost, scalars, position: position,
                        matched: wholeDepths[rangeIndex], typos: typoCount)
                    popularity *= factor
                    pulled.append(
                        FuzzyScratch.Pulled(
                            position: position, depth: wholeDepths[rangeIndex], popularity: popularity,
                            typoKindFactor: factor))
                    return true
                }
                top.removeAll(keepingCapacity: true)
                for correction in pulled {
                    Self.insert(correction, into: &top, limit: limit) { $0.popularity > $1.popularity }
                }
                for correction in top {
                    var next = candidate(correction.position, tier: tier, typos: typoCount, matched: correction.depth)
                    next.popularity = correction.popularity
                    next.typoKindFactor = correction.typoKindFactor
                    candidates.append(consume next)
                }
            }
            ranges.removeAll(keepingCapacity: true)
            depths.removeAll(keepingCapacity: true)
            for piece in pieces where Int(piece.typos) == typoCount {
                ranges.append(Int(piece.lo)..<Int(piece.hi))
                depths.append(Int(piece.depth))
            }
            if ranges.isEmpty { continue }
            // Completions: the heaviest, a phrase (a key of more words than the query) ranking as if
            // `phrasePenalty` times less popular and, in typo tiers, each character beyond the matched prefix
            // `completionLengthPenalty` times less. Pulled by weight until no key is left that could still enter
            // the top `limit` (penalties only lower a weight), at most 64 × limit deep, then re-ranked.
            pulled.removeAll(keepingCapacity: true)
            best.removeAll(keepingCapacity: true)  // the best `limit` adjusted popularities, descending
            let penalty = options.phrasePenalty
            let lengthPenalty = typoCount > 0 ? options.completionLengthPenalty : 1
            let reranks = penalty > 1 || lengthPenalty > 1
            // For a one-word query: pulled a little way first (when most keys are one word, that finds the list),
            // then, when that was not deep enough, in two parts (see `pullInTwoParts`).
            let twoParts = options.pullsInTwoParts && queryWords == 1 && penalty > 1
            let depth = twoParts ? limit * 4 : reranks ? limit * 64 : limit
            var stopped = false
            var looked = 0
            index.forEachHeaviestWhile(
                in: ranges,
                limit: depth,
                heap: &heap,
                skip: { position in
                    exactRange.contains(position) || !filter.allowed(position)
                        || Self.contains(wholeRanges, position)
                }
            ) { position, rangeIndex in
                let weight = index.weight(at: position)
                looked += 1
                if best.count >= limit && best[limit - 1] >= weight {
                    stopped = true
                    return false
                }
                let completion = Self.completion(
                    index, position, matched: depths[rangeIndex],
                    isPhrase: penalty > 1 && index.wordCount(position) > queryWords, phrasePenalty: penalty,
                    lengthPenalty: lengthPenalty)
                if reranks {
                    Self.keep(completion, limit: limit, pulled: &pulled, best: &best)
                } else {
                    pulled.append(completion)
                }
                return true
            }
            // The first `limit` of `pulled` stably sorted by popularity, descending (re-ranked), or as pulled.
            top.removeAll(keepingCapacity: true)
            if twoParts && !stopped && looked == depth {
                pullInTwoParts(
                    ranges, limit: limit, penalty: penalty, heap: &heap, pulled: &pulled, best: &best, top: &top,
                    skip: { exactRange.contains($0) || !filter.allowed($0) || Self.contains(wholeRanges, $0) }
                ) { position, rangeIndex in
                    Self.completion(
                        index, position, matched: depths[rangeIndex], isPhrase: !index.oneWord.contains(position),
                        phrasePenalty: penalty, lengthPenalty: lengthPenalty)
                }
            } else if reranks {
                for completion in pulled {
                    Self.insert(completion, into: &top, limit: limit) { $0.popularity > $1.popularity }
                }
            } else {
                top.append(contentsOf: pulled.prefix(limit))
            }
            for completion in top {
                var next = candidate(completion.position, tier: tier, typos: typoCount, matched: completion.depth)
                next.popularity = completion.popularity
                weigh(&next, scalars, position: completion.position, matched: completion.depth)
                candidates.append(consume next)
            }
        }
        // Swapped back (not assigned), so that the scratch's arrays are not shared with these locals.
        swap(&scratch.heap, &heap)
        swap(&scratch.wholeRanges, &wholeRanges)
        swap(&scratch.wholeDepths, &wholeDepths)
        swap(&scratch.ranges, &ranges)
        swap(&scratch.depths, &depths)
        swap(&scratch.pulled, &pulled)
        swap(&scratch.top, &top)
        swap(&scratch.best, &best)

        profile?.end(.tiers)

        // 2b. Whole words with a wrong first letter as their only typo ("abvious" → "obvious"), which the walk above
        // does not try (it keeps the first letter: checking every other one costs the most for completions); whole
        // words only, so the walk below the other first letters stays narrow. Ranked in the one-typo tier like the
        // other corrected whole words.
        let forgive = options.forgiveWrongPrefix && options.exactPrefixLength > 0
        // From one character more than the first typo needs: at 4 letters a wrong first letter mostly finds false
        // friends ("from" → "rom", "prom").
        let longEnough = scalars.count > options.minLengthOneTypo
        // Whole-word corrections beyond the completion walk (this step and step 4) only for text that no entry starts
        // with: what an entry starts with is being typed, not misspelt (Typesense's `typo_tokens_threshold` idea;
        // these walks are the costliest part of a keystroke: 3 ms for a whole package name on 886k names).
        let typedIsAPrefix = !prefix.isEmpty
        if forgive && typos >= 1 && longEnough && queryWords == 1 && !prefixFills && !typedIsAPrefix {
            // With reversed keys (and an exact prefix of one), one walk backwards that matches all but the first
            // letter exactly: a path, not a walk below every other first letter (the same words; see `wholeWords`).
            if let backwards = backwardKeys, scalars.count + 1 <= backwards.maxLength {
                state?.wrongFirstScalars = scalars
                state?.wrongFirstHits = nil
                appendWrongFirstLetterWords(
                    backwards, scalars, budget: 1, queryWords: queryWords, pieces: pieces, exactRange: exactRange,
                    limit: limit, boost: options.wholeWordBoost, filter)
            } else {
                var walk = wholeWordWalk(
                    scalars, budget: 1, wrongPrefixTypos: 1, onlyWrongPrefix: true, firstSwap: true,
                    previous: previous.map { ($0.wrongFirstScalars, $0.wrongFirstHits) })
                state?.wrongFirstScalars = scalars
                state?.wrongFirstHits = walk.cut ? nil : FuzzyScratch.copy(walk.hits)
                appendWholeWords(
                    walk.endings, scalars, queryWords: queryWords, pieces: pieces, exactRange: exactRange,
                    limit: limit, boost: options.wholeWordBoost, filter)
                scratch.walk = walk.takeBuffers()
            }
        }
        let walked = profile?.work[FuzzyProfile.Step.walk.rawValue] ?? 0
        profile?.end(.wrongFirst, work: visited - walked)

        // 3. Subsequences.
        if options.subsequence && !prefixFills {
            subsequences(trimmed, query: query, previous: previous, pieces: pieces, exactRange: exactRange,
                         limit: limit, spelt: smallerBudget, filter)
        }
        profile?.end(.abbreviations, work: checked)

        // 4. Whole misspelt words beyond the completion budget (one word only), while fewer than half of `limit`
        // candidates rank above their tier (two typos; see `wholeWordsAreLookedFor`).
        let wholeTypos =
            queryWords == 1 && !prefixFills && !typedIsAPrefix ? options.wholeWordTypos(forLength: scalars.count) : 0
        if wholeTypos > typos && Self.wholeWordsAreLookedFor(candidates, limit: limit) {
            wholeWords(
                scalars, budget: wholeTypos, queryWords: queryWords, previous: previous,
                pieces: pieces, exactRange: exactRange, limit: limit - candidates.count, filter)
        }

        // 5. Every-word matches of a query of several words, which rank below the prefix matches: none when those
        // fill the list.
        if !ownPrefixFills && !(filledBefore.map { $0 <= .wordPrefix } ?? false) {
            everyWordMatches(query, limit: limit, filter)
        }
        profile?.end(.everyWord)
    }

    /// The scalar position of the last separator (beyond the exact prefix) whose words before it, as typed, start at
    /// least `limit` keys: the main walk keeps them exact. Nil when there is none. `trimmed`: the query's bytes.
    mutating func exactWords(_ scalars: [UInt32], _ trimmed: [UInt8], limit: Int) -> Int? {
        var space = scalars.count
        var byte = trimmed.count
        while true {
            guard let s = scalars[..<space].lastIndex(of: 0x20), s > options.exactPrefixLength,
                let b = trimmed[..<byte].lastIndex(of: 0x20)
            else { return nil }
            scratch.key.removeAll(keepingCapacity: true)
            scratch.key.append(contentsOf: trimmed[0...b])
            if index.prefixRange(scratch.key).count >= limit { return s }
            space = s
            byte = b
        }
    }

    /// The main typo walk (step 1) with `exactPrefix` leading scalars kept exact, below the previous keystroke's hits
    /// when this query extends that one with the same budget and a walk at least as free (its hits then hold every
    /// node this walk can reach); in the scratch's walk buffers. In prefix mode: its endings are the whole words, and
    /// with `wholeWord` (the last word is whole) also the keys that go on with another word after one.
    mutating func walk(
        _ scalars: [UInt32], typos: Int, exactPrefix: Int, wholeWord: Bool = false, previous: FuzzyState?
    ) -> TypoSearch {
        var search = TypoSearch(
            index: index,
            query: scalars,
            maxTypos: typos,
            transpositions: options.transpositions,
            wholeWord: false,
            exactPrefix: exactPrefix,
            // While typing the first letter stays (checking every other first letter costs the most); the first two
            // swapped are one typo. Wrong first letters are for whole words, below.
            firstSwap: options.forgiveWrongPrefix,
            buffers: takeWalkBuffers()
        )
        search.nodeBudget = walkBudget
        search.wordContinuations = wholeWord
        // Each word of a query of several words to its own share of the budget (one word: the whole budget).
        let options = self.options
        search.capByWords { options.wordTypos(forLength: $0, last: $1) }
        let narrowing =
            previous?.narrows(scalars, typos: typos, exactPrefix: exactPrefix) {
                options.wordTypos(forLength: $0, last: $1)
            } ?? false
        run(&search, below: narrowing ? previous?.hits : nil)
        return search
    }

    /// The walk with one typo less than `typos` (2 or more), when its matches hold at least half of `limit` keys that
    /// may be offered: the tier of the full budget would then rank below all of them (the engine ranks by tier
    /// first) and could only fill the lower half of the list, as with the whole words of step 4
    /// (`wholeWordsAreLookedFor`); it is not looked for. Nil otherwise (the nodes
    /// visited are added to `tried`), and without trying when the previous keystroke's walk with the full budget can
    /// be narrowed from. So the walk that cannot be narrowed — at the keystroke where the budget grows
    /// (``FuzzyOptions/minLengthTwoTypos`` letters), thousands of nodes, as every node of the first levels is within
    /// two typos — is made only when its tier is shown; and as a longer query never has more matches within a budget,
    /// a keystroke answers the same narrowed or cold. One-word queries without a scope, in prefix mode, with the
    /// prefix matches on (they are part of the list). `pieces` is working memory.
    mutating func smallerBudgetWalk(
        _ scalars: [UInt32], typos: Int, exactPrefix: Int, wholeWord: Bool, queryWords: Int, previous: FuzzyState?,
        limit: Int, pieces: inout [TypoHit], _ filter: PositionFilter, tried: inout Int
    ) -> TypoSearch? {
        guard typos >= 2, !wholeWord, queryWords == 1, filter.scopeIndex == nil, options.prefixMatches else {
            return nil
        }
        let options = self.options
        if let previous, previous.hits != nil,
            previous.narrows(scalars, typos: typos, exactPrefix: exactPrefix, allowance: {
                options.wordTypos(forLength: $0, last: $1)
            })
        {
            return nil
        }
        var search = walk(scalars, typos: typos - 1, exactPrefix: exactPrefix, previous: previous)
        if !search.cut {
            FuzzyIndex.disjointPieces(
                search.hits, extra: nil, into: &pieces, sorted: &scratch.sortedHits, stack: &scratch.stack)
            // Distinct keys (a twin shadowed by a more popular one is not offered): at most `limit` times the most
            // twins a key has are looked at.
            var found = 0
            for piece in pieces {
                for position in Int(piece.lo)..<Int(piece.hi) where filter.allowed(position) {
                    found += 1
                    if found * 2 >= limit { return search }
                }
            }
        }
        tried += search.visited
        scratch.walk = search.takeBuffers()
        return nil
    }

    /// Runs `search` below the outermost of `hits` (nothing to walk when there are none), or over the whole trie
    /// when `hits` is nil.
    mutating func run(_ search: inout TypoSearch, below hits: [TypoHit]?) {
        guard let hits else {
            search.run()
            return
        }
        var starts = Array.take(&scratch.starts)
        restartNodes(hits, into: &starts)
        if !starts.isEmpty { search.run(from: starts) }
        swap(&scratch.starts, &starts)
    }

    /// The typo walks' arrays from the scratch (a walk gives them back with `TypoSearch/takeBuffers()`).
    mutating func takeWalkBuffers() -> TypoSearch.Buffers {
        var buffers = TypoSearch.Buffers()
        swap(&buffers, &scratch.walk)
        return buffers
    }

    /// A tier's completions for a one-word query, in `top`: the first `limit` keys of `ranges` (minus `skip`) by
    /// `popularity`, ties by popularity rank, where `popularity` is at most a key's weight, and at most its weight
    /// divided by `penalty` for a key of more than one word. The same list as pulling every key by weight until none
    /// left could beat the `limit`-th (the general pull), without pulling the phrases that cannot: the one-word keys
    /// come from ``OneWordKeys`` (bounded by their weight), then the phrases by weight while one could still enter
    /// the list (bounded by their weight over `penalty`). Each part at most 64 × limit deep.
    func pullInTwoParts(
        _ ranges: [Range<Int>], limit: Int, penalty: Double, heap: inout [RangeMaximum],
        pulled: inout [FuzzyScratch.Pulled], best: inout [Double], top: inout [FuzzyScratch.Pulled],
        skip: (Int) -> Bool, popularity: (_ position: Int, _ rangeIndex: Int) -> FuzzyScratch.Pulled
    ) {
        pulled.removeAll(keepingCapacity: true)
        best.removeAll(keepingCapacity: true)  // the best `limit` popularities, descending
        let index = self.index
        let oneWord = index.oneWord
        index.forEachOneWordHeaviestWhile(
            in: ranges, oneWord: oneWord, limit: limit * 64, heap: &heap, skip: { _ in false }
        ) { position, rangeIndex in
            if best.count >= limit && best[limit - 1] >= index.weight(at: position) { return false }
            if !skip(position) {
                Self.keep(popularity(position, rangeIndex), limit: limit, pulled: &pulled, best: &best)
            }
            return true
        }
        // Every key is looked at in order of weight (a one-word key or a skipped one too), so that the pull stops at
        // the first whose weight as a phrase could not beat the `limit`-th.
        index.forEachHeaviestWhile(in: ranges, limit: limit * 64, heap: &heap, skip: { _ in false }) {
            position, rangeIndex in
            if best.count >= limit && best[limit - 1] >= index.weight(at: position) / penalty { return false }
            if !oneWord.contains(position) && !skip(position) {
                Self.keep(popularity(position, rangeIndex), limit: limit, pulled: &pulled, best: &best)
            }
            return true
        }
        top.removeAll(keepingCapacity: true)
        for completion in pulled {
            Self.insert(completion, into: &top, limit: limit) {
                $0.popularity != $1.popularity
                    ? $0.popularity > $1.popularity : index.rank($0.position) < index.rank($1.position)
            }
        }
    }

    /// Adds `completion` to `pulled`, and its popularity to `best` (the best `limit` so far, descending).
    @inline(__always)
    static func keep(
        _ completion: FuzzyScratch.Pulled, limit: Int, pulled: inout [FuzzyScratch.Pulled], best: inout [Double]
    ) {
        pulled.append(completion)
        var slot = best.count
        best.append(completion.popularity)
        while slot > 0 && best[slot - 1] < completion.popularity {
            best[slot] = best[slot - 1]
            slot -= 1
        }
        best[slot] = completion.popularity
        if best.count > limit { best.removeLast() }
    }

    /// A completion's popularity in a tier: its weight, ÷ `phrasePenalty` for a phrase (`isPhrase`: a key of more
    /// words than the query), ÷ `lengthPenalty` for each byte it adds beyond the `matched` prefix.
    @inline(__always)
    static func completion(
        _ index: FuzzyIndex, _ position: Int, matched: Int, isPhrase: Bool, phrasePenalty: Double,
        lengthPenalty: Double
    ) -> FuzzyScratch.Pulled {
        var popularity = index.weight(at: position)
        if isPhrase { popularity /= phrasePenalty }
        if lengthPenalty > 1 {
            let extra = index.keyLength(position) - matched
            if extra > 0 { popularity /= power(lengthPenalty, extra) }
        }
        return FuzzyScratch.Pulled(position: position, depth: matched, popularity: popularity)
    }

    /// Inserts `element` into `top` (at most `limit`, ordered by `precedes`) after every element it does not
    /// precede: inserting a sequence's elements in turn leaves the first `limit` of its stable sort.
    @inline(__always)
    static func insert<T>(_ element: T, into top: inout [T], limit: Int, by precedes: (T, T) -> Bool) {
        var slot = top.count
        while slot > 0 && precedes(element, top[slot - 1]) { slot -= 1 }
        guard slot < limit else { return }
        if top.count == limit { top.removeLast() }
        top.insert(element, at: slot)
    }

    /// The typos of the piece holding `position` (pieces are sorted and disjoint), or -1.
    static func typos(at position: Int, in pieces: [TypoHit]) -> Int {
        var lo = 0
        var hi = pieces.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if Int(pieces[mid].hi) <= position { lo = mid + 1 } else { hi = mid }
        }
        if lo < pieces.count && Int(pieces[lo].lo) <= position { return Int(pieces[lo].typos) }
        return -1
    }

    /// Whether sorted, disjoint `ranges` contain `position`.
    static func contains(_ ranges: [Range<Int>], _ position: Int) -> Bool {
        var lo = 0
        var hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if ranges[mid].upperBound <= position { lo = mid + 1 } else { hi = mid }
        }
        return lo < ranges.count && ranges[lo].contains(position)
    }

    /// The outermost `hits` (none inside another), as trie nodes to walk again.
    func restartNodes(_ hits: [TypoHit]) -> [TypoSearch.Start] {
        var result: [TypoSearch.Start] = []
        var sorted: [TypoHit] = []
        Self.restartNodes(hits, into: &result, sorted: &sorted)
        return result
    }

    /// ``restartNodes(_:)`` into `starts` (replacing its contents), sorting in the scratch.
    mutating func restartNodes(_ hits: [TypoHit], into starts: inout [TypoSearch.Start]) {
        Self.restartNodes(hits, into: &starts, sorted: &scratch.sortedHits)
    }

    static func restartNodes(_ hits: [TypoHit], into starts: inout [TypoSearch.Start], sorted: inout [TypoHit]) {
        starts.removeAll(keepingCapacity: true)
        sorted.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: hits)
        sorted.sortIfNeeded { $0.lo != $1.lo ? $0.lo < $1.lo : $0.hi > $1.hi }
        var outerEnd: Int32 = -1
        for hit in sorted where hit.lo >= outerEnd {
            outerEnd = hit.hi
            starts.append((Int(hit.lo), Int(hit.hi), Int(hit.depth)))
        }
    }

    /// `base` to the power `exponent` (small exponents; capped at 64).
    static func power(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<min(exponent, 64) { result *= base }
        return result
    }

    /// The ranking factor of an fzf score above the plain per-character points: ×2 per 16 points, so a word-start
    /// bonus (8) is worth ×1.41; gaps cost at most ×1/4.
    static func boost(_ excess: Int32) -> Double {
        let clamped = Int(max(-32, excess))
        let whole = clamped >= 0 ? clamped / 16 : -((15 - clamped) / 16)
        let fraction = clamped - whole * 16
        return Double(sign: .plus, exponent: whole, significand: sixteenthRoots[fraction])
    }

    /// 2^(i/16) for i in 0..<16.
    static let sixteenthRoots: [Double] = {
        var values: [Double] = [1]
        for _ in 1..<16 { values.append(values[values.count - 1] * 1.0442737824274138) }
        return values
    }()

    /// The candidate for sorted position `position`, its title shared with an earlier candidate of the same entry.
    mutating func candidate(_ position: Int, tier: MatchTier, typos: Int, matched: Int) -> SuggestionCandidate {
        let (title, length, isASCII) = index.title(ofEntry: index.entry(at: position))
        let ranges: [Range<Int>]
        if isASCII {
            // ASCII folds byte for byte: the folded prefix is the title's prefix (what `NormalizedText` gives).
            ranges = Self.leadingRange(min(matched, length))
        } else {
            let text = NormalizedText(title)
            let end = min(matched, text.bytes.count)
            ranges = end > 0 ? [text.originalRange(of: 0..<end)] : []
        }
        return SuggestionCandidate(
            title: title,
            matchedRanges: ranges,
            tier: tier,
            typos: typos,
            popularity: index.weight(at: position)
        )
    }

    /// A correction's popularity times the factor of its edits' kinds (see ``TypoCost``; nothing without typos or
    /// with ``FuzzyOptions/weighTypoKinds`` off): against the whole key when the walk matched all of it, against its
    /// best prefix otherwise.
    mutating func weigh(_ candidate: inout SuggestionCandidate, _ scalars: [UInt32], position: Int, matched: Int) {
        let factor = Self.typoFactor(
            options, index, &scratch.typoCost, scalars, position: position, matched: matched, typos: candidate.typos)
        candidate.popularity *= factor
        candidate.typoKindFactor = factor
    }

    /// How many times the limit a typo tier's whole-word corrections are pulled by weight before they are weighed
    /// by the kinds of their edits.
    static let wholeWordDepth = 4

    /// Whether step 4 (whole words beyond the completion budget, in the two-typo tier) looks for more: only while
    /// `candidates` hold fewer than `limit` in all and fewer than half of `limit` that rank above that tier. Its
    /// walks are a misspelt keystroke's costliest (a budget of three, or a wrong first letter and one typo more:
    /// thousands of trie nodes); with half the list ranked above them, its words could only fill the lower half (the
    /// engine ranks by tier first), as Typesense looks for more typos only while few results were found
    /// (`typo_tokens_threshold`).
    static func wholeWordsAreLookedFor(_ candidates: [SuggestionCandidate], limit: Int) -> Bool {
        guard candidates.count < limit else { return false }
        var above = 0
        for candidate in candidates where candidate.tier < .twoTypos { above += 1 }
        return above * 2 < limit
    }

    /// The factor ``weigh(_:_:position:matched:)`` multiplies by (1 without typos or with the option off).
    static func typoFactor(
        _ options: FuzzyOptions, _ index: FuzzyIndex, _ typoCost: inout TypoCost, _ scalars: [UInt32], position: Int,
        matched: Int, typos: Int
    ) -> Double {
        guard options.weighTypoKinds, typos > 0 else { return 1 }
        let key = index.prefixIndex.sortedKey(at: position)
        let cost = typoCost.cost(scalars, keyBytes: key, prefix: matched < key.count)
        return TypoCost.factor(cost: cost, typos: typos)
    }

    /// `[0..<end]` (none for 0), shared: the common matched ranges are made once, not per candidate.
    static func leadingRange(_ end: Int) -> [Range<Int>] { SharedRanges.one(0..<max(0, end)) }

    /// The scalars of the query's longest word.
    static func longestWord(_ query: PreparedQuery) -> Int {
        var longest = 0
        for word in query.words {
            longest = max(longest, UTF8Scalars.count(query.normalized[word]))
        }
        return longest
    }

    /// Decodes folded UTF-8 bytes into scalars.
    static func scalars(_ bytes: [UInt8]) -> [UInt32] { UTF8Scalars.values(bytes) }

    static func firstScalarLength(_ bytes: [UInt8]) -> Int {
        guard let lead = bytes.first else { return 0 }
        return min(bytes.count, UTF8Scalars.length(lead: lead))
    }
}

struct ScoredPosition: Comparable {
    var popularity: Double
    var position: Int32
    static func < (a: Self, b: Self) -> Bool {
        a.popularity != b.popularity ? a.popularity < b.popularity : a.position > b.position
    }
}
