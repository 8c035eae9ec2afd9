public import SuggestCore
import SuggestIndex

/// Typo-tolerant completion and abbreviation matching over a weighted dictionary (`"type": "fuzzy"`).
///
/// One ranking holds three kinds of match, in the engine's tiers:
/// - exact and prefix matches (unless ``FuzzyOptions/prefixMatches`` is off), so it also works alone (beside a prefix
///   provider on the same dictionary they are left to it: ``FuzzyOptions/offersPrefixMatches``);
/// - abbreviations and subsequences (`"gthb"` → `"github"`, `"nyt"` → `"New York Times"`), scored like fzf:
///   among keys that start with the query's first character (an abbreviation starts where the word starts);
/// - typos in what has been typed so far (`"pyhto"` → `"python"`) and whole misspelt words
///   (`"recieve"` → `"receive"`): prefix edit distance with transpositions, bounded by the typed length.
///
/// A key that is within the typo budget is reported as a typo match even when it is also a subsequence
/// (`"recie"` → `"recipe"` is a missing letter, not an abbreviation).
///
/// ```json
/// { "type": "fuzzy", "dictionary": "words.tsv", "minLengthOneTypo": 4, "minLengthTwoTypos": 8 }
/// ```
public struct FuzzyProvider: ConfigurableProvider {
    public struct Configuration: Decodable, Sendable {
        public var dictionary: DictionarySource
        public var options: FuzzyOptions
        /// Whether the entry sets `everyWord` itself (otherwise its default depends on the other providers: see
        /// ``FuzzyOptions/everyWord``).
        public var setsEveryWord: Bool
        /// Whether the entry sets `prefixMatches` itself (otherwise whether its prefix matches are offered depends on
        /// the other providers: see ``FuzzyOptions/offersPrefixMatches``).
        public var setsPrefixMatches: Bool

        private enum CodingKeys: String, CodingKey {
            case dictionary, minLengthOneTypo, minLengthTwoTypos, minLengthTwoTyposWholeWord
            case minLengthThreeTyposWholeWord, maxTypos
            case transpositions, exactPrefixLength, forgiveWrongPrefix
            case prefixMatches, subsequence, subsequenceMinLength, subsequenceMaxLength, smartCase, everyWord
            case maxTypoQueryLength, wholeWordBoost, phrasePenalty, completionLengthPenalty, weighTypoKinds, spellingGuard
            case reversedKeys
            case maxWalkNodes, maxAbbreviationChecks, typoThreshold, profile
        }

        public init(dictionary: DictionarySource, options: FuzzyOptions = FuzzyOptions()) {
            self.dictionary = dictionary
            self.options = options
            setsEveryWord = true
            setsPrefixMatches = true
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            dictionary = try c.decode(DictionarySource.self, forKey: .dictionary)
            let d = FuzzyOptions()
            var o = FuzzyOptions()
            o.minLengthOneTypo = try c.decodeIfPresent(Int.self, forKey: .minLengthOneTypo) ?? d.minLengthOneTypo
            o.minLengthTwoTypos = try c.decodeIfPresent(Int.self, forKey: .minLengthTwoTypos) ?? d.minLengthTwoTypos
            o.minLengthTwoTyposWholeWord =
                try c.decodeIfPresent(Int.self, forKey: .minLengthTwoTyposWholeWord) ?? d.minLengthTwoTyposWholeWord
            o.minLengthThreeTyposWholeWord =
                try c.decodeIfPresent(Int.self, forKey: .minLengthThreeTyposWholeWord) ?? d.minLengthThreeTyposWholeWord
            o.maxTypos = try c.decodeIfPresent(Int.self, forKey: .maxTypos) ?? d.maxTypos
            o.transpositions = try c.decodeIfPresent(Bool.self, forKey: .transpositions) ?? d.transpositions
            o.exactPrefixLength = try c.decodeIfPresent(Int.self, forKey: .exactPrefixLength) ?? d.exactPrefixLength
            o.forgiveWrongPrefix =
                try c.decodeIfPresent(Bool.self, forKey: .forgiveWrongPrefix) ?? d.forgiveWrongPrefix
            let prefixMatches = try c.decodeIfPresent(Bool.self, forKey: .prefixMatches)
            o.prefixMatches = prefixMatches ?? d.prefixMatches
            setsPrefixMatches = prefixMatches != nil
            o.subsequence = try c.decodeIfPresent(Bool.self, forKey: .subsequence) ?? d.subsequence
            let everyWord = try c.decodeIfPresent(Bool.self, forKey: .everyWord)
            o.everyWord = everyWord ?? d.everyWord
            setsEveryWord = everyWord != nil
            o.subsequenceMinLength =
                try c.decodeIfPresent(Int.self, forKey: .subsequenceMinLength) ?? d.subsequenceMinLength
            o.subsequenceMaxLength =
                try c.decodeIfPresent(Int.self, forKey: .subsequenceMaxLength) ?? d.subsequenceMaxLength
            o.smartCase = try c.decodeIfPresent(Bool.self, forKey: .smartCase) ?? d.smartCase
            o.maxTypoQueryLength = try c.decodeIfPresent(Int.self, forKey: .maxTypoQueryLength) ?? d.maxTypoQueryLength
            o.maxWalkNodes = try c.decodeIfPresent(Int.self, forKey: .maxWalkNodes) ?? d.maxWalkNodes
            o.typoThreshold = try c.decodeIfPresent(Int.self, forKey: .typoThreshold) ?? d.typoThreshold
            o.maxAbbreviationChecks =
                try c.decodeIfPresent(Int.self, forKey: .maxAbbreviationChecks) ?? d.maxAbbreviationChecks
            o.wholeWordBoost = try c.decodeIfPresent(Double.self, forKey: .wholeWordBoost) ?? d.wholeWordBoost
            o.phrasePenalty = try c.decodeIfPresent(Double.self, forKey: .phrasePenalty) ?? d.phrasePenalty
            o.completionLengthPenalty =
                try c.decodeIfPresent(Double.self, forKey: .completionLengthPenalty) ?? d.completionLengthPenalty
            o.weighTypoKinds = try c.decodeIfPresent(Bool.self, forKey: .weighTypoKinds) ?? d.weighTypoKinds
            o.spellingGuard = try c.decodeIfPresent(Bool.self, forKey: .spellingGuard) ?? d.spellingGuard
            o.profile = try c.decodeIfPresent(Bool.self, forKey: .profile) ?? d.profile
            o.reversedKeys = try c.decodeIfPresent(Bool.self, forKey: .reversedKeys) ?? d.reversedKeys
            options = o
        }
    }

