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
    struct Merged: Sendable {
        var provider: Int
        var candidate: Int
        var tier: MatchTier
        var typos: Int
        var score: Double
        /// Found only through a synonym (ranks below every direct match).
        var synonym: Bool
        var section: Int
        /// Bit p set: slot p offered it (slots 64 and later are found through the offers).
        var offeredBy: UInt64
        /// Whether a slot numbered 64 or more offered it.
        var offeredByLaterSlot: Bool
        /// Its key in the keystroke's ``MergeTable``.
        var key: Int
        /// Its first and last offer in ``KeystrokeScratch/offers``: every candidate that merged into it, in merge
        /// order (slot order, then each slot's candidate order).
        var firstOffer: Int32
        var lastOffer: Int32
        /// Whether step 6 shows it.
        var isShown = false
    }

    /// One candidate merged into an entry: its slot and its index in that slot's output, and the entry's next offer
    /// (-1 for none).
    struct Offer: Sendable {
        var provider: Int32
        var candidate: Int32
        var next: Int32
    }

    /// Steps 4–6: merge, rank, shape. Returns the sections and the common completion.
    func arrange(
        _ outputs: [[SuggestionCandidate]],
        query: PreparedQuery,
        selectionCounts: SelectionCounts,
        scratch: inout KeystrokeScratch
    ) -> ([SuggestionResult.Section], String?) {
        var sectionTitles = layout.sectionTitles
        merge(outputs, selectionCounts: selectionCounts, sectionTitles: &sectionTitles, scratch: &scratch)
        rank(outputs, scratch: &scratch)
        select(sectionCount: sectionTitles.count, scratch: &scratch)
        arrangeDisplay(sectionCount: sectionTitles.count, scratch: &scratch)
        let sections = build(outputs, sectionTitles, scratch: &scratch)
        let common = Self.commonCompletion(outputs, query, scratch: &scratch)
        return (sections, common)
    }

    /// Step 4: one entry per completion. It keeps the best match facts (lowest tier, then fewest typos, then highest
    /// score), every provider that offered it, and the section of the first provider (in configuration order) that
    /// offered it. Fills `scratch.merged`, `scratch.offers` and `scratch.table`.
    func merge(
        _ outputs: [[SuggestionCandidate]],
        selectionCounts: SelectionCounts,
        sectionTitles: inout [String],
        scratch: inout KeystrokeScratch
    ) {
        var total = 0
        for candidates in outputs { total += candidates.count }
        scratch.merged.removeAll(keepingCapacity: true)
        scratch.offers.removeAll(keepingCapacity: true)
        scratch.table.removeAll(expected: total)
        for (p, candidates) in outputs.enumerated() where !candidates.isEmpty {
            let weight = slots[p].weight
            let exactBoost = slots[p].exactMatch.boostFactor
            // By index, reading fields in place: a `for candidate in` copy would retain each candidate's strings.
            for c in candidates.indices {
                // An exact match that must earn its place ranks among the prefix matches (boosted).
                var tier = candidates[c].tier
                var factor = 1.0
                if tier == .exact, let exactBoost {
                    tier = .prefix
                    factor = exactBoost
                }
                let (key, inserted) = scratch.table.insert(candidates[c].completion)
                let boost =
                    selectionCounts.isEmpty
                    ? 1 : Double(1 + selectionCounts.count(scratch.table.key(key), hash: scratch.table.hash(ofKey: key)))
                let score = weight * candidates[c].popularity * boost * factor
                let offer = Int32(scratch.offers.count)
                scratch.offers.append(Offer(provider: Int32(p), candidate: Int32(c), next: -1))
                if !inserted {
                    var kept = scratch.merged[key]
                    if p < 64 { kept.offeredBy |= 1 << UInt64(p) } else { kept.offeredByLaterSlot = true }
                    scratch.offers[Int(kept.lastOffer)].next = offer
                    kept.lastOffer = offer
                    let synonym = candidates[c].synonym != nil
                    let better =
                        synonym != kept.synonym
                        ? !synonym
                        : tier != kept.tier
                            ? tier < kept.tier
                            : candidates[c].typos != kept.typos ? candidates[c].typos < kept.typos : score > kept.score
                    if better {
                        kept.provider = p
                        kept.candidate = c
                        kept.synonym = synonym
                        kept.tier = tier
                        kept.typos = candidates[c].typos
                        kept.score = score
                    }
                    scratch.merged[key] = kept
                } else {
                    var section = layout.slotSections[p]
                    if let override = candidates[c].section {
                        if let at = sectionTitles.firstIndex(of: override) {
                            section = at
                        } else {
                            sectionTitles.append(override)
                            section = sectionTitles.count - 1
                        }
                    }
                    scratch.merged.append(
                        Merged(
                            provider: p,
                            candidate: c,
                            tier: tier,
                            typos: candidates[c].typos,
                            score: score,
                            synonym: candidates[c].synonym != nil,
                            section: section,
                            offeredBy: p < 64 ? 1 << UInt64(p) : 0,
                            offeredByLaterSlot: p >= 64,
                            key: key,
                            firstOffer: offer,
                            lastOffer: offer
                        )
                    )
                }
            }
        }
    }

    /// Whether slot `p` offered `entry`.
    func offered(_ entry: Merged, by p: Int, offers: [Offer]) -> Bool {
        if p < 64 { return entry.offeredBy & (1 << UInt64(p)) != 0 }
        return firstOffer(of: entry, by: p, offers: offers) != nil
    }

    /// The first candidate of slot `p` that merged into `entry`, if any.
    func firstOffer(of entry: Merged, by p: Int, offers: [Offer]) -> Int? {
        var at = Int(entry.firstOffer)
        while at >= 0 {
            if offers[at].provider == p { return Int(offers[at].candidate) }
            at = Int(offers[at].next)
        }
        return nil
    }

    /// Step 5: tiers first, then score, then the tiebreaks (not for ``MatchTier/unfiltered``, which keeps the
    /// providers' order). Full ties keep merge order. Fills `scratch.order` with the merged entries' indices in rank
    /// order.
    func rank(_ outputs: [[SuggestionCandidate]], scratch: inout KeystrokeScratch) {
        let tiebreak = options.tiebreak
        let merged = scratch.merged
        scratch.order.removeAll(keepingCapacity: true)
        for i in merged.indices { scratch.order.append(Int32(i)) }
        // A strict total order (the merge order decides full ties), so any correct sort gives the same order.
        func precedes(_ l: Int32, _ r: Int32) -> Bool {
            let a = merged[Int(l)]
            let b = merged[Int(r)]
            if a.synonym != b.synonym { return !a.synonym }
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
        IndexSort.sort(&scratch.order, spare: &scratch.sortSpare, by: precedes)
    }

    /// Step 6: a section with a quota ("Recent", 3) gets its places first — up to its quota, best first, however
    /// popular the other sections' suggestions are — then the remaining places go to the other sections in rank
    /// order, within the limit. An exact match is always shown and does not use up a place in a quota. A suggestion
    /// that did not fit its section's quota but that another provider offered too moves to that provider's section
    /// (a recent search that is also a dictionary word shows among the suggestions), so the list is not short.
    /// Marks the shown entries (`isShown`) in `scratch.merged`.
    func select(sectionCount: Int, scratch: inout KeystrokeScratch) {
        scratch.used.removeAll(keepingCapacity: true)
        scratch.used.append(contentsOf: repeatElement(0, count: sectionCount))
        var total = 0
        func quota(_ section: Int) -> Int? { section < layout.quotas.count ? layout.quotas[section] : nil }
        // Exact matches and the quota sections' places first.
        for i in scratch.order {
            guard total < options.limit else { break }
            let entry = scratch.merged[Int(i)]
            if entry.tier == .exact {
                scratch.merged[Int(i)].isShown = true
                total += 1
            } else if let quota = quota(entry.section), scratch.used[entry.section] < quota {
                scratch.used[entry.section] += 1
                scratch.merged[Int(i)].isShown = true
                total += 1
            }
        }
        // Then everything else in rank order.
        for i in scratch.order {
            guard total < options.limit else { break }
            let entry = scratch.merged[Int(i)]
            guard !entry.isShown else { continue }
            if quota(entry.section) != nil {
                guard let other = overflowSection(of: entry, quota: quota, offers: scratch.offers) else { continue }
                scratch.merged[Int(i)].section = other
            }
            scratch.merged[Int(i)].isShown = true
            total += 1
        }
    }

    /// A section without a quota of another provider that offered `entry` (configuration order), if any.
    func overflowSection(of entry: Merged, quota: (Int) -> Int?, offers: [Offer]) -> Int? {
        guard entry.offeredBy.nonzeroBitCount > 1 || entry.offeredByLaterSlot else { return nil }
        for p in slots.indices {
            let section = layout.slotSections[p]
            if section != entry.section && quota(section) == nil && offered(entry, by: p, offers: offers) {
                return section
            }
        }
        return nil
    }

    /// Fills `scratch.display` with the shown entries in display order — sections in their order, each in rank
    /// order (one list in rank order when sections are not grouped) — each with its index in the result's sections
    /// numbering (`section`: a section index, 0 when not grouped).
    func arrangeDisplay(sectionCount: Int, scratch: inout KeystrokeScratch) {
        scratch.display.removeAll(keepingCapacity: true)
        if !options.groupSections {
            for i in scratch.order where scratch.merged[Int(i)].isShown {
                scratch.display.append(KeystrokeScratch.Shown(section: 0, entry: i))
            }
            return
        }
        for s in 0..<sectionCount {
            for i in scratch.order where scratch.merged[Int(i)].isShown && scratch.merged[Int(i)].section == s {
                scratch.display.append(KeystrokeScratch.Shown(section: Int32(s), entry: i))
            }
        }
    }

    /// Builds the shown suggestions, in the arrays of the result the session's previous keystroke returned when
    /// its caller has let go of it.
    func build(
        _ outputs: [[SuggestionCandidate]],
        _ sectionTitles: [String],
        scratch: inout KeystrokeScratch
    ) -> [SuggestionResult.Section] {
        var sections = scratch.takeSections()
        var current = -1
        var suggestions: [Suggestion] = []
        for k in scratch.display.indices {
            let shown = scratch.display[k]
            let s = Int(shown.section)
            if s != current {
                if current >= 0 {
                    let title = options.groupSections ? sectionTitles[current] : Self.defaultSection
                    sections.append(.init(title: title, suggestions: suggestions))
                }
                suggestions = scratch.spareSuggestions.popLast() ?? []
                current = s
            }
            appendSuggestion(scratch.merged[Int(shown.entry)], outputs, sectionTitles, to: &suggestions, scratch: &scratch)
        }
        if current >= 0 {
            let title = options.groupSections ? sectionTitles[current] : Self.defaultSection
            sections.append(.init(title: title, suggestions: suggestions))
        }
        scratch.keepSections(sections)
        return sections
    }

    /// Appends the suggestion of a shown entry to `suggestions` (made in place: a suggestion returned and then
    /// appended was copied, its strings and arrays retained again).
    func appendSuggestion(
        _ entry: Merged,
        _ outputs: [[SuggestionCandidate]],
        _ sectionTitles: [String],
        to suggestions: inout [Suggestion],
        scratch: inout KeystrokeScratch
    ) {
        var subtitle = outputs[entry.provider][entry.candidate].subtitle
        var systemImage = outputs[entry.provider][entry.candidate].systemImage
        scratch.providerSlots.removeAll(keepingCapacity: true)
        scratch.providerSlots.append(entry.provider)
        for p in slots.indices where p != entry.provider && offered(entry, by: p, offers: scratch.offers) {
            scratch.providerSlots.append(p)
            // Presentation the best candidate lacks comes from the others.
            if subtitle == nil || systemImage == nil, let c = firstOffer(of: entry, by: p, offers: scratch.offers) {
                let other = outputs[p][c]
                subtitle = subtitle ?? other.subtitle
                systemImage = systemImage ?? other.systemImage
            }
        }
        let p = entry.provider
        let c = entry.candidate
        suggestions.append(
            Suggestion(
                title: outputs[p][c].title,
                subtitle: subtitle,
                completion: outputs[p][c].completion,
                matchedRanges: outputs[p][c].matchedRanges,
                providers: scratch.providerIDs(slots),
                tier: entry.tier,
                typos: entry.typos,
                popularity: outputs[p][c].popularity,
                weight: slots[p].weight,
                score: entry.score,
                section: sectionTitles[entry.section],
                systemImage: systemImage,
                synonym: entry.synonym ? outputs[p][c].synonym : nil
            ))
        suggestions[suggestions.count - 1].typoKindFactor = outputs[p][c].typoKindFactor
        suggestions[suggestions.count - 1].wordsOutOfOrder = outputs[p][c].wordsOutOfOrder
    }

    /// The longest common start of the shown text completions that match as exact or prefix, when it is longer
    /// than what was typed (Tab-to-complete). Compared folded; returned as the first such completion spells it.
    static func commonCompletion(
        _ outputs: [[SuggestionCandidate]],
        _ query: PreparedQuery,
        scratch: inout KeystrokeScratch
    ) -> String? {
        guard !query.isEmpty, query.lastWordIsPartial else { return nil }
        var first: (text: String, key: ArraySlice<UInt8>)? = nil
        var common = 0
        // Display order: the first shown completion spells the result.
        for shown in scratch.display {
            let entry = scratch.merged[Int(shown.entry)]
            guard entry.tier <= .prefix, !entry.synonym, let key = scratch.table.text(ofKey: entry.key),
                let text = outputs[entry.provider][entry.candidate].completion.text
            else { continue }
            guard let (_, firstKey) = first else {
                first = (text, key)
                common = key.count
                continue
            }
            var n = 0
            for (x, y) in zip(firstKey, key) {
                if n >= common || x != y { break }
                n += 1
            }
            common = n
        }
        guard let (text, key) = first else { return nil }
        let typed = query.trimmed
        guard common > typed.count, key.prefix(common).starts(with: typed) else { return nil }
        // Map the folded length back to the original: do not stop inside a folded expansion or a scalar.
        let offset = scratch.originalOffset(ofFolded: common, in: text)
        if offset == text.utf8.count { return text }
        let utf8 = text.utf8
        let end = utf8.index(utf8.startIndex, offsetBy: offset)
        if let last = scratch.lastCompletion, last.utf8.elementsEqual(utf8[..<end]) { return last }
        let made = String(text[..<end])
        scratch.lastCompletion = made
        return made
    }
}

