import SuggestCore
import SuggestIndex

extension FuzzyMatcher {
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
        if let (oldScalars, oldHits) = previous, let oldHits, oldScalars.count <= scalars.count,
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
        ) { position, rangeIndex in
            var popularity = index.weight(at: position) * boost
            if index.wordCount(position) > queryWords { popularity /= options.phrasePenalty }
            pulled.append((position, depths[rangeIndex], counts[rangeIndex], popularity))
        }
        pulled.sort { $0.typos != $1.typos ? $0.typos < $1.typos : $0.popularity > $1.popularity }
        for word in pulled.prefix(limit) {
            var correction = candidate(word.position, tier: .typos(word.typos), typos: word.typos, matched: word.depth)
            correction.popularity = word.popularity
            candidates.append(correction)
        }
    }
}
