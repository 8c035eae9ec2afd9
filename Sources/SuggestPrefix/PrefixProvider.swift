import Foundation
public import SuggestCore
public import SuggestIndex
import Synchronization

/// Completes what was typed from a weighted dictionary, most popular first (`"type": "prefix"`).
///
/// ```json
/// { "type": "prefix", "dictionary": "words.tsv", "infix": true, "everyWord": true, "index": "words.idx" }
/// ```
/// - `dictionary` (required): a TSV file `text<TAB>weight[<TAB>scope]`, or `{ "path": …, "lenient": true }`.
/// - `infix` (default true): also match at inner word starts ("york" → "New York"), ranked below prefixes.
/// - `everyWord` (default true, needs `infix`): a query of several words whose words as typed fill less than half
///   of the list also matches entries where every word starts a word, in order ("dj re fr" →
///   "django-rest-framework"), then in any order ("mermaid lit" → "The Little Mermaid"), then with typos in some
///   words ("mermaid litle", `.oneTypo`), after the matches as typed.
/// - `index` (optional): a saved index file. Loaded when it exists and was built from the same dictionary bytes;
///   otherwise the index is built and saved there. A corrupt or truncated file is an error (delete it to rebuild).
///
/// Typed as one run, earlier words match whole words and the last one is a prefix ("new yo" → "New York"); a query
/// equal to an entry is `.exact`. With a scope selected, entries of that scope and unscoped entries match. Live updates
/// (``insert(_:weight:scope:)``, ``remove(_:)``) go to an overlay of ``index``; ``compact()`` folds it in.
public final class PrefixProvider: ConfigurableProvider {
    public struct Configuration: Decodable, Sendable {
        public var dictionary: DictionarySource
        public var infix: Bool
        /// Whether a query of several words whose words as typed fill less than half of the list may also match
        /// entries where every word starts a word, in any order (default true).
        public var everyWord: Bool
        /// A saved index file (relative to the configuration file).
        public var index: String?

        public init(dictionary: DictionarySource, infix: Bool = true, everyWord: Bool = true, index: String? = nil) {
            self.dictionary = dictionary
            self.infix = infix
            self.everyWord = everyWord
            self.index = index
        }

