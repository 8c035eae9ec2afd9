import SuggestCore
import SuggestIndex

/// A node of the implicit trie whose prefix is within the typo budget of the query.
struct TypoHit: Sendable, Equatable {
    /// Sorted positions.
    var lo: Int32
    var hi: Int32
    /// Edits between the query and the node's prefix (Damerau, optimal string alignment).
    var typos: Int32
    /// The prefix's length in folded bytes (the part of each key that matched).
    var depth: Int32
}

/// A depth-first walk of the implicit trie of ``FuzzyIndex`` with one dynamic-programming row per node, the way
/// Lucene's fuzzy suggester walks its automaton over a prefix trie: a subtree is left as soon as no extension of its
/// prefix can come within `maxTypos` of the query. Edits count Unicode scalars of the folded text, not bytes.
///
/// In prefix mode (the last word is still being typed) a node is a hit when the whole query is within the budget of
/// its prefix: every key below it completes the query with that many typos; deeper nodes are hits only when they
/// need fewer typos. Keys that end at a node within the budget are also listed as `endings` (whole-word
/// corrections, ranked first inside their tier). In whole-word mode only keys that end at the node are hits.
struct TypoSearch {
    let index: FuzzyIndex
    /// When set, the walk runs over the index's keys read backwards, in this order, instead of as they are: the
    /// query is then reversed too, and hits are positions of `reversed`.
    let reversed: ReversedKeys?
    let query: [UInt32]
    let m: Int
    let maxTypos: Int32
    let transpositions: Bool
    let wholeWord: Bool
    /// Leading query scalars that must match exactly (Elasticsearch's `prefix_length`)...
    let exactPrefix: Int
    /// ...unless the path stays within this many typos in all (a wrong first letter as the only typo); 0 never.
    let wrongPrefixTypos: Int32
    /// Walk only below a wrong exact prefix (the rest was walked already); needs `wrongPrefixTypos < maxTypos`.
    let onlyWrongPrefix: Bool
    /// With an exact prefix of one, the query's first two characters swapped count as an ordinary typo.
    let firstSwap: Bool
    /// Whether that swap applies to this query (its first two characters differ).
    let swapsFirstTwo: Bool
    /// The deepest node with children in the budget: `m + maxTypos` (a deeper row's cells are all beyond it).
    let maxDepth: Int
    /// Rows by trie depth (in scalars), each `m + 1` cells.
    var rows: [Int32]
    /// The scalar at each depth of the current path.
    var path: [UInt32]
    var hits: [TypoHit] = []
    /// In prefix mode, the keys that end at a node within the budget (whole-word matches), by node.
    var endings: [TypoHit] = []
    /// In prefix mode, also list as `endings` the keys that go on with another word at a node within the budget
    /// ("annotated types" below "annotated" for "annnotated"): for a query whose last word is whole.
    var wordContinuations = false
    /// Trie nodes visited (for diagnostics and the benchmark).
    var visited = 0
    /// The most nodes to visit (`Int.max`: no ceiling); past it the walk stops and `cut` is set.
    var nodeBudget = Int.max
    /// Whether the walk stopped at its node budget (its hits are then incomplete).
    var cut = false
    /// The most typos an alignment may have spent by each query position (`m + 1` values, `maxTypos` unless
    /// ``capByWords(_:)`` lowered them): a cell above its cap is out of the budget.
    var caps: [Int32]
    /// Valid during ``run()``: `rows` and the query.
    private var r: UnsafeMutablePointer<Int32>! = nil
    private var q: UnsafePointer<UInt32>! = nil
    /// Valid during ``run()``: the sorted keys' offsets and bytes (see `PrefixIndex.withUnsafeSortedKeys`).
    private var keyOffsets: UnsafePointer<UInt32>! = nil
    private var keyBytes: UnsafePointer<UInt8>! = nil
    /// Valid during ``run()`` over ``reversed``: its packed keys (key `i` of the walk ends at `order[i] >> 7` in
    /// `keyBytes` and is `order[i] & 127` bytes long; read from its end); nil for a walk over the keys as they are.
    private var order: UnsafePointer<UInt32>? = nil
    /// Valid during ``run()`` over ``reversed`` with ``firstByteFilter``: each reversed key's first byte (as written).
    private var firsts: UnsafePointer<UInt8>? = nil
    /// Over ``reversed`` keys in whole-word mode: the keys of use to the caller, which drops every other hit, by
    /// their first byte (as written): those that start with `a` or `b` (`starting` true), or with neither (false). A
    /// subtree of at most ``firstByteSpan`` keys none of which is of use is not walked. Nil: every subtree is.
    var firstByteFilter: (a: UInt8, b: UInt8, starting: Bool)? = nil
    /// The most keys a subtree may hold for ``firstByteFilter`` to look at their first bytes.
    static let firstByteSpan = 64
    /// Valid during ``run()``: `path`.
    private var p: UnsafeMutablePointer<UInt32>! = nil
    /// Whether some cap is below `maxTypos` (set by ``run()``).
    private var capped = false
    /// Valid during ``run()``: `caps`.
    private var c: UnsafePointer<Int32>! = nil
    /// Whether the rows are kept as bit vectors (``bitRow(depth:scalar:)``): for queries of at most
    /// ``maximumBitLength`` scalars, so that a row fits one word per typo count.
    let bitRows: Bool
    /// With ``bitRows``, each depth's row as `maxTypos + 1` words: bit `j` of word `t` is set when the cell of
    /// query position `j` is at most `t` (within its cap).
    var bitRowStore: [UInt64]
    /// With ``bitRows``, the query as masks (see ``prepareMasks()``).
    var masks: [UInt64]
    /// Valid during ``run()`` with ``bitRows``: `bitRowStore` and `masks`.
    private var s: UnsafeMutablePointer<UInt64>! = nil
    private var mk: UnsafePointer<UInt64>! = nil
    /// The longest query whose rows are bit vectors: `m + 1` bits and room for a shift by two in 64.
    static let maximumBitLength = 61

