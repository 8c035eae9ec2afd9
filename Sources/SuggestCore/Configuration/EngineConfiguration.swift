public import Foundation
public import Logging

/// An engine's configuration read from JSON: the options and the providers, each built by the registry from its
/// entry. Versioned and strict: unknown keys, unknown types, values of the wrong type, missing files and bad
/// patterns are errors that name the JSON path; all of them are collected, not just the first.
///
/// ```json
/// { "version": 1, "limit": 8,
///   "sections": [ { "title": "Recent", "quota": 3 }, { "title": "Suggestions" } ],
///   "providers": [ { "type": "static", "items": [ { "title": "Apple" } ] } ] }
/// ```
public struct EngineConfiguration: Sendable {
    /// The configuration versions this build reads.
    public static let supportedVersions = 1...1
    /// Keys of the top-level object.
    public static let topLevelKeys = [
        "version", "limit", "providers", "sections", "groupSections", "tiebreak", "maxQueryLength",
        "learnFromSelections", "synonyms",
    ]
    /// Keys every provider entry may have besides its own.
    public static let commonProviderKeys = ["type", "id", "weight", "section", "exactMatch"]

    public var version: Int
    public var options: EngineOptions
    public var slots: [ProviderSlot]
    /// Where the engine ``makeEngine()`` returns logs what it notes (see ``SuggestionEngine/logger``).
    public var logger: Logger

    public init(
        version: Int = 1,
        options: EngineOptions = EngineOptions(),
        slots: [ProviderSlot],
        logger: Logger = SuggestionEngine.makeDefaultLogger()
    ) {
        self.version = version
        self.options = options
        self.slots = slots
        self.logger = logger
    }

    /// Reads the configuration file at `path`; relative paths inside resolve against its folder.
    /// - Parameters:
    ///   - path: the configuration file.
    ///   - registry: the provider types the file may name by `"type"`.
    ///   - cache: dictionaries and indexes shared by the providers; pass one that already holds a prebuilt index
    ///     (`DictionaryCache.usePrebuiltIndex` in SuggestIndex) to skip building it.
    ///   - logger: where the engine logs what it notes.
    /// - Throws: ``ConfigurationErrors`` listing every problem.
    public init(
        contentsOf path: String,
        registry: ProviderRegistry,
        cache: DictionaryCache = DictionaryCache(),
        logger: Logger = SuggestionEngine.makeDefaultLogger()
    ) throws(ConfigurationErrors) {
        let data: [UInt8]
        do {
            data = try TextFile.read(path)
        } catch {
            throw ConfigurationErrors([ConfigurationError(file: path, message: TextFile.describe(error, at: path))])
        }
        let folder = (path as NSString).deletingLastPathComponent
        try self.init(
            json: data, file: path, baseDirectory: folder.isEmpty ? "." : folder, registry: registry, cache: cache,
            logger: logger)
    }

    /// Reads the configuration file at `url`.
    public init(
        contentsOf url: URL,
        registry: ProviderRegistry,
        cache: DictionaryCache = DictionaryCache(),
        logger: Logger = SuggestionEngine.makeDefaultLogger()
    ) throws(ConfigurationErrors) {
        try self.init(contentsOf: url.path, registry: registry, cache: cache, logger: logger)
    }

    /// Reads a configuration from JSON text.
    /// - Parameters:
    ///   - json: the configuration document.
    ///   - file: the name errors start with.
    ///   - baseDirectory: the folder relative paths resolve against.
    ///   - registry: the provider types the document may name by `"type"`.
    ///   - cache: dictionaries and indexes shared by the providers.
    ///   - logger: where the engine logs what it notes.
    public init(
        json: String,
        file: String? = nil,
        baseDirectory: String = ".",
        registry: ProviderRegistry,
        cache: DictionaryCache = DictionaryCache(),
        logger: Logger = SuggestionEngine.makeDefaultLogger()
    ) throws(ConfigurationErrors) {
        try self.init(
            json: Array(json.utf8), file: file, baseDirectory: baseDirectory, registry: registry, cache: cache,
            logger: logger)
    }

