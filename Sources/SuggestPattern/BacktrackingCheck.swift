import SuggestCore

/// Finds the shapes of regular expression that make a backtracking engine without a step limit (Swift `Regex`)
/// take exponential or high-polynomial time, so that they can be refused when a configuration is read rather than
/// hang a keystroke or a start. One check for every place a Swift `Regex` pattern runs (token rules with the
/// `"swift"` engine, recent-search exclusions).
///
/// A group that is repeated without bound (`*`, `+`, `{n,}`), or more than ``maximumRepeatOfRisky`` times, is
/// refused when it contains
/// - an unbounded quantifier: `(a+)+`, `(\w*\s)*`, `(.*a){20}`;
/// - an alternation whose branches can match the same text: `(a|aa)+`, `(a|a)*`, `(\d|\w)+` (two literal branches
///   overlap when one starts the other; other branches when the characters they can start with overlap);
/// and a group repeated more than ``maximumRepeatOfOptional`` times is refused when it holds an optional part
/// (`(a?){30}`); a group with a bounded repeat is refused when its parts of varying length can split a text between
/// its repeats in more than ``maximumWays`` ways (`(?:a{1,10}){1,10}`; not `(?:[a-z]{1,20} ){1,5}`, whose repeats
/// end at a character the letters cannot match).
///
/// The check is conservative: it also refuses some harmless patterns (`(?:\s+\w+)*`, `(ab|ac)+`), never a pattern
/// without a repeated group. Possessive quantifiers (`++`, `*+`) and atomic groups `(?>…)` are allowed, since they
/// do not backtrack. It does not bound everything: a run of unbounded quantifiers outside any repeated group
/// (`.*a.*a.*a`) is polynomial and stays allowed; callers also cap the length of the text.
package enum BacktrackingCheck {
    /// A group repeated at most this many times may contain an unbounded quantifier or an overlapping alternation
    /// (`(\S+\s){1,2}`): the work grows with the text's length to this power at most.
    package static let maximumRepeatOfRisky = 2
    /// A group repeated at most this many times may contain an optional part (`(?:\d{3}[- ]?){3}`): up to 2^10 ways
    /// to split a text, not 2^30 (`(a?){30}a{30}`).
    package static let maximumRepeatOfOptional = 10
    /// A group whose content can match one text in several ways (`(?:a{1,10})`) may be repeated so that all its
    /// repeats together have at most this many ways to split a text (`(?:a{1,10}){1,10}`: 10 × 10¹⁰, refused;
    /// `(?:\d{1,3}\.){3}`: 27).
    package static let maximumWays: Double = 65_536
    static let waysCap: Double = 1e18

    /// What makes a pattern unsafe, and where.
    package struct Risk: Hashable, Sendable, CustomStringConvertible {
        /// The UTF-8 offset in the pattern of the group that is repeated.
        package var offset: Int
        /// Why ("nested unbounded quantifier …").
        package var reason: String

        package var description: String { "\(reason) at offset \(offset)" }
    }

    /// The first repeated group in `pattern` that can backtrack catastrophically, or nil.
    /// - Complexity: O(n + b²) for a pattern of n bytes with b branches in one alternation.
    package static func firstRisk(in pattern: String) -> Risk? {
        var parser = Parser(Array(pattern.utf8))
        return parser.run()
    }

    /// The bytes an atom can start with: one bit per ASCII byte, plus one for any non-ASCII scalar.
    struct FirstSet: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var nonASCII = false

        static let any = FirstSet(low: ~0, high: ~0, nonASCII: true)

        mutating func insert(_ b: UInt8) {
            if b >= 0x80 {
                nonASCII = true
            } else if b < 64 {
                low |= 1 << UInt64(b)
            } else {
                high |= 1 << UInt64(b - 64)
            }
            // Letters count in both cases: `(?i)` and case-insensitive matching.
            if b >= 0x41 && b <= 0x5A { insertExact(b + 0x20) } else if b >= 0x61 && b <= 0x7A { insertExact(b - 0x20) }
        }

        private mutating func insertExact(_ b: UInt8) {
            if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) }
        }

        mutating func insert(_ range: ClosedRange<UInt8>) {
            for b in range { insert(b) }
        }

        mutating func formUnion(_ other: FirstSet) {
            low |= other.low
            high |= other.high
            nonASCII = nonASCII || other.nonASCII
        }

        var complement: FirstSet { FirstSet(low: ~low, high: ~high, nonASCII: true) }

        func intersects(_ other: FirstSet) -> Bool {
            low & other.low != 0 || high & other.high != 0 || (nonASCII && other.nonASCII)
        }

        static var digits: FirstSet {
            var set = FirstSet()
            set.insert(UInt8(ascii: "0")...UInt8(ascii: "9"))
            return set
        }
        static var word: FirstSet {
            var set = digits
            set.insert(UInt8(ascii: "a")...UInt8(ascii: "z"))
            set.insert(UInt8(ascii: "_"))
            set.nonASCII = true
            return set
        }
        static var whitespace: FirstSet {
            var set = FirstSet()
            set.insert(0x09...0x0D)
            set.insert(0x20)
            set.nonASCII = true
            return set
        }
    }

    /// One branch of an alternation: its literal text when it is nothing but literal characters, else the
    /// characters it can start with.
    struct Branch {
        var literal: [UInt8]? = []
        var first: FirstSet? = nil
        /// How many ways, at most, the bounded quantifiers at the branch's end can split one text between them
        /// (`a{1,3}b?`: 3 × 2), capped at ``waysCap``: those after the last atom that must match a character none of
        /// them can (`[a-z]{1,8}-`: the `-` fixes where the letters end, so a wrong split fails at once).
        var tailWays: Double = 1
        /// What those quantifiers can match.
        var tailSet = FirstSet()

        func overlaps(_ other: Branch) -> Bool {
            if let a = literal, let b = other.literal {
                // An empty branch matches the empty text, which starts every text.
                return a.starts(with: b) || b.starts(with: a)
            }
            return (first ?? .any).intersects(other.first ?? .any)
        }
    }

    struct Frame {
        var start: Int
        var atomic: Bool
        var containsUnbounded = false
        /// Holds a quantifier that may match nothing (`?`, `*`, `{0,n}`): each repeat of the group can take it or not.
        var containsOptional = false
        var ambiguous = false
        var branches: [Branch] = []
        var current = Branch()
    }

    struct Quantifier {
        var min: Int
        /// nil: unbounded.
        var max: Int?
        var possessive: Bool
        var length: Int
    }

    struct Parser {
        let bytes: [UInt8]
        var stack: [Frame] = [Frame(start: 0, atomic: false)]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func run() -> Risk? {
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                switch b {
                case UInt8(ascii: "("):
                    let (opens, atomic, end) = groupOpening(at: i)
                    if opens { stack.append(Frame(start: i, atomic: atomic)) }
                    i = end
                case UInt8(ascii: ")"):
                    guard stack.count > 1 else { return nil }  // Unbalanced: the regex parser reports it.
                    var frame = stack.removeLast()
                    frame.branches.append(frame.current)
                    if !frame.atomic && Self.hasOverlap(frame.branches) { frame.ambiguous = true }
                    i += 1
                    let q = quantifier(at: i)
                    i += q?.length ?? 0
                    if let risk = check(frame, q) { return risk }
                    let unbounded = q.map { $0.max == nil && !$0.possessive } ?? false
                    if !frame.atomic {
                        if frame.containsUnbounded || unbounded { stack[stack.count - 1].containsUnbounded = true }
                        if frame.containsOptional || (q.map { $0.min == 0 && !$0.possessive } ?? false) {
                            stack[stack.count - 1].containsOptional = true
                        }
                        if frame.ambiguous { stack[stack.count - 1].ambiguous = true }
                    } else if unbounded {
                        stack[stack.count - 1].containsUnbounded = true
                    }
                    // A group starts with what its branches start with; it is never a literal.
                    var first = FirstSet()
                    for branch in frame.branches {
                        if branch.literal?.isEmpty == true { first = .any }
                        first.formUnion(branch.first ?? .any)
                    }
                    // Overlapping branches are the ambiguity check's: here a group splits a text as its most
                    // variable branch does.
                    // The next repeat starts with `first`: a tail that cannot match it cannot trade text with it.
                    let inner =
                        frame.atomic
                        ? 1 : frame.branches.map { $0.tailSet.intersects(first) ? $0.tailWays : 1 }.max() ?? 1
                    let ways = Self.ways(inner: inner, q)
                    if inner > 1, ways > maximumWays, let q, let max = q.max, !q.possessive {
                        return Risk(
                            offset: frame.start,
                            reason: "a group repeated \(max) times can split a text in more than "
                                + "\(Int(maximumWays)) ways (its content matches varying lengths each time), which "
                                + "can backtrack catastrophically; make the inner quantifiers possessive or the group "
                                + "atomic (?>…)"
                        )
                    }
                    atom(first: first, literal: nil, q, ways: ways)
                case UInt8(ascii: "|"):
                    let top = stack.count - 1
                    stack[top].branches.append(stack[top].current)
                    stack[top].current = Branch()
                    i += 1
                case UInt8(ascii: "["):
                    let (set, end) = characterClass(at: i)
                    i = end
                    let q = quantifier(at: i)
                    i += q?.length ?? 0
                    atom(first: set, literal: nil, q)
                case UInt8(ascii: "\\"):
                    let (set, literal, end) = escape(at: i)
                    i = end
                    let q = quantifier(at: i)
                    i += q?.length ?? 0
                    atom(first: set, literal: literal, q)
                case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"):
                    i += 1
                    let q = quantifier(at: i)
                    i += q?.length ?? 0
                    atom(first: .any, literal: nil, q)
                default:
                    // One literal scalar.
                    var end = i + 1
                    while end < bytes.count && UTF8Scalars.isContinuation(bytes[end]) { end += 1 }
                    var set = FirstSet()
                    set.insert(b)
                    let literal = Array(bytes[i..<end]).map(Self.lowercased)
                    i = end
                    let q = quantifier(at: i)
                    i += q?.length ?? 0
                    atom(first: set, literal: literal, q)
                }
            }
            return nil
        }

        /// The risk of repeating `frame` with `q`, if any.
        func check(_ frame: Frame, _ q: Quantifier?) -> Risk? {
            guard let q, !q.possessive, !frame.atomic else { return nil }
            if q.max == nil {
                if frame.containsUnbounded {
                    return Risk(
                        offset: frame.start,
                        reason: "nested unbounded quantifier: a group repeated without bound contains an unbounded "
                            + "quantifier, which can backtrack catastrophically"
                    )
                }
                if frame.ambiguous {
                    return Risk(
                        offset: frame.start,
                        reason: "a group repeated without bound contains an alternation whose branches can match "
                            + "the same text, which can backtrack catastrophically"
                    )
                }
            } else if let max = q.max, max > maximumRepeatOfRisky {
                if frame.containsUnbounded {
                    return Risk(
                        offset: frame.start,
                        reason: "a group repeated \(max) times contains an unbounded quantifier (more than "
                            + "\(maximumRepeatOfRisky) repeats can backtrack catastrophically)"
                    )
                }
                if frame.ambiguous {
                    return Risk(
                        offset: frame.start,
                        reason: "a group repeated \(max) times contains an alternation whose branches can match the "
                            + "same text (more than \(maximumRepeatOfRisky) repeats can backtrack catastrophically)"
                    )
                }
                if frame.containsOptional && max > maximumRepeatOfOptional {
                    return Risk(
                        offset: frame.start,
                        reason: "a group repeated \(max) times contains an optional part (more than "
                            + "\(maximumRepeatOfOptional) repeats can backtrack catastrophically: each repeat can take "
                            + "it or not)"
                    )
                }
            }
            return nil
        }

        /// The group syntax at `i` (`(`, `(?:`, `(?<name>`, `(?=`, `(?i)`…): whether it opens a group, whether the
        /// group is atomic, and where its content starts. Comments `(?#…)` and option settings `(?i)` open none.
        func groupOpening(at i: Int) -> (opens: Bool, atomic: Bool, end: Int) {
            var k = i + 1
            guard k < bytes.count, bytes[k] == UInt8(ascii: "?") else { return (true, false, k) }
            k += 1
            guard k < bytes.count else { return (true, false, k) }
            switch bytes[k] {
            case UInt8(ascii: "#"):
                while k < bytes.count, bytes[k] != UInt8(ascii: ")") { k += 1 }
                return (false, false, min(k + 1, bytes.count))
            case UInt8(ascii: ">"):
                return (true, true, k + 1)
            case UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "|"):
                return (true, false, k + 1)
            case UInt8(ascii: "<"), UInt8(ascii: "P"), UInt8(ascii: "'"):
                if bytes[k] == UInt8(ascii: "P") { k += 1 }
                guard k < bytes.count else { return (true, false, k) }
                if bytes[k] == UInt8(ascii: "<"), k + 1 < bytes.count,
                    bytes[k + 1] == UInt8(ascii: "=") || bytes[k + 1] == UInt8(ascii: "!")
                {
                    return (true, false, k + 2)  // Lookbehind.
                }
                let close = bytes[k] == UInt8(ascii: "'") ? UInt8(ascii: "'") : UInt8(ascii: ">")
                k += 1
                while k < bytes.count, bytes[k] != close { k += 1 }
                return (true, false, min(k + 1, bytes.count))
            default:
                // Options: `(?i)` sets them for the rest (no group), `(?i:…)` opens a group.
                while k < bytes.count, bytes[k] != UInt8(ascii: ")"), bytes[k] != UInt8(ascii: ":") { k += 1 }
                if k < bytes.count, bytes[k] == UInt8(ascii: ")") { return (false, false, k + 1) }
                return (true, false, min(k + 1, bytes.count))
            }
        }

        /// Adds an atom to the current branch of the innermost group.
        /// The ways `q` can repeat an atom whose one match can take `inner` ways: up to `max - min + 1` counts,
        /// each with `inner` ways a repeat (1 for no quantifier, an unbounded one — the other checks' — or a
        /// possessive one).
        static func ways(inner: Double, _ q: Quantifier?) -> Double {
            guard let q, let max = q.max, !q.possessive else { return inner }
            var ways = Double(max - q.min + 1)
            var repeats = 0
            while inner > 1 && repeats < max && ways < waysCap {
                ways *= inner
                repeats += 1
            }
            return Swift.min(waysCap, ways)
        }

        mutating func atom(first: FirstSet, literal: [UInt8]?, _ q: Quantifier?, ways: Double? = nil) {
            let top = stack.count - 1
            let ways = ways ?? Self.ways(inner: 1, q)
            // An atom that must match a character the tail cannot fixes where the tail ends.
            if (q?.min ?? 1) >= 1 && !first.intersects(stack[top].current.tailSet) {
                stack[top].current.tailWays = 1
                stack[top].current.tailSet = FirstSet()
            }
            if ways > 1 {
                stack[top].current.tailWays = Swift.min(waysCap, stack[top].current.tailWays * ways)
                stack[top].current.tailSet.formUnion(first)
            }
            if let q, q.max == nil, !q.possessive { stack[top].containsUnbounded = true }
            if let q, q.min == 0, !q.possessive { stack[top].containsOptional = true }
            var branch = stack[top].current
            if branch.first == nil {
                // An optional first atom lets the branch start with whatever follows: anything, conservatively.
                branch.first = (q.map { $0.min == 0 } ?? false) ? .any : first
            }
            if let literal, q == nil, branch.literal != nil {
                branch.literal!.append(contentsOf: literal)
            } else {
                branch.literal = nil
            }
            stack[top].current = branch
        }

        static func hasOverlap(_ branches: [Branch]) -> Bool {
            guard branches.count > 1 else { return false }
            for a in 0..<branches.count {
                for b in (a + 1)..<branches.count where branches[a].overlaps(branches[b]) { return true }
            }
            return false
        }

        static func lowercased(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }

        /// The quantifier at `i` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, `{,m}`, then `?` lazy or `+` possessive).
        func quantifier(at i: Int) -> Quantifier? {
            guard i < bytes.count else { return nil }
            var q: Quantifier
            switch bytes[i] {
            case UInt8(ascii: "*"): q = Quantifier(min: 0, max: nil, possessive: false, length: 1)
            case UInt8(ascii: "+"): q = Quantifier(min: 1, max: nil, possessive: false, length: 1)
            case UInt8(ascii: "?"): q = Quantifier(min: 0, max: 1, possessive: false, length: 1)
            case UInt8(ascii: "{"):
                var k = i + 1
                var lower: Int? = nil
                var upper: Int? = nil
                var sawComma = false
                while k < bytes.count, bytes[k] != UInt8(ascii: "}") {
                    let c = bytes[k]
                    if c == UInt8(ascii: ",") && !sawComma {
                        sawComma = true
                    } else if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                        let digit = Int(c - UInt8(ascii: "0"))
                        if sawComma {
                            upper = min((upper ?? 0) * 10 + digit, 1_000_000)
                        } else {
                            lower = min((lower ?? 0) * 10 + digit, 1_000_000)
                        }
                    } else if c != UInt8(ascii: " ") {
                        return nil  // Not a quantifier: a literal `{`.
                    }
                    k += 1
                }
                guard k < bytes.count, lower != nil || upper != nil else { return nil }
                q = Quantifier(
                    min: lower ?? 0,
                    max: sawComma ? upper : lower,
                    possessive: false,
                    length: k - i + 1
                )
            default:
                return nil
            }
            let next = i + q.length
            if next < bytes.count {
                if bytes[next] == UInt8(ascii: "+") {
                    q.possessive = true
                    q.length += 1
                } else if bytes[next] == UInt8(ascii: "?") {
                    q.length += 1
                }
            }
            return q
        }

        /// The escape at `i` (`\d`, `\.`, `\p{L}`…): what it can start with, its literal byte if it is one, and
        /// where it ends.
        func escape(at i: Int) -> (FirstSet, [UInt8]?, Int) {
            guard i + 1 < bytes.count else { return (.any, nil, i + 1) }
            let c = bytes[i + 1]
            var end = i + 2
            switch c {
            case UInt8(ascii: "d"): return (.digits, nil, end)
            case UInt8(ascii: "D"): return (FirstSet.digits.complement, nil, end)
            case UInt8(ascii: "w"): return (.word, nil, end)
            case UInt8(ascii: "W"): return (FirstSet.word.complement, nil, end)
            case UInt8(ascii: "s"): return (.whitespace, nil, end)
            case UInt8(ascii: "S"): return (FirstSet.whitespace.complement, nil, end)
            case UInt8(ascii: "t"): return (Self.single(0x09), [0x09], end)
            case UInt8(ascii: "n"): return (Self.single(0x0A), [0x0A], end)
            case UInt8(ascii: "r"): return (Self.single(0x0D), [0x0D], end)
            case UInt8(ascii: "p"), UInt8(ascii: "P"), UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "N"),
                UInt8(ascii: "k"), UInt8(ascii: "g"):
                // `\p{L}`, `\x{41}`, `\k<name>`…: skip the braced or bracketed part.
                if end < bytes.count, [UInt8(ascii: "{"), UInt8(ascii: "<"), UInt8(ascii: "'")].contains(bytes[end]) {
                    let close: UInt8 =
                        bytes[end] == UInt8(ascii: "{") ? UInt8(ascii: "}")
                        : bytes[end] == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "'")
                    while end < bytes.count, bytes[end] != close { end += 1 }
                    end = min(end + 1, bytes.count)
                }
                return (.any, nil, end)
            default:
                let isAlphanumeric =
                    (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                // `\b`, `\A`, `\1`…: anchors and backreferences; anything else is an escaped literal (`\.`).
                if isAlphanumeric || c >= 0x80 { return (.any, nil, end) }
                return (Self.single(c), [Self.lowercased(c)], end)
            }
        }

        static func single(_ b: UInt8) -> FirstSet {
            var set = FirstSet()
            set.insert(b)
            return set
        }

        /// The class `[…]` at `i`: the characters it matches (ranges, escapes, negation; anything unusual counts
        /// as any character) and where it ends.
        func characterClass(at i: Int) -> (FirstSet, Int) {
            var k = i + 1
            var negated = false
            if k < bytes.count, bytes[k] == UInt8(ascii: "^") {
                negated = true
                k += 1
            }
            var set = FirstSet()
            var first = true
            var previous: UInt8? = nil
            var depth = 1
            while k < bytes.count {
                let c = bytes[k]
                if c == UInt8(ascii: "]") && !first {
                    depth -= 1
                    if depth == 0 { break }
                    k += 1
                    continue
                }
                first = false
                if c == UInt8(ascii: "[") {
                    // A POSIX class or a nested set: anything.
                    set = .any
                    depth += 1
                    k += 1
                    continue
                }
                if c == UInt8(ascii: "\\") {
                    let (escaped, literal, end) = escape(at: k)
                    set.formUnion(escaped)
                    previous = literal?.count == 1 ? bytes[k + 1] : nil
                    k = end
                    continue
                }
                if c == UInt8(ascii: "-"), let low = previous, k + 1 < bytes.count, bytes[k + 1] != UInt8(ascii: "]") {
                    let high = bytes[k + 1]
                    if high == UInt8(ascii: "\\") || high >= 0x80 || low >= 0x80 || high < low {
                        set = .any
                    } else {
                        set.insert(low...high)
                    }
                    previous = nil
                    k += 2
                    continue
                }
                set.insert(c)
                previous = c < 0x80 ? c : nil
                k += 1
            }
            return (negated ? set.complement : set, min(k + 1, bytes.count))
        }
    }
}
