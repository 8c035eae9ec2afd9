import SuggestCore
import SuggestPattern

extension TokenProvider {
    /// A token offered for a partly typed one.
    struct Partial: Sendable {
        var token: SearchToken
        var isExact: Bool
        /// The typed part, as a UTF-8 range in `token.display`.
        var matchedRange: Range<Int>?
        /// Where the typed part starts in the analysed text (UTF-8 offset); it runs to the text's end.
        var start: Int
    }

    /// What one pass over the text found.
    struct Analysis {
        /// The query's tokens, then the new ones in text order.
        var tokens: [SearchToken]
        var remainingText: String
        /// Whether any text turned into tokens (or a delimiter was removed).
        var changed: Bool
        var partials: [Partial]
    }

    /// A rule match still being typed at the end of the text.
    struct RulePartial {
        var rule: Int
        var value: Range<Int>
        var kind: Range<Int>?
        /// The whole match (`from:al`), which a chosen suggestion replaces.
        var match: Range<Int>
    }

    /// Finds the tokens in `text`: splits at delimiters, applies the rules (in order), then the vocabulary, and
    /// collects the partly typed token at the end for suggestions (unless `submitting`).
    /// - Throws: `PatternError` when a rule's pattern hits its match limit.
    /// - Complexity: O(n × r) pattern work for n bytes and r rules, plus O(n × m) vocabulary walks for entries of
    ///   at most m folded bytes.
    func analyze(_ text: String, tokens existing: [SearchToken], submitting: Bool) throws(PatternError) -> Analysis {
        let bytes = Array(text.utf8)
        let count = bytes.count
        var found: [(position: Int, token: SearchToken)] = []
        var matches: [PatternMatch] = []
        var changed = false
        var partials: [Partial] = []

        // Closed segments (each ended by a delimiter) become tokens whole; the open one is what stays in the field.
        var segmentStart = 0
        var i = 0
        if !delimiterBytes.isEmpty {
            while i < count {
                guard let length = delimiterLength(bytes, at: i) else {
                    i += 1
                    continue
                }
                changed = true
                let segment = segmentStart..<i
                var spans: [Range<Int>] = []
                var rulePartials: [RulePartial] = []
                try findRuleTokens(
                    text,
                    bytes,
                    segment,
                    closed: true,
                    submitting: submitting,
                    &spans,
                    &found,
                    &matches,
                    &rulePartials
                )
                if convertOnSpace && !vocabulary.isEmpty {
                    let folded = FoldedText(bytes, segment)
                    findVocabularyTokens(folded, atEndIsComplete: false, &spans, &found)
                }
                let (leftover, position) = Self.leftover(bytes, segment, spans: spans, trimTrailing: true)
                if !leftover.isEmpty {
                    found.append(
                        (position, vocabulary.token(for: leftover) ?? SearchToken(kind: Self.textKind, value: leftover))
                    )
                }
                i += length
                segmentStart = i
            }
        }

        // The open segment.
        let open = segmentStart..<count
        var spans: [Range<Int>] = []
        var rulePartials: [RulePartial] = []
        try findRuleTokens(
            text,
            bytes,
            open,
            closed: false,
            submitting: submitting,
            &spans,
            &found,
            &matches,
            &rulePartials
        )
        var folded: FoldedText? = nil
        if !vocabulary.isEmpty && !open.isEmpty {
            folded = FoldedText(bytes, open)
            if convertOnSpace { findVocabularyTokens(folded!, atEndIsComplete: submitting, &spans, &found) }
        }
        if !spans.isEmpty { changed = true }

        let remaining: String
        if !changed {
            remaining = text
        } else {
            let tokenAtEnd = spans.last.map { $0.upperBound == count } ?? false
            let leftover = Self.leftover(bytes, open, spans: spans, trimTrailing: tokenAtEnd).text
            // While typing, words before a token taken from the end stay followed by one space: the field keeps
            // "spicy " for "spicy chicken ", so that the next word typed stays a word of its own ("spicy sau", not
            // "spicysau"). A submitted text is trimmed.
            remaining = tokenAtEnd && !leftover.isEmpty && !submitting ? leftover + " " : leftover
        }

        // Tokens in text order, none twice (a set: a pasted text can hold thousands of tokens).
        found.sort { $0.position < $1.position }
        var tokens = existing
        var seen = Set(existing)
        for (_, token) in found where seen.insert(token).inserted { tokens.append(token) }

        // Suggested tokens for the token being typed.
        if !submitting && maxSuggestedTokens > 0 {
            for partial in rulePartials { addRuleSuggestions(partial, bytes, tokens, &partials) }
            if let folded {
                let tailStart = spans.last?.upperBound ?? open.lowerBound
                addVocabularySuggestions(folded, from: tailStart, tokens, &partials)
            }
        }
        return Analysis(tokens: tokens, remainingText: remaining, changed: changed, partials: partials)
    }

