import Foundation
public import SuggestCore
import SuggestPattern

extension PopularProvider {
    /// The provider's keys in a configuration:
    ///
    /// ```json
    /// { "type": "popular", "id": "popular",
    ///   "store": "popular.json", "minUsers": 5, "capacity": 10000, "halfLifeDays": 14,
    ///   "recordSelections": false, "systemImage": "chart.line.uptrend.xyaxis", "localUser": "local",
    ///   "blendWhileTyping": true, "exclude": { "minLength": 2, "patterns": ["^\\d{12,19}$"] } }
    /// ```
    /// - `store`: a JSON Lines file (``PopularFileStore``), relative to the configuration file; its folder must
    ///   exist. Without it the searches are kept in memory only.
    /// - `minUsers` (1 to 1000), `capacity` (1 to 1000000), `halfLifeDays` (more than 0, at most 36500),
    ///   `recordSelections`, `systemImage` (`""` for none), `localUser` (a non-empty id), `blendWhileTyping`: see
    ///   ``PopularProvider/Options``.
    /// - `exclude.minLength` (0 to 10000) and `exclude.patterns`: as the recent provider's (`SearchExclusion`).
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
        public var minUsers: Int
        public var capacity: Int
        public var halfLifeDays: Double
        public var recordSelections: Bool
        public var systemImage: String
        public var localUser: String
        public var blendWhileTyping: Bool
        public var exclude: Exclude

        private enum CodingKeys: String, CodingKey {
            case store, minUsers, capacity, halfLifeDays, recordSelections, systemImage, localUser, blendWhileTyping
            case exclude
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = Options()
            store = try c.decodeIfPresent(String.self, forKey: .store)
            minUsers = try c.decodeIfPresent(Int.self, forKey: .minUsers) ?? defaults.minUsers
            capacity = try c.decodeIfPresent(Int.self, forKey: .capacity) ?? defaults.capacity
            halfLifeDays = try c.decodeIfPresent(Double.self, forKey: .halfLifeDays) ?? 14
            recordSelections = try c.decodeIfPresent(Bool.self, forKey: .recordSelections) ?? defaults.recordSelections
            systemImage = try c.decodeIfPresent(String.self, forKey: .systemImage) ?? defaults.systemImage ?? ""
            localUser = try c.decodeIfPresent(String.self, forKey: .localUser) ?? defaults.localUser
            blendWhileTyping = try c.decodeIfPresent(Bool.self, forKey: .blendWhileTyping) ?? defaults.blendWhileTyping
            exclude = try c.decodeIfPresent(Exclude.self, forKey: .exclude) ?? Exclude()
        }
    }

    public convenience init(configuration: Configuration, context: ProviderContext) throws {
        guard (1...1_000).contains(configuration.minUsers) else {
            throw context.error(at: "minUsers", "expected an integer from 1 to 1000, found \(configuration.minUsers)")
        }
        guard (1...1_000_000).contains(configuration.capacity) else {
            throw context.error(
                at: "capacity", "expected an integer from 1 to 1000000, found \(configuration.capacity)")
        }
        guard configuration.halfLifeDays > 0, configuration.halfLifeDays <= 36_500 else {
            throw context.error(
                at: "halfLifeDays",
                "expected a number of days greater than 0 and at most 36500, found \(configuration.halfLifeDays)"
            )
        }
        guard !configuration.localUser.isEmpty else {
            throw context.error(at: "localUser", "expected a non-empty id, found an empty string")
        }
        guard (0...10_000).contains(configuration.exclude.minLength) else {
            throw context.error(
                at: "exclude.minLength",
                "expected an integer from 0 to 10000, found \(configuration.exclude.minLength)"
            )
        }
        let exclusion: SearchExclusion
        do {
            exclusion = try SearchExclusion(
                minimumLength: configuration.exclude.minLength,
                patterns: configuration.exclude.patterns
            )
        } catch {
            throw context.error(at: "exclude.patterns[\(error.index)]", error.description)
        }
        var store: (any PopularStore)? = nil
        if let path = configuration.store {
            store = PopularFileStore(path: try context.storeFile(path))
        }
        let seconds = configuration.halfLifeDays * 86_400
        self.init(
            id: context.id,
            store: store,
            options: Options(
                minUsers: configuration.minUsers,
                capacity: configuration.capacity,
                halfLife: .milliseconds(Int64((seconds * 1000).rounded())),
                recordSelections: configuration.recordSelections,
                systemImage: configuration.systemImage.isEmpty ? nil : configuration.systemImage,
                exclusion: exclusion,
                localUser: configuration.localUser,
                blendWhileTyping: configuration.blendWhileTyping
            )
        )
    }
}