    /// The arrays a walk fills, handed from one walk to the next (see ``FuzzyScratch``) so that a keystroke's walks
    /// allocate nothing once they have grown: the rows, the path, the hits and the endings.
    struct Buffers: Sendable {
        var rows: [Int32] = []
        var path: [UInt32] = []
        var hits: [TypoHit] = []
        var endings: [TypoHit] = []
        var caps: [Int32] = []
        var bitRows: [UInt64] = []
        var masks: [UInt64] = []
    }

    /// A trie node to walk below again: its sorted range and its byte depth (at a scalar boundary).
    typealias Start = (lo: Int, hi: Int, byteDepth: Int)

    /// A walk in `buffers`' memory (emptied here; take it back with ``takeBuffers()``). With `cellRows`, the rows
    /// are cells whatever the query's length (the walk is the same; the tests compare the two).
    init(
        index: FuzzyIndex, query: [UInt32], maxTypos: Int, transpositions: Bool, wholeWord: Bool, exactPrefix: Int,
        wrongPrefixTypos: Int = 0, onlyWrongPrefix: Bool = false, firstSwap: Bool = false,
        reversed: ReversedKeys? = nil, cellRows: Bool = false, buffers: consuming Buffers = Buffers()
    ) {
        self.reversed = reversed
        self.onlyWrongPrefix = onlyWrongPrefix
        self.firstSwap = firstSwap
        self.index = index
        self.wrongPrefixTypos = Int32(min(wrongPrefixTypos, maxTypos))
        self.query = query
        self.m = query.count
        self.maxTypos = Int32(maxTypos)
        self.transpositions = transpositions
        self.wholeWord = wholeWord
        self.exactPrefix = min(exactPrefix, query.count)
        maxDepth = query.count + maxTypos
        swapsFirstTwo = firstSwap && exactPrefix == 1 && transpositions && query.count >= 2 && query[1] != query[0]
        // Moved out of `buffers` (not copied), so that each array is uniquely referenced and keeps its memory.
        var buffers = buffers
        let depths = query.count + maxTypos + 2
        rows = Self.zeroed(&buffers.rows, count: depths * (query.count + 1))
        path = Self.zeroed(&buffers.path, count: depths)
        hits = Array.take(&buffers.hits)
        endings = Array.take(&buffers.endings)
        caps = Self.zeroed(&buffers.caps, count: query.count + 1)
        bitRows = !cellRows && query.count <= Self.maximumBitLength
        bitRowStore = Self.zeroed(&buffers.bitRows, count: bitRows ? depths * (maxTypos + 1) : 0)
        masks = Array.take(&buffers.masks)
        for j in 0...m {
            rows[j] = Int32(j)
            caps[j] = Int32(maxTypos)
        }
    }

    /// Holds each word of a query of several words to its own share of the budget, as Typesense gives each token
    /// typos by its own length (`min_len_1typo`, `min_len_2typo`): an alignment may have spent, by the end of each
    /// word, at most the sum of `allowance(length, last)` of the words so far, and never more than `maxTypos` (an
    /// edit right after a separator counts with the word after it). "aws sam transalt" may take two typos in all,
    /// none in "sam". The caps are a function of the query and the budget alone.
    mutating func capByWords(_ allowance: (_ length: Int, _ last: Bool) -> Int) {
        Self.wordCaps(query, maxTypos: Int(maxTypos), allowance: allowance) { j, cap in caps[j] = cap }
    }

    /// Holds an alignment to at most `typos` by query position `position` (and every position before it).
    mutating func cap(through position: Int, typos: Int) {
        for j in 0...min(m, position) where caps[j] > Int32(typos) { caps[j] = Int32(typos) }
    }

    /// Calls `body(j, cap)` for each query position `j` in `0...query.count` that a word covers, with the cap
    /// ``capByWords(_:)`` sets; the position after a trailing separator is not called (it keeps `maxTypos`).
    /// `allowance(length, last)`: the typos of a word of `length` scalars, the last one (still being typed) or not.
    static func wordCaps(
        _ query: [UInt32], maxTypos: Int, allowance: (_ length: Int, _ last: Bool) -> Int,
        _ body: (Int, Int32) -> Void
    ) {
        var spent = 0
        var start = 0
        let m = query.count
        while start < m {
            var end = start
            while end < m && query[end] != 0x20 { end += 1 }
            // The word query[start..<end]: positions start ... end (position j lies between scalars j - 1 and j, so
            // an edit there, after a separator, is at the start of the word; the position before a separator ends
            // the word before it).
            spent += allowance(end - start, end == m)
            let cap = Int32(min(spent, maxTypos))
            for j in start...end { body(j, cap) }
            start = end + 1
        }
        if m == 0 { body(0, Int32(maxTypos)) }
    }

    /// `array` taken out, emptied and refilled with `count` zeros, in its own memory when it is large enough.
    private static func zeroed<T: FixedWidthInteger>(_ array: inout [T], count: Int) -> [T] {
        var taken = Array.take(&array)
        taken.append(contentsOf: repeatElement(0, count: count))
        return taken
    }

