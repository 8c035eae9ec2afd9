/// Edit distance with transpositions (optimal string alignment, the restricted Damerau–Levenshtein distance):
/// insertions, deletions, substitutions and swaps of two adjacent scalars each count one edit.
package enum EditDistance {
    /// The fewest edits that turn `a` into `b`.
    /// - Complexity: O(`a.count` × `b.count`).
    package static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        lastRow(a, b, columns: b.count).last!
    }

    /// The fewest edits that turn `query` into a prefix of `text`, with the length of that prefix (the shortest
    /// one at that distance), or nil when more than `maximum` edits are needed.
    /// - Complexity: O(`query.count` × (`query.count` + `maximum`)).
    package static func prefix(
        _ query: [Unicode.Scalar],
        of text: [Unicode.Scalar],
        maximum: Int
    ) -> (distance: Int, length: Int)? {
        if query.isEmpty { return (0, 0) }
        let row = lastRow(query, text, columns: min(text.count, query.count + maximum))
        var best = (distance: Int.max, length: 0)
        for (length, distance) in row.enumerated() where distance < best.distance { best = (distance, length) }
        return best.distance <= maximum ? best : nil
    }

    /// The distances from all of `a` to each prefix `b[0..<j]`, `j` in `0...columns`.
    static func lastRow(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], columns: Int) -> [Int] {
        let width = columns + 1
        // Three rows: the one before the previous is needed for a transposition.
        var older = [Int](repeating: 0, count: width)
        var previous = Array(0...columns)
        var current = [Int](repeating: 0, count: width)
        if a.isEmpty { return previous }
        for i in 1...a.count {
            current[0] = i
            if columns > 0 {
                for j in 1...columns {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, older[j - 2] + 1) }
                    current[j] = best
                }
            }
            swap(&older, &previous)
            swap(&previous, &current)
        }
        return previous
    }
}
