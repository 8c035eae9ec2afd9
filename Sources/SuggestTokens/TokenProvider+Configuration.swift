import Foundation
import SuggestPattern
public import SuggestCore

extension TokenProvider {
    /// The `"tokens"` entry of a configuration.
    ///
    /// ```json
    /// { "type": "tokens",
    ///   "delimiters": [","],             // default [","]; [] turns delimiters off
    ///   "convertOnSpace": true,          // a vocabulary entry followed by a space becomes a token
    ///   "engine": "pcre2",               // or "swift" (Swift Regex); default pcre2 when the build has it
    ///   "matchLimit": 100000,            // PCRE2 match limit per pattern and keystroke, 1000 to 100000000
    ///   "maxSuggestedTokens": 8,         // 0 to 1000
    ///   "rules": [ { "kind": "from", "pattern": "\\bfrom:(?<value>\\S+)", "display": "From: $value",
    ///                "systemImage": "person", "values": ["alice", "alex"], "editText": "from:$value" } ],
    ///   "vocabulary": { "ingredient": ["Chicken", "Beef"],
    ///                   "cuisine": { "file": "cuisines.txt", "systemImage": "globe" } } }
    /// ```
    public struct Configuration: Decodable, Sendable {
        /// One rule entry; its pattern is compiled when the provider is built.
        public struct Rule: Decodable, Sendable {
            /// Required unless the pattern has a group named `kind`.
            public var kind: String?
            public var pattern: String
            public var display: String?
            public var systemImage: String?
            public var values: [String]
            public var editText: String?

            public init(
                kind: String?,
                pattern: String,
                display: String? = nil,
                systemImage: String? = nil,
                values: [String] = [],
                editText: String? = nil
            ) {
                self.kind = kind
                self.pattern = pattern
                self.display = display
                self.systemImage = systemImage
                self.values = values
                self.editText = editText
            }

            private enum CodingKeys: String, CodingKey { case kind, pattern, display, systemImage, values, editText }

            public init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                self.init(
                    kind: try c.decodeIfPresent(String.self, forKey: .kind),
                    pattern: try c.decode(String.self, forKey: .pattern),
                    display: try c.decodeIfPresent(String.self, forKey: .display),
                    systemImage: try c.decodeIfPresent(String.self, forKey: .systemImage),
                    values: try c.decodeIfPresent([String].self, forKey: .values) ?? [],
                    editText: try c.decodeIfPresent(String.self, forKey: .editText)
                )
            }
        }

        public var delimiters: [String]
        public var convertOnSpace: Bool
        public var engine: String?
        public var matchLimit: Int?
        public var maxSuggestedTokens: Int
        public var rules: [Rule]
        /// The `"vocabulary"` object as written (kinds in document order); read when the provider is built, because
        /// its files resolve against the configuration's folder.
        public var vocabulary: JSONValue?

        public init(
            delimiters: [String] = [","],
            convertOnSpace: Bool = true,
            engine: String? = nil,
            matchLimit: Int? = nil,
            maxSuggestedTokens: Int = 8,
            rules: [Rule] = [],
            vocabulary: JSONValue? = nil
        ) {
            self.delimiters = delimiters
            self.convertOnSpace = convertOnSpace
            self.engine = engine
            self.matchLimit = matchLimit
            self.maxSuggestedTokens = maxSuggestedTokens
            self.rules = rules
            self.vocabulary = vocabulary
        }