    /// The walk's arrays (the hits and endings as the walk left them), for the next walk to reuse; this walk's are
    /// left empty.
    mutating func takeBuffers() -> Buffers {
        var buffers = Buffers()
        swap(&buffers.rows, &rows)
        swap(&buffers.path, &path)
        swap(&buffers.hits, &hits)
        swap(&buffers.endings, &endings)
        swap(&buffers.caps, &caps)
        swap(&buffers.bitRows, &bitRowStore)
        swap(&buffers.masks, &masks)
        return buffers
    }

    /// Walks the whole trie, or only below `starts` (trie nodes: sorted range and byte depth at a scalar boundary);
    /// the hits are then in `hits`.
    mutating func run(from starts: [Start]? = nil) {
        let count = reversed?.count ?? index.count
        guard count > 0 else { return }
        precondition(reversed == nil || starts == nil, "a walk over reversed keys starts at the root")
        let query = self.query
        // Moved out (and back at the end), so that each is uniquely referenced and not copied when written.
        var rows = self.rows
        var path = self.path
        let caps = self.caps
        self.rows = []
        self.path = []
        capped = caps.contains { $0 < maxTypos }
        // Row 0 within the caps.
        for j in 0...m where rows[j] > caps[j] { rows[j] = maxTypos + 1 }
        var bitRowStore = self.bitRowStore
        self.bitRowStore = []
        if bitRows { prepareMasks(row0: &bitRowStore) }
        let masks = self.masks
        defer { self.bitRowStore = bitRowStore }
        bitRowStore.withUnsafeMutableBufferPointer { bitBuffer in
        masks.withUnsafeBufferPointer { maskBuffer in
        s = bitBuffer.baseAddress
        mk = maskBuffer.baseAddress
        Self.withKeys(of: index, reversed: reversed) { offsets, bytes, keyOrder, firstBytes in
        path.withUnsafeMutableBufferPointer { pathBuffer in
        rows.withUnsafeMutableBufferPointer { rowBuffer in
                query.withUnsafeBufferPointer { qb in
                caps.withUnsafeBufferPointer { cb in
                    c = cb.baseAddress
                    r = rowBuffer.baseAddress
                    q = qb.baseAddress ?? UnsafePointer(bitPattern: 8)
                    keyOffsets = offsets.baseAddress
                    keyBytes = bytes.baseAddress ?? UnsafePointer(bitPattern: 8)
                    order = keyOrder.map { $0.baseAddress ?? UnsafePointer(bitPattern: 8)! }
                    firsts = firstByteFilter == nil ? nil : firstBytes?.baseAddress
                    p = pathBuffer.baseAddress
                    if let starts {
                        for start in starts { walk(from: start) }
                    } else {
                        visit(0, count, byteDepth: 0, depth: 0, best: Int32.max, limit: maxTypos)
                    }
                    r = nil
                    q = nil
                    keyOffsets = nil
                    keyBytes = nil
                    order = nil
                    firsts = nil
                    p = nil
                    c = nil
                }
                }
        }
        }
        }
        s = nil
        mk = nil
        }
        }
        self.path = path
        self.rows = rows
    }

    /// Calls `body` with the storage of the keys walked, `index`'s, and the `reversed` order when the walk reads the
    /// keys backwards (static, so that `body` may mutate the walk).
    private static func withKeys(
        of index: FuzzyIndex, reversed: ReversedKeys?,
        _ body: (
            UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt32>?,
            UnsafeBufferPointer<UInt8>?
        ) -> Void
    ) {
        if let reversed {
            reversed.withUnsafeKeys { bytes, packed in
                reversed.withUnsafeFirstBytes { firsts in
                    body(UnsafeBufferPointer(start: nil, count: 0), bytes, packed, firsts)
                }
            }
        } else {
            index.prefixIndex.withUnsafeSortedKeys { offsets, bytes in body(offsets, bytes, nil, nil) }
        }
    }

    /// Recomputes the rows along the path to a start node, then walks below it.
    private mutating func walk(from start: Start) {
        // The path: the first `byteDepth` bytes of any key in the node.
        let key = index.prefixIndex.sortedKey(at: start.lo)
        let base = key.startIndex
        var b = 0
        var depth = 0
        var limit = maxTypos
        while b < start.byteDepth {
            let c = key[base + b]
            let length = UTF8Scalars.length(lead: c)
            var scalar = UTF8Scalars.leadBits(c)
            for k in 1..<length { scalar = UTF8Scalars.appending(key[base + b + k], to: scalar) }
            b += length
            depth += 1
            if depth >= m + Int(maxTypos) + 2 { return }
            guard let next = budget(at: depth, scalar: scalar, limit: limit) else { return }
            limit = next
            p[depth] = scalar
            computeRow(depth: depth, scalar: scalar)
        }
        visit(start.lo, start.hi, byteDepth: start.byteDepth, depth: depth, best: Int32.max, limit: limit)
    }

