extension SuggestionRequest {
    /// Matches `title` by the standard rules (``match(_:completion:popularity:subtitle:systemImage:)``), and when
    /// it does not match, each of `fields` in turn (an email, a nickname, a company): a contact found by its email.
    ///
    /// A match in a field ranks in that match's tier but has no matched ranges, since those are offsets in the
    /// title (show the field as the `subtitle` so the person sees why it is there).
    ///
    /// ```swift
    /// request.match(contact.name, alsoMatching: [contact.email], subtitle: contact.email)
    /// // "alice@" finds "Alice Martin" <alice@example.com>
    /// ```
    public func match(
        _ title: String,
        alsoMatching fields: [String],
        completion: Suggestion.Completion? = nil,
        popularity: Double = 1,
        subtitle: String? = nil,
        systemImage: String? = nil
    ) -> SuggestionCandidate? {
        let candidate = { (tier: MatchTier, ranges: [Range<Int>]) in
            SuggestionCandidate(
                title: title,
                subtitle: subtitle,
                completion: completion,
                matchedRanges: ranges,
                tier: tier,
                popularity: popularity,
                systemImage: systemImage
            )
        }
        if let (tier, ranges) = TextMatcher.match(query, in: NormalizedText(title)) { return candidate(tier, ranges) }
        for field in fields {
            if let (tier, _) = TextMatcher.match(query, in: NormalizedText(field)) { return candidate(tier, []) }
        }
        return nil
    }

    /// Matches `title` (then `fields`) against the whole typed text, and failing that against any single word of
    /// it: `lunch with ali` finds "Alice", for a field where people type a sentence and a name in it.
    ///
    /// A whole-text match keeps its standard tier (exact, prefix, word-prefix). Otherwise a match of some of the
    /// words ranks as ``MatchTier/wordPrefix`` with every word it matched in `title` as a matched range: a complete
    /// word of the query (followed by a space) must equal a whole word of the title; the still-typed last word may
    /// be the start of one. A match in a field has no matched ranges, as in
    /// ``match(_:alsoMatching:completion:popularity:subtitle:systemImage:)``. An empty query matches nothing.
    ///
    /// ```swift
    /// request.matchAnyWord(contact.name, alsoMatching: [contact.email],
    ///                      completion: .token(SearchToken(kind: "person", value: contact.email)))
    /// ```
    public func matchAnyWord(
        _ title: String,
        alsoMatching fields: [String] = [],
        completion: Suggestion.Completion? = nil,
        popularity: Double = 1,
        subtitle: String? = nil,
        systemImage: String? = nil
    ) -> SuggestionCandidate? {
        if let whole = match(
            title,
            alsoMatching: fields,
            completion: completion,
            popularity: popularity,
            subtitle: subtitle,
            systemImage: systemImage
        ) {
            return whole
        }
        guard query.words.count > 1 else { return nil }
        let candidate = { (ranges: [Range<Int>]) in
            SuggestionCandidate(
                title: title,
                subtitle: subtitle,
                completion: completion,
                matchedRanges: ranges,
                tier: .wordPrefix,
                popularity: popularity,
                systemImage: systemImage
            )
        }
        let text = NormalizedText(title)
        let ranges = anyWordRanges(in: text)
        if !ranges.isEmpty { return candidate(ranges.map(text.originalRange(of:))) }
        for field in fields where !anyWordRanges(in: NormalizedText(field)).isEmpty { return candidate([]) }
        return nil
    }

    /// The folded ranges of `text` that some query word matches on its own (at most one range per query word,
    /// sorted, never overlapping).
    func anyWordRanges(in text: NormalizedText) -> [Range<Int>] {
        let bytes = text.bytes
        var found: [Range<Int>] = []
        for (j, word) in query.words.enumerated() {
            let needle = query.normalized[word]
            let mayBePrefix = j == query.words.count - 1 && query.lastWordIsPartial
            for start in text.wordStarts.lazy.map(Int.init) {
                let end = start + needle.count
                guard end <= bytes.count, bytes[start..<end].elementsEqual(needle) else { continue }
                if !mayBePrefix {
                    let endsWord = end == bytes.count || TextNormalizer.isSeparator(bytes[end]) || text.isWordStart(end)
                    guard endsWord else { continue }
                }
                if !found.contains(where: { $0.overlaps(start..<end) }) { found.append(start..<end) }
                break
            }
        }
        return found.sorted { $0.lowerBound < $1.lowerBound }
    }
}
