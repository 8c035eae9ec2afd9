/// Words that mean the same to the person searching, applied to what is being typed: with the group
/// `["pants", "trousers"]`, typing `trou` also finds the entries that say "pants" (and `pan` those that say
/// "trousers"), ranked below every direct match.
///
/// Two kinds of rule, as in Elasticsearch's synonym filter and Typesense's synonym sets:
/// - a **group**: every term stands for every other one (`["sofa", "couch", "settee"]`);
/// - a **one-way rule**: `from` stands for each of `to`, not the other way round (`"tv"` → `"television"`).
///
/// Terms are compared folded, like queries (`Sofa` and `sofa` are one term); a term may have several words
/// (`"new york"` ↔ `"nyc"`). The term at the end of the query is the one replaced: the last word being typed
/// matches a term it starts (at least ``minimumPrefixLength`` characters), a complete last word (the text ends with a
/// separator) matches a whole term; a term of several words needs its earlier words typed whole before it.
///
/// ```json
/// "synonyms": [["pants", "trousers"], { "from": "tv", "to": ["television"] }]
/// ```
public struct Synonyms: Hashable, Sendable {
    /// One term and what it stands for: folded keys, and the terms as written (for explanations).
    struct Rule: Hashable, Sendable {
        var key: [UInt8]
        var wordCount: Int
        var term: String
        var targets: [Target]
    }

    struct Target: Hashable, Sendable {
        var key: [UInt8]
        var term: String
    }

    /// By key, ascending (bytewise); one rule per key.
    private(set) var rules: [Rule] = []

    /// The fewest characters of a last word being typed that a term it starts is tried for (default 3): `t` is the
    /// start of too many terms to mean any of them.
    public var minimumPrefixLength: Int = 3

    /// The most rewritten queries one keystroke asks the providers (default 4): whole-term matches first, then the
    /// shortest terms.
    public var maximumExpansions: Int = 4

    /// No synonyms.
    public init() {}

