import SuggestCore
import SuggestIndex

extension FuzzyMatcher {
    /// Whole words `budget` typos away (2 or 3), in two walks, each narrowed between keystrokes like the main one (a
    /// misspelt word stays sparse keystroke after keystroke): first with the first letter right (or swapped with
    /// the second); then, only if the list is still not full, with a wrong first letter and one more typo (the
    /// costly part: every other first letter's subtree with a typo to spare). Called only while the list needs them
    /// (`wholeWordsAreLookedFor`). Appended in tier `.twoTypos`,
    /// ranked by their typo count after everything above, skipping keys offered already.
    ///
    /// With an exact prefix of one (the default), every path of the second walk is held to two typos whatever
    /// `budget` is (a wrong first letter and one more), so it walks with a budget of two: the same nodes and hits as
    /// with three, rows of a narrower band, and it narrows from the previous keystroke's when the budget grows from
    /// two to three.
    mutating func wholeWords(
        _ scalars: [UInt32], budget: Int, queryWords: Int, previous: FuzzyState?,
        pieces: [TypoHit], exactRange: Range<Int>, limit: Int, _ filter: PositionFilter
    ) {
        let forgive = options.forgiveWrongPrefix && options.exactPrefixLength > 0
        let narrowing = previous.flatMap { $0.wholeWordBudget == budget ? $0 : nil }
        var rightFirst = wholeWordWalk(
            scalars, budget: budget, wrongPrefixTypos: 0, onlyWrongPrefix: false, firstSwap: forgive,
            previous: narrowing.flatMap { ($0.wholeWordScalars, $0.wholeWordHits) })
        state?.wholeWordBudget = budget
        state?.wholeWordScalars = scalars
        state?.wholeWordHits = rightFirst.cut ? nil : FuzzyScratch.copy(rightFirst.hits)
        let before = candidates.count
        appendWholeWords(rightFirst.endings, scalars, queryWords: queryWords, pieces: pieces, exactRange: exactRange,
                         limit: limit, filter)
        scratch.walk = rightFirst.takeBuffers()
        profile?.end(.wholeWords, work: rightFirst.visited)
        guard forgive, candidates.count - before < limit else { return }
        // With an exact prefix of one, every path of this walk is held to two typos, whatever `budget` is: it walks
        // with a budget of two. (With a longer exact prefix a path below a wrong first letter can still take the
        // full budget, and the walk needs it to tell those paths from the ones with a right prefix.)
        let walkBudget = options.exactPrefixLength == 1 ? Self.wrongPrefixWholeWordTypos : budget
        var wrong = wholeWordWalk(
            scalars, budget: walkBudget, wrongPrefixTypos: Self.wrongPrefixWholeWordTypos,
            onlyWrongPrefix: true, firstSwap: true,
            previous: previous.flatMap {
                $0.wrongPrefixBudget == walkBudget ? ($0.wrongPrefixScalars, $0.wrongPrefixHits) : nil
            })
        state?.wrongPrefixBudget = walkBudget
        state?.wrongPrefixScalars = scalars
        state?.wrongPrefixHits = wrong.cut ? nil : FuzzyScratch.copy(wrong.hits)
        // A wrong first letter as the only typo was offered in step 2b already.
        appendWholeWords(wrong.endings, scalars, queryWords: queryWords, pieces: pieces, exactRange: exactRange,
                         limit: limit - (candidates.count - before), minTypos: 2, filter)
        scratch.walk = wrong.takeBuffers()
        profile?.end(.wholeWordsWrongFirst, work: wrong.visited)
    }

    /// The typos a whole word with a wrong first letter may have beyond the completion budget: the first letter and
    /// one more.
    static let wrongPrefixWholeWordTypos = 2

