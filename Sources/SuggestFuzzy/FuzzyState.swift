/// What a keystroke of the fuzzy provider found that a later keystroke of the same typing session narrows from,
/// instead of starting over (kept in ``FuzzyKept``).
struct FuzzyState: Sendable {
    /// The canonical text of the keystroke this state belongs to (Unicode scalars).
    var text: [UInt32] = []
    /// The abbreviation pattern and the sorted positions of the keys it abbreviates: when the next keystroke extends
    /// the pattern, only these are checked again (the greedy alignment of a longer pattern starts with the one of its
    /// prefix).
    var pattern: [UInt8] = []
    var survivors: [Int32]? = nil
    /// The typo walk's query, budget and hits (prefix mode only). When a later keystroke extends the query (by one
    /// character or more, or not at all) with the same budget, every new hit lies in the subtree of an old outermost
    /// hit (drop the appended characters from the alignment: a prefix of the hit was within the budget of the old
    /// query), so only those subtrees are walked again; with no old hit there is nothing to walk. A whole-word walk
    /// (the text ends with a separator) narrows the same way: a key within the budget of the whole query is itself
    /// such a hit or lies below one.
    var scalars: [UInt32] = []
    var typos = -1
    /// The leading scalars that walk kept exact: a later walk narrows from its hits only when it keeps at least as
    /// many (a freer walk can reach nodes below no old hit).
    var exactPrefix = 0
    var hits: [TypoHit]? = nil
    /// The whole-word walks (prefix mode) when they ran, and their budgets: narrowed the same way (the second, with
    /// a wrong first letter, walks with a budget of two whenever the exact prefix is one character).
    var wholeWordBudget = -1
    var wholeWordScalars: [UInt32] = []
    var wholeWordHits: [TypoHit]? = nil
    var wrongPrefixBudget = -1
    var wrongPrefixScalars: [UInt32] = []
    var wrongPrefixHits: [TypoHit]? = nil
    /// The walk for whole words with a wrong first letter (one typo), narrowed the same way.
    var wrongFirstScalars: [UInt32] = []
    var wrongFirstHits: [TypoHit]? = nil

    /// Whether a main walk of `scalars` with `typos` and `exactPrefix` may narrow from this state's hits: its query
    /// extends this one's, with the same budget and a walk at least as free, and no word's share of the budget
    /// (`TypoSearch/capByWords(_:)`, with `allowance`) grew on the part they share: a word still being typed may
    /// reach the length of one more typo.
    func narrows(
        _ scalars: [UInt32], typos: Int, exactPrefix: Int, allowance: (_ length: Int, _ last: Bool) -> Int
    ) -> Bool {
        guard self.typos == typos && self.exactPrefix <= exactPrefix && self.scalars.count <= scalars.count
            && scalars.starts(with: self.scalars)
        else { return false }
        let shared = self.scalars.count
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: shared + 1) { old in
            // A position no word covers (after a trailing separator) keeps the whole budget, as in the walk.
            old.initialize(repeating: Int32(typos))
            TypoSearch.wordCaps(self.scalars, maxTypos: typos, allowance: allowance) { j, cap in old[j] = cap }
            var grew = false
            TypoSearch.wordCaps(scalars, maxTypos: typos, allowance: allowance) { j, cap in
                if j <= shared && cap > old[j] { grew = true }
            }
            return !grew
        }
    }

    /// The most earlier keystrokes kept in ``FuzzyKept/earlier``.
    static let earlierLimit = 64

    /// The state to narrow from for a keystroke whose canonical text is `text`: the previous keystroke's, or, when
    /// its text is not a prefix of `text` (a backspace), the longest earlier one's that is.
    static func base(for text: [UInt32], previous: FuzzyKept?) -> FuzzyState? {
        guard let previous else { return nil }
        if text.starts(with: previous.last.text) { return previous.last.state }
        return previous.earlier.last { text.starts(with: $0.text) }?.state
    }

    /// The earlier states a keystroke with `text` keeps: those of `previous`'s list, and `previous`'s own, whose
    /// text is a proper prefix of `text`.
    static func earlier(for text: [UInt32], previous: FuzzyKept?) -> [FuzzyStateBox] {
        guard let previous else { return [] }
        // Counted first, so that the kept states take one allocation.
        let last = previous.last
        let keepsPrevious = last.text.count < text.count && text.starts(with: last.text)
        var count = keepsPrevious ? 1 : 0
        for state in previous.earlier where state.text.count < text.count && text.starts(with: state.text) {
            count += 1
        }
        guard count > 0 else { return [] }
        var kept: [FuzzyStateBox] = []
        kept.reserveCapacity(min(count, earlierLimit))
        var skip = max(0, count - earlierLimit)
        for state in previous.earlier where state.text.count < text.count && text.starts(with: state.text) {
            if skip > 0 {
                skip -= 1
            } else {
                kept.append(state)
            }
        }
        if keepsPrevious && skip == 0 { kept.append(last) }
        return kept
    }
}

/// What the fuzzy provider keeps between keystrokes of one typing session (its `ProviderOutput/state`): the last
/// keystroke's state, and the states of earlier keystrokes whose text is a prefix of its text, shortest first (after
/// a backspace, or any edit that keeps a prefix, the keystroke narrows from the longest of them instead of walking
/// afresh). The states are boxed, so that handing them on to the next keystroke retains one reference per state
/// instead of copying each state's arrays, and the two references fit in the request's `any Sendable` without an
/// allocation of their own. A state's fields read through it are the last keystroke's.
@dynamicMemberLookup
struct FuzzyKept: Sendable {
    let last: FuzzyStateBox
    let earlier: [FuzzyStateBox]

    subscript<T>(dynamicMember field: KeyPath<FuzzyState, T>) -> T { last.state[keyPath: field] }
}

/// A keystroke's ``FuzzyState``, shared by the lists of the keystrokes after it.
final class FuzzyStateBox: Sendable {
    let state: FuzzyState

    init(_ state: FuzzyState) { self.state = state }

    var text: [UInt32] { state.text }
}
