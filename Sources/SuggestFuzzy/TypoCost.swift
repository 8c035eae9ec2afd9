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
    var key: [UInt32] = []

    /// The weighted cost of turning `query` into `keyBytes` (folded UTF-8), or into its best prefix when `prefix`.
    mutating func cost(_ query: [UInt32], keyBytes: ArraySlice<UInt8>, prefix: Bool) -> Int32 {
        key.removeAll(keepingCapacity: true)
        var i = keyBytes.startIndex
        while i < keyBytes.endIndex {
            let (scalar, length) = UTF8Scalars.decode(keyBytes, at: i)
            key.append(scalar)
            i += length
            if prefix && key.count >= query.count + Self.prefixSlack { break }
        }
        return Self.cost(query, key, prefix: prefix, rows: &rows)
    }

    /// The weighted cost between `q` and `t` (or `t`'s best prefix), in `rows` as working memory.
    static func cost(_ q: [UInt32], _ t: [UInt32], prefix: Bool, rows: inout [Int32]) -> Int32 {
        let m = q.count
        let n = t.count
        let width = n + 1
        rows.removeAll(keepingCapacity: true)
        rows.append(contentsOf: repeatElement(0, count: (m + 1) * width))
        return rows.withUnsafeMutableBufferPointer { d in
            q.withUnsafeBufferPointer { q in
                t.withUnsafeBufferPointer { t in
                    for j in 1..<(n + 1) {
                        d[j] = d[j - 1] + leftOut(t, j - 1, q, 0) + (j == 1 ? firstCharacter : 0)
                    }
                    for i in 1..<(m + 1) {
                        let row = i * width
                        d[row] = d[row - width] + added(q, i - 1, t, 0) + (i == 1 ? firstCharacter : 0)
                        for j in 1..<(n + 1) {
                            let a = q[i - 1]
                            let b = t[j - 1]
                            var best: Int32
                            if a == b {
                                best = d[row - width + j - 1]
                            } else {
                                best = d[row - width + j - 1] + substituted(a, b) + (i == 1 && j == 1 ? firstCharacter : 0)
                            }
                            let add = d[row - width + j] + added(q, i - 1, t, j) + (i == 1 ? firstCharacter : 0)
                            if add < best { best = add }
                            let omit = d[row + j - 1] + leftOut(t, j - 1, q, i) + (j == 1 ? firstCharacter : 0)
                            if omit < best { best = omit }
                            if i > 1 && j > 1 && a == t[j - 2] && q[i - 2] == b && a != b {
                                let swapped = d[row - 2 * width + j - 2] + swap + (i == 2 ? firstCharacter : 0)
                                if swapped < best { best = swapped }
                            }
                            d[row + j] = best
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

    /// The cost of the typed `q[i]` that the key does not have (before the key's `t[j]`).
    @inline(__always)
    private static func added(_ q: UnsafeBufferPointer<UInt32>, _ i: Int, _ t: UnsafeBufferPointer<UInt32>, _ j: Int)
        -> Int32
    {
        let c = q[i]
        if (i > 0 && q[i - 1] == c) || (j < t.count && t[j] == c) || (j > 0 && t[j - 1] == c) { return doubled }
        return typo
    }

    /// The cost of the key's `t[j]` left out of the typed text (before the typed `q[i]`).
    @inline(__always)
    private static func leftOut(_ t: UnsafeBufferPointer<UInt32>, _ j: Int, _ q: UnsafeBufferPointer<UInt32>, _ i: Int)
        -> Int32
    {
        let c = t[j]
        if (j > 0 && t[j - 1] == c) || (j + 1 < t.count && t[j + 1] == c) || (i > 0 && q[i - 1] == c) { return doubled }
        return typo
    }

    @inline(__always)
    private static func substituted(_ a: UInt32, _ b: UInt32) -> Int32 {
        isVowel(a) && isVowel(b) ? vowel : typo
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