    /// `limit`: the typos allowed below this node (`maxTypos`, or `wrongPrefixTypos` below a wrong exact prefix).
    private mutating func visit(_ lo: Int, _ hi: Int, byteDepth: Int, depth: Int, best: Int32, limit: Int32) {
        visited += 1
        if visited > nodeBudget {
            cut = true
            return
        }
        let base = depth * (m + 1)
        let (dm, minRow) = summary(base: base, depth: depth)
        // Out of the budget and no hit (most nodes a walk enters): nothing more to look at.
        if minRow > limit && dm > limit { return }
        var best = best
        let ending = endingCount(lo, hi, byteDepth)
        // Below a first character that may start a swap of the query's first two (see `budget`), the full budget
        // holds only once the swap is complete: a hit here needs the wrong-prefix budget.
        var hitLimit = limit
        if depth == 1 && exactPrefix == 1 && limit == maxTypos && p[1] != q[0] { hitLimit = wrongPrefixTypos }
        // Before the exact prefix is complete, deleting the query's first characters is no match.
        if dm <= hitLimit && depth >= exactPrefix {
            if wholeWord {
                if ending > 0 {
                    hits.append(TypoHit(lo: Int32(lo), hi: Int32(lo + ending), typos: dm, depth: Int32(byteDepth)))
                }
            } else {
                if dm < best {
                    hits.append(TypoHit(lo: Int32(lo), hi: Int32(hi), typos: dm, depth: Int32(byteDepth)))
                    best = dm
                }
                if ending > 0 {
                    endings.append(TypoHit(lo: Int32(lo), hi: Int32(lo + ending), typos: dm, depth: Int32(byteDepth)))
                }
                // The keys that go on with another word here (a space sorts before every other byte of a key, so
                // they come right after the keys that end here).
                if wordContinuations && lo + ending < hi && byte(lo + ending, byteDepth) == 0x20 {
                    let end = childEnd(lo + ending, hi, byteDepth)
                    endings.append(TypoHit(lo: Int32(lo + ending), hi: Int32(end), typos: dm, depth: Int32(byteDepth)))
                }
            }
        }
        // Deeper nodes can still hold whole words within the budget: walk on while any cell is.
        if minRow > limit { return }
        // Every cell of a deeper row is at least depth - m.
        if depth >= maxDepth { return }
        // A spent node's choices: bit c of `choices.low` (c < 64) or of `choices.high` (c - 64).
        var choices: (low: UInt64, high: UInt64) = (0, 0)
        var spent = false
        if (minRow == limit || (capped && atCaps(base: base, depth: depth, limit: limit))) && depth >= exactPrefix,
            let set = spentChoices(base: base, depth: depth, limit: limit)
        {
            spent = true
            choices = set
        }
        if byteDepth <= 1, reversed == nil, let top = index.top {
            // The top two levels: children from the table (a spent node keeps only its choices, all ASCII).
            let range: Range<Int>
            if byteDepth == 0 {
                range = 0..<top.rootCount
            } else {
                let b0 = Int(byte(lo, 0))
                range = Int(top.starts[b0])..<Int(top.starts[b0 + 1])
            }
            for k in range {
                let entry = top.children[k]
                let c = entry.byte
                if spent && !Self.contains(choices, c) { continue }
                child(
                    Int(entry.lo), Int(entry.hi), byte: c, byteDepth: byteDepth, depth: depth, best: best, limit: limit)
            }
            return
        }
        if spent {
            // The budget is spent: a child stays within it only by matching a query scalar on the diagonal of a
            // cell at the limit (`q[j]`) or by completing a transposition (`q[j - 1]` after `q[j]`). Find those few
            // children by binary search instead of listing every child (most nodes of a walk are spent ones).
            if minRow == limit && depth >= 2 && Self.isOneBit(choices.low, choices.high),
                let j = singleCellAtLimit(base: base, depth: depth, limit: limit), m - j >= 2
            {
                // One cell at the limit and one way on: the path can only spell the rest of the query, `q[j..<m]`,
                // and no node before its end is a hit. Jump there with one search instead of a node per scalar.
                jump(lo + ending, hi, byteDepth: byteDepth, depth: depth, from: j, best: best, limit: limit)
                return
            }
            var i = lo + ending
            // The choices in ascending order.
            var left = choices
            while i < hi && (left.low | left.high) != 0 {
                let scalar: UInt32
                if left.low != 0 {
                    scalar = UInt32(left.low.trailingZeroBitCount)
                    left.low &= left.low &- 1
                } else {
                    scalar = 64 + UInt32(left.high.trailingZeroBitCount)
                    left.high &= left.high &- 1
                }
                let start = lowerBound(i, hi, byteDepth, UInt8(scalar))
                if start == hi { break }
                i = start
                guard byte(start, byteDepth) == UInt8(scalar) else { continue }
                let end = childEnd(start, hi, byteDepth)
                step(start, end, byteDepth: byteDepth + 1, parent: depth, scalar: scalar, best: best, limit: limit)
                i = end
            }
            return
        }
        var i = lo + ending
        while i < hi {
            let c = byte(i, byteDepth)
            let j = childEnd(i, hi, byteDepth)
            child(i, j, byte: c, byteDepth: byteDepth, depth: depth, best: best, limit: limit)
            i = j
        }
    }

    /// Enters the child `lo..<hi` whose byte at `byteDepth` is `c`: a whole ASCII scalar, or the lead byte of one.
    @inline(__always)
    private mutating func child(
        _ lo: Int, _ hi: Int, byte c: UInt8, byteDepth: Int, depth: Int, best: Int32, limit: Int32
    ) {
        if c < 0x80 {
            step(lo, hi, byteDepth: byteDepth + 1, parent: depth, scalar: UInt32(c), best: best, limit: limit)
        } else if order != nil {
            // Read backwards, a scalar of several bytes starts with its last continuation byte.
            partialBackwards(
                lo, hi, byteDepth: byteDepth + 1, parent: depth, value: UInt32(c & 0x3F), shift: 6, best: best,
                limit: limit)
        } else {
            let length = UTF8Scalars.length(lead: c)
            let value = UTF8Scalars.leadBits(c)
            partial(
                lo, hi, byteDepth: byteDepth + 1, parent: depth, value: value, remaining: length - 1, best: best,
                limit: limit)
        }
    }

