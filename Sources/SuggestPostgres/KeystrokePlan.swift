#if Server
import PostgresNIO
import SuggestCore
import SuggestIndex

/// One row of a keystroke's answer: its part (0 exact, 1 prefix, 2 word prefix, 3 typo candidate) and entry.
struct Row: Sendable {
    var kind: Int
    var text: String
    var weight: Double
    var folded: String
}

/// One keystroke's parameters and the tiers of its rows.
struct KeystrokePlan {
    let request: SuggestionRequest
    let key: String
    let keyScalars: [Unicode.Scalar]
    let limit: Int
    let allowedTypos: Int
    let options: PostgresProvider.Options

    init(_ request: SuggestionRequest, options: PostgresProvider.Options) {
        self.request = request
        self.options = options
        var bytes: [UInt8] = []
        IndexKey.query(request.query, into: &bytes)
        key = String(decoding: bytes, as: UTF8.self)
        keyScalars = Array(key.unicodeScalars)
        limit = max(1, options.limit ?? request.limit)
        let typed = keyScalars.count
        allowedTypos = !options.typos ? 0 : typed >= 8 ? 2 : typed >= 4 ? 1 : 0
    }

    func query(_ sql: String) -> PostgresQuery {
        var binds = PostgresBindings(capacity: 8)
        let escaped = PostgresCatalogue.likeEscaped(key)
        binds.append(key)
        binds.append(escaped + (request.query.lastWordIsPartial ? "%" : " %"))
        binds.append(options.infix ? "% " + escaped + "%" : nil)
        // Headroom for entries that fold to one key (`Apple`, `apple`): one of each is kept.
        binds.append(Int32(limit * 2))
        binds.append(request.scope?.name)
        binds.append(allowedTypos > 0)
        binds.append(Int32(limit * 3))
        binds.append(Int32(limit))
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// One candidate per folded key, best tier first; typo rows only within the allowed typos.
    func candidates(from rows: [Row]) -> [SuggestionCandidate] {
        var seen = Set<String>()
        var out: [SuggestionCandidate] = []
        var counts = [Int](repeating: 0, count: 4)
        for row in rows where seen.insert(row.folded).inserted {
            guard counts[row.kind] < limit else { continue }
            if row.kind < 3 {
                let fallback: MatchTier = row.kind == 0 ? .exact : row.kind == 1 ? .prefix : .wordPrefix
                let matched = TextMatcher.match(request.query, in: NormalizedText(row.text))
                // The SQL patterns are a superset: a whole typed word must end a word in the entry.
                if matched == nil && row.kind == 2 { continue }
                out.append(
                    SuggestionCandidate(
                        title: row.text, matchedRanges: matched?.1 ?? [], tier: matched?.0 ?? fallback,
                        popularity: row.weight))
            } else {
                guard let (typos, end) = EditDistance.prefix(keyScalars, of: Array(row.folded.unicodeScalars), maximum: allowedTypos),
                    typos > 0
                else { continue }
                let keyEnd = row.folded.unicodeScalars.prefix(end).reduce(0) { $0 + String($1).utf8.count }
                let ranges = IndexKey.originalRanges(ofASCII: row.text, keyRange: 0..<keyEnd) ?? []
                out.append(
                    SuggestionCandidate(
                        title: row.text, matchedRanges: ranges, tier: .typos(typos), typos: typos, popularity: row.weight))
            }
            counts[row.kind] += 1
        }
        return out
    }
}
#endif