    /// Reads a configuration from JSON bytes.
    public init(
        json: [UInt8],
        file: String? = nil,
        baseDirectory: String = ".",
        registry: ProviderRegistry,
        cache: DictionaryCache = DictionaryCache(),
        logger: Logger = SuggestionEngine.makeDefaultLogger()
    ) throws(ConfigurationErrors) {
        // Editors on Windows may start a UTF-8 file with a byte order mark: it is not part of the JSON, skip it
        // (one: a second is an error).
        let document: JSONValue
        do {
            document = try JSONParser.parse(json, skippingByteOrderMark: true)
        } catch {
            throw ConfigurationErrors([
                ConfigurationError(file: file, line: error.line, column: error.column, message: error.message)
            ])
        }
        var reader = Reader(file: file, baseDirectory: baseDirectory, registry: registry, cache: cache)
        var configuration = reader.read(document)
        if !reader.errors.isEmpty { throw ConfigurationErrors(reader.errors) }
        configuration!.logger = logger
        self = configuration!
    }

    /// An engine over this configuration's providers, logging to ``logger``, warmed up
    /// (``SuggestionEngine/warmUp()``) so that the first keystroke a person types is as fast as the others.
    public func makeEngine() -> SuggestionEngine {
        let engine = SuggestionEngine(slots: slots, options: options, logger: logger)
        engine.warmUp()
        return engine
    }
}

extension EngineConfiguration {
    /// Reads a document, collecting every error.
    struct Reader {
        let file: String?
        let baseDirectory: String
        let registry: ProviderRegistry
        let cache: DictionaryCache
        var errors: [ConfigurationError] = []

        mutating func fail(_ error: ConfigurationError) {
            var error = error
            error.file = file
            errors.append(error)
        }

        mutating func read(_ document: JSONValue) -> EngineConfiguration? {
            guard case .object(let root) = document else {
                fail(.at("", "expected an object at the top level, found \(document.kindDescription)"))
                return nil
            }
            for key in root.keys where !EngineConfiguration.topLevelKeys.contains(key) {
                var message = "unknown key \"\(key)\""
                if let nearest = NearestName.nearest(to: key, in: EngineConfiguration.topLevelKeys) {
                    message += " — did you mean \"\(nearest)\"?"
                }
                fail(.at("", message))
            }
            var version = 1
            if let value = root["version"] {
                if case .number(let n) = value, let v = Int(exactly: n) {
                    version = v
                    if !EngineConfiguration.supportedVersions.contains(v) {
                        fail(.at("version", "version \(v) is not supported (this build reads version 1)"))
                    }
                } else {
                    fail(.at("version", "expected an integer, found \(value.kindDescription)"))
                }
            } else {
                fail(.at("", "missing required key \"version\" (use 1)"))
            }
            var options = EngineOptions()
            readOptions(root, into: &options)
            var slots: [ProviderSlot] = []
            switch root["providers"] {
            case nil:
                fail(.at("", "missing required key \"providers\""))
            case .array(let entries)?:
                var ids: Set<String> = []
                // An entry whose store or index file is a file the configuration uses otherwise is not built: it
                // would write over that file (or move it aside as damaged).
                let clashing = fileClashes(entries)
                for (index, entry) in entries.enumerated() {
                    guard !clashing.contains(index) else { continue }
                    var others = entries
                    others.remove(at: index)
                    if let slot = readProvider(entry, index: index, others: others, ids: &ids) { slots.append(slot) }
                }
            case let other?:
                fail(.at("providers", "expected an array of provider objects, found \(other.kindDescription)"))
            }
            checkSectionTitles(options.sections, root: root, slots: slots)
            return EngineConfiguration(version: version, options: options, slots: slots)
        }

        /// The files a provider entry names, by key: its `"dictionary"` (read) and its `"store"` or `"index"`
        /// (written).
        static func files(of entry: JSONValue) -> [(key: String, path: String)] {
            guard case .object(let object) = entry else { return [] }
            var files: [(key: String, path: String)] = []
            switch object["dictionary"] {
            case .string(let path)?: files.append(("dictionary", path))
            case .object(let source)?:
                if let path = source["path"]?.stringValue { files.append(("dictionary", path)) }
            default: break
            }
            for key in ["store", "index"] {
                if let path = object[key]?.stringValue, !path.isEmpty { files.append((key, path)) }
            }
            return files
        }

