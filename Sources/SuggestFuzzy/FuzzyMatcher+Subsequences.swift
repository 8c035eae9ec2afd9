import SuggestCore
import SuggestIndex

extension FuzzyMatcher {
    /// Abbreviations and subsequences of the query (fzf-style). `spelt`: the typo walk found half a list or more with
    /// a budget smaller than the query's (its typo tiers would fill the list): the query reads as a word being spelt.
    mutating func subsequences(
        _ trimmed: [UInt8], query: PreparedQuery, previous: FuzzyState?, pieces: [TypoHit], exactRange: Range<Int>,
        limit: Int, spelt: Bool = false, _ filter: PositionFilter
    ) {
        let scorer = SubsequenceScorer(query: trimmed, original: query.text, smartCase: options.smartCase)
        let patternLength = UTF8Scalars.count(scorer.pattern)
        guard patternLength >= options.subsequenceMinLength, patternLength <= options.subsequenceMaxLength else {
            return
        }
        // A query that already fills the list with typo corrections reads as a word being spelt: then an
        // abbreviation must not use a vowel typed inside a word ("bocom" is "become" misspelt, not "BOth COMpanies";
        // "gthb" → "GitHub" and "usa" → "United States of America" are unaffected).
        var typoCandidates = 0
        for candidate in candidates where candidate.tier != .exact && candidate.tier != .prefix { typoCandidates += 1 }
        scanSubsequences(
            scorer, previous: previous, pieces: pieces, exactRange: exactRange, limit: limit,
            spelling: options.spellingGuard && (spelt || typoCandidates >= limit), filter)
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
        _ filter: PositionFilter
    ) {
        let pattern = scorer.pattern
        let mask = scorer.mask
        let needsOriginal = scorer.casePattern != nil
        let baseline = Int32(pattern.count) * SubsequenceScorer.scoreMatch
        var survivors = Array.take(&scratch.survivors)
        var best = Array.take(&scratch.scored)  // a min-heap of the best `limit`
        var key = Array.take(&scratch.key)
        var passes = Array.take(&scratch.maskPasses)
        defer {
            swap(&scratch.survivors, &survivors)
            swap(&scratch.scored, &best)
            swap(&scratch.key, &key)
            swap(&scratch.maskPasses, &passes)
        }
        // The ceiling: keys compared with the pattern (those whose letter mask holds the pattern's).
        let checkBudget = options.maxAbbreviationChecks == 0 ? Int.max : options.maxAbbreviationChecks
        var checks = 0
        var stopped = false
        var cold = false
        let index = self.index
        let masks = index.masks
        let prefixIndex = index.prefixIndex
        let weights = index.dictionary.weights
        // The most the fzf score can multiply a popularity by (every character a doubled boundary bonus, no gap;
        // bytes bound characters): a key whose weight times this cannot beat the weakest of a full top `limit` is
        // not scored.
        let bestBoost = Self.boost(SubsequenceScorer.maximumScore(length: pattern.count) - baseline)
        prefixIndex.withUnsafeSortedKeys { keyOffsets, keyBytes in
        masks.withUnsafeBufferPointer { maskBuffer in
        index.dictionary.textBytes.withUnsafeBufferPointer { text in
        pattern.withUnsafeBufferPointer { patternBuffer in
            let maskPointer = maskBuffer.baseAddress!
            let patternBytes = patternBuffer.baseAddress!
            let patternCount = patternBuffer.count
            var piece = 0
            // Keys offered already with at most the typo budget, exact matches and other scopes are not repeated;
            // asked in ascending positions (the pieces are passed once).
            @inline(__always) func excluded(_ position: Int) -> Bool {
                while piece < pieces.count && Int(pieces[piece].hi) <= position { piece += 1 }
                if piece < pieces.count && Int(pieces[piece].lo) <= position { return true }
                return exactRange.contains(position) || !filter.allowed(position)
            }
            // Returns the fzf score when the key at `position` is abbreviated by the pattern (`unscored` when it is
            // not to be ranked: excluded, or it cannot enter the top `limit`); positions ascend from call to call.
            // An excluded key is still a survivor, but it is not scored: a pattern that the typo tiers answer
            // already ("ptho": every "python-…" name) no longer scores thousands of keys only to drop them.
            @inline(__always) func match(_ position: Int) -> Int32? {
                let keyMask = maskPointer[position]
                if keyMask & mask != mask { return nil }
                checks += 1
                if checks > checkBudget {
                    stopped = true
                    return nil
                }
                let start = Int(keyOffsets[position])
                let key = UnsafeBufferPointer(rebasing: keyBytes[start..<Int(keyOffsets[position + 1])])
                let length = key.count
                let camel = keyMask & FuzzyIndex.camelBit != 0
                if !camel && !needsOriginal {
                    if !SubsequenceScorer.abbreviates(patternBytes, patternCount, key.baseAddress!, length) {
                        return nil
                    }
                    // An abbreviation (a survivor for the next keystroke) not to be scored.
                    if excluded(position) { return Self.unscored }
                    if best.count >= limit, let weakest = best.first,
                        weights[index.entry(at: position)] * bestBoost < weakest.popularity
                    {
                        return Self.unscored
                    }
                }
                var original: UnsafeBufferPointer<UInt8>? = nil
                if needsOriginal || camel {
                    let range = index.dictionary.textRange(at: index.entry(at: position))
                    if range.count == length { original = UnsafeBufferPointer(rebasing: text[range]) }
                }
                guard let score = scorer.score(key: key, original: original, positions: nil) else { return nil }
                if (needsOriginal || camel) && excluded(position) { return Self.unscored }
                return score
            }
            @inline(__always) func keep(_ position: Int, _ score: Int32) {
                survivors.append(Int32(position))
                if score == Self.unscored { return }
                let popularity = weights[index.entry(at: position)] * Self.boost(score - baseline)
                let scored = ScoredPosition(popularity: popularity, position: Int32(position))
                if best.count < limit {
                    ScoredPosition.push(scored, into: &best)
                } else if let weakest = best.first, weakest < scored {
                    ScoredPosition.replaceMin(with: scored, in: &best)
                }
            }
            // Narrowed from the previous keystroke's survivors when the pattern grew, else from the survivors kept
            // for the longest prefix of the pattern that an earlier scan of a whole range found (any session).
            var base: [Int32]? = nil
            if let previous, let old = previous.survivors, previous.pattern.count <= pattern.count,
                pattern.starts(with: previous.pattern)
            {
                base = old
            } else if !needsOriginal {
                base = index.abbreviations.longestPrefix(of: pattern)
            }
            if let old = base {
                // Survivors are sorted; abbreviating a longer pattern implies abbreviating its prefix (greedy).
                for survivor in old {
                    if let score = match(Int(survivor)) { keep(Int(survivor), score) }
                    if stopped { break }
                }
                checked = old.count
            } else {
                let first = Self.firstScalarLength(pattern)
                key.append(contentsOf: pattern[0..<first])
                let range = index.prefixRange(key)
                // The second character: where `abbreviates` looks for it is in each key's second-character set
                // (camelCase keys and a smart-case pattern are scored by their original text: not filtered).
                let second: UInt32 =
                    needsOriginal || pattern.count <= first ? 0xFFFF : UInt32(FuzzyIndex.secondBit(pattern[first]))
                // The range in blocks: first the positions whose mask holds the pattern's and whose second-character
                // set its second character, in a loop without branches (most keys fail them), then the checks on
                // those few.
                let block = 2048
                // Room for one block, kept from one scan to the next (its contents are written before they are read).
                let room = max(1, min(block, range.count))
                if passes.count < room { passes.append(contentsOf: repeatElement(0, count: room - passes.count)) }
                passes.withUnsafeMutableBufferPointer { passBuffer in
                index.seconds.withUnsafeBufferPointer { secondBuffer in
                    let out = passBuffer.baseAddress!
                    let seconds = secondBuffer.baseAddress!
                    // 1 when the key at `position` may be abbreviated: its mask holds the pattern's, and its
                    // second-character set the pattern's second character (all 16 bits for a camelCase key, bit 31).
                    @inline(__always) func passes(_ position: Int) -> UInt32 {
                        let keyMask = maskPointer[position]
                        let set = UInt32(seconds[position]) | ((keyMask >> 31) &* 0xFFFF)
                        let holds: UInt32 = keyMask & mask == mask ? 1 : 0
                        let starts: UInt32 = set & second != 0 ? 1 : 0
                        return holds & starts
                    }
                    var from = range.lowerBound
                    while from < range.upperBound && !stopped {
                        let to = min(from &+ block, range.upperBound)
                        var count = 0
                        var position = from
                        // Eight keys at a time: their tests without branches into a byte, then only the keys that
                        // pass (few: most groups have none) are written.
                        while position &+ 8 <= to {
                            var passing: UInt32 = 0
                            for k in 0..<8 { passing |= passes(position &+ k) &<< UInt32(k) }
                            while passing != 0 {
                                out[count] = Int32(truncatingIfNeeded: position &+ passing.trailingZeroBitCount)
                                count &+= 1
                                passing &= passing &- 1
                            }
                            position &+= 8
                        }
                        while position < to {
                            out[count] = Int32(truncatingIfNeeded: position)
                            count &+= Int(passes(position))
                            position &+= 1
                        }
                        for k in 0..<count {
                            let position = Int(out[k])
                            if let score = match(position) { keep(position, score) }
                            if stopped { break }
                        }
                        from = to
                    }
                }
                }
                checked = range.count
                cold = true
            }
        }
        }
        }
        }
        // A scan cut short is not narrowed from: the next keystroke scans afresh.
        scanCut = stopped
        state?.pattern = stopped ? [] : pattern
        let kept = stopped ? nil : FuzzyScratch.copy(survivors)
        state?.survivors = kept
        // What a scan of a whole range found is kept for other sessions (a smart-case pattern's survivors depend on
        // the original text's case: not kept).
        if cold, let kept, !needsOriginal { index.abbreviations.insert(pattern, survivors: kept) }
        // Best first (the order is total: positions differ).
        best.sort { $1 < $0 }
        var positions = Array.take(&scratch.positions)
        for scored in best {
            let position = Int(scored.position)
            positions.removeAll(keepingCapacity: true)
            let textRange = index.dictionary.textRange(at: index.entry(at: position))
            let vowelInsideAWord = prefixIndex.withUnsafeSortedKeys { keyOffsets, keyBytes in
                index.dictionary.textBytes.withUnsafeBufferPointer { text in
                    let keyBuffer = UnsafeBufferPointer(
                        rebasing: keyBytes[Int(keyOffsets[position])..<Int(keyOffsets[position + 1])])
                    let original = UnsafeBufferPointer(rebasing: text[textRange])
                    _ = scorer.score(
                        key: keyBuffer, original: original.count == keyBuffer.count ? original : nil,
                        positions: &positions)
                    return spelling
                        && Self.typesAVowelInsideAWord(
                            pattern: pattern, positions: positions, key: keyBuffer, original: original)
                }
            }
            if vowelInsideAWord { continue }
            candidates.append(subsequenceCandidate(position, positions: positions, popularity: scored.popularity))
        }
        swap(&scratch.positions, &positions)
    }

