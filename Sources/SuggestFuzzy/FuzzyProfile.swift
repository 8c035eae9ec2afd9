/// Where one keystroke of ``FuzzyProvider`` spent its time, step by step: measured only when
/// ``FuzzyOptions/profile`` is on, and reported as one diagnostics note per keystroke,
/// `steps: walk 12.3 µs 410 nodes, tiers 3.1 µs, wrong-first 0 µs 0 nodes, abbreviations 20.0 µs 95 keys,
/// whole-words 0 µs 0 nodes, whole-words-wrong-first 0 µs 0 nodes`, which a benchmark can add up over a typing
/// session.
struct FuzzyProfile {
    /// The steps of ``FuzzyMatcher/run(query:limit:previous:)``, in order.
    enum Step: Int, CaseIterable {
        /// The typo walk of the typed text (or the plain prefix range when the prefix matches fill the list).
        case walk
        /// The exact, prefix and typo tiers pulled from the walk's ranges.
        case tiers
        /// Whole words with a wrong first letter.
        case wrongFirst
        /// Abbreviations and subsequences.
        case abbreviations
        /// Whole words beyond the completion budget, first letter right (or swapped with the second).
        case wholeWords
        /// Whole words beyond the completion budget with a wrong first letter.
        case wholeWordsWrongFirst
        /// The prefix index's every-word matches of a query of several words.
        case everyWord

        var label: String {
            switch self {
            case .walk: "walk"
            case .tiers: "tiers"
            case .wrongFirst: "wrong-first"
            case .abbreviations: "abbreviations"
            case .wholeWords: "whole-words"
            case .wholeWordsWrongFirst: "whole-words-wrong-first"
            case .everyWord: "every-word"
            }
        }

        /// What the step's work counts: trie nodes for the walks, keys for the abbreviation scan.
        var unit: String? {
            switch self {
            case .walk, .wrongFirst, .wholeWords, .wholeWordsWrongFirst: "nodes"
            case .abbreviations: "keys"
            case .tiers, .everyWord: nil
            }
        }
    }

    var nanoseconds = [UInt64](repeating: 0, count: Step.allCases.count)
    var work = [Int](repeating: 0, count: Step.allCases.count)
    private var lap = ContinuousClock.now

    /// Starts timing the first step.
    mutating func start() { lap = .now }

    /// Ends `step`: the time since the previous lap and `work` are added to it.
    mutating func end(_ step: Step, work amount: Int = 0) {
        let now = ContinuousClock.now
        let elapsed = lap.duration(to: now).components
        nanoseconds[step.rawValue] += UInt64(max(0, elapsed.seconds)) * 1_000_000_000
            + UInt64(max(0, elapsed.attoseconds / 1_000_000_000))
        work[step.rawValue] += amount
        lap = now
    }

    /// The note: every step's microseconds and work, in order.
    var note: String {
        var parts: [String] = []
        for step in Step.allCases {
            let micros = Double(nanoseconds[step.rawValue]) / 1_000
            var part = "\(step.label) \((micros * 10).rounded() / 10) µs"
            if let unit = step.unit { part += " \(work[step.rawValue]) \(unit)" }
            parts.append(part)
        }
        return "steps: " + parts.joined(separator: ", ")
    }
}