    // MARK: Rules

    func findRuleTokens(
        _ text: String,
        _ bytes: [UInt8],
        _ segment: Range<Int>,
        closed: Bool,
        submitting: Bool,
        _ spans: inout [Range<Int>],
        _ found: inout [(position: Int, token: SearchToken)],
        _ matches: inout [PatternMatch],
        _ partials: inout [RulePartial]
    ) throws(PatternError) {
        guard !segment.isEmpty else { return }
        var added: [Range<Int>] = []
        for (index, rule) in rules.enumerated() {
            matches.removeAll(keepingCapacity: true)
            added.removeAll(keepingCapacity: true)
            try rule.pattern.appendMatches(in: text, utf8Range: segment, to: &matches)
            defer { Self.merge(added, into: &spans) }
            // A rule's matches come in text order: only the last span it added can overlap the next one.
            for match in matches
            where !match.range.isEmpty && !Self.overlaps(match.range, spans)
                && !(added.last?.overlaps(match.range) ?? false)
            {
                let end = match.range.upperBound
                let space = Self.whitespaceLength(bytes, at: end, limit: segment.upperBound)
                let complete = end < segment.upperBound ? space > 0 : (closed || submitting)
                let valueRange = match.value ?? match.range
                if complete {
                    let value = Self.trimmed(String(decoding: bytes[valueRange], as: UTF8.self))
                    guard !value.isEmpty else { continue }
                    let kind = match.kind.map { String(decoding: bytes[$0], as: UTF8.self) }
                    found.append((match.range.lowerBound, rule.token(value: value, kind: kind)))
                    added.append(match.range.lowerBound..<(end + space))
                } else if !closed && end == segment.upperBound && !rule.values.isEmpty {
                    partials.append(RulePartial(rule: index, value: valueRange, kind: match.kind, match: match.range))
                }
            }
        }
    }

    func addRuleSuggestions(
        _ partial: RulePartial,
        _ bytes: [UInt8],
        _ tokens: [SearchToken],
        _ partials: inout [Partial]
    ) {
        let rule = rules[partial.rule]
        let typed = FoldedText(bytes, partial.value).bytes
        let kind = partial.kind.map { String(decoding: bytes[$0], as: UTF8.self) }
        for (index, value) in rule.values.enumerated() where partials.count < maxSuggestedTokens {
            let candidate = rule.foldedValues[index]
            guard candidate.starts(with: typed) else { continue }
            let token = rule.token(value: value, kind: kind)
            guard !tokens.contains(token), !partials.contains(where: { $0.token == token }) else { continue }
            var matched: Range<Int>? = nil
            if !typed.isEmpty, let base = rule.valueOffsetInDisplay(kind: token.kind) {
                let prefix = Self.originalLength(ofFoldedPrefix: typed.count, in: value)
                matched = base..<(base + prefix)
            }
            partials.append(
                Partial(
                    token: token,
                    isExact: candidate.count == typed.count,
                    matchedRange: matched,
                    start: partial.match.lowerBound
                )
            )
        }
    }