    /// The score of an abbreviation not scored because it could not enter the top `limit`.
    static let unscored = Int32.min

    /// Whether an abbreviation's alignment matches a vowel of the pattern (after its first character) inside a
    /// word of the key: not at its start, a word separator before it, nor at a camelCase hump.
    static func typesAVowelInsideAWord(
        pattern: [UInt8], positions: [Int32], key: UnsafeBufferPointer<UInt8>, original: UnsafeBufferPointer<UInt8>
    ) -> Bool {
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

    /// The candidate for an abbreviation at sorted position `position` whose alignment matched the folded key's
    /// `positions`: one matched range per run of consecutive positions, widened to whole scalars.
    mutating func subsequenceCandidate(_ position: Int, positions: [Int32], popularity: Double) -> SuggestionCandidate {
        let entry = index.entry(at: position)
        let title = index.dictionary.title(at: entry)
        let textRange = index.dictionary.textRange(at: entry)
        let isASCII = index.dictionary.textBytes.withUnsafeBufferPointer {
            TextNormalizer.isASCII(UnsafeBufferPointer(rebasing: $0[textRange]))
        }
        // ASCII folds byte for byte: folded offsets are the title's (what `NormalizedText` maps them to).
        let text = isASCII ? nil : NormalizedText(title)
        let count = text?.bytes.count ?? textRange.count
        // The runs in the scratch's array; then one run takes a shared array, more take one allocation.
        var ranges = Array.take(&scratch.runs)
        defer { swap(&scratch.runs, &ranges) }
        var runStart = -1
        var runEnd = -1
        for position in positions {
            let p = Int(position)
            guard p < count else { continue }
            if p == runEnd {
                runEnd += 1
            } else {
                if runStart >= 0 { ranges.append(text?.originalRange(of: runStart..<runEnd) ?? runStart..<runEnd) }
                runStart = p
                runEnd = p + 1
            }
        }
        if runStart >= 0 { ranges.append(text?.originalRange(of: runStart..<runEnd) ?? runStart..<runEnd) }
        return SuggestionCandidate(
            title: title, matchedRanges: SharedRanges.array(ranges), tier: .subsequence, popularity: popularity)
    }
}

extension ScoredPosition {
    /// Adds `element` to the binary min-heap `heap` (the weakest on top).
    static func push(_ element: ScoredPosition, into heap: inout [ScoredPosition]) {
        heap.append(element)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) >> 1
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    /// Replaces the top (the weakest) of the non-empty binary min-heap `heap` with `element`.
    static func replaceMin(with element: ScoredPosition, in heap: inout [ScoredPosition]) {
        heap[0] = element
        var parent = 0
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            if left >= count { break }
            var smallest = left
            if left + 1 < count && heap[left + 1] < heap[left] { smallest = left + 1 }
            guard heap[smallest] < heap[parent] else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
