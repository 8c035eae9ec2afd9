import HeapModule
import SuggestCore
import SuggestIndex

/// One keystroke of ``FuzzyProvider``: the typo walk, the tiers, the subsequence scan, the candidates.
struct FuzzyMatcher {
    let index: FuzzyIndex
    let options: FuzzyOptions
    var candidates: [SuggestionCandidate] = []
    var state: FuzzyState? = nil
    /// Diagnostics: trie nodes visited, subsequence keys checked.
    var visited = 0
    var checked = 0
    /// Whether a typo walk or the abbreviation scan stopped at its ceiling (``FuzzyOptions/maxWalkNodes``,
    /// ``FuzzyOptions/maxAbbreviationChecks``): the keystroke's answer may then be incomplete.
    var walkCut = false
    var scanCut = false

    /// The nodes the typo walks of this keystroke may still visit.
    var walkBudget: Int {
        options.maxWalkNodes == 0 ? Int.max : max(0, options.maxWalkNodes - visited)
    }

    init(index: FuzzyIndex, options: FuzzyOptions) {
        self.index = index
        self.options = options
    }

    /// What every step of one keystroke knows about the typed text.
    struct Typed {
        /// The canonical key of the query (words joined by single spaces), as the prefix index's keys are.
        let key: [UInt8]
        let scalars: [UInt32]
        /// Whether the last word is complete (the text ends with a separator).
        let isWholeWord: Bool
        let wordCount: Int
        let hasScope: Bool
        /// Sorted positions of the keys that start with `key`.
        let prefix: Range<Int>
        /// Sorted positions of the keys equal to `key`.
        let exact: Range<Int>
        /// With the text ending in a separator ("django-"): the keys that go on with another word ("django rest
        /// framework"), as the prefix provider completes them.
        let continuation: Range<Int>
        /// Whether the provider's own prefix matches already fill the list, so that nothing of a lower tier could be
        /// shown (tiers rank first): the typo walk and the subsequence scan are skipped. Not with a scope (the prefix
        /// range may hold other scopes) nor with prefix matches off.
        let prefixFills: Bool
    }

    /// What the typo walk of a keystroke found.
    struct Walk {
        /// The typo budget (0 when the prefix matches fill the list or the query is too long to walk).
        var typos: Int
        /// Sorted, disjoint ranges of keys whose prefix is within the budget, each with its typo count.
        var pieces: [TypoHit]
        /// Keys that end where the query's alignment ends (whole-word corrections).
        var endings: [TypoHit]
    }

    /// One keystroke: the exact, prefix and typo tiers (steps 1–2), whole words with a wrong first letter (2b),
    /// abbreviations (3), whole words beyond the completion budget (4), into ``candidates``; what the next keystroke
    /// narrows from into ``state``.
    mutating func run(query: PreparedQuery, limit: Int, previous: FuzzyState?) {
        var key: [UInt8] = []
        IndexKey.query(query, into: &key)
        guard !key.isEmpty else { return }
        // Whether the key at a sorted position may be offered: in the query's scope (if it has one), and the most
        // popular of the entries that share its canonical key ("a", "à" and "A" are offered once). Built here, not
        // returned by a function, so that the closures stay on the stack.
        let index = self.index
        let scopeIndex: UInt16? = query.query.scope.map { scope in
            index.dictionary.scopeNames.firstIndex(of: scope.name).map { UInt16($0 + 1) } ?? UInt16.max
        }
        let inScope: (Int) -> Bool = { position in
            guard let scopeIndex else { return true }
            return index.dictionary.scopeIndices[index.entry(at: position)] == scopeIndex
        }
        let prefixIndex = index.prefixIndex
        let allowed: (Int) -> Bool = { position in
            inScope(position) && !prefixIndex.isShadowed(sortedPosition: position, visible: inScope)
        }
        let typed = describe(query, key: key, limit: limit)

        // 1. Typo walk (or a plain prefix range for very long queries).
        let walk = walkTypos(typed, query: query, previous: previous)

        // 2. Exact, prefix and typo tiers, each its own top `limit` by weight.
        appendTiers(typed, walk: walk, limit: limit, allowed)

        // 2b. Whole words with a wrong first letter as their only typo ("abvious" → "obvious"), which the walk above
        // does not try (it keeps the first letter: checking every other one costs the most for completions); whole
        // words only, so the walk below the other first letters stays narrow. Ranked in the one-typo tier like the
        // other corrected whole words.
        let forgive = options.forgiveWrongPrefix && options.exactPrefixLength > 0
        // From one character more than the first typo needs: at 4 letters a wrong first letter mostly finds false
        // friends ("from" → "rom", "prom").
        let longEnough = typed.scalars.count > options.minLengthOneTypo
        // Whole-word corrections beyond the completion walk (this step and step 4) only for text that no entry starts
        // with: what an entry starts with is being typed, not misspelt (Typesense's `typo_tokens_threshold` idea;
        // these walks are the costliest part of a keystroke: 3 ms for a whole package name on 886k names).
        let typedIsAPrefix = !typed.prefix.isEmpty
        let oneWord = typed.wordCount == 1
        if forgive && walk.typos >= 1 && longEnough && oneWord && !typed.prefixFills && !typedIsAPrefix {
            let wrongFirst = wholeWordWalk(
                typed.scalars, budget: 1, wrongPrefixTypos: 1, onlyWrongPrefix: true, firstSwap: true,
                previous: previous.map { ($0.wrongFirstScalars, $0.wrongFirstHits) })
            state?.wrongFirstScalars = typed.scalars
            state?.wrongFirstHits = wrongFirst.hits
            appendWholeWords(
                wrongFirst.endings, queryWords: typed.wordCount, pieces: walk.pieces, exactRange: typed.exact,
                limit: limit, boost: options.wholeWordBoost, allowed)
        }

        // 3. Subsequences.
        if options.subsequence && !typed.prefixFills {
            subsequences(typed.key, query: query, previous: previous, pieces: walk.pieces, exactRange: typed.exact,
                         limit: limit, allowed)
        }

        // 4. Whole misspelt words beyond the completion budget (one word only), when nothing above fills the list:
        // they rank below everything above, so with a full list they could not be shown anyway.
        let wholeTypos =
            oneWord && !typed.prefixFills && !typedIsAPrefix ? options.wholeWordTypos(forLength: typed.scalars.count) : 0
        if wholeTypos > walk.typos && candidates.count < limit {
            wholeWords(
                typed.scalars, budget: wholeTypos, queryWords: typed.wordCount, previous: previous,
                pieces: walk.pieces, exactRange: typed.exact, limit: limit - candidates.count, allowed)
        }
    }

