import SuggestCore
import SuggestIndex

extension FuzzyMatcher {
    /// For a query of several words (``FuzzyOptions/everyWord``): the prefix index's matches beyond the exact and
    /// prefix ones, which the steps before offer already — at an inner word start, every word in order or in any
    /// order, and with typos in some words (at most ``FuzzyOptions/maxTypos``) — each group most popular first,
    /// `limit` in all, among the entries of the selected scope; an entry offered above in a lower tier moves up
    /// instead of being offered twice. The index looks for every-word matches only while the matches before them
    /// do not fill the list (see `PrefixIndex.search(_:limit:infix:everyWord:exactBeyondLimit:into:)`), from its sorted
    /// word starts.
    mutating func everyWordMatches(_ query: PreparedQuery, limit: Int, _ filter: PositionFilter) {
        guard options.everyWord, query.words.count > 1 else { return }
        var buffer = scratch.everyWordBuffer ?? PrefixIndex.SearchBuffer(capacity: limit)
        scratch.everyWordBuffer = nil
        // The provider's scope rule (only the selected scope's entries), not the index's (also unscoped ones).
        let scopes = index.dictionary.scopeIndices
        let scope = filter.scopeIndex
        index.prefixIndex.search(
            query, limit: limit, infix: true, everyWord: true,
            accepting: { entry in
                guard let scope else { return true }
                return scopes[Int(entry)] == scope
            }, into: &buffer)
        let keyLength = IndexKey.length(of: query)
        let dictionary = index.dictionary
        let offered = candidates.count
        // Typos in some words within the provider's own ceiling (the index allows one from 4 letters, two from 8).
        for hit in buffer.hits where hit.tier != .exact && hit.tier != .prefix && Int(hit.typos) <= options.maxTypos {
            let entry = Int(hit.entry)
            // A title shown lately is the same `String` (the dictionary's cache), not a new one.
            let title = dictionary.title(at: entry)
            // An entry a step above offered already: kept once, in the better tier.
            let earlier = candidates[0..<offered].firstIndex { $0.title == title }
            if let earlier, candidates[earlier].tier <= hit.tier { continue }
            let ranges = scratch.everyWordRanges.of(
                query, in: title, tier: hit.tier, typos: Int(hit.typos), keyOffset: Int(hit.keyOffset),
                keyLength: keyLength)
            var match = SuggestionCandidate(
                title: title, matchedRanges: ranges, tier: hit.tier, typos: Int(hit.typos),
                popularity: dictionary.weight(at: entry))
            match.wordsOutOfOrder = hit.wordsOutOfOrder
            if let earlier { candidates[earlier] = match } else { candidates.append(match) }
        }
        scratch.everyWordBuffer = buffer
    }
}