    /// The scalars that keep a spent node (every cell at least `limit`) within `limit`, as a set of ASCII bytes (bit
    /// c of `low` for c < 64, of `high` for c - 64), or nil when one of them is not ASCII (the caller lists the
    /// children instead).
    @inline(__always)
    private mutating func spentChoices(base: Int, depth: Int, limit: Int32) -> (low: UInt64, high: UInt64)? {
        var set: (low: UInt64, high: UInt64) = (0, 0)
        // Cell `j` at most `limit` continues the diagonal with q[j]; a transposition continues with q[j - 1] only
        // after q[j] (the swapped pair's first half).
        @inline(__always) func add(_ scalar: UInt32) {
            if scalar < 64 { set.low |= UInt64(1) << UInt64(scalar) } else { set.high |= UInt64(1) << UInt64(scalar - 64) }
        }
        @inline(__always) func choose(_ j: Int) -> Bool {
            if j < m {
                if q[j] >= 0x80 { return false }
                add(q[j])
            }
            if transpositions && j > 0 && j < m && q[j] == p[depth] {
                if q[j - 1] >= 0x80 { return false }
                add(q[j - 1])
            }
            return true
        }
        if bitRows {
            var live = s[depth * (Int(maxTypos) + 1) + Int(limit)]
            while live != 0 {
                if !choose(live.trailingZeroBitCount) { return nil }
                live &= live &- 1
            }
        } else {
            let k = Int(maxTypos)
            var j = max(0, depth - k)
            let bandEnd = min(m, depth + k)
            while j <= bandEnd {
                if r[base + j] <= limit && !choose(j) { return nil }
                j += 1
            }
        }
        return set
    }

    /// Whether exactly one bit of `a` and `b` together is set (without a population count: the baseline x86-64
    /// target has no instruction for it).
    @inline(__always)
    private static func isOneBit(_ a: UInt64, _ b: UInt64) -> Bool {
        let x = a | b
        return x != 0 && (a == 0 || b == 0) && x & (x &- 1) == 0
    }

    /// Whether the byte set `set` (see ``spentChoices(base:depth:limit:)``) holds `c`.
    @inline(__always)
    private static func contains(_ set: (low: UInt64, high: UInt64), _ c: UInt8) -> Bool {
        if c < 64 { return (set.low >> UInt64(c)) & 1 != 0 }
        if c < 128 { return (set.high >> UInt64(c - 64)) & 1 != 0 }
        return false
    }

    /// The row's cell at the query's end and its smallest cell in the band (both `maxTypos + 1` when out of the
    /// budget).
    @inline(__always)
    private mutating func summary(base: Int, depth: Int) -> (end: Int32, minimum: Int32) {
        if bitRows {
            let width = Int(maxTypos) + 1
            let row = s + depth * width
            var minimum = maxTypos + 1
            var t = 0
            while t < width {
                if row[t] != 0 {
                    minimum = Int32(t)
                    break
                }
                t += 1
            }
            while t < width {
                if (row[t] >> UInt64(m)) & 1 != 0 { return (Int32(t), minimum) }
                t += 1
            }
            return (maxTypos + 1, minimum)
        }
        let end = r[base + m]
        var minimum = end
        let k = Int(maxTypos)
        var j = max(0, depth - k)
        let bandEnd = min(m, depth + k)
        while j <= bandEnd {
            if r[base + j] < minimum { minimum = r[base + j] }
            j += 1
        }
        return (end, minimum)
    }

    /// Fills ``masks`` from the query and the caps, and row 0 of `row0` (``bitRows``): words 0..<128, the positions
    /// of each ASCII scalar (bit `j`: `q[j]`); 128, the positions of non-ASCII scalars; 129, the row's bits
    /// (`0...m`); then, for each typo count `t`, the positions whose cap is at least `t`, and those whose next
    /// position's cap is above `t`; then a (scalar, positions) pair per distinct non-ASCII scalar of the query.
    private mutating func prepareMasks(row0: inout [UInt64]) {
        let width = Int(maxTypos) + 1
        masks.removeAll(keepingCapacity: true)
        masks.append(contentsOf: repeatElement(0, count: Self.wideMasks + 2 * width))
        for j in 0..<m {
            let scalar = query[j]
            let bit = UInt64(1) << UInt64(j)
            if scalar < 0x80 {
                masks[Int(scalar)] |= bit
                continue
            }
            masks[128] |= bit
            var k = Self.wideMasks + 2 * width
            while k < masks.count && masks[k] != UInt64(scalar) { k += 2 }
            if k == masks.count { masks.append(contentsOf: [UInt64(scalar), 0]) }
            masks[k + 1] |= bit
        }
        masks[129] = (UInt64(1) << UInt64(m + 1)) &- 1
        for t in 0..<width {
            for j in 0...m {
                let bit = UInt64(1) << UInt64(j)
                if caps[j] >= Int32(t) { masks[130 + t] |= bit }
                if caps[min(j + 1, m)] > Int32(t) { masks[130 + width + t] |= bit }
                // Cell j of row 0 is j, within the budget when within its cap.
                if j <= t && Int32(j) <= caps[j] { row0[t] |= bit }
            }
        }
    }

    /// The first word of ``masks`` after the fixed ones but the caps' (see ``prepareMasks(row0:)``).
    private static let wideMasks = 130

    /// The query positions that hold `scalar` (bit `j`: `q[j] == scalar`), with ``bitRows``.
    @inline(__always)
    private mutating func positions(of scalar: UInt32) -> UInt64 {
        if scalar < 0x80 { return mk[Int(scalar)] }
        var k = Self.wideMasks + 2 * (Int(maxTypos) + 1)
        while k < masks.count {
            if mk[k] == UInt64(scalar) { return mk[k + 1] }
            k += 2
        }
        return 0
    }

