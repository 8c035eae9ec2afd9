public import SuggestCore

/// The searches a bench draws its sessions from: one or more weighted lists (a dictionary, a static provider's
/// items), each entry drawn in proportion to its weight.
///
/// With several lists, a draw first picks a list in proportion to its number of entries, then an entry of that list
/// by weight: weights of different lists are not on one scale (a static item's popularity of 1e9 beside word
/// counts), so they are never compared.
public struct BenchTargets: Sendable {
    /// One weighted list.
    public struct List: Sendable {
        /// Where it came from (a dictionary's path, `places (static items)`).
        public var name: String
        public var texts: [String]
        /// Running totals of the weights (negative and non-finite weights count as 0); all 0: drawn uniformly.
        var cumulative: [Double]

        /// A list of `(text, weight)` entries; entries with an empty text are left out.
        public init(name: String, entries: [(text: String, weight: Double)]) {
            self.name = name
            texts = []
            cumulative = []
            var total = 0.0
            for (text, weight) in entries where !text.isEmpty {
                total += weight.isFinite ? max(0, weight) : 0
                texts.append(text)
                cumulative.append(total)
            }
        }

        /// Every entry of `dictionary`, by its weight.
        public init(name: String? = nil, dictionary: WeightedDictionary) {
            var texts: [String] = []
            var cumulative: [Double] = []
            texts.reserveCapacity(dictionary.count)
            cumulative.reserveCapacity(dictionary.count)
            var total = 0.0
            for i in 0..<dictionary.count {
                let range = dictionary.textRange(at: i)
                guard !range.isEmpty else { continue }
                let weight = dictionary.weight(at: i)
                total += weight.isFinite ? max(0, weight) : 0
                texts.append(dictionary.text(at: i))
                cumulative.append(total)
            }
            self.name = name ?? dictionary.source
            self.texts = texts
            self.cumulative = cumulative
        }

        public var count: Int { texts.count }

        /// An entry drawn by weight (uniformly when every weight is 0).
        func draw(using rng: inout SplitMix64) -> String {
            let total = cumulative.last ?? 0
            guard total > 0 else { return texts[rng.below(texts.count)] }
            let x = rng.unit() * total
            // The first entry whose running total exceeds x.
            var low = 0
            var high = cumulative.count - 1
            while low < high {
                let mid = (low + high) / 2
                if cumulative[mid] > x { high = mid } else { low = mid + 1 }
            }
            return texts[low]
        }
    }

    /// The lists, in order; none is empty.
    public private(set) var lists: [List]
    /// Lists that were given but hold no entry (named in the error for an empty bench).
    public private(set) var emptyLists: [String]

    /// Targets drawn from `lists` (empty ones are set aside in ``emptyLists``).
    public init(_ lists: [List]) {
        self.lists = lists.filter { $0.count > 0 }
        emptyLists = lists.filter { $0.count == 0 }.map(\.name)
    }

    /// True when there is nothing to draw from.
    public var isEmpty: Bool { lists.isEmpty }

    /// The number of entries of all lists.
    public var count: Int { lists.reduce(0) { $0 + $1.count } }

    /// One search drawn as the type's documentation says.
    /// - Precondition: not ``isEmpty``.
    public func draw(using rng: inout SplitMix64) -> String {
        precondition(!lists.isEmpty, "no target to draw")
        if lists.count == 1 { return lists[0].draw(using: &rng) }
        var pick = rng.below(count)
        for list in lists {
            if pick < list.count { return list.draw(using: &rng) }
            pick -= list.count
        }
        return lists[lists.count - 1].draw(using: &rng)
    }
}