        private enum CodingKeys: String, CodingKey { case dictionary, infix, everyWord, index }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            dictionary = try c.decode(DictionarySource.self, forKey: .dictionary)
            infix = try c.decodeIfPresent(Bool.self, forKey: .infix) ?? true
            everyWord = try c.decodeIfPresent(Bool.self, forKey: .everyWord) ?? true
            index = try c.decodeIfPresent(String.self, forKey: .index)
        }
    }

    public static let typeName = "prefix"

    /// Exact matches earn their place: a word list holds every fragment (`compr`, `exi`), so an exact entry ranks
    /// among the prefix matches, boosted (`ExactMatchRule/dictionaryDefault`); `"exactMatch": "first"` restores
    /// exact-first.
    public var exactMatch: ExactMatchRule { .dictionaryDefault }

    public let id: String
    /// Whether inner word starts match.
    public let infix: Bool
    /// Whether a query of several words whose words as typed fill less than half of the list may also match entries
    /// where every word starts a word, in any order (with ``infix``).
    public let everyWord: Bool
    /// The index with its live overlay.
    public let index: LivePrefixIndex
    /// Memory the keystrokes reuse; a keystroke that finds it taken (another thread's) makes its own.
    private let scratch = Mutex<Scratch?>(nil)

    /// A provider over a built (or loaded) index.
    public init(id: String = "prefix", index: PrefixIndex, infix: Bool = true, everyWord: Bool = true) {
        self.id = id
        self.index = LivePrefixIndex(index)
        self.infix = infix
        self.everyWord = everyWord
    }

    /// A provider over a dictionary (builds the index).
    public convenience init(
        id: String = "prefix", dictionary: WeightedDictionary, infix: Bool = true, everyWord: Bool = true
    ) {
        self.init(id: id, index: PrefixIndex(dictionary: dictionary), infix: infix, everyWord: everyWord)
    }

    public convenience init(configuration: Configuration, context: ProviderContext) throws {
        let source = configuration.dictionary
        let path = context.resolve(source.path)
        let built: PrefixIndex
        // One key with or without a saved index file (a loaded index matches the dictionary's bytes), shared with
        // the fuzzy provider on the same dictionary.
        let key = PrefixIndex.cacheKey(dictionaryPath: path, lenient: source.lenient)
        if let indexFile = configuration.index {
            let indexPath = context.resolve(indexFile)
            built = try context.cache.artifact(key) {
                try Self.loadOrBuild(source: source, path: path, indexPath: indexPath, context: context)
            }
            // Built by another provider first (the fuzzy provider): save it when there is no file yet.
            if !FileManager.default.fileExists(atPath: indexPath) && built.sourceFingerprint != nil {
                do {
                    try built.write(toFile: indexPath)
                } catch {
                    throw context.error(at: "index", error.description)
                }
            }
        } else {
            built = try context.cache.artifact(key) {
                PrefixIndex.fingerprinted(
                    dictionary: try context.dictionary(source), path: path, lenient: source.lenient)
            }
        }
        self.init(id: context.id, index: built, infix: configuration.infix, everyWord: configuration.everyWord)
    }

    /// Loads the saved index when it matches the dictionary file, otherwise builds and saves it.
    static func loadOrBuild(
        source: DictionarySource,
        path: String,
        indexPath: String,
        context: ProviderContext
    ) throws -> PrefixIndex {
        guard let fingerprint = SourceFingerprint(contentsOfFile: path, lenient: source.lenient) else {
            // Let the dictionary loader name the problem (missing file, a folder, unreadable).
            _ = try context.dictionary(source)
            throw context.error(at: "dictionary", "\(path): cannot be read")
        }
        if FileManager.default.fileExists(atPath: indexPath) {
            do {
                let saved = try PrefixIndex(contentsOfFile: indexPath)
                if saved.sourceFingerprint == fingerprint { return saved }
                // Stale: built from another version of the dictionary; rebuild below.
            } catch let error where error.isUnsupportedVersion {
                // Written by another version of swift-suggest: rebuild below.
            } catch {
                throw context.error(at: "index", "\(error.description); delete it to rebuild")
            }
        }
        let built = PrefixIndex(dictionary: try context.dictionary(source), sourceFingerprint: fingerprint)
        do {
            try built.write(toFile: indexPath)
        } catch {
            throw context.error(at: "index", error.description)
        }
        return built
    }

    public func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        guard !request.query.isEmpty else { return }
        var scratch = self.scratch.withLock { $0.take() } ?? Scratch(capacity: request.limit)
        defer { self.scratch.withLock { $0 = scratch } }
        index.search(
            request.query, limit: request.limit, infix: infix, everyWord: everyWord, buffer: &scratch.buffer,
            into: &scratch.matches)
        // The query's canonical key length: words joined by one space.
        var queryLength = request.query.words.count - 1
        for word in request.query.words { queryLength += word.count }
        for match in scratch.matches {
            if match.tier == .wordsInOrder || match.tier == .wordsAnyOrder || match.typos > 0 {
                output.append(
                    SuggestionCandidate(
                        title: match.text,
                        matchedRanges: Self.everyWordRanges(
                            request.query, in: match.text, typos: match.typos > 0, scratch: &scratch),
                        tier: match.tier, typos: match.typos, popularity: match.weight))
                continue
            }
            // Matched ranges only for the returned results: a direct walk for ASCII titles, the engine's
            // standard matcher (which maps folded bytes back to the original) otherwise.
            let ranges =
                IndexKey.originalRanges(
                    ofASCII: match.text, keyRange: match.keyOffset..<(match.keyOffset + queryLength),
                    into: &scratch.ranges)
                ? scratch.issueRanges()
                : TextMatcher.match(request.query, in: NormalizedText(match.text))?.1 ?? []
            output.append(
                SuggestionCandidate(
                    title: match.text,
                    matchedRanges: ranges,
                    tier: match.tier,
                    popularity: match.weight
                )
            )
        }
    }

    /// The UTF-8 ranges of `title` that the query's words start (one per word, sorted), for an every-word match (with
    /// `typos`, one whose words may have typos: each range is the part of the title's word a query word matched), in
    /// `scratch`'s arrays: an ASCII title is folded byte for byte (its offsets are the folded ones), so that only the
    /// returned array is new, and not even that when it equals one handed out lately.
    static func everyWordRanges(
        _ query: PreparedQuery, in title: String, typos: Bool = false, scratch: inout Scratch
    ) -> [Range<Int>] {
        // The words of the folded title joined by single spaces, and where each starts in the folded bytes.
        scratch.key.removeAll(keepingCapacity: true)
        scratch.folded.removeAll(keepingCapacity: true)
        @inline(__always) func add(_ b: UInt8, at i: Int, inWord: inout Bool) {
            if TextNormalizer.isSeparator(b) {
                inWord = false
                return
            }
            if !inWord && !scratch.key.isEmpty {
                scratch.key.append(0x20)
                scratch.folded.append(-1)
            }
            inWord = true
            scratch.key.append(b)
            scratch.folded.append(i)
        }
        var copy = title
        let isASCII = copy.withUTF8 { bytes in
            var inWord = false
            for (i, b) in bytes.enumerated() {
                if b >= 0x80 { return false }
                add(IndexKey.asciiFold(b), at: i, inWord: &inWord)
            }
            return true
        }
        var text: NormalizedText? = nil
        if !isASCII {
            let normalized = NormalizedText(title)
            scratch.key.removeAll(keepingCapacity: true)
            scratch.folded.removeAll(keepingCapacity: true)
            var inWord = false
            for (i, b) in normalized.bytes.enumerated() { add(b, at: i, inWord: &inWord) }
            text = normalized
        }
        scratch.starts.removeAll(keepingCapacity: true)
        scratch.starts.append(contentsOf: repeatElement(-1, count: query.words.count))
        scratch.lengths.removeAll(keepingCapacity: true)
        for word in query.words { scratch.lengths.append(word.count) }
        let key = scratch.key
        let matched = scratch.starts.withUnsafeMutableBufferPointer { starts in
            scratch.lengths.withUnsafeMutableBufferPointer { lengths in
                typos
                    ? EveryWord.typos(
                        query: query.normalized, words: query.words, key: key, starts: starts.baseAddress,
                        lengths: lengths.baseAddress) != nil
                    : EveryWord.tier(query: query.normalized, words: query.words, key: key, starts: starts.baseAddress)
                        != nil
            }
        }
        guard matched else { return [] }
        scratch.ranges.removeAll(keepingCapacity: true)
        let folded = scratch.folded
        for (w, start) in scratch.starts.enumerated() where start >= 0 {
            let length = scratch.lengths[w]
            guard length > 0 else { continue }
            guard start + length <= folded.count, folded[start] >= 0, folded[start + length - 1] >= 0 else { continue }
            let range = folded[start]..<(folded[start + length - 1] + 1)
            let original = text?.originalRange(of: range) ?? range
            // Sorted by start as they come (a query has a few words).
            var slot = scratch.ranges.count
            scratch.ranges.append(original)
            while slot > 0 && scratch.ranges[slot - 1].lowerBound > original.lowerBound {
                scratch.ranges[slot] = scratch.ranges[slot - 1]
                slot -= 1
            }
            scratch.ranges[slot] = original
        }
        return scratch.issueRanges()
    }

    /// What a keystroke reuses: the index search's buffers, the matches, and the matched-range arrays handed out
    /// before (prefix matches of one query all have the same ranges, and typing repeats them).
    struct Scratch: Sendable {
        var buffer: PrefixIndex.SearchBuffer
        var matches: [LivePrefixIndex.Match] = []
        /// The ranges being computed.
        var ranges: [Range<Int>] = []
        /// An every-word match's folded title (words joined by single spaces), where each of its bytes is in the
        /// folded title (-1 for the joining spaces), and where each query word starts in it.
        var key: [UInt8] = []
        var folded: [Int] = []
        var starts: [Int] = []
        /// The length of the part of its title word each query word matched.
        var lengths: [Int] = []
        /// Range arrays given to candidates, shared by every later candidate with equal ranges.
        var issued: [[Range<Int>]] = []
        var nextIssued = 0

        /// How many range arrays are kept for sharing.
        static let issuedLimit = 16

        init(capacity: Int) {
            buffer = PrefixIndex.SearchBuffer(capacity: capacity)
        }

        /// An array equal to ``ranges``: one handed out before, or a new one (then kept for sharing).
        mutating func issueRanges() -> [Range<Int>] {
            guard !ranges.isEmpty else { return [] }
            if ranges.count == 1 { return SharedRanges.one(ranges[0]) }
            for array in issued where array == ranges { return array }
            let fresh = SharedRanges.array(ranges)
            if issued.count < Self.issuedLimit {
                issued.append(fresh)
            } else {
                issued[nextIssued] = fresh
                nextIssued = (nextIssued + 1) % Self.issuedLimit
            }
            return fresh
        }
    }

    /// Adds `text` (or gives it a new weight) without rebuilding; see `LivePrefixIndex/insert(_:weight:scope:)`.
    public func insert(_ text: String, weight: Double, scope: String? = nil) throws(PrefixIndexUpdateError) {
        try index.insert(text, weight: weight, scope: scope)
    }

    /// Removes every entry with exactly this text; see `LivePrefixIndex/remove(_:)`.
    @discardableResult
    public func remove(_ text: String) -> Bool { index.remove(text) }

    /// Folds live updates into a rebuilt index; see `LivePrefixIndex/compact()`.
    @discardableResult
    public func compact() -> Bool { index.compact() }
}
