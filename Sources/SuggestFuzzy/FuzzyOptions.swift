/// How forgiving the fuzzy provider is. The defaults follow Typesense (`min_len_1typo` 4, `min_len_2typo` 7; ours 8
/// for completions) and Elasticsearch's `fuzziness: AUTO` (no typo under 3 characters, 1 from 3, 2 from 6; ours 2 from
/// 6 for whole words), a little stricter for short words because a suggestion list shows completions, not only whole
/// words.
public struct FuzzyOptions: Hashable, Sendable {
    /// Typed characters (Unicode scalars of the folded text, separators included) from which one typo is allowed.
    public var minLengthOneTypo: Int = 4
    /// Typed characters from which two typos are allowed (completions of a corrected prefix and whole words).
    public var minLengthTwoTypos: Int = 8
    /// Typed characters from which a whole word two typos away is offered ("abcense" → "absence"; tier `.twoTypos`,
    /// after everything else): a key within two typos of the *whole* query, not a completion of a corrected prefix.
    /// One-word queries only, and only while fewer than half of the list ranks above that tier (it would rank below
    /// all of it), so the walk costs nothing on most keystrokes. Elasticsearch's `fuzziness: AUTO` allows two edits
    /// from 6.
    public var minLengthTwoTyposWholeWord: Int = 6
    /// Typed characters from which, likewise, a whole word three typos away is offered ("abortificant" →
    /// "abortifacient"; tier `.twoTypos`, after every two-typo match). 0 turns it off.
    public var minLengthThreeTyposWholeWord: Int = 8
    /// The most typos ever allowed (0, 1 or 2; with 2, the last resort above may use a third).
    public var maxTypos: Int = 2
    /// Count swapping two neighbouring characters as one typo (Damerau; Elasticsearch's `transpositions`).
    public var transpositions: Bool = true
    /// Leading characters that must be typed right (Elasticsearch's `prefix_length`; Lucene's fuzzy suggester keeps
    /// the first character too). Default 1: a first-letter typo is rare and walking it costs the most; whole words
    /// get it back through ``forgiveWrongPrefix``.
    public var exactPrefixLength: Int = 1
    /// Forgive a typo inside the exact prefix in whole words of more than ``minLengthOneTypo`` characters when it is
    /// the only typo ("abvious" → "obvious"), or, for whole words beyond the completion budget, the only other
    /// one; with an exact prefix of one, the first two characters swapped ("ahppen" → "happen") are an ordinary
    /// typo, also in completions. Such paths are walked with a small budget, which costs little. Off, the prefix
    /// must be typed right.
    public var forgiveWrongPrefix: Bool = true
    /// Also offer exact and prefix matches (tiers `.exact` and `.prefix`), so the provider works alone, and rank the
    /// other matches below them. Beside a prefix provider on the same dictionary, see ``offersPrefixMatches``.
    public var prefixMatches: Bool = true
    /// Whether this provider offers the exact and prefix matches that ``prefixMatches`` ranks its other matches
    /// below. Off, they are left to another provider on the same dictionary (a prefix provider, which offers each of
    /// them anyway): this one still treats them as part of the list — no typo walk or abbreviation scan when they
    /// fill it — but offers only its own matches, so that a
    /// keystroke does not build and merge every completion twice. In a JSON configuration it is off by default when a
    /// prefix provider names the same dictionary file and the entry does not set `prefixMatches`; in Swift, turn it
    /// off yourself in that case. The prefix matches then carry the prefix provider's slot settings (its `weight`,
    /// `exactMatch` and section): an entry whose own settings should apply to them sets `"prefixMatches": true`.
    /// Only with ``prefixMatches`` on.
    public var offersPrefixMatches: Bool = true
    /// Offer abbreviations and subsequences (tier `.subsequence`, fzf-style scoring).
    public var subsequence: Bool = true
    /// For a query of several words, also offer the entries whose words the query's words start, as the prefix
    /// provider's `everyWord` does: at an inner word ("little mer" → "The Little Mermaid", tier `.wordPrefix`), in
    /// order but not as one run ("dj re fr" → "django-rest-framework"), in any order ("mermaid lit"), and with typos
    /// in some words (at most ``maxTypos``), among the selected scope's entries; from the prefix index's word starts,
    /// so the work stays bounded. In a JSON configuration it is off by default when a prefix provider names the same
    /// dictionary file: that provider's own `everyWord` (and `infix`) decide whether such matches are offered; in
    /// Swift, turn it off yourself in that case.
    public var everyWord: Bool = true
    /// Typed characters (separators excluded) from which subsequences are offered.
    public var subsequenceMinLength: Int = 3
    /// The longest query (in characters, separators excluded) matched as a subsequence.
    public var subsequenceMaxLength: Int = 32
    /// With an uppercase letter in the query, subsequences match case-sensitively (fzf's smart case).
    public var smartCase: Bool = true
    /// Inside a typo tier, a key that is itself within the budget of the whole query (a corrected word, not a
    /// completion of a corrected prefix) ranks as if this many times as popular: "languags" → "languages" before
    /// "language and". 1 turns it off.
    public var wholeWordBoost: Double = 100
    /// Inside a tier, a key of more words than the query (a phrase: "passengers and" for "pasenger", "an access"
    /// for "aaccess") ranks as if this many times less popular: complete or correct the word first, then offer
    /// phrases. 1 turns it off.
    public var phrasePenalty: Double = 100
    /// Inside a typo tier, each character a completion adds beyond the matched (corrected) prefix divides its
    /// popularity by this: with a typo, the word meant is more likely the one of about the typed length
    /// ("exersise" → "exercised" before "exercise of" and "exercisers"). 1 turns it off.
    public var completionLengthPenalty: Double = 3
    /// Inside a typo tier, corrections that need the same number of typos rank by how likely a typist is to have
    /// made their edits as well as by popularity: a vowel for a vowel, a doubled letter or two letters swapped cost
    /// less than an unrelated letter, a wrong first letter more ("weither" → "weather" before "either"). Each
    /// ordinary typo's worth of difference is a factor of twenty in popularity. Off, they rank by popularity alone.
    public var weighTypoKinds: Bool = true
    /// When the typo tiers already fill the list, abbreviations that match a typed vowel inside a word (not at a
    /// word start) are not offered: such a query reads as a word being spelt, and the engine ranks abbreviations
    /// above typo corrections ("bocom" → "become", not "both companies"). Vowel-free abbreviations and initials
    /// ("gthb", "usa") are unaffected.
    public var spellingGuard: Bool = true
    /// Also keep the dictionary's keys of at most 24 characters in the order of their bytes read backwards
    /// (``FuzzyIndex``'s reversed keys), and search whole words several typos away in both directions (a wrong first
    /// letter plus one more typo; two or three typos): a fraction of the trie nodes on a misspelt word's costliest
    /// keystrokes (see the "Fuzzy matching" article). The answers are the same either way. Memory: 5 bytes per key
    /// (an order of the prefix index's own keys, and each one's first byte); made once per dictionary, on a
    /// background thread from 100,000 keys (until then, forward walks). `nil` (the default): kept when the
    /// dictionary's indexes stay within 48 bytes per entry with them (``FuzzyIndex/reversedKeysFitTheBudget``): a
    /// word list, not names with many inner words.
    /// `true` keeps them whatever the memory, `false` never.
    public var reversedKeys: Bool? = nil
    /// Queries longer than this (in characters) are matched without typos (exact and prefix only).
    public var maxTypoQueryLength: Int = 64
    /// Typos and abbreviations are looked for only while fewer than this many distinct keys start with the typed
    /// text (Typesense's `typo_tokens_threshold`): text that many entries start with is being typed, not misspelt.
    /// 0: the keystroke's limit (look for them whenever the prefix matches do not fill the list).
    public var typoThreshold: Int = 0
    /// A hard ceiling on one keystroke's typo walks: the trie nodes they may visit together (about 100 ns each on a
    /// large dictionary). Past it the walks stop, the keystroke answers with what they found, and a diagnostics note
    /// says so; the next keystroke walks afresh. 0: no ceiling.
    public var maxWalkNodes: Int = 14_000
    /// A hard ceiling on one keystroke's abbreviation scan: the keys it may compare with the typed letters (those that
    /// hold every letter; about 30 ns each), likewise. 0: no ceiling.
    public var maxAbbreviationChecks: Int = 20_000
    /// Measure each step of every keystroke (the typo walk, the tiers, wrong first letters, abbreviations, whole
    /// words) and report it as a diagnostics note, `steps: walk 12.3 µs 410 nodes, …` (the engine puts the provider
    /// id in front), for finding which step a slow keystroke spent its time in. Off by default: the clock reads cost
    /// about 0.2 µs a keystroke.
    public var profile: Bool = false
    /// For one-word queries, pull a tier's completions in two parts, one-word keys then phrases (see
    /// `FuzzyMatcher.pullInTwoParts`), when a short pull by weight alone does not settle the list. The lists are the
    /// same either way; off (for tests), every tier pulls by weight alone.
    var pullsInTwoParts: Bool = true

