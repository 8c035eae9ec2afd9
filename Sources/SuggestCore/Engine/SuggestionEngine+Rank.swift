/// The identity of a completion for merging: folded text, or a token's kind and folded value. The engine shows one
/// suggestion per key; a provider that offers at most `limit` candidates should offer distinct keys (``init(_:)``),
/// or the list comes out short after the merge.
public enum MergeKey: Hashable, Sendable {
    case text(String)
    case token(kind: String, value: String)

    public init(_ completion: Suggestion.Completion) {
        var buffer: [UInt8] = []
        self.init(completion, buffer: &buffer)
    }

    /// Folds into `buffer` (reused between calls: short keys then need no allocation at all).
    init(_ completion: Suggestion.Completion, buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        switch completion {
        case .text(let text):
            TextNormalizer.normalize(text, into: &buffer)
            self = .text(String(decoding: buffer, as: UTF8.self))
        case .token(let token):
            TextNormalizer.normalize(token.value, into: &buffer)
            self = .token(kind: token.kind, value: String(decoding: buffer, as: UTF8.self))
        case .query(let query):
            if query.text.isEmpty, let token = query.tokens.first {
                TextNormalizer.normalize(token.value, into: &buffer)
                self = .token(kind: token.kind, value: String(decoding: buffer, as: UTF8.self))
            } else {
                TextNormalizer.normalize(query.text, into: &buffer)
                self = .text(String(decoding: buffer, as: UTF8.self))
            }
        }
    }
}

/// What the engine derives once from its options and slots: section order, quotas, provider order.
struct Layout: Sendable {
    /// Section titles in display order: the rules' order, then the providers' sections in configuration order.
    var sectionTitles: [String]
    /// Quota per section (nil: none).
    var quotas: [Int?]
    /// Each slot's section index.
    var slotSections: [Int]

    init(slots: [ProviderSlot], options: EngineOptions) {
        var titles = options.sections.map(\.title)
        var quotas = options.sections.map(\.quota)
        var slotSections: [Int] = []
        for slot in slots {
            if let index = titles.firstIndex(of: slot.section) {
                slotSections.append(index)
            } else {
                titles.append(slot.section)
                quotas.append(nil)
                slotSections.append(titles.count - 1)
            }
        }
        self.sectionTitles = titles
        self.quotas = quotas
        self.slotSections = slotSections
    }
}

extension SuggestionEngine {
    /// One merged completion while a keystroke is ranked: where its best candidate is, its match facts, and which
    /// providers offered it. ``Suggestion`` values are built only for the ones shown.
    struct Merged {
        var provider: Int
        var candidate: Int
        var tier: MatchTier
        var typos: Int
        var score: Double
        var section: Int
        /// Bit p set: slot p offered it (slots 64 and later are listed in `moreProviders`).
        var offeredBy: UInt64
        var moreProviders: [Int]?
        var key: MergeKey
    }

    /// Steps 4–6: merge, rank, shape. Returns the sections and the common completion.
    func arrange(
        _ outputs: [[SuggestionCandidate]],
        query: PreparedQuery,
        selectionCounts: [MergeKey: Int]
    ) -> ([SuggestionResult.Section], String?) {
        var sectionTitles = layout.sectionTitles
        var merged = rank(merge(outputs, selectionCounts: selectionCounts, sectionTitles: &sectionTitles), outputs)
        let shown = select(&merged, sectionCount: sectionTitles.count)
        let sections = build(shown, merged, outputs, sectionTitles)
        return (sections, Self.commonCompletion(shown.flatMap { $0 }.map { merged[$0] }, outputs, query))
    }

