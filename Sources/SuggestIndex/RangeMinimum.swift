/// Range-minimum queries over a fixed array of `UInt32` ranks (smaller is better): a sparse table over blocks of
/// 32 values plus a scan of at most two partial blocks, so a query is O(1) with about 64 sequential reads, and the
/// table costs about 2 bytes per value for a million values (not the 80 of a full sparse table).
struct RangeMinimum: Sendable {
    static let blockShift = 5
    static let blockSize = 1 << blockShift

    /// The ranks, in the order of the indexed keys.
    let values: [UInt32]
    /// Level j, block b: the position of the minimum of blocks b..<b + 2^j. Levels back to back, `blockCount` each.
    let table: [UInt32]
    let blockCount: Int

    init(values: [UInt32]) {
        self.values = values
        let n = values.count
        let blocks = (n + Self.blockSize - 1) >> Self.blockShift
        blockCount = blocks
        guard blocks > 0 else {
            table = []
            return
        }
        var levels = 1
        while (1 << levels) <= blocks { levels += 1 }
        var table = [UInt32](repeating: 0, count: levels * blocks)
        values.withUnsafeBufferPointer { v in
            table.withUnsafeMutableBufferPointer { t in
                for b in 0..<blocks {
                    let lo = b << Self.blockShift
                    let hi = min(n, lo + Self.blockSize)
                    var best = lo
                    for i in (lo + 1)..<max(hi, lo + 1) where v[i] < v[best] { best = i }
                    t[b] = UInt32(best)
                }
                var level = 1
                while level < levels {
                    let half = 1 << (level - 1)
                    let base = level * blocks
                    let previous = (level - 1) * blocks
                    for b in 0..<blocks {
                        let a = Int(t[previous + b])
                        if b + half < blocks {
                            let c = Int(t[previous + b + half])
                            t[base + b] = UInt32(v[c] < v[a] ? c : a)
                        } else {
                            t[base + b] = UInt32(a)
                        }
                    }
                    level += 1
                }
            }
        }
        self.table = table
    }

    init(values: [UInt32], table: [UInt32]) {
        self.values = values
        self.table = table
        self.blockCount = (values.count + Self.blockSize - 1) >> Self.blockShift
    }

    /// The number of table levels a value count needs.
    static func tableCount(for n: Int) -> Int {
        let blocks = (n + blockSize - 1) >> blockShift
        guard blocks > 0 else { return 0 }
        var levels = 1
        while (1 << levels) <= blocks { levels += 1 }
        return levels * blocks
    }

    var byteCount: Int { values.count * 4 + table.count * 4 }
}

extension RangeMinimum {
    /// The position of the smallest value in `lo..<hi` (the first one on ties). Requires `lo < hi`.
    @inline(__always)
    func argmin(_ lo: Int, _ hi: Int) -> Int {
        let shift = Self.blockShift
        let bl = lo >> shift
        let br = (hi - 1) >> shift
        if bl == br { return scan(lo, hi) }
        var best = scan(lo, (bl + 1) << shift)
        let right = scan(br << shift, hi)
        if values[right] < values[best] { best = right }
        let first = bl + 1
        let last = br - 1
        if first <= last {
            let count = last - first + 1
            let level = Int.bitWidth - 1 - count.leadingZeroBitCount
            let a = Int(table[level * blockCount + first])
            let b = Int(table[level * blockCount + last - (1 << level) + 1])
            let m = values[b] < values[a] ? b : a
            if values[m] < values[best] || (values[m] == values[best] && m < best) { best = m }
        }
        return best
    }

    @inline(__always)
    func scan(_ lo: Int, _ hi: Int) -> Int {
        values.withUnsafeBufferPointer { v in
            var best = lo
            var bestValue = v[lo]
            var i = lo + 1
            while i < hi {
                let x = v[i]
                if x < bestValue {
                    best = i
                    bestValue = x
                }
                i += 1
            }
            return best
        }
    }
}