    public static let typeName = "fuzzy"

    /// Exact matches earn their place: a word list holds every fragment (`compr`, `exi`), so an exact entry ranks
    /// among the prefix matches, boosted (`ExactMatchRule/dictionaryDefault`); `"exactMatch": "first"` restores
    /// exact-first.
    public var exactMatch: ExactMatchRule { .dictionaryDefault }

    public let id: String
    public let options: FuzzyOptions
    public let index: FuzzyIndex
    /// Memory the keystrokes reuse; a keystroke that finds it taken (another thread's) makes its own.
    private let scratch = FuzzyScratch.Store()

    /// A provider over `dictionary` (the index is built here: share one ``FuzzyIndex`` with
    /// ``init(id:index:options:)`` when several providers use the same dictionary).
    /// - Throws: `ConfigurationError` for options out of range.
    public init(id: String = "fuzzy", dictionary: WeightedDictionary, options: FuzzyOptions = FuzzyOptions()) throws {
        try self.init(id: id, index: FuzzyIndex(dictionary), options: options)
    }

    /// A provider over a prebuilt index.
    /// - Throws: `ConfigurationError` for options out of range.
    public init(id: String = "fuzzy", index: FuzzyIndex, options: FuzzyOptions = FuzzyOptions()) throws {
        if let (key, message) = Self.problem(in: options) { throw ConfigurationError(path: key, message: message) }
        self.id = id
        self.options = options
        self.index = index
        if options.reversedKeys ?? index.reversedKeysFitTheBudget { index.prepareReversedKeys() }
    }

    public init(configuration: Configuration, context: ProviderContext) throws {
        if let (key, message) = Self.problem(in: configuration.options) { throw context.error(at: key, message) }
        let source = configuration.dictionary
        // The same artifact as the prefix provider's (SuggestPrefix's PrefixProvider, with or without a saved index
        // file, or a prebuilt one: `DictionaryCache.usePrebuiltIndex`), so prefix + fuzzy on one dictionary hold one
        // prefix index; the fuzzy extras are shared between fuzzy providers. The dictionary is parsed only when no
        // index is there yet.
        let path = context.resolve(source.path)
        let key = PrefixIndex.cacheKey(dictionaryPath: path, lenient: source.lenient)
        let prefixIndex = try context.cache.artifact(key) {
            PrefixIndex.fingerprinted(dictionary: try context.dictionary(source), path: path, lenient: source.lenient)
        }
        let index = context.cache.artifact("fuzzy-index:\(path):\(source.lenient)") { FuzzyIndex(prefixIndex) }
        var options = configuration.options
        let besidePrefix = context.hasOtherEntry(type: "prefix", dictionary: source.path)
        if !configuration.setsEveryWord && besidePrefix {
            // The prefix provider decides whether the configuration offers every-word matches (its `everyWord` and
            // `infix`): with them on, searching for them twice would cost each keystroke of several words the
            // index's every-word search again; with them off, they are not wanted.
            options.everyWord = false
        }
        if !configuration.setsPrefixMatches && besidePrefix {
            // The prefix provider offers every exact and prefix match of the same index: offered here too, each would
            // be built and merged twice on every keystroke.
            options.offersPrefixMatches = false
        }
        try self.init(id: context.id, index: index, options: options)
    }

