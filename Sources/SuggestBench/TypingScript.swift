/// A reproducible list of typing sessions: searches typed letter by letter, some misspelt, some of those corrected
/// with backspace, each ended by a submit — what ``LatencyBench`` plays against an engine.
///
/// A session types its search one character (grapheme) at a time; every prefix is a keystroke. With probability
/// ``Options/typos`` the search is misspelt once, at a random place, by one of the four ``Misspelling`` slips; the
/// person types on to the end, or (with probability ``Options/corrections``) types one to three letters past the
/// slip, backspaces to it, one keystroke per backspace, and types the rest right. Either way the session submits the
/// search meant (the person picked the right suggestion), then starts a new session.
public struct TypingScript: Sendable {
    /// What shapes the sessions.
    public struct Options: Hashable, Sendable {
        /// How many sessions to type.
        public var sessions: Int
        /// The share of sessions misspelt, 0...1.
        public var typos: Double
        /// The share of misspelt sessions that the person corrects with backspace, 0...1.
        public var corrections: Double
        /// The seed: the same seed, options and searches give the same script.
        public var seed: UInt64

        public init(sessions: Int = 1_000, typos: Double = 0.1, corrections: Double = 0.5, seed: UInt64 = 1) {
            self.sessions = sessions
            self.typos = typos
            self.corrections = corrections
            self.seed = seed
        }
    }

    /// The steps in the order they are played.
    public var steps: [TypingStep]
    /// How many sessions the script types.
    public var sessions: Int
    /// How many sessions are misspelt, and how many of those corrected with backspace.
    public var misspelt: Int
    public var corrected: Int

    /// The number of keystrokes (latency samples) in ``steps``.
    public var keystrokes: Int {
        steps.count { if case .keystroke = $0 { true } else { false } }
    }

    /// A script over given steps (an app's own recorded sessions).
    public init(steps: [TypingStep]) {
        self.steps = steps
        sessions = steps.count { $0 == .reset }
        misspelt = 0
        corrected = 0
    }

    /// Sessions whose searches are drawn by weight from `targets`.
    /// - Precondition: `targets` is not empty; `options.typos` and `options.corrections` are in 0...1.
    public init(drawingFrom targets: BenchTargets, options: Options) {
        var rng = SplitMix64(seed: options.seed)
        self.init(options: options, rng: &rng) { rng in targets.draw(using: &rng) }
    }

    /// Sessions that type `searches` in order (starting over after the last one).
    /// - Precondition: `searches` is not empty; `options.typos` and `options.corrections` are in 0...1.
    public init(searches: [String], options: Options) {
        precondition(!searches.isEmpty, "no search to type")
        var rng = SplitMix64(seed: options.seed)
        var next = 0
        self.init(options: options, rng: &rng) { _ in
            defer { next += 1 }
            return searches[next % searches.count]
        }
    }

    private init(options: Options, rng: inout SplitMix64, next: (inout SplitMix64) -> String) {
        precondition((0...1).contains(options.typos) && (0...1).contains(options.corrections))
        steps = []
        sessions = 0
        misspelt = 0
        corrected = 0
        for _ in 0..<max(0, options.sessions) {
            let target = next(&rng)
            // Drawn for every session, so that changing one share does not move the searches the seed draws.
            let typoRoll = rng.unit()
            let correctionRoll = rng.unit()
            let past = 1 + rng.below(3)
            let slip = Self.misspell(Array(target), using: &rng)
            if typoRoll < options.typos, let slip {
                misspelt += 1
                if correctionRoll < options.corrections {
                    corrected += 1
                    typeCorrected(target: Array(target), typed: slip.text, at: slip.position, past: past)
                } else {
                    type(slip.text, from: 0)
                }
            } else {
                type(Array(target), from: 0)
            }
            steps.append(.submit(target))
            steps.append(.reset)
            sessions += 1
        }
    }

    /// Keystrokes typing `characters[start...]` after `characters[..<start]`.
    private mutating func type(_ characters: [Character], from start: Int) {
        guard start < characters.count else { return }
        for n in (start + 1)...characters.count {
            steps.append(.keystroke(text: String(characters[..<n]), backspace: false))
        }
    }

    /// Types `typed` up to `past` letters beyond the slip at `position`, backspaces to it, types the rest of `target`.
    private mutating func typeCorrected(target: [Character], typed: [Character], at position: Int, past: Int) {
        let stop = min(typed.count, position + past)
        type(Array(typed[..<stop]), from: 0)
        var n = stop
        while n > position {
            n -= 1
            steps.append(.keystroke(text: String(typed[..<n]), backspace: true))
        }
        type(target, from: position)
    }

    /// One slip in `text`: the misspelt text and the index of its first character that differs from `text`'s
    /// (the place the person backspaces to), or nil for a text too short to misspell (fewer than 2 characters).
    static func misspell(_ text: [Character], using rng: inout SplitMix64) -> (text: [Character], position: Int)? {
        guard text.count >= 2 else { return nil }
        // The slips that can happen here, drawn for a random place.
        let position = rng.below(text.count)
        var kinds: [Misspelling] = [.drop, .double]
        if position + 1 < text.count && text[position] != text[position + 1] { kinds.append(.swap) }
        let neighbours = KeyboardNeighbours.of(text[position])
        if !neighbours.isEmpty { kinds.append(.replace) }
        var typed = text
        switch kinds[rng.below(kinds.count)] {
        case .swap: typed.swapAt(position, position + 1)
        case .drop: typed.remove(at: position)
        case .double: typed.insert(text[position], at: position)
        case .replace: typed[position] = neighbours[rng.below(neighbours.count)]
        }
        // Where typing first goes wrong (a doubled letter is wrong one character after it).
        var first = 0
        while first < typed.count && first < text.count && typed[first] == text[first] { first += 1 }
        return (typed, first)
    }
}