    /// Synonym groups and one-way rules.
    /// - Parameters:
    ///   - groups: each group's terms all stand for one another.
    ///   - oneWay: each term stands for its list of terms, not the other way round.
    /// - Throws: `ConfigurationError` naming the group or rule (`groups[1][0]`, `oneWay["tv"][0]`) for a term with no
    ///   word in it, a group of fewer than two different terms, or a rule whose only targets are the term itself.
    public init(groups: [[String]] = [], oneWay: [String: [String]] = [:]) throws {
        var builder = Builder()
        for (g, group) in groups.enumerated() {
            if let error = builder.addGroup(group, path: "groups[\(g)]") { throw error }
        }
        for (from, to) in oneWay.sorted(by: { $0.key < $1.key }) {
            if let error = builder.addRule(from: from, to: to, path: "oneWay[\("\"\(from)\"")]") {
                throw error
            }
        }
        self.rules = builder.rules()
    }

    init(rules: [Rule]) { self.rules = rules }

    /// True when there is no rule.
    public var isEmpty: Bool { rules.isEmpty }

    /// The number of terms that stand for others.
    public var count: Int { rules.count }

    /// What a synonym rewrite replaced: the term as configured and the one it was replaced with.
    public struct Match: Hashable, Sendable, CustomStringConvertible {
        /// The configured term the end of the query matched (`trousers` for `trou`).
        public var term: String
        /// The term it stands for, which the rewritten query searched (`pants`).
        public var replacement: String

        public init(term: String, replacement: String) {
            self.term = term
            self.replacement = replacement
        }

        public var description: String { "\(term) → \(replacement)" }
    }

    /// A query rewritten by one rule: its text, and what was replaced.
    struct Rewrite: Sendable {
        var query: SearchQuery
        var match: Match
    }

    /// The queries to ask besides `query`: the end of its folded text replaced by each term that the matching rules
    /// stand for. Empty when nothing matches (no allocation then).
    /// - Complexity: O(w log r) for the w words of the longest term and r rules, plus the rewrites.
    func rewrites(of query: PreparedQuery) -> [Rewrite] {
        guard !rules.isEmpty, let last = query.words.last else { return [] }
        let bytes = query.normalized
        var found: [(rule: Int, whole: Bool, start: Int)] = []
        var maxWords = 1
        for rule in rules where rule.wordCount > maxWords { maxWords = rule.wordCount }
        let partial = query.lastWordIsPartial
        let lastLength = UTF8Scalars.count(bytes[last])
        for words in 1...min(maxWords, query.words.count) {
            let first = query.words[query.words.count - words]
            // The end of the query as a key: its words joined by single spaces.
            var phrase: [UInt8] = []
            phrase.reserveCapacity(last.upperBound - first.lowerBound)
            for w in (query.words.count - words)..<query.words.count {
                if !phrase.isEmpty { phrase.append(0x20) }
                phrase.append(contentsOf: bytes[query.words[w]])
            }
            var i = lowerBound(phrase)
            while i < rules.count, rules[i].key.starts(with: phrase) {
                let rule = rules[i]
                let whole = rule.key.count == phrase.count
                if rule.wordCount == words && (whole || (partial && lastLength >= minimumPrefixLength)) {
                    found.append((i, whole, first.lowerBound))
                }
                if !partial { break }  // a complete last word matches only the whole term (the first in order)
                i += 1
            }
        }
        guard !found.isEmpty else { return [] }
        found.sort { a, b in
            if a.whole != b.whole { return a.whole }
            let la = rules[a.rule].key.count
            let lb = rules[b.rule].key.count
            return la != lb ? la < lb : a.rule < b.rule
        }
        var result: [Rewrite] = []
        for hit in found {
            let rule = rules[hit.rule]
            for target in rule.targets {
                if result.count >= maximumExpansions { return result }
                var text = String(decoding: bytes[..<hit.start], as: UTF8.self)
                text += String(decoding: target.key, as: UTF8.self)
                if !partial { text += " " }
                let rewritten = SearchQuery(text: text, tokens: query.query.tokens, scope: query.query.scope)
                result.append(Rewrite(query: rewritten, match: Match(term: rule.term, replacement: target.term)))
            }
        }
        return result
    }

    /// The first rule whose key is not below `key`.
    private func lowerBound(_ key: [UInt8]) -> Int {
        var low = 0
        var high = rules.count
        while low < high {
            let mid = (low + high) >> 1
            if rules[mid].key.lexicographicallyPrecedes(key) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Collects rules, merging what several groups and rules say of one term.
    /// The most terms of one group: each term stands for every other, so a group of n terms makes n × (n − 1)
    /// targets; a longer list is a one-way rule's job.
    public static let maximumGroupSize = 100

    struct Builder {
        private var byKey: [[UInt8]: Rule] = [:]
        /// The target keys of each rule in `byKey`, so that adding one is O(1).
        private var targetKeys: [[UInt8]: Set<[UInt8]>] = [:]

        /// Folds `term`: its words joined by single spaces; nil when it has no word.
        static func key(_ term: String) -> (key: [UInt8], words: Int)? {
            var bytes: [UInt8] = []
            TextNormalizer.normalize(term, into: &bytes)
            var key: [UInt8] = []
            var words = 0
            var inWord = false
            for b in bytes {
                if TextNormalizer.isSeparator(b) {
                    inWord = false
                } else {
                    if !inWord {
                        if words > 0 { key.append(0x20) }
                        words += 1
                        inWord = true
                    }
                    key.append(b)
                }
            }
            return words == 0 ? nil : (key, words)
        }

        mutating func addGroup(_ terms: [String], path: String) -> ConfigurationError? {
            var keys: [(key: [UInt8], words: Int, term: String)] = []
            var seen = Set<[UInt8]>()
            for (i, term) in terms.enumerated() {
                guard let (key, words) = Self.key(term) else {
                    return .at("\(path)[\(i)]", "expected a term with at least one letter or digit, found \("\"\(term)\"")")
                }
                if seen.insert(key).inserted { keys.append((key, words, term)) }
            }
            guard keys.count <= Synonyms.maximumGroupSize else {
                return .at(
                    path,
                    "expected at most \(Synonyms.maximumGroupSize) different terms in a group (each stands for every "
                        + "other), found \(keys.count); write a longer list as one-way rules")
            }
            guard keys.count >= 2 else {
                return .at(path, "expected at least two different terms in a group, found \(keys.count)")
            }
            for from in keys {
                for to in keys where to.key != from.key {
                    add(from: from, to: Target(key: to.key, term: to.term))
                }
            }
            return nil
        }

        mutating func addRule(from: String, to: [String], path: String, fromPath: String? = nil) -> ConfigurationError? {
            guard let (key, words) = Self.key(from) else {
                return .at(fromPath ?? path, "expected a term with at least one letter or digit, found \("\"\(from)\"")")
            }
            var targets: [Target] = []
            var seen: Set<[UInt8]> = [key]
            for (i, term) in to.enumerated() {
                guard let (targetKey, _) = Self.key(term) else {
                    return .at("\(path)[\(i)]", "expected a term with at least one letter or digit, found \("\"\(term)\"")")
                }
                if seen.insert(targetKey).inserted { targets.append(Target(key: targetKey, term: term)) }
            }
            guard !targets.isEmpty else {
                return .at(path, "expected at least one term other than \("\"\(from)\"") to stand for")
            }
            for target in targets { add(from: (key, words, from), to: target) }
            return nil
        }

        private mutating func add(from: (key: [UInt8], words: Int, term: String), to target: Target) {
            guard targetKeys[from.key, default: []].insert(target.key).inserted else { return }
            byKey[from.key, default: Rule(key: from.key, wordCount: from.words, term: from.term, targets: [])]
                .targets.append(target)
        }

        func rules() -> [Rule] {
            byKey.values.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        }
    }
}
