/// Matched-range arrays of one range, made once and shared: the common matched ranges (a prefix of the title, or a
/// word near its start) cost a keystroke no allocation.
package enum SharedRanges {
    /// Ranges that start before this offset are shared...
    static let lowerLimit = 8
    /// ...when they end before this one.
    static let upperLimit = 128

    private static let table: [[Range<Int>]] = {
        var table: [[Range<Int>]] = []
        table.reserveCapacity(lowerLimit * upperLimit)
        for lower in 0..<lowerLimit {
            for upper in 0..<upperLimit { table.append(upper > lower ? [lower..<upper] : []) }
        }
        return table
    }()

    /// Whether ``one(_:)`` answers `range` with a shared array (or `[]`), without allocating.
    @inline(__always)
    package static func isShared(_ range: Range<Int>) -> Bool {
        range.isEmpty || (range.lowerBound >= 0 && range.lowerBound < lowerLimit && range.upperBound < upperLimit)
    }

    /// `[range]`, or `[]` for an empty range; a shared array when the range is small enough.
    @inline(__always)
    package static func one(_ range: Range<Int>) -> [Range<Int>] {
        guard !range.isEmpty else { return [] }
        if range.lowerBound >= 0 && range.lowerBound < lowerLimit && range.upperBound < upperLimit {
            return table[range.lowerBound &* upperLimit &+ range.upperBound]
        }
        return [range]
    }

    /// An array equal to `ranges` that does not share its memory (so that `ranges` stays the only owner of its
    /// own and can be refilled in place): a shared one for one small range, otherwise a copy of exactly their count.
    package static func array(_ ranges: [Range<Int>]) -> [Range<Int>] {
        switch ranges.count {
        case 0: return []
        case 1 where isShared(ranges[0]): return one(ranges[0])
        default:
            // Not `Array(ranges[...])`: a slice of the whole array converts back to the same storage.
            return [Range<Int>](unsafeUninitializedCapacity: ranges.count) { buffer, count in
                for (i, range) in ranges.enumerated() { buffer.initializeElement(at: i, to: range) }
                count = ranges.count
            }
        }
    }
}
