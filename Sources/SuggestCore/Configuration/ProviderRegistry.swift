import Foundation

/// A provider that can be built from its JSON configuration entry.
///
/// ```swift
/// struct Colors: ConfigurableProvider {
///     struct Configuration: Decodable, Sendable { var names: [String] }
///     static let typeName = "colors"
///     let id: String
///     let names: [String]
///     init(configuration: Configuration, context: ProviderContext) throws {
///         id = context.id
///         names = configuration.names
///     }
///     func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
///         for name in names { if let match = request.match(name) { output.append(match) } }
///     }
/// }
/// var registry = ProviderRegistry.builtIn
/// registry.register(Colors.self)
/// ```
public protocol ConfigurableProvider: SuggestionProvider {
    /// The provider's own keys; unknown keys are errors, so read every key you accept.
    associatedtype Configuration: Decodable & Sendable
    /// The `"type"` that selects this provider in a configuration.
    static var typeName: String { get }
    /// The section its suggestions go to unless the configuration says `"section"`.
    static var defaultSection: String? { get }
    init(configuration: Configuration, context: ProviderContext) throws
}

extension ConfigurableProvider {
    public static var defaultSection: String? { nil }
}

/// What a provider factory gets besides its own configuration.
public struct ProviderContext: Sendable {
    /// The provider's id (the entry's `"id"`, or its type).
    public var id: String
    /// The folder relative paths resolve against (the configuration file's folder).
    public var baseDirectory: String
    /// The entry's JSON path (`providers[2]`), for errors.
    public var path: String
    /// Dictionaries and derived indexes shared by the providers of one configuration.
    public var cache: DictionaryCache
    /// The configuration's other provider entries, as written (for a provider whose default depends on what its
    /// siblings already offer).
    public var otherEntries: [JSONValue]

    public init(
        id: String, baseDirectory: String, path: String = "", cache: DictionaryCache = DictionaryCache(),
        otherEntries: [JSONValue] = []
    ) {
        self.id = id
        self.baseDirectory = baseDirectory
        self.path = path
        self.cache = cache
        self.otherEntries = otherEntries
    }

    /// Whether another entry has `"type": type` and a `"dictionary"` (a path, or an object with `"path"`) that names
    /// the same file as `dictionaryPath` (both resolved against ``baseDirectory``), and passes `matches`.
    public func hasOtherEntry(
        type: String, dictionary dictionaryPath: String, where matches: (JSONObject) -> Bool = { _ in true }
    ) -> Bool {
        let target = resolve(dictionaryPath)
        for entry in otherEntries {
            guard case .object(let object) = entry, object["type"]?.stringValue == type else { continue }
            let path: String?
            switch object["dictionary"] {
            case .string(let s)?: path = s
            case .object(let source)?: path = source["path"]?.stringValue
            default: path = nil
            }
            if let path, resolve(path) == target, matches(object) { return true }
        }
        return false
    }

    /// `path` resolved against ``baseDirectory`` unless it is absolute.
    public func resolve(_ path: String) -> String {
        if path.hasPrefix("/") || baseDirectory.isEmpty { return path }
        if path.hasPrefix("~/"), let home = ProcessEnvironment.home { return home + String(path.dropFirst(1)) }
        // "./words.tsv" in the folder "." is "./words.tsv", not "././words.tsv".
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return baseDirectory.hasSuffix("/") ? baseDirectory + relative : baseDirectory + "/" + relative
    }

    /// Loads (once per configuration) the dictionary a provider's `"dictionary"` key names.
    /// - Parameters:
    ///   - source: the dictionary file (resolved against ``baseDirectory``) and whether to skip bad lines.
    ///   - key: the key's name, for the error's JSON path.
    /// - Throws: ``ConfigurationError`` at `providers[i].dictionary` carrying the loader's `file:line` message.
    public func dictionary(_ source: DictionarySource, key: String = "dictionary") throws -> WeightedDictionary {
        do {
            return try cache.dictionary(atPath: resolve(source.path), lenient: source.lenient)
        } catch {
            throw ConfigurationError(path: JSONPath.join(path, key), message: error.description)
        }
    }

    /// An error at `relativePath` inside this provider's entry.
    public func error(at relativePath: String, _ message: String) -> ConfigurationError {
        ConfigurationError(path: JSONPath.join(path, relativePath), message: message)
    }

    /// The file a provider keeps its state in (the value of `key`), resolved against ``baseDirectory``: its folder
    /// must exist, and what is at the path, if anything, must be a regular file — a folder or a device named by
    /// mistake is an error here, never read, written or moved aside.
    /// - Throws: ``ConfigurationError`` at `key`.
    package func storeFile(_ path: String, key: String = "store") throws(ConfigurationError) -> String {
        guard !path.isEmpty else { throw error(at: key, "expected a file path, found an empty string") }
        let resolved = resolve(path)
        if let missing = TextFile.missingFolder(of: resolved) {
            throw error(at: key, "the folder \(missing.folder) of \(resolved) does not exist")
        }
        if let problem = TextFile.kindProblem(resolved) { throw error(at: key, "\(resolved): \(problem.description)") }
        return resolved
    }
}

