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

    /// `[range]`, or `[]` for an empty range; a shared array when the range is small enough.
    @inline(__always)
    package static func one(_ range: Range<Int>) -> [Range<Int>] {
        guard !range.isEmpty else { return [] }
        if range.lowerBound >= 0 && range.lowerBound < lowerLimit && range.upperBound < upperLimit {
            return table[range.lowerBound &* upperLimit &+ range.upperBound]
        }
        return [range]
    }

    /// An array equal to `ranges` that does not share its memory: a shared one for one small range, otherwise a
    /// copy of exactly their count.
    package static func array(_ ranges: [Range<Int>]) -> [Range<Int>] {
        switch ranges.count {
        case 0: return []
        case 1: return one(ranges[0])
        default: return Array(ranges[...])
        }
    }
}
