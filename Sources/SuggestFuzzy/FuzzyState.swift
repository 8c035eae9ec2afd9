/// What the fuzzy provider keeps between keystrokes of one typing session, to narrow instead of starting over.
struct FuzzyState: Sendable {
    /// The abbreviation pattern and the sorted positions of the keys it abbreviates: when the next keystroke extends
    /// the pattern, only these are checked again (the greedy alignment of a longer pattern starts with the one of its
    /// prefix).
    var pattern: [UInt8] = []
    var survivors: [Int32]? = nil
    /// The typo walk's query, budget and hits (prefix mode only). When the next keystroke appends one character
    /// with the same budget, every new hit lies in the subtree of an old outermost hit (drop the appended
    /// character from the alignment: its prefix, or the prefix one character shorter, was within the budget), so
    /// only those subtrees are walked again; with no old hit there is nothing to walk.
    var scalars: [UInt32] = []
    var typos = -1
    var hits: [TypoHit]? = nil
    /// The whole-word walks (prefix mode) when they ran, and their budget: narrowed the same way.
    var wholeWordBudget = -1
    var wholeWordScalars: [UInt32] = []
    var wholeWordHits: [TypoHit]? = nil
    var wrongPrefixHits: [TypoHit]? = nil
    /// The walk for whole words with a wrong first letter (one typo), narrowed the same way.
    var wrongFirstScalars: [UInt32] = []
    var wrongFirstHits: [TypoHit]? = nil
}
