import SuggestIndex

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
        var heap: [RangeMaximum] = []
        forEachHeaviestWhile(in: ranges, limit: limit, heap: &heap, skip: skip, body)
    }

    /// As above, with `heap` as the working memory (emptied first): nothing is allocated once it has grown.
    func forEachHeaviestWhile(
        in ranges: [Range<Int>],
        limit: Int,
        heap: inout [RangeMaximum],
        skip: (Int) -> Bool,
        _ body: (Int, Int) -> Bool
    ) {
        RangeMaximum.forEachBestWhile(
            in: ranges, limit: limit, heap: &heap, best: { argmax($0..<$1) }, rank: { rank($0) }, skip: skip, body)
    }
}

extension RangeMaximum {
    /// The positions of the union of disjoint `ranges` in order of `rank` (smallest first), at most `limit` of them
    /// not skipped, each given to `body(position, rangeIndex)` until it returns false: `best(lo, hi)` is the
    /// position of smallest rank in `lo..<hi` that may be given (-1 for none); each one given splits its range in
    /// two. `heap` is the working memory (emptied first).
    @inline(__always)
    static func forEachBestWhile(
        in ranges: [Range<Int>],
        limit: Int,
        heap: inout [RangeMaximum],
        best: (Int, Int) -> Int,
        rank: (Int) -> Int,
        skip: (Int) -> Bool,
        _ body: (Int, Int) -> Bool
    ) {
        heap.removeAll(keepingCapacity: true)
        guard limit > 0 else { return }
        @inline(__always) func push(_ lo: Int, _ hi: Int, _ piece: Int) {
            guard lo < hi else { return }
            let p = best(lo, hi)
            guard p >= 0 else { return }
            Self.push(RangeMaximum(rank: rank(p), position: p, lo: lo, hi: hi, piece: piece), into: &heap)
        }
        for (k, range) in ranges.enumerated() { push(range.lowerBound, range.upperBound, k) }
        var emitted = 0
        while emitted < limit, let top = Self.popMax(&heap) {
            if !skip(top.position) {
                if !body(top.position, top.piece) { return }
                emitted += 1
            }
            push(top.lo, top.position, top.piece)
            push(top.position + 1, top.hi, top.piece)
        }
    }
}

extension RangeMaximum {
    /// Adds `element` to the binary max-heap `heap` (by `<`: the most popular on top).
    @inline(__always)
    static func push(_ element: RangeMaximum, into heap: inout [RangeMaximum]) {
        heap.append(element)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) >> 1
            guard heap[parent] < heap[child] else { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    /// Removes and returns the top of the binary max-heap `heap`, or nil when it is empty. The elements of one
    /// search are totally ordered (their positions differ), so the order they come out in is that of any heap.
    @inline(__always)
    static func popMax(_ heap: inout [RangeMaximum]) -> RangeMaximum? {
        guard let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return last }
        let top = heap[0]
        heap[0] = last
        var parent = 0
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            if left >= count { break }
            var largest = left
            if left + 1 < count && heap[left] < heap[left + 1] { largest = left + 1 }
            guard heap[parent] < heap[largest] else { break }
            heap.swapAt(parent, largest)
            parent = largest
        }
        return top
    }
}