    /// ``computeRow(depth:scalar:)`` on bit vectors, the NFA simulation of Wu and Manber with the transposition term
    /// of Hyyrö's Damerau variant: word `t` of row `d` from words `t` and `t - 1` of row `d - 1` (a match on the
    /// diagonal; a substitution; a scalar of the path not in the query), word `t - 1` of the same row (a query
    /// scalar not in the path) and word `t - 1` of row `d - 2` (two scalars swapped). A cell past its cap is out of
    /// the budget: at a typo count above its cap a position keeps the word below.
    @inline(__always)
    private mutating func bitRow(depth d: Int, scalar: UInt32) {
        let width = Int(maxTypos) + 1
        let parent = s + (d - 1) * width
        let row = s + d * width
        let at = positions(of: scalar)
        let diagonal = at << 1  // bit j: q[j - 1] == scalar
        let full = mk[129]
        let swaps = transpositions && d >= 2
        var swapped: UInt64 = 0
        var grandparent = parent
        if swaps {
            // Bit j: q[j - 2] == scalar, q[j - 1] == the previous scalar, q[j - 1] != scalar.
            swapped = (at << 2) & (positions(of: p[d - 1]) << 1) & ~diagonal
            grandparent = s + (d - 2) * width
        }
        var below: UInt64 = 0
        for t in 0..<width {
            var word = (parent[t] << 1) & diagonal
            if t > 0 {
                let fewer = parent[t - 1]
                word |= (fewer << 1) | fewer | (below << 1)
                if swaps { word |= (grandparent[t - 1] << 2) & swapped }
            }
            word &= full
            if capped {
                let atLeast = mk[130 + t]
                word = (word & atLeast) | (below & ~atLeast)
            }
            row[t] = word
            below = word
        }
    }

    /// Whether no cell of the row at `base` can grow by a typo and stay within its cap: each live cell (at most
    /// `limit`) is at `limit` or at the cap of the next query position (caps never fall from one position to the
    /// next), so the children within the budget are only those that match a query scalar on a live cell's diagonal
    /// or complete a transposition (see ``spentChoices(base:depth:limit:)``).
    @inline(__always)
    private mutating func atCaps(base: Int, depth: Int, limit: Int32) -> Bool {
        if bitRows {
            // No cell below `limit` below the cap of the next position: each level's new cells against the caps.
            let width = Int(maxTypos) + 1
            let row = s + depth * width
            var below: UInt64 = 0
            for t in 0..<Int(limit) {
                if row[t] & ~below & mk[130 + width + t] != 0 { return false }
                below = row[t]
            }
            return true
        }
        let k = Int(maxTypos)
        var j = max(0, depth - k)
        let bandEnd = min(m, depth + k)
        while j <= bandEnd {
            let value = r[base + j]
            if value <= limit {
                let next = c[min(j + 1, m)]
                if value < min(limit, next) { return false }
            }
            j += 1
        }
        return true
    }

    /// The query position `j` of the only cell of the band at `limit` in the row at `base` (every cell of a spent
    /// row is at least `limit`), when there is exactly one, `j < m`, and the rest of the query, `q[j..<m]`, is ASCII.
    @inline(__always)
    private mutating func singleCellAtLimit(base: Int, depth: Int, limit: Int32) -> Int? {
        if bitRows {
            let width = Int(maxTypos) + 1
            let row = s + depth * width
            let atLimit = row[Int(limit)] & ~(limit > 0 ? row[Int(limit) - 1] : 0)
            guard Self.isOneBit(atLimit, 0) else { return nil }
            let j = atLimit.trailingZeroBitCount
            guard j < m else { return nil }
            for i in j..<m where q[i] >= 0x80 { return nil }
            return j
        }
        let k = Int(maxTypos)
        var j = max(0, depth - k)
        let bandEnd = min(m, depth + k)
        var found = -1
        while j <= bandEnd {
            if r[base + j] == limit {
                if found >= 0 { return nil }
                found = j
            }
            j += 1
        }
        guard found >= 0 && found < m else { return nil }
        for i in found..<m where q[i] >= 0x80 { return nil }
        return found
    }

    /// From a spent node `lo..<hi` (keys that end there excluded) at `depth` whose only cell at the limit is `j`:
    /// the keys that go on with the bytes of `q[j..<m]` are the only ones within the budget below it, and the
    /// nodes on the way are spent with that one choice each (a cell off the diagonal only grows; a transposition
    /// would have given a second choice). Computes the rows along that path, then visits its end, exactly as the
    /// walk node by node would, counting the nodes skipped as visited.
    private mutating func jump(
        _ lo: Int, _ hi: Int, byteDepth: Int, depth: Int, from j: Int, best: Int32, limit: Int32
    ) {
        let length = m - j
        // Keys in lo..<hi share their first `byteDepth` bytes; compare the next `length` with q[j..<m].
        @inline(__always) func compare(_ i: Int) -> Int {
            let available = keyLength(i) &- byteDepth
            var t = 0
            while t < length {
                if t >= available { return -1 }
                let b = byte(i, byteDepth &+ t)
                let c = UInt8(truncatingIfNeeded: q[j + t])
                if b != c { return b < c ? -1 : 1 }
                t += 1
            }
            return 0
        }
        var low = lo
        var high = hi
        while low < high {
            let mid = (low + high) >> 1
            if compare(mid) < 0 { low = mid + 1 } else { high = mid }
        }
        let start = low
        guard start < hi, compare(start) == 0 else {
            visited += 1
            return
        }
        high = hi
        while low < high {
            let mid = (low + high) >> 1
            if compare(mid) <= 0 { low = mid + 1 } else { high = mid }
        }
        let end = low
        var d = depth
        for t in 0..<length {
            d += 1
            let scalar = q[j + t]
            p[d] = scalar
            computeRow(depth: d, scalar: scalar)
        }
        visited += length - 1
        visit(start, end, byteDepth: byteDepth + length, depth: d, best: best, limit: limit)
    }

