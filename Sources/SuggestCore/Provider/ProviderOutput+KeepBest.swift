extension ProviderOutput {
    /// Keeps at most `limit` candidates in each tier — in each, those the engine would rank first from this
    /// provider alone (fewest typos, then the most popular; ties: the earlier one) — in their order. What a
    /// provider that collects every match should do before it returns (``SuggestionRequest/limit``: at most that
    /// many of each tier). A short list may offer every match instead, so that the engine's selection history can
    /// lift any item the person keeps choosing (``StaticProvider`` does).
    ///
    /// ```swift
    /// for contact in contacts {
    ///     if let match = request.match(contact.name) { output.append(match) }
    /// }
    /// output.keepBest(perTier: request.limit)
    /// ```
    /// - Complexity: O(*n*) without allocating when no tier has more than `limit` candidates; O(*n* log *n*)
    ///   otherwise, for *n* candidates.
    public mutating func keepBest(perTier limit: Int) {
        guard exceedsLimit(perTier: limit) else { return }
        let order = candidates.indices.sorted { a, b in
            let x = candidates[a]
            let y = candidates[b]
            if x.tier != y.tier { return x.tier < y.tier }
            if x.typos != y.typos { return x.typos < y.typos }
            if x.popularity != y.popularity { return x.popularity > y.popularity }
            return a < b
        }
        var counts: [MatchTier: Int] = [:]
        var kept = [Bool](repeating: false, count: candidates.count)
        for i in order where counts[candidates[i].tier, default: 0] < limit {
            counts[candidates[i].tier, default: 0] += 1
            kept[i] = true
        }
        candidates = candidates.indices.filter { kept[$0] }.map { candidates[$0] }
    }

    /// Whether some tier has more than `limit` candidates.
    func exceedsLimit(perTier limit: Int) -> Bool {
        guard candidates.count > limit else { return false }
        // Over the raw values rather than `allCases`, which would build an array on every keystroke.
        for raw in MatchTier.exact.rawValue...MatchTier.unfiltered.rawValue {
            var count = 0
            for candidate in candidates where candidate.tier.rawValue == raw { count += 1 }
            if count > limit { return true }
        }
        return false
    }
}