    /// The first option out of range: its key and what is wrong.
    static func problem(in o: FuzzyOptions) -> (String, String)? {
        if o.minLengthOneTypo < 1 { return ("minLengthOneTypo", "expected 1 or more, found \(o.minLengthOneTypo)") }
        if o.minLengthTwoTypos < o.minLengthOneTypo {
            return (
                "minLengthTwoTypos",
                "expected at least minLengthOneTypo (\(o.minLengthOneTypo)), found \(o.minLengthTwoTypos)"
            )
        }
        if o.minLengthTwoTyposWholeWord < 1 {
            return ("minLengthTwoTyposWholeWord", "expected 1 or more, found \(o.minLengthTwoTyposWholeWord)")
        }
        if o.minLengthThreeTyposWholeWord < 0 {
            return ("minLengthThreeTyposWholeWord", "expected 0 (off) or more, found \(o.minLengthThreeTyposWholeWord)")
        }
        if !(0...2).contains(o.maxTypos) { return ("maxTypos", "expected 0, 1 or 2, found \(o.maxTypos)") }
        if o.exactPrefixLength < 0 {
            return ("exactPrefixLength", "expected 0 or more, found \(o.exactPrefixLength)")
        }
        if o.subsequenceMinLength < 1 {
            return ("subsequenceMinLength", "expected 1 or more, found \(o.subsequenceMinLength)")
        }
        if o.subsequenceMaxLength < o.subsequenceMinLength {
            return (
                "subsequenceMaxLength",
                "expected at least subsequenceMinLength (\(o.subsequenceMinLength)), found \(o.subsequenceMaxLength)"
            )
        }
        if !(o.wholeWordBoost >= 1 && o.wholeWordBoost.isFinite) {
            return ("wholeWordBoost", "expected a number of 1 or more, found \(o.wholeWordBoost)")
        }
        if !(o.phrasePenalty >= 1 && o.phrasePenalty.isFinite) {
            return ("phrasePenalty", "expected a number of 1 or more, found \(o.phrasePenalty)")
        }
        if !(o.completionLengthPenalty >= 1 && o.completionLengthPenalty.isFinite) {
            return ("completionLengthPenalty", "expected a number of 1 or more, found \(o.completionLengthPenalty)")
        }
        if !(0...256).contains(o.maxTypoQueryLength) {
            return ("maxTypoQueryLength", "expected 0 to 256, found \(o.maxTypoQueryLength)")
        }
        if !(0...1000).contains(o.typoThreshold) {
            return ("typoThreshold", "expected 0 (the limit) to 1000, found \(o.typoThreshold)")
        }
        if !(0...100_000_000).contains(o.maxWalkNodes) {
            return ("maxWalkNodes", "expected 0 (no ceiling) to 100000000, found \(o.maxWalkNodes)")
        }
        if !(0...100_000_000).contains(o.maxAbbreviationChecks) {
            return ("maxAbbreviationChecks", "expected 0 (no ceiling) to 100000000, found \(o.maxAbbreviationChecks)")
        }
        return nil
    }

    public func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        let query = request.query
        guard !query.isEmpty, request.limit > 0, index.count > 0 else { return }
        var matcher = FuzzyMatcher(index: index, options: options, scratch: scratch.take())
        matcher.run(
            query: query, limit: request.limit, previous: request.previousState as? FuzzyKept,
            filledBefore: request.filledBefore)
        if output.candidates.isEmpty {
            // The output's array (the engine's, reused between keystrokes) takes the candidates, and the matcher's
            // goes back to the scratch.
            swap(&output.candidates, &matcher.candidates)
        } else {
            output.candidates.append(contentsOf: matcher.candidates)
        }
        scratch.put(matcher.takeScratch())
        // The matcher's steps each keep their own top `limit`, and more than one can add to the same tier (at limit
        // 1, `aplpe` got two one-typo candidates): at most `limit` per tier, as a provider should (the conformance
        // kit checks it).
        output.keepBest(perTier: request.limit)
        output.state = matcher.takeKept()
        if let profile = matcher.profile { output.notes.append(profile.note) }
        if matcher.walkCut {
            output.notes.append("typo search stopped at maxWalkNodes (\(options.maxWalkNodes)); suggestions may be incomplete")
        }
        if matcher.scanCut {
            output.notes.append(
                "abbreviation scan stopped at maxAbbreviationChecks (\(options.maxAbbreviationChecks)); suggestions may be incomplete")
        }
    }
}