    /// A prefix-mode walk, below the previous keystroke's hits when it extends that query, in the scratch's walk
    /// buffers (the caller gives them back with `TypoSearch/takeBuffers()`). Its hits are incomplete when it is
    /// `cut`: a walk cut short is not narrowed from, the next keystroke walks afresh.
    mutating func wholeWordWalk(
        _ scalars: [UInt32], budget: Int, wrongPrefixTypos: Int, onlyWrongPrefix: Bool, firstSwap: Bool,
        previous: ([UInt32], [TypoHit]?)?
    ) -> TypoSearch {
        var search = TypoSearch(
            index: index, query: scalars, maxTypos: budget, transpositions: options.transpositions, wholeWord: false,
            exactPrefix: options.exactPrefixLength, wrongPrefixTypos: wrongPrefixTypos,
            onlyWrongPrefix: onlyWrongPrefix, firstSwap: firstSwap, buffers: takeWalkBuffers())
        search.nodeBudget = walkBudget
        var below: [TypoHit]? = nil
        if let (oldScalars, oldHits) = previous, oldScalars.count <= scalars.count, scalars.starts(with: oldScalars) {
            below = oldHits
        }
        run(&search, below: below)
        visited += search.visited
        if search.cut { walkCut = true }
        return search
    }

    /// Appends the best `limit` of the whole words in `endings` not offered yet (`pieces`), fewest typos first,
    /// then by popularity weighed by the kinds of their edits (``FuzzyOptions/weighTypoKinds``), a phrase (more
    /// words than the query: "a rotating" for "adjatating") ranking as if `phrasePenalty` times less popular.
    mutating func appendWholeWords(
        _ endings: [TypoHit], _ scalars: [UInt32], queryWords: Int, pieces: [TypoHit], exactRange: Range<Int>,
        limit: Int, minTypos: Int32 = 1, boost: Double = 1, _ filter: PositionFilter
    ) {
        guard limit > 0 else { return }
        var sorted = Array.take(&scratch.sortedHits)
        var ranges = Array.take(&scratch.ranges)
        var depths = Array.take(&scratch.depths)
        var counts = Array.take(&scratch.counts)
        var heap = Array.take(&scratch.heap)
        var pulled = Array.take(&scratch.words)
        var top = Array.take(&scratch.topWords)
        defer {
            swap(&scratch.sortedHits, &sorted)
            swap(&scratch.ranges, &ranges)
            swap(&scratch.depths, &depths)
            swap(&scratch.counts, &counts)
            swap(&scratch.heap, &heap)
            swap(&scratch.words, &pulled)
            swap(&scratch.topWords, &top)
        }
        sorted.append(contentsOf: endings)
        sorted.sortIfNeeded { $0.lo < $1.lo }
        for hit in sorted where hit.typos >= minTypos {
            ranges.append(Int(hit.lo)..<Int(hit.hi))
            depths.append(Int(hit.depth))
            counts.append(Int(hit.typos))
        }
        guard !ranges.isEmpty else { return }
        // Pulled 8 × limit deep by weight, then re-ranked.
        let index = self.index
        let phrasePenalty = options.phrasePenalty
        index.forEachHeaviestWhile(
            in: ranges, limit: limit * 8, heap: &heap,
            skip: { Self.typos(at: $0, in: pieces) >= 0 || exactRange.contains($0) || !filter.allowed($0) }
        ) { position, rangeIndex in
            var popularity = index.weight(at: position) * boost
            if index.wordCount(position) > queryWords { popularity /= phrasePenalty }
            let factor = Self.typoFactor(
                options, index, &scratch.typoCost, scalars, position: position, matched: depths[rangeIndex],
                typos: counts[rangeIndex])
            popularity *= factor
            pulled.append(
                FuzzyScratch.PulledWord(
                    position: position, depth: depths[rangeIndex], typos: counts[rangeIndex], popularity: popularity,
                    typoKindFactor: factor))
            return true
        }
        // The first `limit` of `pulled` stably sorted by typos, then popularity, descending.
        for word in pulled {
            Self.insert(word, into: &top, limit: limit) {
                $0.typos != $1.typos ? $0.typos < $1.typos : $0.popularity > $1.popularity
            }
        }
        for word in top {
            var correction = candidate(word.position, tier: .typos(word.typos), typos: word.typos, matched: word.depth)
            correction.popularity = word.popularity
            correction.typoKindFactor = word.typoKindFactor
            candidates.append(correction)
        }
    }
}