/// Sorts indices by a strict total order without allocating once the spare buffer has grown: insertion sort for
/// short lists, a merge sort through `spare` for longer ones.
enum IndexSort {
    static func sort(_ a: inout [Int32], spare: inout [Int32], by precedes: (Int32, Int32) -> Bool) {
        let n = a.count
        if n <= 24 {
            insertionSort(&a, 0..<n, by: precedes)
            return
        }
        if spare.count < n { spare = [Int32](repeating: 0, count: n) }
        // Bottom-up: sorted runs of 16, then merges that alternate between `a` and `spare`.
        var start = 0
        while start < n {
            insertionSort(&a, start..<min(start + 16, n), by: precedes)
            start += 16
        }
        var width = 16
        var inSpare = false
        while width < n {
            if inSpare {
                mergePass(from: spare, into: &a, n: n, width: width, by: precedes)
            } else {
                mergePass(from: a, into: &spare, n: n, width: width, by: precedes)
            }
            inSpare.toggle()
            width *= 2
        }
        if inSpare { for i in 0..<n { a[i] = spare[i] } }
    }

    static func insertionSort(_ a: inout [Int32], _ range: Range<Int>, by precedes: (Int32, Int32) -> Bool) {
        guard range.count > 1 else { return }
        for i in (range.lowerBound + 1)..<range.upperBound {
            let x = a[i]
            var j = i
            while j > range.lowerBound && precedes(x, a[j - 1]) {
                a[j] = a[j - 1]
                j -= 1
            }
            a[j] = x
        }
    }

    static func mergePass(
        from source: [Int32], into target: inout [Int32], n: Int, width: Int, by precedes: (Int32, Int32) -> Bool
    ) {
        var low = 0
        while low < n {
            let mid = min(low + width, n)
            let high = min(low + 2 * width, n)
            var i = low
            var j = mid
            var k = low
            while i < mid && j < high {
                if precedes(source[j], source[i]) {
                    target[k] = source[j]
                    j += 1
                } else {
                    target[k] = source[i]
                    i += 1
                }
                k += 1
            }
            while i < mid {
                target[k] = source[i]
                i += 1
                k += 1
            }
            while j < high {
                target[k] = source[j]
                j += 1
                k += 1
            }
            low = high
        }
    }
}
