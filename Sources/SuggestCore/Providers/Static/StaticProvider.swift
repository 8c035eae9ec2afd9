/// A fixed list of suggestions (`"type": "static"`), like the "Apple, Pear, Banana" of a SwiftUI sample: matched
/// by prefix and word-prefix of the folded title, optionally shown on an empty field.
///
/// ```json
/// { "type": "static", "showWhenEmpty": 3,
///   "items": [ { "title": "Apple", "completion": "apple", "systemImage": "leaf" },
///              { "title": "Chicken", "token": { "kind": "ingredient", "value": "Chicken" } } ] }
/// ```
public struct StaticProvider: ConfigurableProvider {
    /// One item of the list.
    public struct Item: Decodable, Hashable, Sendable {
        public var title: String
        public var completion: Suggestion.Completion
        public var subtitle: String?
        public var systemImage: String?
        /// Ranks items inside a tier (default 1; 0 to ``maximumPopularity``).
        public var popularity: Double
        /// The largest `popularity` a configuration may give (keeps scores finite).
        public static let maximumPopularity = 1e12

        public init(
            title: String,
            completion: Suggestion.Completion? = nil,
            subtitle: String? = nil,
            systemImage: String? = nil,
            popularity: Double = 1
        ) {
            self.title = title
            self.completion = completion ?? .text(title)
            self.subtitle = subtitle
            self.systemImage = systemImage
            self.popularity = popularity
        }

        private enum CodingKeys: String, CodingKey {
            case title, completion, token, subtitle, systemImage, popularity
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let title = try c.decode(String.self, forKey: .title)
            if title.isEmpty {
                throw ConfigurationError(
                    path: JSONPath.string(c.codingPath + [CodingKeys.title]),
                    message: "an item's title must not be empty"
                )
            }
            let text = try c.decodeIfPresent(String.self, forKey: .completion)
            let token = try c.decodeIfPresent(SearchToken.self, forKey: .token)
            if text != nil && token != nil {
                throw ConfigurationError(
                    path: JSONPath.string(c.codingPath),
                    message: "give either \"completion\" or \"token\", not both"
                )
            }
            let subtitle = try c.decodeIfPresent(String.self, forKey: .subtitle)
            let systemImage = try c.decodeIfPresent(String.self, forKey: .systemImage)
            // Last, so that the other keys are known even when it is out of range.
            let popularity = try c.decodeIfPresent(Double.self, forKey: .popularity, in: 0...Self.maximumPopularity) ?? 1
            self.init(
                title: title,
                completion: token.map { .token($0) } ?? text.map { .text($0) },
                subtitle: subtitle,
                systemImage: systemImage,
                popularity: popularity
            )
        }
    }

    public struct Configuration: Decodable, Sendable {
        public var items: [Item]
        /// How many items (from the top of the list) to show on an empty field: none by default.
        public var showWhenEmpty: Int
        /// The numbers `showWhenEmpty` may be (`true` means all items).
        public static let showWhenEmptyRange = 0...1_000_000

        public init(items: [Item], showWhenEmpty: Int = 0) {
            self.items = items
            self.showWhenEmpty = showWhenEmpty
        }

        private enum CodingKeys: String, CodingKey { case items, showWhenEmpty }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            items = try c.decode([Item].self, forKey: .items)
            switch try c.decodeIfPresent(JSONValue.self, forKey: .showWhenEmpty) {
            case nil, .bool(false)?: showWhenEmpty = 0
            case .bool(true)?: showWhenEmpty = Int.max
            case .number(let n)? where Int(exactly: n).map(Self.showWhenEmptyRange.contains) == true:
                showWhenEmpty = Int(n)
            case let other?:
                throw ConfigurationError(
                    path: JSONPath.string(c.codingPath + [CodingKeys.showWhenEmpty]),
                    message: "expected true, false or a number of items from 0 to \(Self.showWhenEmptyRange.upperBound), "
                        + "found \(other.kindDescription)"
                )
            }
        }
    }

    public static let typeName = "static"

    public let id: String
    public let items: [Item]
    public let showWhenEmpty: Int
    /// Folded titles, prepared once.
    let texts: [NormalizedText]

    public init(id: String = "static", items: [Item], showWhenEmpty: Int = 0) {
        self.id = id
        self.items = items
        self.showWhenEmpty = showWhenEmpty
        self.texts = items.map { NormalizedText($0.title) }
    }

    public init(configuration: Configuration, context: ProviderContext) throws {
        self.init(id: context.id, items: configuration.items, showWhenEmpty: configuration.showWhenEmpty)
    }

    public func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        if request.query.isEmpty {
            // Only on a truly empty field: no text and no token.
            guard request.query.query.isEmpty else { return }
            // Items in order, one per completion (the engine would merge two with the same folded text).
            var shown: [MergeKey] = []
            for item in items where shown.count < min(showWhenEmpty, request.limit) && !isChosen(item, request) {
                let key = MergeKey(item.completion)
                guard !shown.contains(key) else { continue }
                shown.append(key)
                output.append(candidate(item, tier: .unfiltered, ranges: []))
            }
            return
        }
        for (index, item) in items.enumerated() where !isChosen(item, request) {
            guard let (tier, ranges) = TextMatcher.match(request.query, in: texts[index]) else { continue }
            output.append(candidate(item, tier: tier, ranges: ranges))
        }
        // Every match, not the `limit` most popular of each tier: a list is small enough to match item by item,
        // and the engine's selection history (`learnFromSelections`) can then lift any item the person keeps
        // choosing, which a cut here would hide. (The conformance kit's limitPerTier check is off for it.)
    }

    /// A token item already in the query is not offered again.
    func isChosen(_ item: Item, _ request: SuggestionRequest) -> Bool {
        if case .token(let token) = item.completion { return request.tokens.contains(token) }
        return false
    }

    func candidate(_ item: Item, tier: MatchTier, ranges: [Range<Int>]) -> SuggestionCandidate {
        SuggestionCandidate(
            title: item.title,
            subtitle: item.subtitle,
            completion: item.completion,
            matchedRanges: ranges,
            tier: tier,
            popularity: item.popularity,
            systemImage: item.systemImage
        )
    }
}
