import Foundation
public import SuggestCore
import SuggestPattern

extension RecentsProvider {
    /// The provider's keys in a configuration:
    ///
    /// ```json
    /// { "type": "recent", "id": "history",
    ///   "store": "recents.json", "ephemeral": false,
    ///   "capacity": 100, "halfLifeDays": 14, "recordSelections": false, "systemImage": "clock",
    ///   "exclude": { "minLength": 2, "patterns": ["^\\d{12,19}$", "password"] } }
    /// ```
    /// - `store`: a JSON file (``JSONFileRecentsStore``), relative to the configuration file; its folder must exist.
    ///   Without it the searches are kept in memory only.
    /// - `ephemeral`: keep the searches in memory only and never touch `store` (a private mode you can switch on
    ///   without removing `store`).
    /// - `capacity` (1 to 100000), `halfLifeDays` (more than 0, at most 36500), `recordSelections`, `systemImage`
    ///   (`""` for none).
    /// - `exclude.minLength` (0 to 10000): fewer characters than this (tokens aside) and a search is not remembered;
    ///   `exclude.patterns`: Swift `Regex` patterns, matched case-insensitively anywhere in the text and token values.
    public struct Configuration: Decodable, Sendable {
        public struct Exclude: Decodable, Sendable {
            public var minLength: Int
            public var patterns: [String]

            private enum CodingKeys: String, CodingKey { case minLength, patterns }

            public init(minLength: Int = 1, patterns: [String] = []) {
                self.minLength = minLength
                self.patterns = patterns
            }

            public init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                minLength = try c.decodeIfPresent(Int.self, forKey: .minLength) ?? 1
                patterns = try c.decodeIfPresent([String].self, forKey: .patterns) ?? []
            }
        }

        public var store: String?
        public var ephemeral: Bool
        public var capacity: Int
        public var halfLifeDays: Double
        public var recordSelections: Bool
        public var systemImage: String
        public var exclude: Exclude

        private enum CodingKeys: String, CodingKey {
            case store, ephemeral, capacity, halfLifeDays, recordSelections, systemImage, exclude
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            store = try c.decodeIfPresent(String.self, forKey: .store)
            ephemeral = try c.decodeIfPresent(Bool.self, forKey: .ephemeral) ?? false
            capacity = try c.decodeIfPresent(Int.self, forKey: .capacity) ?? 100
            halfLifeDays = try c.decodeIfPresent(Double.self, forKey: .halfLifeDays) ?? 14
            recordSelections = try c.decodeIfPresent(Bool.self, forKey: .recordSelections) ?? false
            systemImage = try c.decodeIfPresent(String.self, forKey: .systemImage) ?? "clock"
            exclude = try c.decodeIfPresent(Exclude.self, forKey: .exclude) ?? Exclude()
        }
    }

    public convenience init(configuration: Configuration, context: ProviderContext) throws {
        guard (1...100_000).contains(configuration.capacity) else {
            throw context.error(at: "capacity", "expected an integer from 1 to 100000, found \(configuration.capacity)")
        }
        guard configuration.halfLifeDays > 0, configuration.halfLifeDays <= 36_500 else {
            throw context.error(
                at: "halfLifeDays",
                "expected a number of days greater than 0 and at most 36500, found \(configuration.halfLifeDays)"
            )
        }
        guard (0...10_000).contains(configuration.exclude.minLength) else {
            throw context.error(
                at: "exclude.minLength",
                "expected an integer from 0 to 10000, found \(configuration.exclude.minLength)"
            )
        }
        let exclusion: RecentsExclusion
        do {
            exclusion = try RecentsExclusion(
                minimumLength: configuration.exclude.minLength,
                patterns: configuration.exclude.patterns
            )
        } catch {
            throw context.error(at: "exclude.patterns[\(error.index)]", error.description)
        }
        var store: (any RecentsStore)? = nil
        if let path = configuration.store, !configuration.ephemeral {
            store = JSONFileRecentsStore(path: try context.storeFile(path))
        }
        let seconds = configuration.halfLifeDays * 86_400
        self.init(
            id: context.id,
            store: store,
            options: Options(
                capacity: configuration.capacity,
                halfLife: .milliseconds(Int64((seconds * 1000).rounded())),
                recordSelections: configuration.recordSelections,
                systemImage: configuration.systemImage.isEmpty ? nil : configuration.systemImage,
                exclusion: exclusion
            )
        )
    }
}
