import SuggestCore
import SuggestIndex
import Testing

@testable import SuggestFuzzy

/// The abbreviation scan skips a key unchecked when its second-character set lacks the pattern's second character:
/// that must never skip a key the abbreviation rule accepts.
struct AbbreviationFilterTests {
    /// A small deterministic generator (the same keys on every run).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Random keys over vowels, consonants, doubled letters, separators and a non-ASCII letter.
    static func keys(count: Int) -> [String] {
        var random = Generator(state: 42)
        let pieces = ["a", "e", "i", "o", "u", "y", "b", "c", "d", "l", "m", "n", "p", "s", "t", "tt", "ss", "é", "-", " ", "_", "2"]
        var keys: Set<String> = []
        while keys.count < count {
            var key = ""
            for _ in 0..<(2 + random.next(12)) { key += pieces[random.next(pieces.count)] }
            keys.insert(key)
        }
        return keys.sorted()
    }

    @Test func aKeyTheRuleAcceptsIsNeverSkipped() {
        let texts = Self.keys(count: 3_000)
        let dictionary = WeightedDictionary(entries: texts.map { (text: $0, weight: 1, scope: nil) })
        let index = FuzzyIndex(dictionary)
        var random = Generator(state: 7)
        var accepted = 0
        for position in 0..<index.count {
            let key = Array(index.prefixIndex.sortedKey(at: position))
            guard key.count >= 2 else { continue }
            // Patterns: the key's first scalar, then bytes drawn from the key in order (often an abbreviation), and
            // some drawn from anywhere (mostly not).
            for attempt in 0..<12 {
                let first = UTF8Scalars.length(lead: key[0])
                var pattern = Array(key[0..<first])
                var at = first
                for _ in 0..<(1 + random.next(4)) {
                    if attempt < 8 {
                        guard at < key.count else { break }
                        at += random.next(key.count - at)
                        let length = UTF8Scalars.length(lead: key[at])
                        guard !UTF8Scalars.isContinuation(key[at]), at + length <= key.count else { break }
                        pattern.append(contentsOf: key[at..<(at + length)])
                        at += length
                    } else {
                        pattern.append(Array("aeiostc-".utf8)[random.next(8)])
                    }
                }
                guard pattern.count > first else { continue }
                let abbreviates = pattern.withUnsafeBufferPointer { p in
                    key.withUnsafeBufferPointer { k in
                        SubsequenceScorer.abbreviates(p.baseAddress!, p.count, k.baseAddress!, k.count)
                    }
                }
                guard abbreviates else { continue }
                accepted += 1
                let second = FuzzyIndex.secondBit(pattern[first])
                #expect(
                    index.seconds[position] & second != 0,
                    "\(String(decoding: pattern, as: UTF8.self)) abbreviates \(String(decoding: key, as: UTF8.self))")
            }
        }
        // The check above ran on many accepted pairs.
        #expect(accepted > 3_000)
    }

    @Test func theSetHoldsTheCharactersAfterTheFirstAndAtWordStarts() {
        let dictionary = WeightedDictionary(entries: [
            (text: "aeiostat", weight: 1, scope: nil), (text: "bbx-yz", weight: 1, scope: nil),
        ])
        let index = FuzzyIndex(dictionary)
        func set(_ key: String) -> UInt16 {
            let position = (0..<index.count).first { index.key(at: $0) == key }!
            return index.seconds[position]
        }
        func bits(_ characters: String) -> UInt16 {
            characters.utf8.reduce(0) { $0 | FuzzyIndex.secondBit($1) }
        }
        // "aeiostat": e, i, o (vowels) and then s, the first other letter; not t.
        #expect(set("aeiostat") == bits("eios"))
        // "bbx yz": b (doubled), x (the first other), y (a word start) — and the space itself after x is not reached.
        #expect(set("bbx yz") == bits("bxy"))
    }

    /// A provider over `texts`, abbreviations only (no prefix matches to fill the list).
    static func abbreviations(_ query: String, in texts: [String]) throws -> [String] {
        let dictionary = WeightedDictionary(entries: texts.map { (text: $0, weight: 1, scope: nil) })
        var options = FuzzyOptions()
        options.prefixMatches = false
        let provider = try FuzzyProvider(index: FuzzyIndex(dictionary), options: options)
        var output = ProviderOutput()
        try provider.suggest(
            SuggestionRequest(query: PreparedQuery(SearchQuery(text: query)), limit: 10), into: &output)
        return output.candidates.filter { $0.tier == .subsequence }.map(\.title).sorted()
    }

    @Test func aCamelCaseKeyIsCheckedWhateverItsSet() throws {
        // "djangoRestFramework": r starts a word only at its hump, which the folded key does not show.
        let found = try Self.abbreviations("drf", in: ["djangoRestFramework", "dxyz", "drafting"])
        #expect(found.contains("djangoRestFramework"))
        #expect(!found.contains("dxyz"))
    }

    @Test func aFirstCharacterNoKeyStartsWithFindsNothing() throws {
        #expect(try Self.abbreviations("zqx", in: ["github", "gitlab"]).isEmpty)
        #expect(try Self.abbreviations("gthb", in: ["github", "gitlab"]) == ["github"])
    }

    @Test func wordStartsFoundEightBytesAtATimeAreThoseAByteScanFinds() {
        // Canonical keys (`IndexKey`): words of letters and "é" joined by single spaces.
        var random = Generator(state: 99)
        let letters: [[UInt8]] = [[0x61], [0x62], [0x78], [0xC3, 0xA9]]
        for _ in 0..<20_000 {
            var key: [UInt8] = []
            for w in 0..<(1 + random.next(6)) {
                if w > 0 { key.append(0x20) }
                for _ in 0..<(1 + random.next(8)) { key += letters[random.next(letters.count)] }
            }
            guard key.count >= 2 else { continue }
            let scalar = letters[random.next(letters.count)]
            let from = 1 + random.next(key.count)
            var expected = -1
            var j = from
            while j + scalar.count <= key.count {
                if Array(key[j..<(j + scalar.count)]) == scalar && key[j - 1] == 0x20 {
                    expected = j
                    break
                }
                j += 1
            }
            let found = scalar.withUnsafeBufferPointer { p in
                key.withUnsafeBufferPointer { k in
                    SubsequenceScorer.wordStart(p.baseAddress!, 0, scalar.count, k.baseAddress!, k.count, from: from)
                }
            }
            #expect(found == expected, "\(key) \(scalar) from \(from)")
        }
    }
}
