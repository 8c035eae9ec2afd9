import SuggestCore
import Testing

@testable import SuggestIndex

struct OriginalRangeTests {
    /// The ASCII fast path agrees with the engine's standard matcher on every match it reports.
    @Test func asciiRangesAgreeWithTextMatcher() {
        let titles = ["New York", "new-york city", "  Django--REST framework", "djangoRestFramework", "a.b.c", "x"]
        let queries = ["new", "new yo", "york", "york c", "django rest", "rest", "framework", "djangorest", "b c", "x"]
        for title in titles {
            let (key, starts) = IndexKey.keyAndWordStarts(title)
            for text in queries {
                let query = PreparedQuery(SearchQuery(text: text))
                var q: [UInt8] = []
                IndexKey.query(query, into: &q)
                for offset in [0] + starts where key[offset...].starts(with: q) {
                    let fast = IndexKey.originalRanges(ofASCII: title, keyRange: offset..<(offset + q.count))
                    let slow = TextMatcher.match(query, in: NormalizedText(title))?.1
                    #expect(fast == slow, "\(text) in \(title) at \(offset)")
                    break
                }
            }
        }
        // Non-ASCII before the end of the match: the caller falls back to the standard matcher.
        #expect(IndexKey.originalRanges(ofASCII: "Café", keyRange: 0..<4) == nil)
        #expect(IndexKey.originalRanges(ofASCII: "über alles", keyRange: 5..<8) == nil)
        // ASCII up to the end of the match maps 1:1 whatever follows.
        #expect(IndexKey.originalRanges(ofASCII: "Café", keyRange: 0..<2) == [0..<2])
    }

    /// An array of ranges handed out again while it is among the last ones issued, never one that changes after.
    @Test func rangeArraysAreHandedOutAgainWhileTheyAreKept() {
        var matched = MatchedRanges()
        func address(_ a: [Range<Int>]) -> UnsafePointer<Range<Int>>? { a.withUnsafeBufferPointer { $0.baseAddress } }
        for ranges in [[20..<30], [0..<6, 7..<12, 13..<14], [2..<5]] {
            matched.ranges = ranges
            let first = matched.issue()
            matched.ranges = [1..<2, 4..<5]
            let other = matched.issue()
            matched.ranges = ranges
            let again = matched.issue()
            #expect(first == ranges && again == ranges && other == [1..<2, 4..<5])
            #expect(address(first) == address(again), "\(ranges)")
            // Refilled in place: what was handed out keeps its ranges.
            matched.ranges.removeAll(keepingCapacity: true)
            matched.ranges.append(99..<100)
            #expect(first == ranges && again == ranges)
        }
    }
}
