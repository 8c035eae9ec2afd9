import SuggestCore
import SuggestIndex
import Synchronization

/// The memory a keystroke of ``FuzzyProvider`` reuses: the query's key, the typo walks' arrays, the disjoint pieces,
/// the tiers' ranges and pulled keys, the top-k heaps, the abbreviation scan's survivors and positions, the
/// candidate array, and an abbreviation's matched runs.
///
/// A keystroke takes it from the provider (``Store``) and puts it back when it is done, so two keystrokes running at
/// the same time never share it (the second makes its own). A keystroke empties what it uses and keeps the capacity:
/// once the arrays have grown, the steps allocate nothing. Nothing in it carries answers from one keystroke to the
/// next: what the next keystroke narrows from is in ``FuzzyState``, which owns its own arrays.
struct FuzzyScratch: Sendable {
    /// The provider's scratch, behind a lock.
    final class Store: Sendable {
        private let scratch = Mutex<FuzzyScratch?>(nil)

        /// The kept scratch, or a new one when another keystroke holds it (or none was kept yet).
        func take() -> FuzzyScratch { scratch.withLock { $0.take() } ?? FuzzyScratch() }

        /// Keeps `scratch` for the next keystroke.
        func put(_ scratch: consuming FuzzyScratch) {
            // Swapped in, not assigned: an assignment would retain each of its arrays once more.
            var kept: FuzzyScratch? = consume scratch
            self.scratch.withLock { swap(&$0, &kept) }
        }
    }

    /// One key pulled from a tier's ranges: its position, the matched depth and its adjusted popularity.
    struct Pulled: Sendable {
        var position: Int
        var depth: Int
        var popularity: Double
        /// The factor of the kinds of its typos in `popularity` (1: not weighed).
        var typoKindFactor: Double = 1
    }

    /// One whole word pulled for the corrections beyond the completion walk.
    struct PulledWord: Sendable {
        var position: Int
        var depth: Int
        var typos: Int
        var popularity: Double
        /// The factor of the kinds of its typos in `popularity` (1: not weighed).
        var typoKindFactor: Double = 1
    }

    /// The canonical key of the query.
    var trimmed: [UInt8] = []
    /// A key to look up (the query's key and a space, an abbreviation's first character).
    var key: [UInt8] = []
    /// The typo walks' arrays, handed from one walk to the next.
    var walk = TypoSearch.Buffers()
    /// Whole-word corrections of the two directions, and the query backwards.
    var wholeEndings: [TypoHit] = []
    var backwards: [UInt32] = []
    /// The nodes a narrowed walk starts from, and the hits sorted to find them.
    var starts: [TypoSearch.Start] = []
    var sortedHits: [TypoHit] = []
    /// The main walk's disjoint pieces and endings, and the working memory that splits hits into pieces.
    var pieces: [TypoHit] = []
    var endings: [TypoHit] = []
    var stack: [TypoHit] = []
    /// The tiers' ranges and matched depths (whole words and completions), and typo counts.
    var wholeRanges: [Range<Int>] = []
    var wholeDepths: [Int] = []
    var ranges: [Range<Int>] = []
    var depths: [Int] = []
    var counts: [Int] = []
    /// Keys pulled by weight, the best of them, and the adjusted popularities of the best.
    var pulled: [Pulled] = []
    var top: [Pulled] = []
    var best: [Double] = []
    var words: [PulledWord] = []
    var topWords: [PulledWord] = []
    /// The top-k heaps of the tiers and of the abbreviation scan.
    var heap: [RangeMaximum] = []
    var scored: [ScoredPosition] = []
    /// The abbreviation scan's survivors and an alignment's positions.
    var survivors: [Int32] = []
    var positions: [Int32] = []
    /// A block of the abbreviation scan's range: the positions whose letter mask holds the pattern's.
    var maskPasses: [Int32] = []
    /// The candidates being made.
    var candidates: [SuggestionCandidate] = []
    /// An abbreviation candidate's matched runs, before they become its ranges.
    var runs: [Range<Int>] = []
    /// The rows that weigh a correction's edits.
    var typoCost = TypoCost()
    /// The prefix index's search buffers for every-word matches (made at the first query of several words), and
    /// their matched ranges' arrays.
    var everyWordBuffer: PrefixIndex.SearchBuffer? = nil
    var everyWordRanges = MatchedRanges()

    /// `array`'s contents in a new array of their own (empty: none), so that the state a keystroke keeps does not
    /// share memory with the scratch.
    static func copy<T>(_ array: [T]) -> [T] {
        guard !array.isEmpty else { return [] }
        return [T](unsafeUninitializedCapacity: array.count) { buffer, count in
            _ = array.withUnsafeBufferPointer { buffer.initialize(from: $0) }
            count = array.count
        }
    }
}

extension Array {
    /// The array, emptied with its capacity kept, leaving an empty one in its place (a scratch array taken out
    /// so that a closure can use it while `self` is in use elsewhere).
    @inline(__always)
    static func take(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        taken.removeAll(keepingCapacity: true)
        return taken
    }
}
