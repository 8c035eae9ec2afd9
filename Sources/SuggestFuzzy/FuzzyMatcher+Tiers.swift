import SuggestCore
import SuggestIndex

extension FuzzyMatcher {
    /// Step 2: the exact matches, then each tier from prefix (0 typos) to the walk's budget, each its own top `limit`
    /// by weight — in a typo tier the whole-word corrections first, then the completions.
    mutating func appendTiers(_ typed: Typed, walk: Walk, limit: Int, _ allowed: (Int) -> Bool) {
        if options.prefixMatches {
            index.forEachHeaviest(in: [typed.exact], limit: limit, skip: { !allowed($0) }) { position, _ in
                candidates.append(candidate(position, tier: .exact, typos: 0, matched: typed.key.count))
            }
        }
        for typoCount in 0...walk.typos {
            if typoCount == 0 && !options.prefixMatches { continue }
            let tier: MatchTier = typoCount == 0 ? .prefix : .typos(typoCount)
            let wholeRanges =
                typoCount > 0 ? appendWholeWordCorrections(typed, walk: walk, typos: typoCount, limit: limit, allowed) : []
            appendCompletions(typed, walk: walk, typos: typoCount, tier: tier, skipping: wholeRanges, limit: limit, allowed)
        }
    }

    /// Whole-word corrections of a typo tier: keys that end where the query's alignment ends with `typos` typos, a
    /// key whose prefix needs fewer typos being offered in that better tier.
    /// - Returns: their ranges, sorted (the completions of the tier skip them).
    mutating func appendWholeWordCorrections(
        _ typed: Typed, walk: Walk, typos: Int, limit: Int, _ allowed: (Int) -> Bool
    ) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var depths: [Int] = []
        for ending in walk.endings where Int(ending.typos) == typos {
            ranges.append(Int(ending.lo)..<Int(ending.hi))
            depths.append(Int(ending.depth))
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        index.forEachHeaviest(
            in: ranges,
            limit: limit,
            skip: { Self.typos(at: $0, in: walk.pieces) != typos || !allowed($0) }
        ) { position, rangeIndex in
            var correction = candidate(position, tier: .typos(typos), typos: typos, matched: depths[rangeIndex])
            correction.popularity *= options.wholeWordBoost
            if index.wordCount(position) > typed.wordCount { correction.popularity /= options.phrasePenalty }
            candidates.append(correction)
        }
        return ranges
    }

    /// Completions of a tier: the heaviest keys of the walk's pieces with `typos` typos, a phrase (a key of more
    /// words than the query) ranking as if `phrasePenalty` times less popular and, in typo tiers, each character
    /// beyond the matched prefix `completionLengthPenalty` times less. Pulled by weight until no key is left that
    /// could still enter the top `limit` (penalties only lower a weight), at most 64 × limit deep, then re-ranked.
    mutating func appendCompletions(
        _ typed: Typed, walk: Walk, typos: Int, tier: MatchTier, skipping wholeRanges: [Range<Int>], limit: Int,
        _ allowed: (Int) -> Bool
    ) {
        var ranges: [Range<Int>] = []
        var depths: [Int] = []
        for piece in walk.pieces where Int(piece.typos) == typos {
            ranges.append(Int(piece.lo)..<Int(piece.hi))
            depths.append(Int(piece.depth))
        }
        if ranges.isEmpty { return }
        var pulled: [(position: Int, depth: Int, popularity: Double)] = []
        let phrasePenalty = options.phrasePenalty
        let lengthPenalty = typos > 0 ? options.completionLengthPenalty : 1
        let reranks = phrasePenalty > 1 || lengthPenalty > 1
        var best: [Double] = []  // the best `limit` adjusted popularities, descending
        let exact = typed.exact
        index.forEachHeaviestWhile(
            in: ranges,
            limit: reranks ? limit * 64 : limit,
            skip: { position in
                exact.contains(position) || !allowed(position) || Self.contains(wholeRanges, position)
            }
        ) { position, rangeIndex in
            let weight = index.weight(at: position)
            if best.count >= limit && best[limit - 1] >= weight { return false }
            var popularity = weight
            if phrasePenalty > 1 && index.wordCount(position) > typed.wordCount { popularity /= phrasePenalty }
            if lengthPenalty > 1 {
                let extra = index.keyLength(position) - depths[rangeIndex]
                if extra > 0 { popularity /= Self.power(lengthPenalty, extra) }
            }
            pulled.append((position, depths[rangeIndex], popularity))
            if reranks {
                var slot = best.count
                best.append(popularity)
                while slot > 0 && best[slot - 1] < popularity {
                    best[slot] = best[slot - 1]
                    slot -= 1
                }
                best[slot] = popularity
                if best.count > limit { best.removeLast() }
            }
            return true
        }
        if reranks { pulled.sort { $0.popularity > $1.popularity } }
        for completion in pulled.prefix(limit) {
            var next = candidate(completion.position, tier: tier, typos: typos, matched: completion.depth)
            next.popularity = completion.popularity
            candidates.append(next)
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

}
