/// The identity of a completion for merging: folded text, or a token's kind and value.
enum MergeKey: Hashable, Sendable {
    case text(String)
    case token(kind: String, value: String)

    init(_ completion: Suggestion.Completion) {
        switch completion {
        case .text(let text): self = .text(TextNormalizer.normalizedString(text))
        case .token(let token): self = .token(kind: token.kind, value: TextNormalizer.normalizedString(token.value))
        }
    }
}

extension SuggestionEngine {
    /// Step 4: one suggestion per completion. It keeps the best match facts (lowest tier, then fewest typos, then
    /// highest score), every provider that offered it (best first), and the section of the first provider in
    /// configuration order that offered it.
    func merge(_ outputs: [[SuggestionCandidate]], selectionCounts: [MergeKey: Int]) -> [Suggestion] {
        var merged: [Suggestion] = []
        var firstProvider: [Int] = []
        var index: [MergeKey: Int] = [:]
        merged.reserveCapacity(outputs.reduce(0) { $0 + $1.count })
        for (p, candidates) in outputs.enumerated() {
            let slot = slots[p]
            let id = slot.provider.id
            for candidate in candidates {
                let key = MergeKey(candidate.completion)
                let boost = Double(1 + (selectionCounts[key] ?? 0))
                var suggestion = Suggestion(
                    title: candidate.title,
                    subtitle: candidate.subtitle,
                    completion: candidate.completion,
                    matchedRanges: candidate.matchedRanges,
                    providers: [id],
                    tier: candidate.tier,
                    typos: candidate.typos,
                    popularity: candidate.popularity,
                    weight: slot.weight,
                    score: slot.weight * candidate.popularity * boost,
                    section: candidate.section ?? slot.section,
                    systemImage: candidate.systemImage
                )
                if let existing = index[key] {
                    var kept = merged[existing]
                    if Self.isBetterMatch(suggestion, than: kept) {
                        suggestion.providers = [id] + kept.providers.filter { $0 != id }
                        suggestion.section = kept.section
                        if suggestion.systemImage == nil { suggestion.systemImage = kept.systemImage }
                        if suggestion.subtitle == nil { suggestion.subtitle = kept.subtitle }
                        merged[existing] = suggestion
                    } else if !kept.providers.contains(id) {
                        kept.providers.append(id)
                        merged[existing] = kept
                    }
                } else {
                    index[key] = merged.count
                    merged.append(suggestion)
                    firstProvider.append(p)
                }
            }
        }
        return merged
    }

    static func isBetterMatch(_ a: Suggestion, than b: Suggestion) -> Bool {
        if a.tier != b.tier { return a.tier < b.tier }
        if a.typos != b.typos { return a.typos < b.typos }
        return a.score > b.score
    }

    /// Step 5: tiers first, then score, then the tiebreaks (not for ``MatchTier/unfiltered``, which keeps the
    /// providers' order). Stable for full ties (merge order).
    func rank(_ suggestions: [Suggestion]) -> [Suggestion] {
        let providerOrder = Dictionary(
            slots.enumerated().map { ($0.element.provider.id, $0.offset) },
            uniquingKeysWith: { first, _ in first }
        )
        let tiebreak = options.tiebreak
        return suggestions.enumerated().sorted { lhs, rhs in
            let a = lhs.element
            let b = rhs.element
            if a.tier != b.tier { return a.tier < b.tier }
            if a.typos != b.typos { return a.typos < b.typos }
            if a.score != b.score { return a.score > b.score }
            // Nothing was matched on an empty field: keep each provider's own order (most recent first, a static
            // list's order) instead of shorter-then-alphabetical.
            if a.tier == .unfiltered { return lhs.offset < rhs.offset }
            for rule in tiebreak {
                switch rule {
                case .shorter:
                    let ca = a.title.utf8.count
                    let cb = b.title.utf8.count
                    if ca != cb { return ca < cb }
                case .alphabetical:
                    if a.title != b.title { return a.title < b.title }
                case .provider:
                    let pa = providerOrder[a.provider] ?? Int.max
                    let pb = providerOrder[b.provider] ?? Int.max
                    if pa != pb { return pa < pb }
                }
            }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Step 6: sections in order (the rules' order, then the providers' order), each with its quota, all within
    /// the limit. With ``EngineOptions/groupsSections`` off, one list in rank order.
    func shape(_ ranked: [Suggestion]) -> [SuggestionResult.Section] {
        var quotas: [String: Int] = [:]
        for rule in options.sections { if let quota = rule.quota { quotas[rule.title] = quota } }
        var taken: [String: Int] = [:]
        var selected: [Suggestion] = []
        // Walk in rank order so the limit keeps the best suggestions whatever their section.
        for suggestion in ranked where selected.count < options.limit {
            let count = taken[suggestion.section, default: 0]
            // An exact match is never dropped by a quota, and does not use up a place in it.
            if suggestion.tier != .exact {
                if let quota = quotas[suggestion.section], count >= quota { continue }
                taken[suggestion.section] = count + 1
            }
            selected.append(suggestion)
        }
        if !options.groupsSections {
            return selected.isEmpty ? [] : [.init(title: Self.defaultSection, suggestions: selected)]
        }
        var order: [String] = options.sections.map(\.title)
        for slot in slots where !order.contains(slot.section) { order.append(slot.section) }
        for suggestion in selected where !order.contains(suggestion.section) { order.append(suggestion.section) }
        var grouped: [String: [Suggestion]] = [:]
        for suggestion in selected { grouped[suggestion.section, default: []].append(suggestion) }
        return order.compactMap { title in
            guard let suggestions = grouped[title], !suggestions.isEmpty else { return nil }
            return .init(title: title, suggestions: suggestions)
        }
    }

    /// The longest common start of the shown text completions that match as exact or prefix, when it is longer
    /// than what was typed (Tab-to-complete). Compared folded; returned as the first completion spells it.
    static func commonCompletion(of sections: [SuggestionResult.Section], for query: PreparedQuery) -> String? {
        guard !query.isEmpty, query.lastWordIsPartial else { return nil }
        var common: [Character]? = nil
        var foldedCommon: [String] = []
        for section in sections {
            for suggestion in section.suggestions where suggestion.tier <= .prefix {
                guard case .text(let text) = suggestion.completion else { continue }
                let characters = Array(text)
                if common == nil {
                    common = characters
                    foldedCommon = characters.map { TextNormalizer.normalizedString(String($0)) }
                    continue
                }
                var n = 0
                while n < common!.count && n < characters.count
                    && foldedCommon[n] == TextNormalizer.normalizedString(String(characters[n]))
                {
                    n += 1
                }
                common!.removeLast(common!.count - n)
                foldedCommon.removeLast(foldedCommon.count - n)
            }
        }
        guard let common, !common.isEmpty else { return nil }
        let folded = foldedCommon.joined().utf8
        // It must extend the typed text.
        guard folded.count > query.trimmed.count, folded.starts(with: query.trimmed) else { return nil }
        return String(common)
    }
}