    /// The facts of the typed text the steps share.
    func describe(_ query: PreparedQuery, key: [UInt8], limit: Int) -> Typed {
        let isWholeWord = !query.lastWordIsPartial
        let hasScope = query.query.scope != nil
        let prefix = index.prefixRange(key)
        let continuation = isWholeWord && options.prefixMatches ? index.prefixRange(key + [0x20]) : 0..<0
        let threshold = options.typoThreshold == 0 ? limit : min(options.typoThreshold, limit)
        let prefixFills = options.prefixMatches && !hasScope
            && index.prefixIndex.hasDistinctKeys(threshold, in: isWholeWord ? continuation : prefix)
        let exactEnd = prefix.lowerBound + index.endingCount(prefix.lowerBound, prefix.upperBound, key.count)
        return Typed(
            key: key, scalars: Self.scalars(key), isWholeWord: isWholeWord, wordCount: query.words.count,
            hasScope: hasScope, prefix: prefix, exact: prefix.lowerBound..<exactEnd, continuation: continuation,
            prefixFills: prefixFills)
    }

    /// Step 1: the keys within the typo budget — below the previous keystroke's hits when this one extends it
    /// (nucleo's and fzf's narrowing) — or, when the prefix matches fill the list or the query is too long to
    /// walk, the plain prefix range. Sets ``state`` for the next keystroke.
    mutating func walkTypos(_ typed: Typed, query: PreparedQuery, previous: FuzzyState?) -> Walk {
        var newState = FuzzyState()
        defer { state = newState }
        let continuationPiece = TypoHit(
            lo: Int32(typed.continuation.lowerBound), hi: Int32(typed.continuation.upperBound), typos: 0,
            depth: Int32(typed.key.count))
        if typed.prefixFills || typed.scalars.count > options.maxTypoQueryLength {
            let lower = typed.prefix.lowerBound
            let upper =
                typed.isWholeWord
                ? lower + index.endingCount(lower, typed.prefix.upperBound, typed.key.count) : typed.prefix.upperBound
            var pieces =
                lower < upper ? [TypoHit(lo: Int32(lower), hi: Int32(upper), typos: 0, depth: Int32(typed.key.count))] : []
            if !typed.continuation.isEmpty { pieces.append(continuationPiece) }
            return Walk(typos: 0, pieces: pieces, endings: [])
        }
        // The budget follows the longest typed word, as Typesense's per-word `min_len_1typo`/`min_len_2typo` do:
        // "proto pl" is two short words, not eight letters that may hold two typos (that walk cost 1–2 ms on 886k
        // names).
        let typos = options.typos(forLength: typed.wordCount == 1 ? typed.scalars.count : Self.longestWord(query))
        var search = TypoSearch(
            index: index,
            query: typed.scalars,
            maxTypos: typos,
            transpositions: options.transpositions,
            wholeWord: typed.isWholeWord,
            exactPrefix: options.exactPrefixLength,
            // While typing the first letter stays (checking every other first letter costs the most); the first two
            // swapped are one typo. Wrong first letters are for whole words (steps 2b and 4).
            firstSwap: options.forgiveWrongPrefix
        )
        search.nodeBudget = walkBudget
        if !typed.isWholeWord, let previous, let oldHits = previous.hits, previous.typos == typos,
            previous.scalars.count + 1 == typed.scalars.count, typed.scalars.starts(with: previous.scalars)
        {
            let starts = restartNodes(oldHits)
            if !starts.isEmpty { search.run(from: starts) }
        } else {
            search.run()
        }
        visited = search.visited
        walkCut = search.cut
        // A walk cut short is not narrowed from: the next keystroke walks afresh.
        if !typed.isWholeWord && !search.cut {
            newState.scalars = typed.scalars
            newState.typos = typos
            newState.hits = search.hits
        }
        let pieces = FuzzyIndex.disjointPieces(
            typed.continuation.isEmpty ? search.hits : search.hits + [continuationPiece])
        return Walk(typos: typos, pieces: pieces, endings: search.endings)
    }

    func candidate(_ position: Int, tier: MatchTier, typos: Int, matched: Int) -> SuggestionCandidate {
        let entry = index.entry(at: position)
        let title = index.dictionary.text(at: entry)
        let text = NormalizedText(title)
        let end = min(matched, text.bytes.count)
        let ranges = end > 0 ? [text.originalRange(of: 0..<end)] : []
        return SuggestionCandidate(
            title: title,
            matchedRanges: ranges,
            tier: tier,
            typos: typos,
            popularity: index.weight(at: position)
        )
    }

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