    public init() {}

    /// The typos allowed for a query of `length` characters.
    public func typos(forLength length: Int) -> Int {
        if length > maxTypoQueryLength { return 0 }
        let allowed = length >= minLengthTwoTypos ? 2 : (length >= minLengthOneTypo ? 1 : 0)
        return min(allowed, maxTypos)
    }

    /// A word's share of the main walk's budget in a query of several words (`TypoSearch/capByWords(_:)`): the last
    /// word, still being typed, the typos of a completion (``typos(forLength:)``); a word before it, typed whole,
    /// those of a whole word (``wholeWordTypos(forLength:)``: "phyton dateutil" may spend two in "phyton").
    func wordTypos(forLength length: Int, last: Bool) -> Int {
        last ? typos(forLength: length) : wholeWordTypos(forLength: length)
    }

    /// The typos allowed for a whole-word correction of a query of `length` characters (one word; looked for while
    /// fewer than half of the list ranks above the two-typo tier).
    public func wholeWordTypos(forLength length: Int) -> Int {
        if length > maxTypoQueryLength { return 0 }
        var typos = self.typos(forLength: length)
        guard maxTypos >= 2 else { return typos }
        // Never before one typo is allowed.
        if length >= max(minLengthTwoTyposWholeWord, minLengthOneTypo) { typos = max(typos, 2) }
        if minLengthThreeTyposWholeWord > 0 && length >= max(minLengthThreeTyposWholeWord, minLengthOneTypo) {
            typos = 3
        }
        return typos
    }
}