    /// Step 4: one entry per completion. It keeps the best match facts (lowest tier, then fewest typos, then highest
    /// score), every provider that offered it, and the section of the first provider (in configuration order) that
    /// offered it.
    func merge(
        _ outputs: [[SuggestionCandidate]],
        selectionCounts: [MergeKey: Int],
        sectionTitles: inout [String]
    ) -> [Merged] {
        var merged: [Merged] = []
        var index: [MergeKey: Int] = [:]
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64)
        for (p, candidates) in outputs.enumerated() where !candidates.isEmpty {
            let weight = slots[p].weight
            let exactBoost = slots[p].exactMatch.boostFactor
            for (c, candidate) in candidates.enumerated() {
                // An exact match that must earn its place ranks among the prefix matches (boosted).
                var tier = candidate.tier
                var factor = 1.0
                if tier == .exact, let exactBoost {
                    tier = .prefix
                    factor = exactBoost
                }
                let key = MergeKey(candidate.completion, buffer: &buffer)
                let boost = selectionCounts.isEmpty ? 1 : Double(1 + (selectionCounts[key] ?? 0))
                let score = weight * candidate.popularity * boost * factor
                if let existing = index[key] {
                    var kept = merged[existing]
                    if p < 64 { kept.offeredBy |= 1 << UInt64(p) } else if kept.moreProviders?.contains(p) != true {
                        kept.moreProviders = (kept.moreProviders ?? []) + [p]
                    }
                    let better =
                        tier != kept.tier
                        ? tier < kept.tier
                        : candidate.typos != kept.typos ? candidate.typos < kept.typos : score > kept.score
                    if better {
                        kept.provider = p
                        kept.candidate = c
                        kept.tier = tier
                        kept.typos = candidate.typos
                        kept.score = score
                    }
                    merged[existing] = kept
                } else {
                    var section = layout.slotSections[p]
                    if let override = candidate.section {
                        if let at = sectionTitles.firstIndex(of: override) {
                            section = at
                        } else {
                            sectionTitles.append(override)
                            section = sectionTitles.count - 1
                        }
                    }
                    index[key] = merged.count
                    merged.append(
                        Merged(
                            provider: p,
                            candidate: c,
                            tier: tier,
                            typos: candidate.typos,
                            score: score,
                            section: section,
                            offeredBy: p < 64 ? 1 << UInt64(p) : 0,
                            moreProviders: p < 64 ? nil : [p],
                            key: key
                        )
                    )
                }
            }
        }
        return merged
    }

    /// Step 5: tiers first, then score, then the tiebreaks (not for ``MatchTier/unfiltered``, which keeps the
    /// providers' order). Stable for full ties (merge order).
    func rank(_ merged: [Merged], _ outputs: [[SuggestionCandidate]]) -> [Merged] {
        let tiebreak = options.tiebreak
        var order = Array(merged.indices)
        order.sort { l, r in
            let a = merged[l]
            let b = merged[r]
            if a.tier != b.tier { return a.tier < b.tier }
            if a.typos != b.typos { return a.typos < b.typos }
            if a.score != b.score { return a.score > b.score }
            // Nothing was matched on an empty field: keep each provider's own order (most recent first, a static
            // list's order) instead of shorter-then-alphabetical.
            if a.tier == .unfiltered { return l < r }
            for rule in tiebreak {
                switch rule {
                case .shorter:
                    let ca = outputs[a.provider][a.candidate].title.utf8.count
                    let cb = outputs[b.provider][b.candidate].title.utf8.count
                    if ca != cb { return ca < cb }
                case .alphabetical:
                    let ta = outputs[a.provider][a.candidate].title
                    let tb = outputs[b.provider][b.candidate].title
                    if ta != tb { return ta < tb }
                case .provider:
                    if a.provider != b.provider { return a.provider < b.provider }
                }
            }
            return l < r
        }
        return order.map { merged[$0] }
    }

    /// Step 6: a section with a quota ("Recent", 3) gets its places first — up to its quota, best first, however
    /// popular the other sections' suggestions are — then the remaining places go to the other sections in rank
    /// order, within the limit. An exact match is always shown and does not use up a place in a quota. A suggestion
    /// that did not fit its section's quota but that another provider offered too moves to that provider's section
    /// (a recent search that is also a dictionary word shows among the suggestions), so the list is not short.
    /// Returns the shown entries' indices (rank order) per section, sections in display order.
    func select(_ ranked: inout [Merged], sectionCount: Int) -> [[Int]] {
        var shown = [[Int]](repeating: [], count: sectionCount)
        var used = [Int](repeating: 0, count: sectionCount)
        var taken = [Bool](repeating: false, count: ranked.count)
        var total = 0
        func quota(_ section: Int) -> Int? { section < layout.quotas.count ? layout.quotas[section] : nil }
        // Exact matches and the quota sections' places first.
        for (i, entry) in ranked.enumerated() where total < options.limit {
            if entry.tier == .exact {
                taken[i] = true
                total += 1
            } else if let quota = quota(entry.section), used[entry.section] < quota {
                used[entry.section] += 1
                taken[i] = true
                total += 1
            }
        }
        // Then everything else in rank order.
        for (i, entry) in ranked.enumerated() where total < options.limit && !taken[i] {
            if quota(entry.section) != nil {
                guard let other = overflowSection(of: entry, quota: quota) else { continue }
                ranked[i].section = other
            }
            taken[i] = true
            total += 1
        }
        for (i, entry) in ranked.enumerated() where taken[i] { shown[entry.section].append(i) }
        if !options.groupSections {
            // One list in rank order.
            return [shown.flatMap { $0 }.sorted()]
        }
        return shown
    }

    /// A section without a quota of another provider that offered `entry` (configuration order), if any.
    func overflowSection(of entry: Merged, quota: (Int) -> Int?) -> Int? {
        guard entry.offeredBy.nonzeroBitCount > 1 || entry.moreProviders != nil else { return nil }
        for p in slots.indices {
            let offered = p < 64 ? entry.offeredBy & (1 << UInt64(p)) != 0 : entry.moreProviders?.contains(p) == true
            let section = layout.slotSections[p]
            if offered && section != entry.section && quota(section) == nil { return section }
        }
        return nil
    }

    /// Builds the shown suggestions.
    func build(
        _ shown: [[Int]],
        _ ranked: [Merged],
        _ outputs: [[SuggestionCandidate]],
        _ sectionTitles: [String]
    ) -> [SuggestionResult.Section] {
        var sections: [SuggestionResult.Section] = []
        for (s, indices) in shown.enumerated() where !indices.isEmpty {
            let title = options.groupSections ? sectionTitles[s] : Self.defaultSection
            let suggestions = indices.map { i -> Suggestion in
                let entry = ranked[i]
                let candidate = outputs[entry.provider][entry.candidate]
                var providers = [slots[entry.provider].provider.id]
                var subtitle = candidate.subtitle
                var systemImage = candidate.systemImage
                for p in slots.indices where p != entry.provider {
                    let offered = p < 64 ? entry.offeredBy & (1 << UInt64(p)) != 0 : entry.moreProviders?.contains(p) == true
                    guard offered else { continue }
                    providers.append(slots[p].provider.id)
                    // Presentation the best candidate lacks comes from the others.
                    if subtitle == nil || systemImage == nil,
                        let other = outputs[p].first(where: { MergeKey($0.completion) == entry.key })
                    {
                        subtitle = subtitle ?? other.subtitle
                        systemImage = systemImage ?? other.systemImage
                    }
                }
                return Suggestion(
                    title: candidate.title,
                    subtitle: subtitle,
                    completion: candidate.completion,
                    matchedRanges: candidate.matchedRanges,
                    providers: providers,
                    tier: entry.tier,
                    typos: entry.typos,
                    popularity: candidate.popularity,
                    weight: slots[entry.provider].weight,
                    score: entry.score,
                    section: sectionTitles[entry.section],
                    systemImage: systemImage
                )
            }
            sections.append(.init(title: title, suggestions: suggestions))
        }
        return sections
    }

    /// The longest common start of the shown text completions that match as exact or prefix, when it is longer
    /// than what was typed (Tab-to-complete). Compared folded; returned as the first such completion spells it.
    static func commonCompletion(
        _ shown: [Merged],
        _ outputs: [[SuggestionCandidate]],
        _ query: PreparedQuery
    ) -> String? {
        guard !query.isEmpty, query.lastWordIsPartial else { return nil }
        var first: (text: String, key: Substring.UTF8View)? = nil
        var common = 0
        for entry in shown where entry.tier <= .prefix {
            guard case .text(let key) = entry.key,
                let text = outputs[entry.provider][entry.candidate].completion.text
            else { continue }
            let utf8 = Substring(key).utf8
            guard let (_, firstKey) = first else {
                first = (text, utf8)
                common = utf8.count
                continue
            }
            var n = 0
            for (x, y) in zip(firstKey, utf8) {
                if n >= common || x != y { break }
                n += 1
            }
            common = n
        }
        guard let (text, key) = first else { return nil }
        let typed = query.trimmed
        guard common > typed.count, key.prefix(common).starts(with: typed) else { return nil }
        // Map the folded length back to the original: do not stop inside a folded expansion or a scalar.
        let normalized = NormalizedText(text)
        var end = common
        while end < normalized.bytes.count && end > 0 && normalized.originalOffsets[end] == normalized.originalOffsets[end - 1] {
            end -= 1
        }
        let offset = Int(normalized.originalOffsets[end])
        let utf8 = text.utf8
        return String(text[..<utf8.index(utf8.startIndex, offsetBy: offset)])
    }
}