        /// Reports each provider entry whose `"dictionary"` is the configuration file itself, or whose `"store"` or
        /// `"index"` names the configuration file, a dictionary, or a file another entry writes (two prefix indexes
        /// of one dictionary may share one file), and returns those entries' indices.
        mutating func fileClashes(_ entries: [JSONValue]) -> Set<Int> {
            let context = ProviderContext(id: "", baseDirectory: baseDirectory)
            var uses: [(entry: Int, key: String, path: String, dictionary: String?)] = []
            for (index, entry) in entries.enumerated() {
                let files = Self.files(of: entry)
                let dictionary = files.first { $0.key == "dictionary" }.map { context.resolve($0.path) }
                for file in files {
                    uses.append((index, file.key, context.resolve(file.path), dictionary))
                }
            }
            func same(_ a: String, _ b: String) -> Bool { a == b || TextFile.isSameFile(a, b) }
            var clashing: Set<Int> = []
            // A dictionary that is the configuration file would read the configuration's JSON as entries.
            for use in uses where use.key == "dictionary" {
                guard let file, same(use.path, file) else { continue }
                fail(.at("providers[\(use.entry)].dictionary",
                         "\(use.path) is this configuration file; give the dictionary a TSV file of its own"))
                clashing.insert(use.entry)
            }
            for use in uses where use.key != "dictionary" && !clashing.contains(use.entry) {
                let at = "providers[\(use.entry)].\(use.key)"
                if let file, same(use.path, file) {
                    fail(.at(at, "\(use.path) is this configuration file; give the \(use.key) a file of its own"))
                    clashing.insert(use.entry)
                    continue
                }
                for other in uses where other.entry != use.entry || other.key != use.key {
                    guard same(use.path, other.path) else { continue }
                    // Two indexes of one dictionary in one file: the same bytes, written once.
                    if use.key == "index" && other.key == "index" && use.dictionary != nil
                        && use.dictionary == other.dictionary
                    {
                        continue
                    }
                    fail(.at(at, "\(use.path) is also the \(other.key) of providers[\(other.entry)]; give the \(use.key) a file of its own"))
                    clashing.insert(use.entry)
                    break
                }
            }
            return clashing
        }