    // MARK: Vocabulary

    /// Longest vocabulary entries that start a word and are followed by whitespace (or end the text, when
    /// `atEndIsComplete`), outside the spans rules took.
    func findVocabularyTokens(
        _ folded: FoldedText,
        atEndIsComplete: Bool,
        _ spans: inout [Range<Int>],
        _ found: inout [(position: Int, token: SearchToken)]
    ) {
        let text = folded.bytes
        let count = text.count
        // Entries are found in text order: only the last span added can overlap the next one.
        var added: [Range<Int>] = []
        defer { Self.merge(added, into: &spans) }
        var i = 0
        while i < count {
            guard text[i] != 0x20, i == 0 || text[i - 1] == 0x20 else {
                i += 1
                continue
            }
            var node: Int32 = 0
            var j = i
            var best: (end: Int, entry: Int32)? = nil
            while j < count, let next = vocabulary.child(of: node, text[j]) {
                node = next
                j += 1
                let entry = vocabulary.terminal[Int(node)]
                if entry >= 0 && (j < count ? text[j] == 0x20 : atEndIsComplete) { best = (j, entry) }
            }
            guard let best else {
                i += 1
                continue
            }
            let start = Int(folded.offsets[i])
            let end = Int(folded.offsets[best.end])
            // The whitespace after it goes too.
            let consumedEnd = best.end < count ? Int(folded.offsets[best.end + 1]) : end
            guard !Self.overlaps(start..<end, spans), !(added.last?.overlaps(start..<end) ?? false) else {
                i += 1
                continue
            }
            found.append((start, vocabulary.tokens[Int(best.entry)]))
            added.append(start..<consumedEnd)
            i = best.end
        }
    }

    /// Entries that the text from a word start to its end begins (earliest word start first: "sweet po" before
    /// "po").
    func addVocabularySuggestions(
        _ folded: FoldedText,
        from tailStart: Int,
        _ tokens: [SearchToken],
        _ partials: inout [Partial]
    ) {
        let text = folded.bytes
        let count = text.count
        guard count > 0 else { return }
        var i = max(0, count - vocabulary.maximumLength)
        while i < count && partials.count < maxSuggestedTokens {
            defer { i += 1 }
            guard text[i] != 0x20, i == 0 || text[i - 1] == 0x20, Int(folded.offsets[i]) >= tailStart else { continue }
            var node: Int32 = 0
            var j = i
            while j < count, let next = vocabulary.child(of: node, text[j]) {
                node = next
                j += 1
            }
            guard j == count else { continue }
            let typedLength = count - i
            for entry in vocabulary.entries(below: node, cap: 64) where partials.count < maxSuggestedTokens {
                let token = vocabulary.tokens[entry]
                guard !tokens.contains(token), !partials.contains(where: { $0.token == token }) else { continue }
                let matched = Self.originalLength(ofFoldedPrefix: typedLength, in: token.display)
                partials.append(
                    Partial(
                        token: token,
                        isExact: Int(vocabulary.foldedLengths[entry]) == typedLength,
                        matchedRange: 0..<matched,
                        start: Int(folded.offsets[i])
                    )
                )
            }
        }
    }

    // MARK: Helpers

    /// The length of the delimiter that starts at `i`, if one does.
    @inline(__always)
    func delimiterLength(_ bytes: [UInt8], at i: Int) -> Int? {
        for delimiter in delimiterBytes where delimiter[0] == bytes[i] {
            if delimiter.count == 1 { return 1 }
            if i + delimiter.count <= bytes.count && bytes[i..<(i + delimiter.count)].elementsEqual(delimiter) {
                return delimiter.count
            }
        }
        return nil
    }

