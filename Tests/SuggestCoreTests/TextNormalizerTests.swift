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

    @Test func separatorsAreWhitespaceAndPunctuation() {
        for c in " -_./,:;()" { #expect(TextNormalizer.isSeparator(UInt8(ascii: c.unicodeScalars.first!))) }
        for c in "aZ09'" { #expect(!TextNormalizer.isSeparator(UInt8(ascii: c.unicodeScalars.first!))) }
    }
}
