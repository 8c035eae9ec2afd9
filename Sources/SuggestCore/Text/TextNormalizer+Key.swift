extension TextNormalizer {
    /// The key two texts are "the same search" by: folded (`normalized(_:)`), with each run of spaces collapsed to
    /// one and none at either end ("  New   York " → "new york"). Recent searches are deduplicated and vocabulary
    /// words looked up by it. (The prefix index's canonical key, `IndexKey`, goes further: every separator run
    /// becomes one space, and it records word starts.)
    package static func collapsedKey(_ text: String) -> [UInt8] {
        let folded = normalized(text)
        var key: [UInt8] = []
        key.reserveCapacity(folded.count)
        var pendingSpace = false
        for byte in folded {
            if byte == 0x20 {
                pendingSpace = !key.isEmpty
            } else {
                if pendingSpace { key.append(0x20) }
                pendingSpace = false
                key.append(byte)
            }
        }
        return key
    }

    /// `text` trimmed, with whitespace runs (tabs and line ends too) collapsed to one space; case and diacritics kept
    /// (how recent and popular searches are shown).
    package static func collapsingWhitespace(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(scalar)
            }
        }
        return String(out)
    }
}
