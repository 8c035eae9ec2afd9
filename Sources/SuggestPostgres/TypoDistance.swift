#if Server
/// Prefix edit distance with transpositions (optimal string alignment): the fewest edits that turn `query` into
/// a prefix of `text`.
enum TypoDistance {
    /// The distance and the length of `text`'s prefix it was reached with, or nil above `maximum`.
    static func prefix(_ query: [Unicode.Scalar], of text: [Unicode.Scalar], maximum: Int) -> (Int, Int)? {
        let m = query.count
        let n = min(text.count, m + maximum)
        if m == 0 { return (0, 0) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: n + 1), count: m + 1)
        for i in 0...m { d[i][0] = i }
        for j in 0...n { d[0][j] = j }
        if n > 0 {
            for i in 1...m {
                for j in 1...n {
                    let cost = query[i - 1] == text[j - 1] ? 0 : 1
                    d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                    if i > 1, j > 1, query[i - 1] == text[j - 2], query[i - 2] == text[j - 1] {
                        d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                    }
                }
            }
        }
        var best = (Int.max, 0)
        for j in 0...n where d[m][j] < best.0 { best = (d[m][j], j) }
        return best.0 <= maximum ? best : nil
    }
}
#endif