        mutating func readOptions(_ root: JSONObject, into options: inout EngineOptions) {
            if let value = root["limit"] {
                if case .number(let n) = value, let v = Int(exactly: n), v >= 1, v <= 1000 {
                    options.limit = v
                } else {
                    fail(.at("limit", "expected an integer from 1 to 1000, found \(value.kindDescription)"))
                }
            }
            if let value = root["maxQueryLength"] {
                if case .number(let n) = value, let v = Int(exactly: n), v >= 1, v <= 1 << 20 {
                    options.maxQueryLength = v
                } else {
                    fail(.at("maxQueryLength", "expected an integer from 1 to 1048576, found \(value.kindDescription)"))
                }
            }
            if let value = root["groupSections"] {
                if case .bool(let b) = value { options.groupSections = b } else {
                    fail(.at("groupSections", "expected true or false, found \(value.kindDescription)"))
                }
            }
            if let value = root["learnFromSelections"] {
                if case .bool(let b) = value { options.learnFromSelections = b } else {
                    fail(.at("learnFromSelections", "expected true or false, found \(value.kindDescription)"))
                }
            }
            if let value = root["tiebreak"] {
                if case .array(let items) = value {
                    var rules: [EngineOptions.Tiebreak] = []
                    let names = EngineOptions.Tiebreak.allCases.map(\.rawValue)
                    for (i, item) in items.enumerated() {
                        if let name = item.stringValue, let rule = EngineOptions.Tiebreak(rawValue: name) {
                            // A rule named twice is a mistake (the second time it could decide nothing).
                            if let first = items.firstIndex(where: { $0.stringValue == name }), first < i {
                                fail(.at("tiebreak[\(i)]", "\"\(name)\" is already tiebreak[\(first)]"))
                            }
                            rules.append(rule)
                        } else {
                            var message = "expected one of \(names.joined(separator: ", ")), found \(item.kindDescription)"
                            if let s = item.stringValue, let nearest = NearestName.nearest(to: s, in: names) {
                                message += " — did you mean \"\(nearest)\"?"
                            }
                            fail(.at("tiebreak[\(i)]", message))
                        }
                    }
                    options.tiebreak = rules
                } else {
                    fail(.at("tiebreak", "expected an array of strings, found \(value.kindDescription)"))
                }
            }
            if let value = root["sections"] {
                guard case .array(let items) = value else {
                    fail(.at("sections", "expected an array of {\"title\", \"quota\"} objects, found \(value.kindDescription)"))
                    return
                }
                var rules: [EngineOptions.SectionRule] = []
                var titles: [String: Int] = [:]
                for (i, item) in items.enumerated() {
                    let path = "sections[\(i)]"
                    guard case .object(let object) = item else {
                        fail(.at(path, "expected an object, found \(item.kindDescription)"))
                        continue
                    }
                    for key in object.keys where key != "title" && key != "quota" {
                        var message = "unknown key \"\(key)\""
                        if let nearest = NearestName.nearest(to: key, in: ["title", "quota"]) {
                            message += " — did you mean \"\(nearest)\"?"
                        }
                        fail(.at(path, message))
                    }
                    guard let title = object["title"]?.stringValue, !title.isEmpty else {
                        fail(.at(path + ".title", "expected a non-empty string, found \(object["title"]?.kindDescription ?? "nothing")"))
                        continue
                    }
                    var quota: Int? = nil
                    if let q = object["quota"] {
                        if case .number(let n) = q, let v = Int(exactly: n), (0...1000).contains(v) { quota = v } else {
                            fail(.at(path + ".quota", "expected an integer from 0 to 1000, found \(q.kindDescription)"))
                        }
                    }
                    // Two rules for one section: which quota holds would be a guess.
                    if let first = titles[title] {
                        fail(.at(path + ".title", "\"\(title)\" is already the title of sections[\(first)]"))
                        continue
                    }
                    titles[title] = i
                    rules.append(.init(title: title, quota: quota))
                }
                options.sections = rules
            }
            if let value = root["synonyms"] { readSynonyms(value, into: &options) }
        }

        /// Provider types of the opt-in server side, which `ProviderRegistry.builtIn` leaves out: how to add them.
        static let serverSideTypes = [
            "remote": "with the package's Server trait, SuggestRemote's `registry.registerRemote()`",
            "postgres": "with the package's Server trait, SuggestPostgres's `registry.register(PostgresProvider.self)`",
        ]

        /// A `sections` rule whose title no provider's section has but a provider's section nearly has (`"Recnt"`
        /// beside the recent provider's `"Recent"`) is a misspelling: its quota would hold nothing and the provider's
        /// section none. A title far from every provider's section is kept: a provider may put candidates in
        /// sections of their own (`SuggestionCandidate.section`).
        mutating func checkSectionTitles(_ rules: [EngineOptions.SectionRule], root: JSONObject, slots: [ProviderSlot]) {
            guard case .array(let items)? = root["sections"], !slots.isEmpty else { return }
            let used = Set(slots.map(\.section))
            let unruled = used.subtracting(rules.map(\.title)).sorted()
            // By the items' own places (a rule skipped as an error does not shift the ones after it), each title once.
            var seen: Set<String> = []
            for (i, item) in items.enumerated() {
                guard case .object(let object) = item, let title = object["title"]?.stringValue, !title.isEmpty,
                    seen.insert(title).inserted, !used.contains(title)
                else { continue }
                if let nearest = NearestName.nearest(to: title, in: unruled) {
                    fail(.at("sections[\(i)].title", "no provider's section is \"\(title)\" — did you mean \"\(nearest)\"?"))
                }
            }
        }

