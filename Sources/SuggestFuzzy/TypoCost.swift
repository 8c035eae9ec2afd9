import SuggestCore

/// How likely a typist is to have made the edits between the typed text and a key: the order of the corrections
/// that need the same number of typos. Typists swap neighbouring letters, double or undouble a letter and confuse one
/// vowel for another far more often than they type an unrelated letter, and they rarely get the first letter wrong
/// (the error model of noisy-channel spelling correctors, Kernighan, Church and Gale 1990; Brill and Moore 2000;
/// here with a few fixed costs instead of learnt ones, and no keyboard layout). So "weither" is corrected to
/// "weather" (a vowel for a vowel) before "either" (a wrong first letter), and "agiles" to "agile" before "giles".
///
/// The typo count still decides the tier and the order inside it (the walk counts Damerau edits); this cost only
/// orders the corrections of one typo count: a candidate's popularity is multiplied by ``factor(cost:typos:)``,
/// twenty times less per ordinary typo's worth of cost above its typo count, twenty times more per one below.
///
/// Costs are in tenths of an ordinary typo. The alignment is the cheapest (a weighted optimal string alignment
/// between the typed scalars and the key's, case and diacritics folded): for a completion, with the best prefix of
/// the key; for a whole word, with the whole key. The costs were chosen on the tuning half of codespell's
/// misspellings (Benchmarks/README.md, "Quality on real dictionaries").
struct TypoCost {
    /// An ordinary typo: a letter for another, a letter left out or added.
    static let typo: Int32 = 10
    /// One vowel typed for another (`a e i o u y`).
    static let vowel: Int32 = 4
    /// A letter added or left out next to the same letter (a doubled letter undoubled, or doubled).
    static let doubled: Int32 = 3
    /// Two neighbouring letters swapped.
    static let swap: Int32 = 4
    /// Added to an edit of the first character.
    static let firstCharacter: Int32 = 10
    /// A completion is aligned with a prefix at most this many scalars longer than the typed text (beyond it the cost
    /// is over any typo budget).
    static let prefixSlack = 4

    /// The working rows, reused between candidates and keystrokes.
    var rows: [Int32] = []
    /// The key's scalars between two ``sentinel``s (the key's scalar `j` at `j + 1`), reused.
    var key: [UInt32] = []
    /// Per key scalar (at the same places as in ``key``): ``vowelFlag``, ``doubledFlag``; reused.
    var flags: [UInt8] = []

    /// Stands before and after the key's scalars: equal to no scalar of a query or a key.
    static let sentinel: UInt32 = 0xFFFF_FFFF
    /// The key's scalar is a vowel.
    static let vowelFlag: UInt8 = 1
    /// The key's scalar equals a neighbour in the key: left out, it is a doubled letter undoubled.
    static let doubledFlag: UInt8 = 2

    /// The weighted cost of turning `query` into `keyBytes` (folded UTF-8), or into its best prefix when `prefix`.
    mutating func cost(_ query: [UInt32], keyBytes: ArraySlice<UInt8>, prefix: Bool) -> Int32 {
        key.removeAll(keepingCapacity: true)
        key.append(Self.sentinel)
        var i = keyBytes.startIndex
        while i < keyBytes.endIndex {
            let (scalar, length) = UTF8Scalars.decode(keyBytes, at: i)
            key.append(scalar)
            i += length
            if prefix && key.count > query.count + Self.prefixSlack { break }
        }
        key.append(Self.sentinel)
        return Self.cost(query, paddedKey: key, prefix: prefix, rows: &rows, flags: &flags)
    }

