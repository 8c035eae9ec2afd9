import SuggestCore

/// fzf-style scoring of an abbreviation match ("gthb" → "github", "nyt" → "New York Times"): points per matched
/// character, bonuses at word starts (after a separator), at camelCase humps and for consecutive runs (a run keeps
/// the bonus of its first character), the first pattern character's bonus doubled, and penalties for gaps (more for
/// opening a gap than for extending it). The constants are fzf's; the alignment is greedy under the abbreviation rule
/// of ``score(key:original:positions:)``.
struct SubsequenceScorer {
    static let scoreMatch: Int32 = 16
    static let gapStart: Int32 = -3
    static let gapExtension: Int32 = -1
    static let bonusBoundary: Int32 = 8
    static let bonusNonWord: Int32 = 8
    static let bonusCamel: Int32 = 7
    static let bonusConsecutive: Int32 = 4
    static let firstCharMultiplier: Int32 = 2

    /// The pattern: the query's folded bytes without separators.
    let pattern: [UInt8]
    /// The query's original bytes without separators, when smart case applies (the query is ASCII and has an
    /// uppercase letter): then matching is case-sensitive on entries whose title is ASCII.
    let casePattern: [UInt8]?
    /// Letters and digits of the pattern, as a ``FuzzyIndex`` mask.
    let mask: UInt32

