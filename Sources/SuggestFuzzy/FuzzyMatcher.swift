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

    mutating func run(query: PreparedQuery, limit: Int, previous: FuzzyState?) {
        // The canonical key of the query (words joined by single spaces), as the prefix index's keys are.
        var trimmed: [UInt8] = []
        IndexKey.query(query, into: &trimmed)
        guard !trimmed.isEmpty else { return }
        let scalars = Self.scalars(trimmed)
        let wholeWord = !query.lastWordIsPartial
        let queryWords = query.words.count
        let scope = query.query.scope?.name
        let index = self.index
        let scopeIndex: UInt16? = scope.map { name in
            index.dictionary.scopeNames.firstIndex(of: name).map { UInt16($0 + 1) } ?? UInt16.max
        }
        let inScope: (Int) -> Bool = { position in
            guard let scopeIndex else { return true }
            return index.dictionary.scopeIndices[index.entry(at: position)] == scopeIndex
        }
        // One candidate per canonical key: "a", "à" and "A" are offered once, as the most popular of them.
        let prefixIndex = index.prefixIndex
        let allowed: (Int) -> Bool = { position in
            inScope(position) && !prefixIndex.isShadowed(sortedPosition: position, visible: inScope)
        }

        // 1. Typo walk (or a plain prefix range for very long queries).
        var newState = FuzzyState()
        // The budget follows the longest typed word, as Typesense's per-word `min_len_1typo`/`min_len_2typo` do: "proto
        // pl" is two short words, not eight letters that may hold two typos (that walk cost 1–2 ms on 886k names).
        var typos = options.typos(forLength: queryWords == 1 ? scalars.count : Self.longestWord(query))
        var pieces: [TypoHit]
        var endings: [TypoHit] = []
        // When the provider's own prefix matches already fill the limit, nothing of a lower tier can be shown
        // (tiers rank first): skip the typo walk and the subsequence scan. Not with a scope (the prefix range
        // may hold other scopes) nor with prefix matches off.
        let prefix = index.prefixRange(trimmed)
        // With the text ending in a separator ("django-"), the last word is whole: the prefix matches are the key
        // itself and the keys that go on with another word ("django rest framework"), as the prefix provider's.
        let continuation = wholeWord && options.prefixMatches ? index.prefixRange(trimmed + [0x20]) : 0..<0
        let continuationPiece = TypoHit(
            lo: Int32(continuation.lowerBound), hi: Int32(continuation.upperBound), typos: 0,
            depth: Int32(trimmed.count))
        let threshold = options.typoThreshold == 0 ? limit : min(options.typoThreshold, limit)
        let prefixFills = options.prefixMatches && scope == nil
            && prefixIndex.hasDistinctKeys(threshold, in: wholeWord ? continuation : prefix)
        if prefixFills || scalars.count > options.maxTypoQueryLength {
            typos = 0
            let range = prefix
            let lo = range.lowerBound
            let hi = wholeWord ? lo + index.endingCount(lo, range.upperBound, trimmed.count) : range.upperBound
            pieces = lo < hi ? [TypoHit(lo: Int32(lo), hi: Int32(hi), typos: 0, depth: Int32(trimmed.count))] : []
            if !continuation.isEmpty { pieces.append(continuationPiece) }
        } else {
            var search = TypoSearch(
                index: index,
                query: scalars,
                maxTypos: typos,
                transpositions: options.transpositions,
                wholeWord: wholeWord,
                exactPrefix: options.exactPrefixLength,
                // While typing the first letter stays (checking every other first letter costs the most); the
                // first two swapped are one typo. Wrong first letters are for whole words, below.
                firstSwap: options.forgiveWrongPrefix
            )
            search.nodeBudget = walkBudget
            if !wholeWord, let previous, let oldHits = previous.hits, previous.typos == typos,
                previous.scalars.count + 1 == scalars.count, scalars.starts(with: previous.scalars)
            {
                let starts = restartNodes(oldHits)
                if !starts.isEmpty { search.run(from: starts) }
            } else {
                search.run()
            }
            visited = search.visited
            walkCut = search.cut
            // A walk cut short is not narrowed from: the next keystroke walks afresh.
            if !wholeWord && !search.cut {
                newState.scalars = scalars
                newState.typos = typos
                newState.hits = search.hits
            }
            pieces = FuzzyIndex.disjointPieces(
                continuation.isEmpty ? search.hits : search.hits + [continuationPiece])
            endings = search.endings
        }
        state = newState

        // 2. Exact, prefix and typo tiers, each its own top `limit` by weight.
        let exact = prefix
        let exactEnd = exact.lowerBound + index.endingCount(exact.lowerBound, exact.upperBound, trimmed.count)
        let exactRange = exact.lowerBound..<exactEnd
        if options.prefixMatches {
            index.forEachHeaviest(in: [exactRange], limit: limit, skip: { !allowed($0) }) { position, _ in
                candidates.append(candidate(position, tier: .exact, typos: 0, matched: trimmed.count))
            }
        }
        for t in 0...typos {
            if t == 0 && !options.prefixMatches { continue }
            let tier: MatchTier = t == 0 ? .prefix : .typos(t)
            // Whole-word corrections first (typo tiers only): keys that end where the query's alignment ends.
            var wholeRanges: [Range<Int>] = []
            var wholeDepths: [Int] = []
            if t > 0 {
                for ending in endings where Int(ending.typos) == t {
                    wholeRanges.append(Int(ending.lo)..<Int(ending.hi))
                    wholeDepths.append(Int(ending.depth))
                }
                wholeRanges.sort { $0.lowerBound < $1.lowerBound }
                index.forEachHeaviest(
                    in: wholeRanges,
                    limit: limit,
                    // A key whose prefix needs fewer typos is offered in that better tier.
                    skip: { Self.typos(at: $0, in: pieces) != t || !allowed($0) }
                ) { position, k in
                    var c = candidate(position, tier: tier, typos: t, matched: wholeDepths[k])
                    c.popularity *= options.wholeWordBoost
                    if index.wordCount(position) > queryWords { c.popularity /= options.phrasePenalty }
                    candidates.append(c)
                }
            }
            var ranges: [Range<Int>] = []
            var depths: [Int] = []
            for piece in pieces where Int(piece.typos) == t {
                ranges.append(Int(piece.lo)..<Int(piece.hi))
                depths.append(Int(piece.depth))
            }
            if ranges.isEmpty { continue }
            // Completions: the heaviest, a phrase (a key of more words than the query) ranking as if
            // `phrasePenalty` times less popular and, in typo tiers, each character beyond the matched prefix
            // `completionLengthPenalty` times less. Pulled by weight until no key is left that could still enter
            // the top `limit` (penalties only lower a weight), at most 64 × limit deep, then re-ranked.
            var pulled: [(position: Int, depth: Int, popularity: Double)] = []
            let penalty = options.phrasePenalty
            let lengthPenalty = t > 0 ? options.completionLengthPenalty : 1
            let reranks = penalty > 1 || lengthPenalty > 1
            var best: [Double] = []  // the best `limit` adjusted popularities, descending
            index.forEachHeaviestWhile(
                in: ranges,
                limit: reranks ? limit * 64 : limit,
                skip: { position in
                    exactRange.contains(position) || !allowed(position)
                        || Self.contains(wholeRanges, position)
                }
            ) { position, k in
                let weight = index.weight(at: position)
                if best.count >= limit && best[limit - 1] >= weight { return false }
                var popularity = weight
                if penalty > 1 && index.wordCount(position) > queryWords { popularity /= penalty }
                if lengthPenalty > 1 {
                    let extra = index.keyLength(position) - depths[k]
                    if extra > 0 { popularity /= Self.power(lengthPenalty, extra) }
                }
                pulled.append((position, depths[k], popularity))
                if reranks {
                    var i = best.count
                    best.append(popularity)
                    while i > 0 && best[i - 1] < popularity {
                        best[i] = best[i - 1]
                        i -= 1
                    }
                    best[i] = popularity
                    if best.count > limit { best.removeLast() }
                }
                return true
            }
            if reranks { pulled.sort { $0.popularity > $1.popularity } }
            for p in pulled.prefix(limit) {
                var c = candidate(p.position, tier: tier, typos: t, matched: p.depth)
                c.popularity = p.popularity
                candidates.append(c)
            }
        }

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
            let walk = wholeWordWalk(
                scalars, budget: 1, wrongPrefixTypos: 1, onlyWrongPrefix: true, firstSwap: true,
                previous: previous.map { ($0.wrongFirstScalars, $0.wrongFirstHits) })
            state?.wrongFirstScalars = scalars
            state?.wrongFirstHits = walk.hits
            appendWholeWords(
                walk.endings, queryWords: queryWords, pieces: pieces, exactRange: exactRange, limit: limit,
                boost: options.wholeWordBoost, allowed)
        }

        // 3. Subsequences.
        if options.subsequence && !prefixFills {
            subsequences(trimmed, query: query, previous: previous, pieces: pieces, exactRange: exactRange,
                         limit: limit, allowed)
        }

        // 4. Whole misspelt words beyond the completion budget (one word only), when nothing above fills the list:
        // they rank below everything above, so with a full list they could not be shown anyway.
        let wholeTypos =
            queryWords == 1 && !prefixFills && !typedIsAPrefix ? options.wholeWordTypos(forLength: scalars.count) : 0
        if wholeTypos > typos && candidates.count < limit {
            wholeWords(
                scalars, budget: wholeTypos, queryWords: queryWords, previous: previous,
                pieces: pieces, exactRange: exactRange, limit: limit - candidates.count, allowed)
        }
    }

    /// Abbreviations and subsequences of the query (fzf-style).
    mutating func subsequences(
        _ trimmed: [UInt8], query: PreparedQuery, previous: FuzzyState?, pieces: [TypoHit], exactRange: Range<Int>,
        limit: Int, _ allowed: (Int) -> Bool
    ) {
        let scorer = SubsequenceScorer(query: trimmed, original: query.text, smartCase: options.smartCase)
        let patternLength = Self.scalars(scorer.pattern).count
        guard patternLength >= options.subsequenceMinLength, patternLength <= options.subsequenceMaxLength else {
            return
        }
        // A query that already fills the list with typo corrections reads as a word being spelt: then an
        // abbreviation must not use a vowel typed inside a word ("bocom" is "become" misspelt, not "BOth COMpanies";
        // "gthb" → "GitHub" and "usa" → "United States of America" are unaffected).
        var typoCandidates = 0
        for c in candidates where c.tier != .exact && c.tier != .prefix { typoCandidates += 1 }
        scanSubsequences(
            scorer, previous: previous, pieces: pieces, exactRange: exactRange, limit: limit,
            spelling: options.spellingGuard && typoCandidates >= limit, allowed)
    }

    /// Whole words `budget` typos away (2 or 3), in two walks, each narrowed between keystrokes like the main one (a
    /// misspelt word stays sparse keystroke after keystroke): first with the first letter right (or swapped with
    /// the second); then, only if the list is still not full, with a wrong first letter and one more typo (the
    /// costly part: every other first letter's subtree with a typo to spare). Appended in tier `.twoTypos`,
    /// ranked by their typo count after everything above, skipping keys offered already.
    mutating func wholeWords(
        _ scalars: [UInt32], budget: Int, queryWords: Int, previous: FuzzyState?,
        pieces: [TypoHit], exactRange: Range<Int>, limit: Int, _ allowed: (Int) -> Bool
    ) {
        let forgive = options.forgiveWrongPrefix && options.exactPrefixLength > 0
        let narrowing = previous.flatMap { $0.wholeWordBudget == budget ? $0 : nil }
        let rightFirst = wholeWordWalk(
            scalars, budget: budget, wrongPrefixTypos: 0, onlyWrongPrefix: false, firstSwap: forgive,
            previous: narrowing.flatMap { ($0.wholeWordScalars, $0.wholeWordHits) })
        state?.wholeWordBudget = budget
        state?.wholeWordScalars = scalars
        state?.wholeWordHits = rightFirst.hits
        let before = candidates.count
        appendWholeWords(rightFirst.endings, queryWords: queryWords, pieces: pieces, exactRange: exactRange,
                         limit: limit, allowed)
        guard forgive, candidates.count - before < limit else { return }
        let wrong = wholeWordWalk(
            scalars, budget: budget, wrongPrefixTypos: 2, onlyWrongPrefix: true, firstSwap: true,
            previous: narrowing.flatMap { ($0.wholeWordScalars, $0.wrongPrefixHits) })
        state?.wrongPrefixHits = wrong.hits
        // A wrong first letter as the only typo was offered in step 2b already.
        appendWholeWords(wrong.endings, queryWords: queryWords, pieces: pieces, exactRange: exactRange,
                         limit: limit - (candidates.count - before), minTypos: 2, allowed)
    }

    /// A prefix-mode walk, below the previous keystroke's hits when it extends that query.
    mutating func wholeWordWalk(
        _ scalars: [UInt32], budget: Int, wrongPrefixTypos: Int, onlyWrongPrefix: Bool, firstSwap: Bool,
        previous: ([UInt32], [TypoHit]?)?
    ) -> (hits: [TypoHit]?, endings: [TypoHit]) {
        var search = TypoSearch(
            index: index, query: scalars, maxTypos: budget, transpositions: options.transpositions, wholeWord: false,
            exactPrefix: options.exactPrefixLength, wrongPrefixTypos: wrongPrefixTypos,
            onlyWrongPrefix: onlyWrongPrefix, firstSwap: firstSwap)
        search.nodeBudget = walkBudget
        if let (oldScalars, oldHits) = previous, let oldHits, oldScalars.count + 1 == scalars.count,
            scalars.starts(with: oldScalars)
        {
            let starts = restartNodes(oldHits)
            if !starts.isEmpty { search.run(from: starts) }
        } else {
            search.run()
        }
        visited += search.visited
        if search.cut { walkCut = true }
        // A walk cut short is not narrowed from (no hits kept): the next keystroke walks afresh.
        return (search.cut ? nil : search.hits, search.endings)
    }

    /// Appends the best `limit` of the whole words in `endings` not offered yet (`pieces`), fewest typos first,
    /// then by popularity, a phrase (more words than the query: "a rotating" for "adjatating") ranking as if
    /// `phrasePenalty` times less popular.
    mutating func appendWholeWords(
        _ endings: [TypoHit], queryWords: Int, pieces: [TypoHit], exactRange: Range<Int>, limit: Int,
        minTypos: Int32 = 1, boost: Double = 1, _ allowed: (Int) -> Bool
    ) {
        guard limit > 0 else { return }
        var ranges: [Range<Int>] = []
        var depths: [Int] = []
        var counts: [Int] = []
        for hit in endings.sorted(by: { $0.lo < $1.lo }) where hit.typos >= minTypos {
            ranges.append(Int(hit.lo)..<Int(hit.hi))
            depths.append(Int(hit.depth))
            counts.append(Int(hit.typos))
        }
        guard !ranges.isEmpty else { return }
        // Pulled 8 × limit deep by weight, then re-ranked.
        var pulled: [(position: Int, depth: Int, typos: Int, popularity: Double)] = []
        index.forEachHeaviest(
            in: ranges, limit: limit * 8,
            skip: { Self.typos(at: $0, in: pieces) >= 0 || exactRange.contains($0) || !allowed($0) }
        ) { position, k in
            var popularity = index.weight(at: position) * boost
            if index.wordCount(position) > queryWords { popularity /= options.phrasePenalty }
            pulled.append((position, depths[k], counts[k], popularity))
        }
        pulled.sort { $0.typos != $1.typos ? $0.typos < $1.typos : $0.popularity > $1.popularity }
        for p in pulled.prefix(limit) {
            var c = candidate(p.position, tier: .typos(p.typos), typos: p.typos, matched: p.depth)
            c.popularity = p.popularity
            candidates.append(c)
        }
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
    func restartNodes(_ hits: [TypoHit]) -> [(lo: Int, hi: Int, byteDepth: Int)] {
        var result: [(lo: Int, hi: Int, byteDepth: Int)] = []
        let sorted = hits.sorted { $0.lo != $1.lo ? $0.lo < $1.lo : $0.hi > $1.hi }
        var outerEnd: Int32 = -1
        for hit in sorted where hit.lo >= outerEnd {
            outerEnd = hit.hi
            result.append((Int(hit.lo), Int(hit.hi), Int(hit.depth)))
        }
        return result
    }

    /// Finds the keys the pattern abbreviates (among those starting with its first character, or among the previous
    /// keystroke's survivors when the pattern grew), keeps them as survivors for the next keystroke, and appends the
    /// best `limit` by popularity × fzf score that no better tier offers already.
    mutating func scanSubsequences(
        _ scorer: SubsequenceScorer,
        previous: FuzzyState?,
        pieces: [TypoHit],
        exactRange: Range<Int>,
        limit: Int,
        spelling: Bool = false,
        _ allowed: (Int) -> Bool
    ) {
        let pattern = scorer.pattern
        let mask = scorer.mask
        let needsOriginal = scorer.casePattern != nil
        let baseline = Int32(pattern.count) * SubsequenceScorer.scoreMatch
        var survivors: [Int32] = []
        var best = Heap<ScoredPosition>()
        // The ceiling: keys compared with the pattern (those whose letter mask holds the pattern's).
        let checkBudget = options.maxAbbreviationChecks == 0 ? Int.max : options.maxAbbreviationChecks
        var checks = 0
        var stopped = false
        let index = self.index
        let masks = index.masks
        let prefixIndex = index.prefixIndex
        let weights = index.dictionary.weights
        masks.withUnsafeBufferPointer { maskBuffer in
        index.dictionary.textBytes.withUnsafeBufferPointer { text in
        pattern.withUnsafeBufferPointer { patternBuffer in
            let maskPointer = maskBuffer.baseAddress!
            let pat = patternBuffer.baseAddress!
            let pc = patternBuffer.count
            // Returns the fzf score when key `i` is abbreviated by the pattern.
            @inline(__always) func match(_ i: Int) -> Int32? {
                let m = maskPointer[i]
                if m & mask != mask { return nil }
                checks += 1
                if checks > checkBudget {
                    stopped = true
                    return nil
                }
                return prefixIndex.sortedKey(at: i).withUnsafeBufferPointer { key -> Int32? in
                    let length = key.count
                    let camel = m & FuzzyIndex.camelBit != 0
                    if !camel && !needsOriginal
                        && !SubsequenceScorer.abbreviates(pat, pc, key.baseAddress!, length)
                    {
                        return nil
                    }
                    var original: UnsafeBufferPointer<UInt8>? = nil
                    if needsOriginal || camel {
                        let range = index.dictionary.textRange(at: index.entry(at: i))
                        if range.count == length { original = UnsafeBufferPointer(rebasing: text[range]) }
                    }
                    return scorer.score(key: key, original: original, positions: nil)
                }
            }
            var piece = 0
            @inline(__always) func keep(_ i: Int, _ score: Int32) {
                survivors.append(Int32(i))
                // Keys already offered with at most the typo budget, exact matches and other scopes are not repeated.
                while piece < pieces.count && Int(pieces[piece].hi) <= i { piece += 1 }
                if piece < pieces.count && Int(pieces[piece].lo) <= i { return }
                if exactRange.contains(i) || !allowed(i) { return }
                let popularity = weights[index.entry(at: i)] * Self.boost(score - baseline)
                let scored = ScoredPosition(popularity: popularity, position: Int32(i))
                if best.count < limit {
                    best.insert(scored)
                } else if let min = best.min, min < scored {
                    best.replaceMin(with: scored)
                }
            }
            if let previous, let old = previous.survivors, previous.pattern.count <= pattern.count,
                pattern.starts(with: previous.pattern)
            {
                // Survivors are sorted; abbreviating a longer pattern implies abbreviating its prefix (greedy).
                for i in old {
                    if let score = match(Int(i)) { keep(Int(i), score) }
                    if stopped { break }
                }
                checked = old.count
            } else {
                let first = Self.firstScalarLength(pattern)
                let range = index.prefixRange(pattern[0..<first])
                for i in range {
                    if let score = match(i) { keep(i, score) }
                    if stopped { break }
                }
                checked = range.count
            }
        }
        }
        }
        // A scan cut short is not narrowed from: the next keystroke scans afresh.
        scanCut = stopped
        state?.pattern = stopped ? [] : pattern
        state?.survivors = stopped ? nil : survivors
        var top: [ScoredPosition] = []
        while let m = best.popMax() { top.append(m) }
        for scored in top {
            let i = Int(scored.position)
            var positions: [Int32] = []
            let key = Array(index.prefixIndex.sortedKey(at: i))
            let original = Array(index.dictionary.textBytes[index.dictionary.textRange(at: index.entry(at: i))])
            key.withUnsafeBufferPointer { k in
                original.withUnsafeBufferPointer { t in
                    _ = scorer.score(key: k, original: t.count == k.count ? t : nil, positions: &positions)
                }
            }
            if spelling && Self.typesAVowelInsideAWord(pattern: pattern, positions: positions, key: key, original: original) {
                continue
            }
            candidates.append(subsequenceCandidate(i, positions: positions, popularity: scored.popularity))
        }
    }

    /// Whether an abbreviation's alignment matches a vowel of the pattern (after its first character) inside a
    /// word of the key: not at its start, a word separator before it, nor at a camelCase hump.
    static func typesAVowelInsideAWord(pattern: [UInt8], positions: [Int32], key: [UInt8], original: [UInt8]) -> Bool {
        // ASCII patterns only (one position per byte); others are left as they are.
        guard positions.count == pattern.count else { return false }
        let camel = original.count == key.count
        for (j, position) in positions.enumerated() where j > 0 && j < pattern.count {
            switch pattern[j] {
            case 0x61, 0x65, 0x69, 0x6F, 0x75: break  // a e i o u
            default: continue
            }
            let p = Int(position)
            guard p > 0 && p < key.count else { continue }
            if key[p - 1] == 0x20 { continue }
            if camel && original[p] >= 0x41 && original[p] <= 0x5A && original[p - 1] >= 0x61 && original[p - 1] <= 0x7A {
                continue
            }
            return true
        }
        return false
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

    func subsequenceCandidate(_ position: Int, positions: [Int32], popularity: Double) -> SuggestionCandidate {
        let entry = index.entry(at: position)
        let title = index.dictionary.text(at: entry)
        let text = NormalizedText(title)
        // Runs of consecutive matched bytes, widened to whole scalars by the original-offset map.
        var ranges: [Range<Int>] = []
        var runStart = -1
        var runEnd = -1
        for p in positions.map(Int.init) where p < text.bytes.count {
            if p == runEnd {
                runEnd += 1
            } else {
                if runStart >= 0 { ranges.append(text.originalRange(of: runStart..<runEnd)) }
                runStart = p
                runEnd = p + 1
            }
        }
        if runStart >= 0 { ranges.append(text.originalRange(of: runStart..<runEnd)) }
        return SuggestionCandidate(title: title, matchedRanges: ranges, tier: .subsequence, popularity: popularity)
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
        guard let b = bytes.first else { return 0 }
        return min(bytes.count, UTF8Scalars.length(lead: b))
    }
}

struct ScoredPosition: Comparable {
    var popularity: Double
    var position: Int32
    static func < (a: Self, b: Self) -> Bool {
        a.popularity != b.popularity ? a.popularity < b.popularity : a.position > b.position
    }
}
