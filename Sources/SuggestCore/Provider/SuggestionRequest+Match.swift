extension SuggestionRequest {
    /// Matches `title` by the standard rules (``match(_:completion:popularity:subtitle:systemImage:)``), and when
    /// it does not match, each of `fields` in turn (an email, a nickname, a company): a contact found by its email.
    ///
    /// A match in a field ranks in that match's tier but has no matched ranges, since those are offsets in the
    /// title (show the field as the `subtitle` so the person sees why it is there).
    ///
    /// ```swift
    /// request.match(contact.name, alsoMatching: [contact.email], subtitle: contact.email)
    /// // "alice@ex" finds "Alice Martin" <alice@example.com>, by the email
    /// ```
    public func match(
        _ title: String,
        alsoMatching fields: [String],
        completion: Suggestion.Completion? = nil,
        popularity: Double = 1,
        subtitle: String? = nil,
        systemImage: String? = nil
    ) -> SuggestionCandidate? {
        let texts = FieldTexts(title: title, fields: fields)
        guard let (tier, ranges) = wholeMatch(texts) else { return nil }
        return SuggestionCandidate(
            title: title, subtitle: subtitle, completion: completion, matchedRanges: ranges, tier: tier,
            popularity: popularity, systemImage: systemImage)
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
        let texts = FieldTexts(title: title, fields: fields)
        var found = wholeMatch(texts)
        if found == nil && query.words.count > 1 {
            let ranges = anyWordRanges(in: texts.title)
            if !ranges.isEmpty {
                found = (.wordPrefix, ranges.map(texts.title.originalRange(of:)))
            } else if texts.fields.contains(where: { !anyWordRanges(in: $0).isEmpty }) {
                found = (.wordPrefix, [])
            }
        }
        guard let (tier, ranges) = found else { return nil }
        return SuggestionCandidate(
            title: title, subtitle: subtitle, completion: completion, matchedRanges: ranges, tier: tier,
            popularity: popularity, systemImage: systemImage)
    }

    /// A title and other fields, each folded once.
    struct FieldTexts {
        let title: NormalizedText
        let fields: [NormalizedText]
        init(title: String, fields: [String]) {
            self.title = NormalizedText(title)
            self.fields = fields.map(NormalizedText.init)
        }
    }

    /// The standard match of the whole text in the title (with its ranges), else in the first field that matches
    /// (without ranges).
    func wholeMatch(_ texts: FieldTexts) -> (MatchTier, [Range<Int>])? {
        if let found = TextMatcher.match(query, in: texts.title) { return found }
        for field in texts.fields {
            if let (tier, _) = TextMatcher.match(query, in: field) { return (tier, []) }
        }
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
