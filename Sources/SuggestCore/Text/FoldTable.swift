import Foundation

/// Folding for non-ASCII scalars: case, diacritics and width, computed once on first use (about 2 ms).
///
/// The table covers the blocks where folding changes a scalar (Latin, Greek, Cyrillic, letterlike symbols,
/// enclosed alphanumerics, presentation forms, halfwidth and fullwidth forms). It is built with Foundation's
/// `folding(options:locale:)` once; the per-keystroke path only reads it. Outside these blocks a scalar is
/// lowercased with the standard library, and combining marks (general category Mn) are dropped.
enum FoldTable {
    static let ranges: [ClosedRange<UInt32>] = [
        0x80...0x24F, 0x370...0x52F, 0x1E00...0x1FFF, 0x2100...0x218F, 0x2460...0x24FF, 0xFB00...0xFB4F,
        0xFF00...0xFFEF,
    ]

    /// Letters whose "diacritic" is part of the letter for Unicode, but which people type without it,
    /// as Lucene's ASCIIFoldingFilter folds them.
    static let extras: [UInt32: String] = [
        0xF8: "o", 0xD8: "o", 0x142: "l", 0x141: "l", 0x111: "d", 0x110: "d", 0x127: "h", 0x126: "h",
        0x131: "i", 0xE6: "ae", 0xC6: "ae", 0x153: "oe", 0x152: "oe", 0xFE: "th", 0xDE: "th", 0xF0: "d",
        0xD0: "d", 0x2019: "'", 0x2018: "'",
    ]

    /// Folded UTF-8 bytes for each scalar in ``ranges`` that folding changes.
    static let table: [UInt32: [UInt8]] = {
        var table: [UInt32: [UInt8]] = [:]
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let original = String(scalar)
                var folded = original.folding(
                    options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive],
                    locale: nil
                )
                // Fold again through the extras (æ → ae after Æ → æ).
                folded = String(
                    folded.unicodeScalars.map { extras[$0.value] ?? String($0) }.joined()
                ).lowercased()
                if folded != original { table[value] = Array(folded.utf8) }
            }
        }
        for (value, replacement) in extras where table[value] == nil {
            table[value] = Array(replacement.utf8)
        }
        return table
    }()
}
