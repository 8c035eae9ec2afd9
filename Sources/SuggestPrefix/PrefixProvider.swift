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
/// - `everyWord` (default true, needs `infix`): a query of several words whose words as typed do not fill the list
///   also matches entries where every word starts a word, in order ("dj re fr" →
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
        /// Whether a query of several words whose words as typed do not fill the list may also match
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
            if index?.isEmpty == true {
                throw DecodingError.dataCorruptedError(
                    forKey: .index, in: c, debugDescription: "expected a file path, found an empty string")
            }
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
    /// Whether a query of several words whose words as typed do not fill the list may also match entries
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
            // Its folder must exist (checked before the dictionary is read, and by `suggest validate`, which
            // writes nothing): otherwise the index could be neither read nor written.
            let indexPath = try context.storeFile(indexFile, key: "index")
            built = try context.cache.artifact(key) {
                try Self.loadOrBuild(source: source, path: path, indexPath: indexPath, context: context)
            }
            // Built by another provider first (the fuzzy provider): save it when there is no file yet.
            if context.cache.writesFiles && !FileManager.default.fileExists(atPath: indexPath)
                && built.sourceFingerprint != nil
            {
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
        if let problem = TextFile.kindProblem(indexPath) {
            throw context.error(at: "index", "\(indexPath): \(problem.description)")
        }
        if FileManager.default.fileExists(atPath: indexPath) {
            do {
                let saved = try PrefixIndex(contentsOfFile: indexPath)
                if saved.sourceFingerprint == fingerprint { return saved }
                // Stale: built from another version of the dictionary; rebuild below.
            } catch let error where error.isUnsupportedVersion {
                // Written by another version of swift-suggest: rebuild below.
            } catch let error where error.isNotAnIndex {
                // Some other file: never advise deleting it.
                throw context.error(
                    at: "index", "\(error.description); it is not an index: give \"index\" a file of its own")
            } catch {
                throw context.error(at: "index", "\(error.description); delete it to rebuild")
            }
        }
        let built = PrefixIndex(dictionary: try context.dictionary(source), sourceFingerprint: fingerprint)
        guard context.cache.writesFiles else { return built }
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
        // An exact match earns its place among the completions (the engine ranks it, boosted by default): it is
        // offered beside `limit` of them, not instead of the last.
        index.search(
            request.query, limit: request.limit, infix: infix, everyWord: everyWord, exactBeyondLimit: true,
            buffer: &scratch.buffer, into: &scratch.matches)
        let queryLength = IndexKey.length(of: request.query)
        for match in scratch.matches {
            let ranges = scratch.ranges.of(
                request.query, in: match.text, tier: match.tier, typos: match.typos, keyOffset: match.keyOffset,
                keyLength: queryLength)
            var candidate = SuggestionCandidate(
                title: match.text, matchedRanges: ranges, tier: match.tier, typos: match.typos,
                popularity: match.weight)
            candidate.wordsOutOfOrder = match.wordsOutOfOrder
            output.append(consume candidate)
        }
        // Swapped back, not assigned: an assignment would retain each of its arrays once more.
        var kept: Scratch? = scratch
        self.scratch.withLock { swap(&$0, &kept) }
    }

    /// What a keystroke reuses: the index search's buffers, the matches, and the matched ranges' arrays.
    struct Scratch: Sendable {
        var buffer: PrefixIndex.SearchBuffer
        var matches: [LivePrefixIndex.Match] = []
        var ranges = MatchedRanges()

        init(capacity: Int) {
            buffer = PrefixIndex.SearchBuffer(capacity: capacity)
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
