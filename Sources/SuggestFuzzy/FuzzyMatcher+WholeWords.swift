import SuggestCore
import SuggestIndex

extension FuzzyMatcher {
    /// Whole words `budget` typos away (2 or 3): first with the first letter right (or swapped with the second);
    /// then, only if the list is still not full, with a wrong first letter and one more typo. Called only while the
    /// list needs them (`wholeWordsAreLookedFor`). Appended in tier `.twoTypos`, ranked by their typo count after
    /// everything above, skipping keys offered already.
    ///
    /// A forward walk branches most where typos sit early in a word: below a wrong first letter every letter's
    /// subtree has a typo to spare, and three typos let every node of the first levels through. So, with
    /// `FuzzyOptions.reversedKeys` and an exact prefix of one (the default), these searches are split between the index's keys and its reversed keys
    /// (`FuzzyIndex.reversedKeys`, as Mihov and Schulz split a search between a forward and a backward trie):
    /// - two or three typos, first letter right: a forward walk that may spend one typo by the end of the split
    ///   column, near the middle of the word (``splitColumn(forLength:)``), narrowed between keystrokes like the
    ///   main walk while the column stays, and a backward walk for every alignment
    ///   that has spent more when it leaves that column, which then spends the rest of the budget (none or one) on
    ///   the columns after it;
    /// - a wrong first letter and one more typo: one backward walk that may spend a single typo before it reaches the
    ///   word's first letter, instead of a forward walk below each of the other first letters.
    /// Every alignment within the budget falls in one of the halves, so the corrections and their typo counts are
    /// those of one forward walk (`FuzzyOptions.reversedKeys` off, as the tests compare). A longer exact prefix, a
    /// query whose corrections may be longer than the reversed keys, or reversed keys still being made: forward
    /// walks alone.
    mutating func wholeWords(
        _ scalars: [UInt32], budget: Int, queryWords: Int, previous: FuzzyState?,
        pieces: [TypoHit], exactRange: Range<Int>, limit: Int, _ filter: PositionFilter
    ) {
        let forgive = options.forgiveWrongPrefix && options.exactPrefixLength > 0
        var profileMark = visited
        // Split between the two directions when the reversed keys hold every key the search can find.
        let reversed = backwardKeys
        // A walk narrows from the previous keystroke's only when both split at the same column; a word that does
        // not go past the column (three letters, with lengths set that low) is not split.
        let column = Self.splitColumn(forLength: scalars.count)
        let split =
            reversed.map {
                budget > Self.forwardTypos && scalars.count > column && scalars.count + budget <= $0.maxLength
            } ?? false
        let key = split ? budget + Self.splitKey * column : budget
        let narrowing = previous.flatMap { $0.wholeWordBudget == key ? $0 : nil }
        var rightFirst = wholeWordWalk(
            scalars, budget: budget, wrongPrefixTypos: 0, onlyWrongPrefix: false, firstSwap: forgive,
            capped: split ? (column, Self.forwardTypos) : nil,
            previous: narrowing.flatMap { ($0.wholeWordScalars, $0.wholeWordHits) })
        state?.wholeWordBudget = key
        state?.wholeWordScalars = scalars
        state?.wholeWordHits = rightFirst.cut ? nil : FuzzyScratch.copy(rightFirst.hits)
        let before = candidates.count
        if split, let reversed {
            // The rest: an alignment that has spent more than the forward share when it leaves the split column
            // spends at most the remainder on the columns after it.
            var endings = Array.take(&scratch.wholeEndings)
            endings.append(contentsOf: rightFirst.endings)
            scratch.walk = rightFirst.takeBuffers()
            reversedWholeWords(
                reversed, scalars, budget: budget, suffixTypos: budget - Self.forwardTypos - 1,
                through: scalars.count - column - 1, firstLetterRight: true, swapIsRight: forgive,
                into: &endings)
            Self.keepFewestTypos(&endings)
            appendWholeWords(endings, scalars, queryWords: queryWords, pieces: pieces, exactRange: exactRange,
                             limit: limit, filter)
            endings.removeAll(keepingCapacity: true)
            swap(&scratch.wholeEndings, &endings)
        } else {
            appendWholeWords(rightFirst.endings, scalars, queryWords: queryWords, pieces: pieces,
                             exactRange: exactRange, limit: limit, filter)
            scratch.walk = rightFirst.takeBuffers()
        }
        profile?.end(.wholeWords, work: visited - profileMark)
        profileMark = visited
        guard forgive, candidates.count - before < limit else { return }
        if let reversed, scalars.count + Self.wrongPrefixWholeWordTypos <= reversed.maxLength {
            // A wrong first letter and one more typo: backwards, that one typo anywhere but at the word's start.
            state?.wrongPrefixBudget = -1
            state?.wrongPrefixHits = nil
            appendWrongFirstLetterWords(
                reversed, scalars, budget: Self.wrongPrefixWholeWordTypos, queryWords: queryWords, pieces: pieces,
                exactRange: exactRange, limit: limit - (candidates.count - before), minTypos: 2, filter)
            profile?.end(.wholeWordsWrongFirst, work: visited - profileMark)
            return
        }
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
        profile?.end(.wholeWordsWrongFirst, work: visited - profileMark)
    }