    /// The UTF-8 length of the whitespace scalar at `i` (0 if none or at `limit`).
    static func whitespaceLength(_ bytes: [UInt8], at i: Int, limit: Int) -> Int {
        guard i < limit else { return 0 }
        let b = bytes[i]
        if b < 0x80 { return b == 0x20 || (b >= 0x09 && b <= 0x0D) ? 1 : 0 }
        var length = 1
        while i + length < limit && UTF8Scalars.isContinuation(bytes[i + length]) { length += 1 }
        let scalar = String(decoding: bytes[i..<(i + length)], as: UTF8.self).unicodeScalars.first
        return scalar?.properties.isWhitespace == true ? length : 0
    }

    /// Whether `range` overlaps one of `spans`.
    ///
    /// `spans` are sorted by lower bound and their upper bounds never decrease: a span is a match (never overlapping
    /// an earlier span) plus at most the whitespace scalar after it. So the first span ending after `range` starts
    /// is the only one to look at.
    /// - Complexity: O(log s) for s spans.
    static func overlaps(_ range: Range<Int>, _ spans: [Range<Int>]) -> Bool {
        guard !range.isEmpty else { return false }
        var low = 0
        var high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].upperBound > range.lowerBound { high = middle } else { low = middle + 1 }
        }
        return low < spans.count && spans[low].overlaps(range)
    }

    /// Merges `added` (sorted by lower bound) into `spans` (sorted by lower bound), an added span after the spans
    /// that start where it does.
    /// - Complexity: O(s + a).
    static func merge(_ added: [Range<Int>], into spans: inout [Range<Int>]) {
        guard !added.isEmpty else { return }
        guard let last = spans.last, last.lowerBound > added[0].lowerBound else {
            spans.append(contentsOf: added)
            return
        }
        var merged: [Range<Int>] = []
        merged.reserveCapacity(spans.count + added.count)
        var i = 0
        var j = 0
        while i < spans.count || j < added.count {
            if j == added.count || (i < spans.count && spans[i].lowerBound <= added[j].lowerBound) {
                merged.append(spans[i])
                i += 1
            } else {
                merged.append(added[j])
                j += 1
            }
        }
        spans = merged
    }

    /// The text of `segment` outside `spans`, whitespace collapsed where pieces meet and trimmed at the start (and
    /// at the end if `trimTrailing`), with the offset of its first kept byte.
    static func leftover(
        _ bytes: [UInt8],
        _ segment: Range<Int>,
        spans: [Range<Int>],
        trimTrailing: Bool
    ) -> (text: String, position: Int) {
        var out = ""
        var position = segment.lowerBound
        var cursor = segment.lowerBound
        func append(_ piece: Range<Int>) {
            guard !piece.isEmpty else { return }
            var text = Substring(String(decoding: bytes[piece], as: UTF8.self))
            if out.isEmpty || out.last!.isWhitespace {
                let before = text.utf8.count
                text = text.drop(while: \.isWhitespace)
                if out.isEmpty && !text.isEmpty { position = piece.lowerBound + before - text.utf8.count }
            }
            out += text
        }
        for span in spans where span.lowerBound >= segment.lowerBound && span.upperBound <= segment.upperBound {
            append(cursor..<span.lowerBound)
            cursor = span.upperBound
        }
        append(cursor..<segment.upperBound)
        if trimTrailing {
            while out.last?.isWhitespace == true { out.removeLast() }
        }
        return (out, position)
    }

    static func trimmed(_ text: String) -> String {
        var sub = Substring(text).drop(while: \.isWhitespace)
        while sub.last?.isWhitespace == true { sub = sub.dropLast() }
        return String(sub)
    }

    /// The UTF-8 length in `text` of its first `foldedCount` folded bytes.
    static func originalLength(ofFoldedPrefix foldedCount: Int, in text: String) -> Int {
        let bytes = Array(text.utf8)
        let folded = FoldedText(bytes, 0..<bytes.count)
        return Int(folded.offsets[min(foldedCount, folded.bytes.count)])
    }
}
