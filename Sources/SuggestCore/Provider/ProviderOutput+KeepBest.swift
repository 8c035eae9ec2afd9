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
    /// - Complexity: O(*n*) when no tier has more than `limit` candidates; otherwise O(*n*²) for up to 256
    ///   candidates and O(*n* log *n*) beyond, for *n* candidates. Allocates nothing for up to 256 candidates.
    public mutating func keepBest(perTier limit: Int) {
        guard exceedsLimit(perTier: limit) else { return }
        let n = candidates.count
        guard n <= 256 else { return keepBestSorting(perTier: limit) }
        // Candidate i is kept when fewer than `limit` candidates of its tier come before it.
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: n) { kept in
            for i in 0..<n {
                let tier = candidates[i].tier
                var before = 0
                for j in 0..<n where j != i && candidates[j].tier == tier && precedes(j, i) {
                    before += 1
                    if before >= limit { break }
                }
                kept[i] = before < limit
            }
            // Move the kept ones to the front, in their order.
            var w = 0
            for i in 0..<n where kept[i] {
                if w != i { candidates.swapAt(w, i) }
                w += 1
            }
            candidates.removeLast(n - w)
        }
    }

    /// Whether candidate `a` comes before candidate `b` of the same tier: fewer typos, then more popular, then
    /// earlier.
    private func precedes(_ a: Int, _ b: Int) -> Bool {
        let x = candidates[a]
        let y = candidates[b]
        if x.typos != y.typos { return x.typos < y.typos }
        if x.popularity != y.popularity { return x.popularity > y.popularity }
        return a < b
    }

    /// ``keepBest(perTier:)`` for long lists: one sort.
    private mutating func keepBestSorting(perTier limit: Int) {
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
        for raw in 0...MatchTier.maximumRawValue {
            var count = 0
            for candidate in candidates where candidate.tier.rawValue == raw { count += 1 }
            if count > limit { return true }
        }
        return false
    }
}