    /// The query column that splits a whole-word search of `m` scalars between the directions: the forward walk may
    /// spend at most ``forwardTypos`` by it, the backward walk covers every alignment that has spent more when it
    /// leaves it. Near the middle of the word (never before column 3), so that neither walk lets its whole budget
    /// loose on most of the word: split at column 3, the forward walk of an 11-letter word may spend three typos on
    /// its last 8 letters below every key its first three letters nearly start (Benchmarks/README.md measures it).
    static func splitColumn(forLength m: Int) -> Int { max(3, (m - 1) / 2) }

    /// The typos the forward walk of a split search may spend by ``splitColumn(forLength:)``: with two typos in all, the
    /// backward walk then matches the rest of the word exactly; with three, it may spend one on it.
    static let forwardTypos = 1

    /// Added to a split walk's budget in ``FuzzyState/wholeWordBudget`` (its hits come from a capped walk).
    static let splitKey = 100

    /// Whole words within `budget` typos of `scalars` found by a walk over the reversed keys that spends at most
    /// `suffixTypos` on the query's last `through` characters (its first `through` columns backwards), appended to
    /// `endings` as single sorted positions of the index: only keys whose first letter is right (`scalars[0]`, or,
    /// with `swapIsRight`, the first two swapped) when `firstLetterRight`, only the others otherwise.
    mutating func reversedWholeWords(
        _ reversed: ReversedKeys, _ scalars: [UInt32], budget: Int, suffixTypos: Int, through: Int,
        firstLetterRight: Bool, swapIsRight: Bool, into endings: inout [TypoHit]
    ) {
        var backwards = Array.take(&scratch.backwards)
        backwards.append(contentsOf: scalars.reversed())
        var search = TypoSearch(
            index: index, query: backwards, maxTypos: budget, transpositions: options.transpositions,
            wholeWord: true, exactPrefix: 0, reversed: reversed, buffers: takeWalkBuffers())
        search.cap(through: through, typos: suffixTypos)
        search.nodeBudget = walkBudget
        let m = scalars.count
        let swaps = swapIsRight && options.transpositions && m >= 2 && scalars[1] != scalars[0]
        // Only keys that start with the first letter (or the second, swapped) are kept below, or only the others: a
        // small subtree of none of them is not walked. (A lead byte tells one ASCII letter from every other scalar,
        // not a scalar of several bytes from another with the same lead byte.)
        if firstLetterRight {
            let first = UTF8Scalars.leadByte(of: scalars[0])
            search.firstByteFilter = (first, swaps ? UTF8Scalars.leadByte(of: scalars[1]) : first, true)
        } else if scalars[0] < 0x80 {
            search.firstByteFilter = (UInt8(scalars[0]), UInt8(scalars[0]), false)
        }
        search.run()
        visited += search.visited
        if search.cut { walkCut = true }
        index.prefixIndex.withUnsafeSortedKeys { _, bytes in
            for hit in search.hits {
                for p in Int(hit.lo)..<Int(hit.hi) {
                    // The key's bytes from its packed place; its sorted position (a binary search) only for a hit.
                    let key = UnsafeBufferPointer(rebasing: bytes[reversed.byteRange(p)])
                    let first = UTF8Scalars.decode(key, at: 0)
                    var right = first.value == scalars[0]
                    if !right && swaps && first.value == scalars[1] && first.length < key.count {
                        right = UTF8Scalars.decode(key, at: first.length).value == scalars[0]
                    }
                    guard right == firstLetterRight else { continue }
                    let position = reversed.forwardPosition(p)
                    endings.append(
                        TypoHit(lo: Int32(position), hi: Int32(position + 1), typos: hit.typos, depth: hit.depth))
                }
            }
        }
        backwards.removeAll(keepingCapacity: true)
        swap(&scratch.backwards, &backwards)
        scratch.walk = search.takeBuffers()
    }