    /// The weighted cost between `q` and the key `t[1..<t.count - 1]` (or its best prefix), `t` holding a
    /// ``sentinel`` at each end; `rows` and `flags` are working memory. A weighted optimal string alignment: each
    /// cell the cheapest of a match or substitution, an added letter, a left-out letter and a swap, the edits of the
    /// first character costing ``firstCharacter`` more.
    static func cost(
        _ q: [UInt32], paddedKey t: [UInt32], prefix: Bool, rows: inout [Int32], flags: inout [UInt8]
    ) -> Int32 {
        let m = q.count
        let n = t.count - 2
        let width = n + 1
        rows.removeAll(keepingCapacity: true)
        rows.append(contentsOf: repeatElement(0, count: (m + 1) * width))
        // Per key scalar: a vowel; equal to a neighbour (what `leftOut` asks of the key alone).
        flags.removeAll(keepingCapacity: true)
        flags.append(0)
        for j in 1..<(n + 1) {
            let c = t[j]
            var f: UInt8 = isVowel(c) ? vowelFlag : 0
            if t[j - 1] == c || t[j + 1] == c { f |= doubledFlag }
            flags.append(f)
        }
        return rows.withUnsafeMutableBufferPointer { d in
            q.withUnsafeBufferPointer { q in
                t.withUnsafeBufferPointer { t in
                    flags.withUnsafeBufferPointer { f in
                        // Row 0: the key's first j scalars left out.
                        for j in 1..<(n + 1) {
                            let cost = f[j] & doubledFlag != 0 ? doubled : typo
                            d[j] = d[j - 1] + cost + (j == 1 ? firstCharacter : 0)
                        }
                        for i in 1..<(m + 1) {
                            let row = i * width
                            let up = row - width
                            let a = q[i - 1]
                            // What `added` and `substituted` ask of the query alone.
                            let previous = i > 1 ? q[i - 2] : sentinel
                            let doubledInQuery = previous == a
                            let vowel = isVowel(a)
                            let rowFirst = i == 1 ? firstCharacter : 0
                            let swapFirst = i == 2 ? firstCharacter : 0
                            let addedBefore = doubledInQuery || t[1] == a ? doubled : typo
                            d[row] = d[up] + addedBefore + rowFirst
                            // The cells to the left and up-left are carried along. A cost is at most 20 per
                            // scalar of the two texts, so a sum cannot overflow: it is not checked.
                            var left = d[row]
                            var upLeft = d[up]
                            var j = 1
                            while j <= n {
                                let above = d[up + j]
                                let b = t[j]
                                let flag = f[j]
                                var best = upLeft
                                if a != b {
                                    best = best &+ (vowel && flag & vowelFlag != 0 ? Self.vowel : typo)
                                        &+ (j == 1 ? rowFirst : 0)
                                }
                                let addCost = doubledInQuery || t[j + 1] == a || b == a ? doubled : typo
                                let add = above &+ addCost &+ rowFirst
                                if add < best { best = add }
                                let omitCost = flag & doubledFlag != 0 || a == b ? doubled : typo
                                let omit = left &+ omitCost &+ (j == 1 ? firstCharacter : 0)
                                if omit < best { best = omit }
                                // t[j - 1] is the sentinel for j == 1, and `previous` for i == 1: no swap there.
                                if a == t[j - 1] && previous == b && a != b {
                                    let swapped = d[up - width + j - 2] &+ swap &+ swapFirst
                                    if swapped < best { best = swapped }
                                }
                                d[row + j] = best
                                left = best
                                upLeft = above
                                j += 1
                            }
                        }
                        let last = m * width
                        guard prefix else { return d[last + n] }
                        var best = d[last]
                        for j in 0...n where d[last + j] < best { best = d[last + j] }
                        return best
                    }
                }
            }
        }
    }

    @inline(__always)
    static func isVowel(_ c: UInt32) -> Bool {
        c == 0x61 || c == 0x65 || c == 0x69 || c == 0x6F || c == 0x75 || c == 0x79
    }

    /// How much more (or less) popular a candidate ranks for a `cost` of its edits when the walk counted `typos`:
    /// twenty times less per ordinary typo's worth of cost above `typos` ordinary typos, twenty times more per one
    /// below (clamped at four typos' worth either way).
    static func factor(cost: Int32, typos: Int) -> Double {
        let excess = Int(cost) - typos * Int(typo)
        let clamped = min(max(excess, -factorRange), factorRange)
        return factors[clamped + factorRange]
    }

    private static let factorRange = 40
    /// 20^(-x/10) for x in -factorRange...factorRange.
    private static let factors: [Double] = {
        let step = 0.7411344491069477  // 20^(-1/10)
        var values = [Double](repeating: 1, count: 2 * factorRange + 1)
        for x in 1...factorRange {
            values[factorRange + x] = values[factorRange + x - 1] * step
            values[factorRange - x] = values[factorRange - x + 1] / step
        }
        return values
    }()
}
