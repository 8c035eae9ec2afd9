import Testing

@testable import SuggestCore

struct TextNormalizerTests {
    @Test(arguments: [
        ("Café", "cafe"), ("CAFÉ", "cafe"), ("STRASSE", "strasse"), ("Straße", "strasse"), ("Ｆｕｌｌ", "full"),
        ("Crème Brûlée", "creme brulee"), ("Łódź", "lodz"), ("Øresund", "oresund"), ("Æsir", "aesir"),
        ("東京", "東京"), ("🍎 Apple", "🍎 apple"), ("tab\there", "tab here"), ("ΣΟΦΙΑ", "σοφια"),
        ("e\u{0301}clair", "eclair"),
    ])
    func foldsCaseDiacriticsAndWidth(input: String, expected: String) {
        #expect(TextNormalizer.normalizedString(input) == expected)
    }

    @Test func asciiIsLowercasedByteForByte() {
        #expect(TextNormalizer.normalized("Hello, World") == Array("hello, world".utf8))
    }

    @Test func mapsFoldedRangesBackToTheOriginal() {
        let text = NormalizedText("Straße")
        // "strasse": the folded "ss" (bytes 4..<6) comes from "ß" (UTF-8 offsets 4..<6 of the original).
        #expect(text.bytes == Array("strasse".utf8))
        #expect(text.originalRange(of: 0..<4) == 0..<4)
        #expect(text.originalRange(of: 4..<5) == 4..<6)
        #expect(text.originalRange(of: 0..<7) == 0..<7)
        let cafe = NormalizedText("Café au lait")
        #expect(cafe.originalRange(of: 0..<4) == 0..<5)
    }

    @Test func findsWordStartsAfterSeparatorsAndAtCamelHumps() {
        let text = NormalizedText("djangoRestFramework new-york_city")
        let starts = text.wordStarts.map(Int.init)
        #expect(starts == [0, 6, 10, 20, 24, 29])
    }

    @Test func theASCIIFastPathGivesTheGeneralPathsResult() {
        // Random ASCII (all 128 bytes, weighted towards letters, case changes and separators), and edge cases.
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("aAbBzZmM09 -_./'\t\n".utf8) + (0..<128).map(UInt8.init)
        var texts = ["", "a", "A", "aB", "Ab", "ABC", "abC", "a-B", "iPhone", "XMLHttpRequest", "new-york_city", "x\u{7F}y"]
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...24, using: &rng)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &rng)! }
            texts.append(String(decoding: bytes, as: UTF8.self))
        }
        for text in texts {
            let fast = NormalizedText(text, asciiFastPath: true)
            let general = NormalizedText(text, asciiFastPath: false)
            #expect(fast == general, "\(Array(text.utf8))")
            #expect(fast.wordStarts == general.wordStarts && fast.originalOffsets == general.originalOffsets)
            #expect(fast.bytes == TextNormalizer.normalized(text))
        }
        // Not ASCII: the general path.
        #expect(NormalizedText("Café", asciiFastPath: true) == NormalizedText("Café", asciiFastPath: false))
    }

    @Test func everyASCIIByteFoldsAsTheTableSaysAppendedAfterWhatTheOutputHolds() {
        for b in 0..<128 {
            // A–Z lowercased, tab, line feed, vertical tab, form feed and carriage return a space, the rest as is.
            let expected = UInt8(b >= 0x41 && b <= 0x5A ? b + 0x20 : (0x09...0x0D).contains(b) ? 0x20 : b)
            var output: [UInt8] = [0xFF, 0x41]
            TextNormalizer.normalize(String(decoding: [UInt8(b)], as: UTF8.self), into: &output)
            #expect(output == [0xFF, 0x41, expected], "byte \(b)")
            #expect(TextNormalizer.foldASCII(UInt8(b)) == expected && TextNormalizer.asciiFold[b] == expected)
        }
        // An ASCII run, then the general path from the first byte that is not ASCII.
        var output = Array("x".utf8)
        TextNormalizer.normalize("ABC\tÉcole Z", into: &output)
        #expect(output == Array("xabc ecole z".utf8))
    }

    @Test func separatorsAreWhitespaceAndPunctuation() {
        for c in " -_./,:;()" { #expect(TextNormalizer.isSeparator(UInt8(ascii: c.unicodeScalars.first!))) }
        for c in "aZ09'" { #expect(!TextNormalizer.isSeparator(UInt8(ascii: c.unicodeScalars.first!))) }
    }

    @Test func everyByteSeparatesAsItsCharacterSays() {
        for byte in 0...255 {
            let expected: Bool
            if byte >= 0x80 {
                expected = false
            } else {
                let c = Character(Unicode.Scalar(UInt8(byte)))
                expected = byte <= 0x20 || byte == 0x7F || !(c.isLetter || c.isNumber || c == "'")
            }
            #expect(TextNormalizer.isSeparator(UInt8(byte)) == expected, "byte \(byte)")
        }
    }
}