enum ProcessEnvironment {
    static var home: String? { ProcessInfo.processInfo.environment["HOME"] }
}

/// A dictionary named in a configuration: `"words.tsv"` or `{ "path": "words.tsv", "lenient": true }`.
public struct DictionarySource: Decodable, Hashable, Sendable {
    public var path: String
    /// Skip bad lines (counting them) instead of failing.
    public var lenient: Bool

    public init(path: String, lenient: Bool = false) {
        self.path = path
        self.lenient = lenient
    }

    private enum CodingKeys: String, CodingKey { case path, lenient }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let path = try? single.decode(String.self) {
            guard !path.isEmpty else {
                throw DecodingError.dataCorruptedError(
                    in: single, debugDescription: "expected a file path, found an empty string")
            }
            self.init(path: path)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let path = try c.decode(String.self, forKey: .path)
        guard !path.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .path, in: c, debugDescription: "expected a file path, found an empty string")
        }
        self.init(path: path, lenient: try c.decodeIfPresent(Bool.self, forKey: .lenient) ?? false)
    }
}

/// The provider types a configuration may name, by their `"type"`. A value: copy `builtIn` (in the `Suggest`
/// module) or ``core`` and ``register(_:)`` your own types; there is no global registry.
public struct ProviderRegistry: Sendable {
    /// Builds a provider from its entry; `decoder` decodes the entry with strict key checking.
    public typealias Factory =
        @Sendable (_ entry: JSONValue, _ decoder: JSONValueDecoder, _ context: ProviderContext) throws -> any SuggestionProvider

    struct Entry: Sendable {
        var factory: Factory
        var defaultSection: String?
    }

    var entries: [String: Entry] = [:]
    /// Type names in registration order.
    public private(set) var typeNames: [String] = []

    /// An empty registry.
    public init() {}

    /// The providers that live in SuggestCore: `static`.
    public static var core: ProviderRegistry {
        var registry = ProviderRegistry()
        registry.register(StaticProvider.self)
        return registry
    }

    /// Registers (or replaces) a configurable provider type under its ``ConfigurableProvider/typeName``.
    public mutating func register<P: ConfigurableProvider>(_ type: P.Type) {
        register(P.typeName, defaultSection: P.defaultSection) { entry, decoder, context in
            let configuration = try decoder.decode(P.Configuration.self, from: entry)
            return try P(configuration: configuration, context: context)
        }
    }

    /// Registers (or replaces) `typeName`, built by a closure from its decoded configuration: the form for a
    /// provider built from live app state (a contacts store, a database) that ``ConfigurableProvider``'s
    /// `init(configuration:context:)` cannot reach.
    ///
    /// ```swift
    /// registry.register("contacts", configuration: ContactsProvider.Configuration.self) { configuration, context in
    ///     ContactsProvider(id: context.id, store: contacts, fields: configuration.fields)
    /// }
    /// ```
    /// The entry's keys are checked as for a ``ConfigurableProvider``: `configuration` must read every key it accepts.
    /// - Parameters:
    ///   - typeName: the `"type"` a configuration names the provider by.
    ///   - configuration: the provider's own keys.
    ///   - defaultSection: the section its suggestions go to unless the entry names one (nil: the engine's default).
    ///   - make: builds the provider; called once per configuration that names `typeName` (each time a
    ///     configuration is read, by `suggest validate` too), on the thread that reads it.
    public mutating func register<Configuration: Decodable & Sendable>(
        _ typeName: String,
        configuration: Configuration.Type,
        defaultSection: String? = nil,
        make: @escaping @Sendable (_ configuration: Configuration, _ context: ProviderContext) throws -> any SuggestionProvider
    ) {
        register(typeName, defaultSection: defaultSection) { entry, decoder, context in
            try make(try decoder.decode(Configuration.self, from: entry), context)
        }
    }

    /// Registers (or replaces) `typeName` for a provider without keys of its own (only `type`, `id`, `weight`,
    /// `section`, `exactMatch`; any other key is an error), built by `make` from live app state.
    ///
    /// ```swift
    /// registry.register("contacts") { context in ContactsProvider(id: context.id, store: contacts) }
    /// ```
    public mutating func register(
        _ typeName: String,
        defaultSection: String? = nil,
        make: @escaping @Sendable (_ context: ProviderContext) throws -> any SuggestionProvider
    ) {
        register(typeName, configuration: NoKeys.self, defaultSection: defaultSection) { _, context in
            try make(context)
        }
    }

    /// The configuration of a provider without keys of its own.
    struct NoKeys: Decodable, Sendable {}

    /// Registers (or replaces) a factory for `typeName`.
    public mutating func register(_ typeName: String, defaultSection: String? = nil, factory: @escaping Factory) {
        if entries[typeName] == nil { typeNames.append(typeName) }
        entries[typeName] = Entry(factory: factory, defaultSection: defaultSection)
    }

    /// Whether `typeName` is registered.
    public func contains(_ typeName: String) -> Bool { entries[typeName] != nil }
}
