import SuggestCore
import Testing

/// Stepping through UTF-8 one scalar at a time.
struct UTF8ScalarsTests {
    @Test(arguments: ["a", "é", "€", "😀", "aé€😀z", ""])
    func decodingGivesTheStringsScalars(text: String) {
        let bytes = Array(text.utf8)
        #expect(UTF8Scalars.values(bytes) == text.unicodeScalars.map(\.value))
        #expect(UTF8Scalars.count(bytes) == text.unicodeScalars.count)
    }

    @Test func leadAndContinuationBytes() {
        #expect(Array("a".utf8).map { UTF8Scalars.length(lead: $0) } == [1])
        #expect(UTF8Scalars.length(lead: Array("é".utf8)[0]) == 2)
        #expect(UTF8Scalars.length(lead: Array("€".utf8)[0]) == 3)
        #expect(UTF8Scalars.length(lead: Array("😀".utf8)[0]) == 4)
        #expect(Array("😀".utf8).map(UTF8Scalars.isContinuation) == [false, true, true, true])
        let euro = Array("€".utf8)
        #expect(UTF8Scalars.decode(euro, at: 0) == (0x20AC, 3))
        // A scalar cut short decodes from the bytes there are and keeps its length.
        #expect(UTF8Scalars.decode(euro[0..<2], at: 0).length == 3)
    }
}