    /// The first position in `lo..<hi` whose byte at `depth` is at least `value` (bytes at `depth` ascend there).
    @inline(__always)
    private mutating func lowerBound(_ lo: Int, _ hi: Int, _ depth: Int, _ value: UInt8) -> Int {
        var low = lo
        var high = hi
        while high - low > 8 {
            let mid = (low + high) >> 1
            if byte(mid, depth) < value { low = mid + 1 } else { high = mid }
        }
        // A few neighbouring keys (one or two cache lines of offsets and bytes): read in order.
        while low < high && byte(low, depth) < value { low += 1 }
        return low
    }

    /// Inside a multi-byte scalar: collect continuation bytes until the scalar is complete.
    private mutating func partial(
        _ lo: Int, _ hi: Int, byteDepth: Int, parent: Int, value: UInt32, remaining: Int, best: Int32, limit: Int32
    ) {
        var i = lo
        while i < hi {
            // Keys are valid UTF-8: none ends inside a scalar.
            let v = (value << 6) | (UInt32(byte(i, byteDepth)) & 0x3F)
            let j = childEnd(i, hi, byteDepth)
            if remaining == 1 {
                step(i, j, byteDepth: byteDepth + 1, parent: parent, scalar: v, best: best, limit: limit)
            } else {
                partial(
                    i, j, byteDepth: byteDepth + 1, parent: parent, value: v, remaining: remaining - 1, best: best,
                    limit: limit)
            }
            i = j
        }
    }

    /// ``partial`` for keys read backwards: the continuation bytes come first, the scalar's lowest bits first, and the
    /// lead byte completes it.
    private mutating func partialBackwards(
        _ lo: Int, _ hi: Int, byteDepth: Int, parent: Int, value: UInt32, shift: UInt32, best: Int32, limit: Int32
    ) {
        var i = lo
        while i < hi {
            // Keys are valid UTF-8: none starts inside a scalar.
            let b = byte(i, byteDepth)
            let j = childEnd(i, hi, byteDepth)
            if b & 0xC0 == 0x80 {
                partialBackwards(
                    i, j, byteDepth: byteDepth + 1, parent: parent, value: value | (UInt32(b & 0x3F) << shift),
                    shift: shift + 6, best: best, limit: limit)
            } else {
                let scalar = value | (UTF8Scalars.leadBits(b) << shift)
                step(i, j, byteDepth: byteDepth + 1, parent: parent, scalar: scalar, best: best, limit: limit)
            }
            i = j
        }
    }

    /// Computes the row for the child `lo..<hi` reached by `scalar` and visits it.
    private mutating func step(
        _ lo: Int, _ hi: Int, byteDepth: Int, parent: Int, scalar: UInt32, best: Int32, limit: Int32
    ) {
        let d = parent + 1
        guard let limit = budget(at: d, scalar: scalar, limit: limit) else { return }
        if firsts != nil && hi &- lo <= Self.firstByteSpan && !isOfUse(lo, hi) { return }
        p[d] = scalar
        computeRow(depth: d, scalar: scalar)
        visit(lo, hi, byteDepth: byteDepth, depth: d, best: best, limit: limit)
    }

    /// Whether a key of `lo..<hi` is of use (see ``firstByteFilter``; needs `firsts`). Not inlined: only walks over
    /// reversed keys ask, and the walk's other steps stay small.
    @inline(never)
    private func isOfUse(_ lo: Int, _ hi: Int) -> Bool {
        guard let firsts, let (a, b, starting) = firstByteFilter else { return true }
        var i = lo
        while i < hi {
            let f = firsts[i]
            if (f == a || f == b) == starting { return true }
            i += 1
        }
        return false
    }

    /// The budget below the node at depth `d` reached by `scalar` (the parent's is `limit`), or nil when that subtree
    /// is not walked: inside the exact prefix a wrong character leaves `wrongPrefixTypos` (nil when 0), except that
    /// with `firstSwap` the query's first two characters swapped count as an ordinary typo (one subtree: cheap).
    /// With `onlyWrongPrefix`, the subtrees walked with the full budget are skipped.
    @inline(__always)
    private mutating func budget(at d: Int, scalar: UInt32, limit: Int32) -> Int32? {
        let swaps = swapsFirstTwo
        if d <= exactPrefix {
            if q[d - 1] != scalar {
                // Maybe the first two swapped: decided one level down.
                if d == 1 && swaps && scalar == q[1] { return limit }
                if wrongPrefixTypos == 0 { return nil }
                return min(limit, wrongPrefixTypos)
            }
            if onlyWrongPrefix && d == exactPrefix && limit == maxTypos { return nil }
            return limit
        }
        if d == 2 && swaps && p[1] == q[1] && limit == maxTypos {
            if scalar == q[0] { return onlyWrongPrefix ? nil : limit }
            if wrongPrefixTypos == 0 { return nil }
            return min(limit, wrongPrefixTypos)
        }
        return limit
    }

