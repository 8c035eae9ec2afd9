import Testing

@testable import suggest

/// Bytes from a terminal into keys.
struct KeyDecoderTests {
    func keys(_ chunks: String...) -> [Key] {
        var decoder = KeyDecoder()
        return chunks.flatMap { decoder.decode(Array($0.utf8)) } + decoder.flush()
    }

    @Test func textControlKeysAndArrows() {
        #expect(
            keys("ab\t\r\u{7F}\u{3}\u{4}") == [
                .text("a"), .text("b"), .tab, .enter, .backspace, .control("c"), .control("d"),
            ])
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}OA\u{1B}OB") == [.up, .down, .up, .down])
        // With modifiers (Ctrl-Up), and the editing keys.
        #expect(keys("\u{1B}[1;5A\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[4~") == [.up, .pageUp, .pageDown, .home, .end])
    }

    @Test func multiByteCharactersEvenWhenAReadSplitsThem() {
        #expect(keys("crème 東京 🍎") == ["c", "r", "è", "m", "e", " ", "東", "京", " ", "🍎"].map { Key.text($0) })
        let bytes = Array("é🍎".utf8)
        var decoder = KeyDecoder()
        var out: [Key] = []
        for byte in bytes { out += decoder.decode([byte]) }
        #expect(out == [.text("é"), .text("🍎")])
    }

    @Test func invalidUTF8IsDropped() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x61, 0xFF, 0xC3, 0x28, 0x62]) == [.text("a"), .text("("), .text("b")])
    }

    @Test func unknownSequencesAreIgnoredWhole() {
        // F5, F12, Alt-x, Shift-Tab, an SGR mouse report, F1 in SS3 form.
        #expect(keys("\u{1B}[15~a\u{1B}[24~\u{1B}x\u{1B}[Z\u{1B}[<0;10;5M\u{1B}OPb") == [.text("a"), .text("b")])
        // Alt with a multi-byte character.
        #expect(keys("\u{1B}éc") == [.text("c")])
    }

    @Test func aLoneEscapeIsTheEscapeKeyOnlyOnceNothingFollows() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.pending == [0x1B])
        // The rest of the sequence arrives in the next read: an arrow, not Escape.
        #expect(decoder.decode(Array("[A".utf8)) == [.up])
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.flush() == [.escape])
        #expect(keys("\u{1B}\u{1B}[B") == [.escape, .down])
        // An unfinished sequence after a pause is dropped.
        #expect(keys("\u{1B}[1;") == [])
    }

    @Test func aBracketedPasteIsOneTextKey() {
        #expect(keys("\u{1B}[200~pyth\non\tx\u{7}\u{1B}[201~z") == [.text("pyth on x"), .text("z")])
        // Split anywhere, the end marker too.
        #expect(keys("\u{1B}[200~hel", "lo\u{1B}[20", "1~") == [.text("hello")])
        // Escape sequences inside a paste are text, not keys.
        #expect(keys("\u{1B}[200~a\u{1B}[Ab\u{1B}[201~") == [.text("a[Ab")])
    }
}