        private enum CodingKeys: String, CodingKey {
            case delimiters, convertOnSpace, engine, matchLimit, maxSuggestedTokens, rules, vocabulary
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                delimiters: try c.decodeIfPresent([String].self, forKey: .delimiters) ?? [","],
                convertOnSpace: try c.decodeIfPresent(Bool.self, forKey: .convertOnSpace) ?? true,
                engine: try c.decodeIfPresent(String.self, forKey: .engine),
                matchLimit: try c.decodeIfPresent(Int.self, forKey: .matchLimit),
                maxSuggestedTokens: try c.decodeIfPresent(Int.self, forKey: .maxSuggestedTokens) ?? 8,
                rules: try c.decodeIfPresent([Rule].self, forKey: .rules) ?? [],
                vocabulary: try c.decodeIfPresent(JSONValue.self, forKey: .vocabulary)
            )
        }
    }

    /// Builds the provider from its configuration entry: compiles the rules, reads the vocabulary (files relative
    /// to the configuration file).
    /// - Throws: `ConfigurationError`s at the JSON path of each bad value
    ///   (`providers[0].rules[0].pattern: missing closing parenthesis at offset 11`).
    public init(configuration: Configuration, context: ProviderContext) throws {
        var errors: [ConfigurationError] = []
        for (i, delimiter) in configuration.delimiters.enumerated() where delimiter.isEmpty {
            errors.append(context.error(at: "delimiters[\(i)]", "a delimiter must not be empty"))
        }
        var engine = PatternEngine.default
        if let name = configuration.engine {
            let names = ["pcre2", "swift"]
            if let named = PatternEngine(name: name) {
                if named.isAvailable {
                    engine = named
                } else {
                    errors.append(
                        context.error(
                            at: "engine",
                            "\"\(name)\" is not in this build (the package trait PCRE2 is off); use \"swift\""
                        )
                    )
                }
            } else {
                var message = "expected \"pcre2\" or \"swift\", found \"\(name)\""
                if let nearest = NearestName.nearest(to: name, in: names) {
                    message += " — did you mean \"\(nearest)\"?"
                }
                errors.append(context.error(at: "engine", message))
            }
        }
        var limits = PatternLimits()
        if let limit = configuration.matchLimit {
            if limit >= 1_000 && limit <= 100_000_000 {
                limits.matchLimit = UInt32(limit)
            } else {
                errors.append(
                    context.error(at: "matchLimit", "expected an integer from 1000 to 100000000, found \(limit)")
                )
            }
        }
        if !(0...1_000).contains(configuration.maxSuggestedTokens) {
            errors.append(
                context.error(
                    at: "maxSuggestedTokens",
                    "expected an integer from 0 to 1000, found \(configuration.maxSuggestedTokens)"
                )
            )
        }
        var rules: [TokenRule] = []
        for (i, rule) in configuration.rules.enumerated() {
            let groups = PatternEngine.groupNames(declaredIn: rule.pattern)
            let hasKindGroup = groups.contains("kind")
            // A group whose name is a near miss of "value" or "kind" (`(?<valeu>…)`, `(?<Value>…)`): the token would
            // silently take the whole match as its value, or the rule's kind.
            let missing = ["value", "kind"].filter { !groups.contains($0) }
            for name in groups.sorted() where name != "value" && name != "kind" {
                guard let nearest = NearestName.nearest(to: name, in: missing) else { continue }
                let offset = ["<\(name)>", "'\(name)'"].lazy.compactMap { rule.pattern.range(of: $0) }.first
                    .map { rule.pattern.utf8.distance(from: rule.pattern.startIndex, to: $0.lowerBound) - 2 }
                errors.append(
                    context.error(
                        at: "rules[\(i)].pattern",
                        "a group named \"\(name)\" — did you mean \"\(nearest)\"? (the token's \(nearest) comes from the "
                            + "group named \(nearest))" + (offset.map { " at offset \(max(0, $0))" } ?? "")
                    )
                )
            }
            let kind = rule.kind ?? ""
            if rule.kind == nil && !hasKindGroup {
                errors.append(
                    context.error(
                        at: "rules[\(i)]",
                        "missing required key \"kind\" (the pattern has no group named kind)"
                    )
                )
            } else if rule.kind?.isEmpty == true {
                errors.append(context.error(at: "rules[\(i)].kind", "a kind must not be empty"))
            }
            if let display = rule.display, let problem = Self.displayPlaceholderProblem(display) {
                errors.append(context.error(at: "rules[\(i)].display", problem))
            }
            if rule.pattern.isEmpty {
                errors.append(context.error(at: "rules[\(i)].pattern", "a pattern must not be empty"))
                continue
            }
            do {
                rules.append(
                    try TokenRule(
                        kind: kind,
                        pattern: rule.pattern,
                        display: rule.display,
                        systemImage: rule.systemImage,
                        values: rule.values,
                        editText: rule.editText,
                        engine: engine,
                        limits: limits
                    )
                )
            } catch {
                errors.append(context.error(at: "rules[\(i)].pattern", error.description))
            }
        }
        let vocabulary = Self.readVocabulary(configuration.vocabulary, context: context, errors: &errors)
        if errors.count == 1 { throw errors[0] }
        if !errors.isEmpty { throw ConfigurationErrors(errors) }
        self.init(
            id: context.id,
            delimiters: configuration.delimiters,
            convertOnSpace: configuration.convertOnSpace,
            rules: rules,
            vocabulary: vocabulary,
            maxSuggestedTokens: configuration.maxSuggestedTokens
        )
    }

    static func readVocabulary(
        _ value: JSONValue?,
        context: ProviderContext,
        errors: inout [ConfigurationError]
    ) -> TokenVocabulary {
        var vocabulary = TokenVocabulary()
        guard let value else { return vocabulary }
        guard case .object(let kinds) = value else {
            errors.append(
                context.error(
                    at: "vocabulary",
                    "expected an object of kinds (\"ingredient\": [\"Chicken\"]), found \(value.kindDescription)"
                )
            )
            return vocabulary
        }
        for kind in kinds.keys {
            let path = "vocabulary.\(kind)"
            if kind.isEmpty {
                errors.append(context.error(at: "vocabulary", "a kind must not be empty"))
                continue
            }
            var values: [String] = []
            var systemImage: String? = nil
            switch kinds[kind]! {
            case .array(let items):
                values = readValues(items, path: path, context: context, errors: &errors)
            case .object(let source):
                let known = ["file", "values", "systemImage"]
                for key in source.keys where !known.contains(key) {
                    var message = "unknown key \"\(key)\""
                    if let nearest = NearestName.nearest(to: key, in: known) {
                        message += " — did you mean \"\(nearest)\"?"
                    }
                    errors.append(context.error(at: path, message))
                }
                if let image = source["systemImage"] {
                    if let s = image.stringValue {
                        systemImage = s
                    } else {
                        errors.append(
                            context.error(
                                at: path + ".systemImage",
                                "expected a string, found \(image.kindDescription)"
                            )
                        )
                    }
                }
                if let items = source["values"] {
                    if case .array(let items) = items {
                        values += readValues(items, path: path + ".values", context: context, errors: &errors)
                    } else {
                        errors.append(
                            context.error(
                                at: path + ".values",
                                "expected an array of strings, found \(items.kindDescription)"
                            )
                        )
                    }
                }
                if let file = source["file"] {
                    if let name = file.stringValue, !name.isEmpty {
                        do {
                            values += try readFile(context.resolve(name))
                        } catch {
                            errors.append(context.error(at: path + ".file", error.description))
                        }
                    } else {
                        errors.append(
                            context.error(at: path + ".file", "expected a file name, found \(file.kindDescription)")
                        )
                    }
                }
                if source["file"] == nil && source["values"] == nil {
                    errors.append(context.error(at: path, "expected \"file\" or \"values\""))
                }
            case let other:
                errors.append(
                    context.error(
                        at: path,
                        "expected an array of strings or {\"file\": …}, found \(other.kindDescription)"
                    )
                )
            }
            for value in values { vocabulary.add(SearchToken(kind: kind, value: value, systemImage: systemImage)) }
        }
        return vocabulary
    }

    static func readValues(
        _ items: [JSONValue],
        path: String,
        context: ProviderContext,
        errors: inout [ConfigurationError]
    ) -> [String] {
        var values: [String] = []
        for (i, item) in items.enumerated() {
            if let s = item.stringValue, !TokenVocabulary.fold(s).isEmpty {
                values.append(s)
            } else {
                errors.append(
                    context.error(
                        at: "\(path)[\(i)]",
                        "expected a non-empty word or phrase, found \(item.kindDescription)"
                    )
                )
            }
        }
        return values
    }

    /// A vocabulary file: one entry per line (UTF-8); blank lines are skipped, spaces around entries trimmed. Read
    /// as every text file is (``TextFile``): `\r\n` line ends and a byte order mark are not part of any entry.
    struct FileError: Error, CustomStringConvertible {
        var description: String
    }

    static func readFile(_ path: String) throws(FileError) -> [String] {
        let bytes: [UInt8]
        do {
            bytes = try TextFile.read(path)
        } catch {
            throw FileError(description: error == .missing ? "no such file: \(path)" : "\(path): \(error.description)")
        }
        var values: [String] = []
        for line in TextLines(bytes) {
            guard let text = String(validating: bytes[line.range], as: UTF8.self) else {
                throw FileError(description: "\(path):\(line.number): not valid UTF-8")
            }
            let entry = trimmed(text)
            if !entry.isEmpty { values.append(entry) }
        }
        return values
    }

    /// The placeholders a rule's `display` may hold.
    static let displayPlaceholders = ["value", "kind"]

    /// A `$word` in a display template that is not a placeholder but close to one, with its first letter (`$valu`,
    /// `$Kind`): it would be shown as typed. Other `$` words (`$USD`, `$mind`) are text. Nil when there is none.
    static func displayPlaceholderProblem(_ display: String) -> String? {
        let bytes = Array(display.utf8)
        var i = 0
        while i < bytes.count {
            defer { i += 1 }
            guard bytes[i] == UInt8(ascii: "$") else { continue }
            var end = i + 1
            while end < bytes.count, bytes[end] < 0x80, Character(Unicode.Scalar(bytes[end])).isLetter { end += 1 }
            let word = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
            guard !word.isEmpty else { continue }
            // A placeholder followed by more letters ("$values") is the placeholder and text.
            if displayPlaceholders.contains(where: { word.hasPrefix($0) }) { continue }
            // A misspelling keeps the placeholder's first letter (`$mind`, `$find` are text).
            guard let nearest = NearestName.nearest(to: word, in: displayPlaceholders),
                word.lowercased().first == nearest.first
            else { continue }
            return "unknown placeholder \"$\(word)\" at offset \(i) (UTF-8 bytes) — did you mean \"$\(nearest)\"? "
                + "(placeholders: $value, $kind)"
        }
        return nil
    }
}
