import SuggestIndex
import HeapModule

/// A range of sorted positions and the position of its heaviest key.
struct RangeMaximum: Comparable {
    /// The popularity rank of `position` (smaller is more popular).
    var rank: Int
    var position: Int
    var lo: Int
    var hi: Int
    /// Which piece it came from (for the matched depth).
    var piece: Int

    static func < (a: RangeMaximum, b: RangeMaximum) -> Bool {
        a.rank != b.rank ? a.rank > b.rank : a.position > b.position
    }
    static func == (a: RangeMaximum, b: RangeMaximum) -> Bool { a.position == b.position && a.lo == b.lo }
}

extension FuzzyIndex {
    /// The heaviest keys (at most `limit`) in the union of disjoint `ranges`, heaviest first, skipping positions
    /// for which `skip` is true. Calls `body(position, rangeIndex)` for each.
    /// - Complexity: O((limit + skipped + ranges) log n).
    func forEachHeaviest(
        in ranges: [Range<Int>],
        limit: Int,
        skip: (Int) -> Bool,
        _ body: (Int, Int) -> Void
    ) {
        forEachHeaviestWhile(in: ranges, limit: limit, skip: skip) { position, piece in
            body(position, piece)
            return true
        }
    }

    /// As above, stopping early when `body` returns false.
    func forEachHeaviestWhile(
        in ranges: [Range<Int>],
        limit: Int,
        skip: (Int) -> Bool,
        _ body: (Int, Int) -> Bool
    ) {
        guard limit > 0 else { return }
        var heap = Heap<RangeMaximum>()
        for (k, range) in ranges.enumerated() where !range.isEmpty {
            let p = argmax(range)
            heap.insert(RangeMaximum(rank: rank(p), position: p, lo: range.lowerBound, hi: range.upperBound, piece: k))
        }
        var emitted = 0
        while emitted < limit, let top = heap.popMax() {
            if !skip(top.position) {
                if !body(top.position, top.piece) { return }
                emitted += 1
            }
            if top.lo < top.position {
                let p = argmax(top.lo..<top.position)
                heap.insert(RangeMaximum(rank: rank(p), position: p, lo: top.lo, hi: top.position, piece: top.piece))
            }
            if top.position + 1 < top.hi {
                let p = argmax((top.position + 1)..<top.hi)
                heap.insert(
                    RangeMaximum(rank: rank(p), position: p, lo: top.position + 1, hi: top.hi, piece: top.piece)
                )
            }
        }
    }
}