    init(query: [UInt8], original: String, smartCase: Bool) {
        var pattern: [UInt8] = []
        pattern.reserveCapacity(query.count)
        var mask: UInt32 = 0
        for b in query where !TextNormalizerProxy.isSeparator(b) {
            pattern.append(b)
            mask |= FuzzyIndex.maskBit(b)
        }
        self.pattern = pattern
        self.mask = mask
        var casePattern: [UInt8]? = nil
        // Read in place: only a query with an uppercase letter makes an array.
        let utf8 = original.utf8
        if smartCase && utf8.allSatisfy({ $0 < 0x80 }) && utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) {
            let stripped = utf8.filter { !TextNormalizerProxy.isSeparator(FuzzyIndex.asciiLower[Int($0)]) }
            if stripped.count == pattern.count { casePattern = stripped }
        }
        self.casePattern = casePattern
    }

    /// Aligns the pattern as an abbreviation of `key` (folded bytes) and scores it; nil when it is not one.
    /// `original` is the title's bytes when it is ASCII (same length as the key): camelCase humps and smart case
    /// need it. Appends the matched folded positions to `positions` if given.
    ///
    /// An abbreviation keeps the first character, and every further character either follows the previous match
    /// directly or after skipped vowels and doubled letters only ("gthb" → "GitHub", "btn" → "button"), or starts a word: after a
    /// separator or at a camelCase hump ("nyt" → "New York Times", "drf" → "djangoRestFramework"). Any other skip
    /// ("pyhto" in "polyphonic ringtones") is not an abbreviation; such queries are typos, matched by the typo walk.
    func score(
        key: UnsafeBufferPointer<UInt8>,
        original: UnsafeBufferPointer<UInt8>?,
        positions: UnsafeMutablePointer<[Int32]>?
    ) -> Int32? {
        let caseSensitive = casePattern != nil && original != nil
        return pattern.withUnsafeBufferPointer { folded in
            (casePattern ?? pattern).withUnsafeBufferPointer { cased in
                let pat = caseSensitive ? cased : folded
                let text = caseSensitive ? original! : key
                let pc = pat.count
                let n = key.count
                guard pc > 0, pc <= n else { return nil }
                @inline(__always) func matches(_ i: Int, _ p: Int, _ length: Int) -> Bool {
                    if i + length > n { return false }
                    var k = 0
                    while k < length {
                        if text[i + k] != pat[p + k] { return false }
                        k += 1
                    }
                    return true
                }
                var score: Int32 = 0
                var p = 0
                var position = 0  // next key byte after the previous match
                var previousEnd = -1
                var consecutive = 0
                var firstBonus: Int32 = 0
                while p < pc {
                    let b = pat[p]
                    let length = UTF8Scalars.length(lead: b)
                    var at = -1
                    if p == 0 {
                        if matches(0, 0, length) { at = 0 }
                    } else {
                        // Directly after the previous match, or after vowels only.
                        var i = position
                        while i < n {
                            if matches(i, p, length) {
                                at = i
                                break
                            }
                            // Vowels and doubled letters ("button" for "btn") may be skipped.
                            if !Self.isVowel(key[i]) && !(i > 0 && key[i] == key[i - 1] && key[i] < 0x80) { break }
                            i += 1
                        }
                        // Else the next word start.
                        if at < 0 {
                            var j = position + 1
                            while j < n {
                                if matches(j, p, length) && Self.isWordStart(key, original, j) {
                                    at = j
                                    break
                                }
                                j += 1
                            }
                        }
                    }
                    if at < 0 { return nil }
                    // fzf's scoring of this character.
                    if previousEnd >= 0 && at > previousEnd {
                        score += Self.gapStart + Int32(at - previousEnd - 1) * Self.gapExtension
                        consecutive = 0
                        firstBonus = 0
                    }
                    score += Self.scoreMatch
                    var bonus = Self.bonus(key, original, at)
                    if consecutive == 0 {
                        firstBonus = bonus
                    } else {
                        if bonus >= Self.bonusBoundary && bonus > firstBonus { firstBonus = bonus }
                        bonus = max(bonus, firstBonus, Self.bonusConsecutive)
                    }
                    score += p == 0 ? bonus * Self.firstCharMultiplier : bonus
                    positions?.pointee.append(Int32(at))
                    consecutive += 1
                    previousEnd = at + length
                    position = at + length
                    p += length
                }
                return score
            }
        }
    }

    /// The abbreviation rule of ``score(key:original:positions:)`` on a canonical key (`IndexKey`: words separated by
    /// single spaces, its only separator byte; no camelCase humps, no smart case): the hot loop of the subsequence
    /// scan.
    @inline(__always)
    static func abbreviates(_ pat: UnsafePointer<UInt8>, _ pc: Int, _ key: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        if pc > n { return false }
        var p = 0
        var position = 0
        while p < pc {
            let b = pat[p]
            let length = UTF8Scalars.length(lead: b)
            var at = -1
            var i = p == 0 ? 0 : position
            // Directly, or after vowels and doubled letters.
            while i + length <= n {
                var k = 0
                while k < length && key[i + k] == pat[p + k] { k += 1 }
                if k == length {
                    at = i
                    break
                }
                let c = key[i]
                if p == 0 || !(isVowel(c) || (i > 0 && c == key[i - 1] && c < 0x80)) { break }
                i += 1
            }
            if at < 0 {
                if p == 0 { return false }
                at = wordStart(pat, p, length, key, n, from: position + 1)
                if at < 0 { return false }
            }
            position = at + length
            p += length
        }
        return true
    }

    /// The first `j >= from` (`from >= 1`) where the canonical key holds the scalar `pat[p..<p + length]` at a word
    /// start (its byte before is a space, a canonical key's only separator), or -1. Eight bytes at a time: the spaces
    /// are found with one subtraction (a zero byte of `word ^ 0x20…`), then the byte after each is checked — a key
    /// has a few words, so far fewer candidates than the bytes equal to a common letter.
    @inline(__always)
    static func wordStart(
        _ pat: UnsafePointer<UInt8>, _ p: Int, _ length: Int, _ key: UnsafePointer<UInt8>, _ n: Int, from: Int
    ) -> Int {
        let b = pat[p]
        let last = n &- length
        @inline(__always) func matches(_ j: Int) -> Bool {
            guard j >= from && j <= last && key[j] == b && key[j &- 1] == 0x20 else { return false }
            var k = 1
            while k < length && key[j &+ k] == pat[p &+ k] { k &+= 1 }
            return k == length
        }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let spaces: UInt64 = 0x2020_2020_2020_2020
        // Spaces at `from - 1` and after (a word start at j has its space at j - 1).
        var i = from &- 1
        while i &+ 8 <= n {
            let word = UInt64(littleEndian: UnsafeRawPointer(key + i).loadUnaligned(as: UInt64.self))
            let x = word ^ spaces
            // Set at each zero byte of x (and maybe above one: `matches` checks the bytes themselves).
            var hits = (x &- ones) & ~x & highs
            while hits != 0 {
                let j = i &+ (hits.trailingZeroBitCount &>> 3) &+ 1
                if matches(j) { return j }
                hits &= hits &- 1
            }
            i &+= 8
        }
        while i < last {
            if key[i] == 0x20 && matches(i &+ 1) { return i &+ 1 }
            i &+= 1
        }
        return -1
    }

    @inline(__always)
    static func isVowel(_ b: UInt8) -> Bool {
        b == 0x61 || b == 0x65 || b == 0x69 || b == 0x6F || b == 0x75 || b == 0x79
    }

    @inline(__always)
    static func isWordStart(_ key: UnsafeBufferPointer<UInt8>, _ original: UnsafeBufferPointer<UInt8>?, _ i: Int) -> Bool {
        if i == 0 { return true }
        if UTF8Scalars.isContinuation(key[i]) { return false }
        if TextNormalizerProxy.isSeparator(key[i - 1]) { return true }
        if let original {
            let o = original[i]
            let po = original[i - 1]
            if o >= 0x41 && o <= 0x5A && po >= 0x61 && po <= 0x7A { return true }
        }
        return false
    }

    /// The best score a pattern of `length` characters can get (every character a doubled boundary bonus, no gap).
    static func maximumScore(length: Int) -> Int32 {
        Int32(length) * (scoreMatch + bonusBoundary) + bonusBoundary * (firstCharMultiplier - 1)
    }

    @inline(__always)
    static func bonus(_ key: UnsafeBufferPointer<UInt8>, _ original: UnsafeBufferPointer<UInt8>?, _ idx: Int) -> Int32 {
        let c = key[idx]
        let isWord = !TextNormalizerProxy.isSeparator(c)
        if !isWord { return bonusNonWord }
        if idx == 0 { return bonusBoundary }
        let prev = key[idx - 1]
        if TextNormalizerProxy.isSeparator(prev) { return bonusBoundary }
        if let original {
            let o = original[idx]
            let po = original[idx - 1]
            if o >= 0x41 && o <= 0x5A && po >= 0x61 && po <= 0x7A { return bonusCamel }
        }
        let isDigit = c >= 0x30 && c <= 0x39
        let prevIsLetter = (prev >= 0x61 && prev <= 0x7A) || prev >= 0x80
        if isDigit && prevIsLetter { return bonusCamel }
        return 0
    }
}