        /// `"synonyms"`: groups (arrays of terms) and one-way rules (`{"from": "tv", "to": ["television"]}`).
        mutating func readSynonyms(_ value: JSONValue, into options: inout EngineOptions) {
            guard case .array(let items) = value else {
                fail(.at("synonyms", "expected an array of groups ([\"pants\", \"trousers\"]) and rules ({\"from\": …, \"to\": […]}), found \(value.kindDescription)"))
                return
            }
            var builder = Synonyms.Builder()
            for (i, item) in items.enumerated() {
                let path = "synonyms[\(i)]"
                switch item {
                case .array(let terms):
                    var strings: [String] = []
                    for (j, term) in terms.enumerated() {
                        if let s = term.stringValue { strings.append(s) } else {
                            fail(.at("\(path)[\(j)]", "expected a string, found \(term.kindDescription)"))
                        }
                    }
                    guard strings.count == terms.count else { continue }
                    if let error = builder.addGroup(strings, path: path) { fail(error) }
                case .object(let object):
                    for key in object.keys where key != "from" && key != "to" {
                        var message = "unknown key \"\(key)\""
                        if let nearest = NearestName.nearest(to: key, in: ["from", "to"]) {
                            message += " — did you mean \"\(nearest)\"?"
                        }
                        fail(.at(path, message))
                    }
                    guard let from = object["from"]?.stringValue else {
                        fail(.at(path + ".from", "expected a string, found \(object["from"]?.kindDescription ?? "nothing")"))
                        continue
                    }
                    guard case .array(let targets)? = object["to"] else {
                        fail(.at(path + ".to", "expected an array of strings, found \(object["to"]?.kindDescription ?? "nothing")"))
                        continue
                    }
                    var strings: [String] = []
                    for (j, term) in targets.enumerated() {
                        if let s = term.stringValue { strings.append(s) } else {
                            fail(.at("\(path).to[\(j)]", "expected a string, found \(term.kindDescription)"))
                        }
                    }
                    guard strings.count == targets.count else { continue }
                    if let error = builder.addRule(from: from, to: strings, path: path + ".to", fromPath: path + ".from") { fail(error) }
                default:
                    fail(.at(path, "expected a group (an array of terms) or a rule ({\"from\": …, \"to\": […]}), found \(item.kindDescription)"))
                }
            }
            options.synonyms = Synonyms(rules: builder.rules())
        }

        mutating func readProvider(
            _ entry: JSONValue, index: Int, others: [JSONValue] = [], ids: inout Set<String>
        ) -> ProviderSlot? {
            let path = "providers[\(index)]"
            guard case .object(let object) = entry else {
                fail(.at(path, "expected a provider object, found \(entry.kindDescription)"))
                return nil
            }
            guard let typeValue = object["type"] else {
                fail(.at(path, "missing required key \"type\" (known types: \(registry.typeNames.joined(separator: ", ")))"))
                return nil
            }
            guard let type = typeValue.stringValue else {
                fail(.at(path + ".type", "expected a string, found \(typeValue.kindDescription)"))
                return nil
            }
            guard let registered = registry.entries[type] else {
                var message = "unknown provider type \"\(type)\""
                if let elsewhere = Self.serverSideTypes[type] {
                    message += " — it is on the server side, not in this registry: \(elsewhere)"
                } else if let nearest = NearestName.nearest(to: type, in: registry.typeNames) {
                    message += " — did you mean \"\(nearest)\"?"
                }
                message += " (known types: \(registry.typeNames.joined(separator: ", ")))"
                fail(.at(path + ".type", message))
                return nil
            }
            var id = type
            if let value = object["id"] {
                if let s = value.stringValue, !s.isEmpty { id = s } else {
                    fail(.at(path + ".id", "expected a non-empty string, found \(value.kindDescription)"))
                }
            } else if ids.contains(type) {
                id = "\(type)#\(index)"
            }
            if ids.contains(id) {
                if object["id"] == nil {
                    // A default id ("prefix#2") that an earlier entry wrote as its own: this entry has no "id" key.
                    fail(.at(path, "its default id \"\(id)\" is already used by an earlier provider; give it an \"id\""))
                } else {
                    fail(.at(path + ".id", "id \"\(id)\" is already used by an earlier provider; ids must be unique"))
                }
            }
            ids.insert(id)
            var weight = 1.0
            if let value = object["weight"] {
                if case .number(let n) = value, (0...1e6).contains(n) { weight = n } else {
                    fail(.at(path + ".weight", "expected a number from 0 to 1000000, found \(value.kindDescription)"))
                }
            }
            var section = registered.defaultSection
            if let value = object["section"] {
                if let s = value.stringValue, !s.isEmpty { section = s } else {
                    fail(.at(path + ".section", "expected a non-empty string, found \(value.kindDescription)"))
                }
            }
            var exactMatch: ExactMatchRule? = nil
            if let value = object["exactMatch"] {
                switch Self.exactMatchRule(value) {
                case .success(let rule): exactMatch = rule
                case .failure(let error): fail(.at(path + ".exactMatch", error.message))
                }
            }
            let pathKeys: [any CodingKey] = [JSONKey("providers"), JSONKey(index)]
            let decoder = JSONValueDecoder(pathPrefix: pathKeys)
            decoder.open(object, at: pathKeys)
            decoder.markKnown(EngineConfiguration.commonProviderKeys, at: pathKeys)
            let context = ProviderContext(
                id: id, baseDirectory: baseDirectory, path: path, cache: cache, otherEntries: others)
            do {
                let provider = try registered.factory(entry, decoder, context)
                for error in decoder.unknownKeys() { fail(error) }
                return ProviderSlot(provider, weight: weight, section: section, exactMatch: exactMatch)
            } catch let error as ConfigurationError {
                fail(error)
                // Report misspelt keys too: they are often the cause ("dictionry" → missing "dictionary"). Objects
                // that were still being decoded when the error struck (the error's ancestors) had keys not read yet:
                // of the provider object only the likely misspellings are reported (of the missing key, when that
                // is the error), of the others nothing; the rest shows once the error is mended.
                for misspelt in decoder.misspeltKeys(
                    at: path, of: error.path == path ? error.missingKey.map { [$0] } : nil)
                {
                    fail(misspelt)
                }
                for unknown in decoder.unknownKeys() where !Self.isAncestor(unknown.path, of: error.path) {
                    fail(unknown)
                }
            } catch let error as ConfigurationErrors {
                for e in error.errors { fail(e) }
            } catch {
                fail(.at(path, "\(error)"))
            }
            return nil
        }

