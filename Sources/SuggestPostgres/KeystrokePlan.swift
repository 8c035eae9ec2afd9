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
///
/// **Bounded cost.** What reaches the database is bounded whatever was typed, so that no keystroke costs more than a
/// small multiple of an ordinary one:
/// - the key sent is at most ``maximumKeyBytes`` UTF-8 bytes (cut at a character); a longer key gets no exact
///   match and no typo candidates, and its prefix and word-prefix rows are checked in Swift against the whole query;
/// - the word-prefix pattern (a `pg_trgm` index search) replaces each run of characters that `pg_trgm` does not
///   index (anything but letters, digits and the space: `'`, `…`) by one `%`, and is not sent at all when the key
///   holds no letter or digit: such a pattern has no trigram, and its search read the whole table (a `q` of one
///   apostrophe cost 320 ms on 886,323 rows, one of 64 apostrophes 3 s);
/// - the typo key has those runs as one space (`pg_trgm` ignores them anyway, so the similarity is the same), and
///   typo candidates are looked for only when it holds at least 4 letters or digits.
/// Every row is checked in Swift as before (the patterns are supersets).
struct KeystrokePlan {
    /// The most UTF-8 bytes of the key sent to the database.
    static let maximumKeyBytes = 64
    /// The fewest letters and digits for which typo candidates are looked for.
    static let minimumTypoCharacters = 4

    let request: SuggestionRequest
    /// The query's whole canonical key.
    let key: String
    let keyScalars: [Unicode.Scalar]
    let limit: Int
    let allowedTypos: Int
    let options: PostgresProvider.Options
    /// ``key``, cut to ``maximumKeyBytes``.
    let sentKey: String
    /// Whether ``sentKey`` is shorter than ``key``.
    let isCut: Bool
    /// `$2`: the prefix pattern.
    let prefixPattern: String
    /// `$3`: the word-prefix pattern, nil when there is none to look for.
    let wordPattern: String?
    /// `$9`: the key of the typo candidates.
    let typoKey: String
    /// `$6`: whether typo candidates are looked for.
    let looksForTypos: Bool

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

        var sent = String.UnicodeScalarView()
        var sentBytes = 0
        for scalar in keyScalars {
            let size = String(scalar).utf8.count
            if sentBytes + size > Self.maximumKeyBytes { break }
            sent.append(scalar)
            sentBytes += size
        }
        sentKey = String(sent)
        isCut = sent.count < keyScalars.count
        let escaped = PostgresCatalogue.likeEscaped(sentKey)
        prefixPattern = escaped + (request.query.lastWordIsPartial || isCut ? "%" : " %")

        // Runs of what pg_trgm does not index: `%` in the word-prefix pattern (which needs no escape then: `\`, `%`
        // and `_` are such characters), one space in the typo key.
        var pattern = ""
        var trigramKey = ""
        var indexed = 0
        var inRun = false
        for scalar in sentKey.unicodeScalars {
            if Self.isIndexed(scalar) {
                indexed += 1
                pattern.unicodeScalars.append(scalar)
                trigramKey.unicodeScalars.append(scalar)
                inRun = false
            } else if scalar == " " {
                pattern.unicodeScalars.append(scalar)
                trigramKey.unicodeScalars.append(" ")
                inRun = false
            } else if !inRun {
                pattern.unicodeScalars.append("%")
                trigramKey.unicodeScalars.append(" ")
                inRun = true
            }
        }
        wordPattern = options.infix && indexed > 0 ? "% " + pattern + "%" : nil
        typoKey = trigramKey
        looksForTypos = allowedTypos > 0 && !isCut && indexed >= Self.minimumTypoCharacters
    }

    /// Whether `pg_trgm` makes trigrams of `scalar` (letters and digits).
    static func isIndexed(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    func query(_ sql: String) -> PostgresQuery {
        var binds = PostgresBindings(capacity: 9)
        binds.append(sentKey)
        binds.append(prefixPattern)
        binds.append(wordPattern)
        // Headroom for entries that fold to one key (`Apple`, `apple`): one of each is kept.
        binds.append(Int32(limit * 2))
        binds.append(request.scope?.name)
        binds.append(looksForTypos)
        binds.append(Int32(limit * 3))
        binds.append(Int32(limit))
        binds.append(typoKey)
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
                // A cut key's "exact" row is only as long as the cut.
                if row.kind == 0 && isCut { continue }
                let fallback: MatchTier = row.kind == 0 ? .exact : row.kind == 1 ? .prefix : .wordPrefix
                let matched = TextMatcher.match(request.query, in: NormalizedText(row.text))
                // The SQL patterns are a superset: a whole typed word must end a word in the entry (and with a cut
                // key, the whole query must match).
                if matched == nil && (row.kind == 2 || isCut) { continue }
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