    /// Row `d` from row `d - 1` (and `d - 2` for transpositions). Only the band `d - k ... d + k` can be within the
    /// budget; cells outside it are `k + 1`, and every cell is capped at `k + 1`.
    @inline(__always)
    private mutating func computeRow(depth d: Int, scalar: UInt32) {
        if bitRows {
            bitRow(depth: d, scalar: scalar)
            return
        }
        let width = m + 1
        let prev = (d - 1) * width
        let cur = d * width
        let prev2 = (d - 2) * width
        let previousScalar = d > 1 ? p[d - 1] : UInt32.max
        let k = Int(maxTypos)
        let cap = maxTypos + 1
        let low = max(1, d - k)
        let high = min(m, d + k)
        r[cur] = Int32(d) <= c[0] ? Int32(d) : cap  // c[0] <= k
        if low > 1 { r[cur + low - 1] = cap }
        var j = low
        while j <= high {
            let qc = q[j - 1]
            var v = r[prev + j - 1] + (qc == scalar ? 0 : 1)
            let del = r[prev + j] + 1
            if del < v { v = del }
            let ins = r[cur + j - 1] + 1
            if ins < v { v = ins }
            if transpositions && j > 1 && d > 1 && qc == previousScalar && q[j - 2] == scalar && qc != scalar {
                let t = r[prev2 + j - 2] + 1
                if t < v { v = t }
            }
            r[cur + j] = v <= c[j] ? v : cap
            j += 1
        }
        if high < m {
            r[cur + high + 1] = cap
            // Cells past the band keep values of earlier paths; only the last one is ever read outside the band.
            r[cur + m] = cap
        }
    }

    /// Byte `depth` of sorted key `i` (longer than `depth`), read through the pointers `run` holds.
    @inline(__always)
    private mutating func byte(_ i: Int, _ depth: Int) -> UInt8 {
        if let order { return keyBytes[Int(order[i] >> ReversedKeys.lengthBits) &- 1 &- depth] }
        return keyBytes[Int(keyOffsets[i]) &+ depth]
    }

    /// The length in bytes of key `i` of the walk.
    @inline(__always)
    private mutating func keyLength(_ i: Int) -> Int {
        if let order { return Int(order[i] & (1 << ReversedKeys.lengthBits &- 1)) }
        return Int(keyOffsets[i &+ 1] &- keyOffsets[i])
    }

    @inline(__always)
    private mutating func endingCount(_ lo: Int, _ hi: Int, _ depth: Int) -> Int {
        var i = lo
        while i < hi && keyLength(i) == depth { i += 1 }
        return i - lo
    }

    @inline(__always)
    private mutating func childEnd(_ i: Int, _ hi: Int, _ depth: Int) -> Int {
        let c = byte(i, depth)
        // Most children below the first levels hold a few keys: look at the next ones in order first.
        var next = i + 1
        let near = min(hi, i + 4)
        while next < near {
            if byte(next, depth) != c { return next }
            next += 1
        }
        if next == hi { return hi }
        var step = 1
        var low = next - 1
        while low + step < hi && byte(low + step, depth) == c {
            low += step
            step &<<= 1
        }
        var high = min(low + step, hi)
        while high - low > 1 {
            let mid = (low + high) >> 1
            if byte(mid, depth) == c { low = mid } else { high = mid }
        }
        return high
    }
}

extension FuzzyIndex {
    /// Splits laminar (nested or disjoint) hits into disjoint pieces, each with the fewest typos of the hits that
    /// contain it.
    static func disjointPieces(_ hits: [TypoHit]) -> [TypoHit] {
        var pieces: [TypoHit] = []
        var sorted: [TypoHit] = []
        var stack: [TypoHit] = []
        disjointPieces(hits, extra: nil, into: &pieces, sorted: &sorted, stack: &stack)
        return pieces
    }

    /// ``disjointPieces(_:)`` of `hits` and `extra` into `pieces` (replacing its contents), with `sorted` and
    /// `stack` as working memory: nothing is allocated once the arrays have grown.
    static func disjointPieces(
        _ hits: [TypoHit], extra: TypoHit?, into pieces: inout [TypoHit], sorted: inout [TypoHit],
        stack: inout [TypoHit]
    ) {
        pieces.removeAll(keepingCapacity: true)
        sorted.removeAll(keepingCapacity: true)
        stack.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: hits)
        if let extra { sorted.append(extra) }
        guard !sorted.isEmpty else { return }
        sorted.sortIfNeeded { $0.lo != $1.lo ? $0.lo < $1.lo : $0.hi > $1.hi }
        var cursor: Int32 = 0
        for hit in sorted {
            while let top = stack.last, top.hi <= hit.lo {
                if cursor < top.hi {
                    pieces.append(TypoHit(lo: cursor, hi: top.hi, typos: top.typos, depth: top.depth))
                }
                cursor = top.hi
                stack.removeLast()
            }
            if let top = stack.last {
                if cursor < hit.lo {
                    pieces.append(TypoHit(lo: cursor, hi: hit.lo, typos: top.typos, depth: top.depth))
                }
                cursor = hit.lo
                var effective = hit
                if top.typos < hit.typos {
                    effective.typos = top.typos
                    effective.depth = top.depth
                }
                stack.append(effective)
            } else {
                cursor = hit.lo
                stack.append(hit)
            }
        }
        while let top = stack.popLast() {
            if cursor < top.hi {
                pieces.append(TypoHit(lo: cursor, hi: top.hi, typos: top.typos, depth: top.depth))
            }
            cursor = top.hi
        }
    }
}

extension Array {
    /// Sorts in place, stably, unless already in order: a walk lists its hits in order, and the check spares the
    /// sort's buffer. The result is the same either way (a stable sort leaves an ordered array as it is).
    @inline(__always)
    mutating func sortIfNeeded(by areInIncreasingOrder: (Element, Element) -> Bool) {
        var i = 1
        while i < count {
            if areInIncreasingOrder(self[i], self[i - 1]) {
                sort(by: areInIncreasingOrder)
                return
            }
            i += 1
        }
    }
}