    /// The reversed keys a whole-word search may split over: with an exact prefix of one and unless
    /// `FuzzyOptions.reversedKeys` is false; nil while they are not made.
    var backwardKeys: ReversedKeys? {
        options.reversedKeys != false && options.exactPrefixLength == 1 ? index.reversed : nil
    }

    /// Appends the whole words within `budget` typos of `scalars` whose first letter is wrong (the first two swapped
    /// count as right), found by one backward walk over `reversed` that spends at most `budget - 1` typos before it
    /// reaches the word's first letter; the other parameters as for `appendWholeWords`.
    mutating func appendWrongFirstLetterWords(
        _ reversed: ReversedKeys, _ scalars: [UInt32], budget: Int, queryWords: Int, pieces: [TypoHit],
        exactRange: Range<Int>, limit: Int, minTypos: Int32 = 1, boost: Double = 1, _ filter: PositionFilter
    ) {
        var endings = Array.take(&scratch.wholeEndings)
        reversedWholeWords(
            reversed, scalars, budget: budget, suffixTypos: budget - 1, through: scalars.count - 1,
            firstLetterRight: false, swapIsRight: true, into: &endings)
        Self.keepFewestTypos(&endings)
        appendWholeWords(
            endings, scalars, queryWords: queryWords, pieces: pieces, exactRange: exactRange, limit: limit,
            minTypos: minTypos, boost: boost, filter)
        endings.removeAll(keepingCapacity: true)
        swap(&scratch.wholeEndings, &endings)
    }

    /// Sorts `endings` by position and keeps, where they overlap, the fewest typos: each position once.
    static func keepFewestTypos(_ endings: inout [TypoHit]) {
        // Ranges of keys that end at one node hold equal keys; split into single positions first.
        var i = 0
        let count = endings.count
        while i < count {
            let hit = endings[i]
            if hit.hi - hit.lo > 1 {
                endings[i].hi = hit.lo + 1
                for p in (hit.lo + 1)..<hit.hi {
                    endings.append(TypoHit(lo: p, hi: p + 1, typos: hit.typos, depth: hit.depth))
                }
            }
            i += 1
        }
        endings.sort { $0.lo != $1.lo ? $0.lo < $1.lo : $0.typos < $1.typos }
        var kept = 0
        for k in 0..<endings.count where kept == 0 || endings[k].lo != endings[kept - 1].lo {
            endings[kept] = endings[k]
            kept += 1
        }
        endings.removeSubrange(kept...)
    }

    /// The typos a whole word with a wrong first letter may have beyond the completion budget: the first letter and
    /// one more.
    static let wrongPrefixWholeWordTypos = 2

    /// A prefix-mode walk, below the previous keystroke's hits when it extends that query, in the scratch's walk
    /// buffers (the caller gives them back with `TypoSearch/takeBuffers()`). Its hits are incomplete when it is
    /// `cut`: a walk cut short is not narrowed from, the next keystroke walks afresh.
    mutating func wholeWordWalk(
        _ scalars: [UInt32], budget: Int, wrongPrefixTypos: Int, onlyWrongPrefix: Bool, firstSwap: Bool,
        capped: (column: Int, typos: Int)? = nil, previous: ([UInt32], [TypoHit]?)?
    ) -> TypoSearch {
        var search = TypoSearch(
            index: index, query: scalars, maxTypos: budget, transpositions: options.transpositions, wholeWord: false,
            exactPrefix: options.exactPrefixLength, wrongPrefixTypos: wrongPrefixTypos,
            onlyWrongPrefix: onlyWrongPrefix, firstSwap: firstSwap, buffers: takeWalkBuffers())
        search.nodeBudget = walkBudget
        if let capped { search.cap(through: capped.column, typos: capped.typos) }
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