        /// `"first"`, `"none"`, `"boost"` (the default factor) or `{"boost": factor}` (a number from 1 to 1e6).
        static func exactMatchRule(_ value: JSONValue) -> Result<ExactMatchRule, ExactMatchError> {
            let expected = "expected \"first\", \"boost\", \"none\" or {\"boost\": factor}"
            switch value {
            case .string("first"): return .success(.first)
            case .string("none"): return .success(.byPopularity)
            case .string("boost"): return .success(.boost(ExactMatchRule.defaultBoost))
            case .string(let other):
                var message = "\(expected), found \"\(other)\""
                if let nearest = NearestName.nearest(to: other, in: ["first", "boost", "none"]) {
                    message += " — did you mean \"\(nearest)\"?"
                }
                return .failure(ExactMatchError(message))
            case .object(let object):
                for key in object.keys where key != "boost" {
                    var message = "unknown key \"\(key)\" (\(expected))"
                    if NearestName.nearest(to: key, in: ["boost"]) != nil { message += " — did you mean \"boost\"?" }
                    return .failure(ExactMatchError(message))
                }
                guard case .number(let factor)? = object["boost"] else {
                    return .failure(ExactMatchError("boost: expected a number from 1 to 1000000"))
                }
                guard factor >= 1, factor <= 1_000_000 else {
                    return .failure(ExactMatchError("boost: expected a number from 1 to 1000000, found \(factor)"))
                }
                return .success(.boost(factor))
            default:
                return .failure(ExactMatchError("\(expected), found \(value.kindDescription)"))
            }
        }

        struct ExactMatchError: Error {
            var message: String
            init(_ message: String) { self.message = message }
        }

        static func isAncestor(_ path: String, of other: String) -> Bool {
            other == path || other.hasPrefix(path + ".") || other.hasPrefix(path + "[")
        }
    }
}

extension EngineConfiguration {
    /// `providers[i].store: why` for each provider whose store could not be read when it started
    /// (``StoreReadingProvider/loadProblem``): state, not configuration, so tools show these as warnings.
    public var storeWarnings: [String] {
        slots.enumerated().compactMap { index, slot in
            (slot.provider as? any StoreReadingProvider)?.loadProblem.map { "providers[\(index)].store: \($0)" }
        }
    }
}
