/// A 64-bit sort key and the item it belongs to.
struct RadixItem {
    var key: UInt64
    var value: UInt32
}

/// Byte strings to sort: string `v` is `bytes[bounds(v).start..<bounds(v).end]`; strings contain no zero byte.
protocol RadixStrings {
    var bytes: UnsafeBufferPointer<UInt8> { get }
    func bounds(_ value: UInt32) -> (start: Int, end: Int)
    /// The order of items whose strings are equal: smaller first.
    func tieKey(_ value: UInt32) -> UInt64
}

extension RadixStrings {
    @inline(__always)
    func tieLess(_ a: UInt32, _ b: UInt32) -> Bool { tieKey(a) < tieKey(b) }
}

/// Sorting for the index build: a stable least-significant-digit radix sort of ``RadixItem``s by key, and a
/// most-significant-first refinement that sorts byte strings 8 bytes at a time with it.
enum RadixSort {
    /// Runs up to this long are finished by a comparison sort.
    static let comparisonSortLimit = 48

    /// Sorts `items` by key, stably (equal keys keep their order), one byte per pass; a pass over a byte that is
    /// the same in every key is skipped. `scratch` has the same count; its contents afterwards are unspecified.
    /// - Complexity: O(n) per byte that varies.
    static func sortByKey(
        _ items: UnsafeMutableBufferPointer<RadixItem>, scratch: UnsafeMutableBufferPointer<RadixItem>
    ) {
        let n = items.count
        guard n > 1 else { return }
        precondition(scratch.count >= n)
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: 8 * 256)
        defer { counts.deallocate() }
        counts.initialize(repeating: 0, count: 8 * 256)
        for item in items {
            var key = item.key
            for byte in 0..<8 {
                counts[byte &* 256 &+ Int(key & 0xFF)] &+= 1
                key >>= 8
            }
        }
        var source = items.baseAddress!
        var target = scratch.baseAddress!
        for byte in 0..<8 {
            let histogram = counts + byte * 256
            let shift = UInt64(byte * 8)
            if histogram[Int((items[0].key >> shift) & 0xFF)] == n { continue }
            var sum = 0
            for b in 0..<256 {
                let c = histogram[b]
                histogram[b] = sum
                sum += c
            }
            for i in 0..<n {
                let item = source[i]
                let b = Int((item.key >> shift) & 0xFF)
                target[histogram[b]] = item
                histogram[b] &+= 1
            }
            swap(&source, &target)
        }
        if source != items.baseAddress! {
            items.baseAddress!.update(from: source, count: n)
        }
    }

    /// Below this many items, ``bucketByTopBytes(_:scratch:)`` makes one bucket.
    static let bucketMinimum = 4096

    /// Moves `items` into 65,536 buckets by the top 16 bits of their keys, stably, and returns where each bucket
    /// starts (65,537 values, the last one `items.count`); fewer than ``bucketMinimum`` items stay as they are, in
    /// one bucket (`[0, items.count]`). `scratch` has at least `items.count` items.
    /// - Complexity: O(n), two passes over the items.
    static func bucketByTopBytes(
        _ items: UnsafeMutableBufferPointer<RadixItem>, scratch: UnsafeMutableBufferPointer<RadixItem>
    ) -> [Int] {
        let n = items.count
        if n < bucketMinimum { return [0, n] }
        var starts = [Int](repeating: 0, count: 65_537)
        starts.withUnsafeMutableBufferPointer { s in
            for item in items { s[Int(item.key >> 48) &+ 1] &+= 1 }
            for b in 0..<65_536 { s[b + 1] &+= s[b] }
        }
        guard n > 1 else { return starts }
        var next = starts
        next.withUnsafeMutableBufferPointer { next in
            for item in items {
                let b = Int(item.key >> 48)
                scratch[next[b]] = item
                next[b] &+= 1
            }
        }
        items.baseAddress!.update(from: scratch.baseAddress!, count: n)
        return starts
    }

    /// Sorts the buckets `buckets` (indices into `starts`, of ``bucketByTopBytes(_:scratch:)``) of `items` by their
    /// strings, ties by ``RadixStrings/tieKey(_:)``, given that the keys are the strings' heads at depth 0.
    static func sortBuckets(
        _ items: UnsafeMutableBufferPointer<RadixItem>,
        scratch: UnsafeMutableBufferPointer<RadixItem>,
        starts: [Int],
        buckets: Range<Int>,
        strings: some RadixStrings
    ) {
        let bytes = strings.bytes
        for b in buckets {
            let lo = starts[b]
            let hi = starts[b + 1]
            guard hi - lo > 1 else { continue }
            var run = UnsafeMutableBufferPointer(rebasing: items[lo..<hi])
            if run.count <= comparisonSortLimit {
                run.sort { a, b in
                    if a.key != b.key { return a.key < b.key }
                    let (a0, a1) = strings.bounds(a.value)
                    let (b0, b1) = strings.bounds(b.value)
                    let c = compare(bytes, a0 + 8, a1, b0 + 8, b1)
                    return c != 0 ? c < 0 : strings.tieLess(a.value, b.value)
                }
            } else {
                let spare = UnsafeMutableBufferPointer(rebasing: scratch[lo..<hi])
                sortByKey(run, scratch: spare)
                refine(run, scratch: spare, strings: strings, depth: 0)
            }
        }
    }

    /// The 8 bytes of `bytes[start..<end]` from `start` on, big-endian, zero-padded: comparing heads compares the
    /// strings' next 8 bytes (strings have no zero byte, so a shorter string sorts first).
    @inline(__always)
    static func head(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        guard start < end else { return 0 }
        var h: UInt64 = 0
        let stop = min(end, start + 8)
        var i = start
        while i < stop {
            h = (h << 8) | UInt64(bytes[i])
            i += 1
        }
        return h << UInt64(8 * (8 - (stop - start)))
    }

    /// Sorts `items` by their strings (ties by ``RadixStrings/tieKey(_:)``), given that their keys are the
    /// strings' heads at `depth` and `items` is already sorted by key.
    static func refine(
        _ items: UnsafeMutableBufferPointer<RadixItem>,
        scratch: UnsafeMutableBufferPointer<RadixItem>,
        strings: some RadixStrings,
        depth: Int
    ) {
        var i = 0
        let n = items.count
        while i < n {
            let key = items[i].key
            var j = i + 1
            while j < n && items[j].key == key { j += 1 }
            if j - i > 1 {
                sortRun(
                    UnsafeMutableBufferPointer(rebasing: items[i..<j]),
                    scratch: UnsafeMutableBufferPointer(rebasing: scratch[i..<j]),
                    strings: strings, depth: depth + 8)
            }
            i = j
        }
    }

    /// Sorts a run of items whose strings agree on their first `depth` bytes: 8 more bytes a round, the runs of
    /// equal heads kept on a stack of their own rather than the call stack, so that strings that share thousands of
    /// bytes (a long title repeated with one letter changed, the suffixes of a long repetitive one) cannot exhaust a
    /// thread's stack.
    static func sortRun(
        _ run: UnsafeMutableBufferPointer<RadixItem>,
        scratch: UnsafeMutableBufferPointer<RadixItem>,
        strings: some RadixStrings,
        depth: Int
    ) {
        let bytes = strings.bytes
        func comparisonSort(_ part: UnsafeMutableBufferPointer<RadixItem>, depth: Int) {
            var part = part
            part.sort { a, b in
                let (a0, a1) = strings.bounds(a.value)
                let (b0, b1) = strings.bounds(b.value)
                let c = compare(bytes, a0 + depth, a1, b0 + depth, b1)
                return c != 0 ? c < 0 : strings.tieLess(a.value, b.value)
            }
        }
        // Most runs are small: sorted at once, without the stack.
        if run.count <= comparisonSortLimit {
            comparisonSort(run, depth: depth)
            return
        }
        var pending: [(lo: Int, hi: Int, depth: Int)] = [(0, run.count, depth)]
        while let (lo, hi, depth) = pending.popLast() {
            let part = UnsafeMutableBufferPointer(rebasing: run[lo..<hi])
            let spare = UnsafeMutableBufferPointer(rebasing: scratch[lo..<hi])
            if part.count <= comparisonSortLimit {
                comparisonSort(part, depth: depth)
                continue
            }
            var longer = false
            for k in part.indices {
                let (start, end) = strings.bounds(part[k].value)
                part[k].key = head(bytes, start + depth, end)
                if end - start > depth + 8 { longer = true }
            }
            sortByKey(part, scratch: spare)
            var i = 0
            while i < part.count {
                var j = i + 1
                while j < part.count && part[j].key == part[i].key { j += 1 }
                if j - i > 1 {
                    if longer {
                        // Equal heads: the next 8 bytes decide.
                        pending.append((lo + i, lo + j, depth + 8))
                    } else {
                        // Equal heads mean equal strings here: order the group by its tie keys.
                        let group = UnsafeMutableBufferPointer(rebasing: part[i..<j])
                        for k in group.indices { group[k].key = strings.tieKey(group[k].value) }
                        sortByKey(group, scratch: UnsafeMutableBufferPointer(rebasing: spare[i..<j]))
                    }
                }
                i = j
            }
        }
    }

    /// Compares `bytes[a0..<a1]` with `bytes[b0..<b1]` (an empty or inverted range is an empty string).
    @inline(__always)
    static func compare(_ bytes: UnsafeBufferPointer<UInt8>, _ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int) -> Int {
        let la = max(0, a1 - a0)
        let lb = max(0, b1 - b0)
        let common = min(la, lb)
        var i = 0
        while i < common {
            let x = bytes[a0 + i]
            let y = bytes[b0 + i]
            if x != y { return x < y ? -1 : 1 }
            i += 1
        }
        return la == lb ? 0 : (la < lb ? -1 : 1)
    }

    /// A key that orders doubles as `<` does (0 and -0 alike; NaN after +infinity).
    @inline(__always)
    static func orderedBits(_ value: Double) -> UInt64 {
        let bits = value == 0 ? 0 : value.bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }
}
