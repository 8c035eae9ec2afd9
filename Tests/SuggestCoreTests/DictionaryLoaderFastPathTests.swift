import Testing

@testable import SuggestCore

/// `DictionaryLoader.parse` reads most lines on a fast path; it must give what the general line reader gives.
struct DictionaryLoaderFastPathTests {
    /// The dictionary the general line reader alone makes of `text`.
    static func general(_ text: String) -> WeightedDictionary {
        let bytes = Array(text.utf8)
        var builder = WeightedDictionary.Builder()
        for line in TextLines(bytes) {
            let range = line.range
            let firstNonSpace = bytes[range].firstIndex { $0 != 0x20 && $0 != 0x09 } ?? range.upperBound
            if firstNonSpace == range.upperBound || bytes[firstNonSpace] == UInt8(ascii: "#") { continue }
            let problem = bytes.withUnsafeBufferPointer {
                DictionaryLoader.parseLine($0, range.lowerBound, range.upperBound, into: &builder)
            }
            #expect(problem == nil)
        }
        return builder.build(source: "general", skippedLines: 0)
    }

    @Test func fastAndGeneralLinesGiveTheSameEntries() throws {
        let text = """
            python\t12
            plain text only
              leading spaces\t3
            zeros\t007
            fifteen\t999999999999999
            sixteen\t9999999999999999
            decimal\t2.5
            exponent\t1e3
            spaced weight\t 4 
            trailing\t5\r
            café\t6
            scoped\t7\tfruit
            scoped again\t8\tfruit\r
            # a comment
            \t\t
            NaN-free\t0

            last line without newline\t9
            """
        let fast = try DictionaryLoader.parse(Array(text.utf8), source: "general")
        let general = Self.general(text)
        #expect(fast.textBytes == general.textBytes)
        #expect(fast.textOffsets == general.textOffsets)
        #expect(fast.weights == general.weights)
        #expect(fast.scopeIndices == general.scopeIndices)
        #expect(fast.scopeNames == general.scopeNames)
        #expect(fast.weights[4] == 999_999_999_999_999)
        #expect(fast.weights[5] == Double("9999999999999999"))  // the nearest double, as the parser rounds it
    }

    /// A file of a megabyte or more is read in two halves on two cores.
    @Test func largeFilesReadInHalvesGiveTheSameDictionary() throws {
        var text = ""
        var i = 0
        while text.utf8.count < (1 << 20) + 5_000 {
            text += i % 7 == 0 ? "word\(i) café\t\(i % 100)\r\n" : "word-\(i)\t\(i)\n"
            if i % 1_000 == 0 { text += "# comment\n\n" }
            i += 1
        }
        text += "last\t3"
        let halves = try #require(DictionaryLoader.parseHalves(Array(text.utf8)))
        let whole = try DictionaryLoader.parse(Array(text.utf8), source: "general")
        let general = Self.general(text)
        for dictionary in [halves.build(source: "general", skippedLines: 0), whole] {
            #expect(dictionary.textBytes == general.textBytes)
            #expect(dictionary.textOffsets == general.textOffsets)
            #expect(dictionary.weights == general.weights)
            #expect(dictionary.scopeIndices == general.scopeIndices)
        }
    }

    @Test func aBadLineInTheSecondHalfOfALargeFileNamesItsLine() {
        var text = ""
        var lines = 0
        while text.utf8.count < (1 << 20) * 3 / 2 {
            text += "entry number \(lines)\t\(lines)\n"
            lines += 1
        }
        text += "bad\tweight\n"
        #expect(throws: DictionaryError(file: "d.tsv", line: lines + 1, message: "weight \"weight\" is not a number")) {
            try DictionaryLoader.parse(Array(text.utf8), source: "d.tsv")
        }
        let lenient = try? DictionaryLoader.parse(Array(text.utf8), source: "d.tsv", lenient: true)
        #expect(lenient?.count == lines)
        #expect(lenient?.skippedLines == 1)
    }

    @Test(arguments: [
        ("  \t5\n", 1, "no text before the weight"),
        ("ok\t1\nbad\t\n", 2, "missing weight after the tab"),
        ("ok\t1\n\nbad\t12x\n", 3, "weight \"12x\" is not a number"),
        ("a\t1\tb\tc\n", 1, "too many columns (expected text<TAB>weight[<TAB>scope])"),
        ("a\t-1\n", 1, "weight -1 is negative (weights are 0 or more)"),
    ])
    func badLinesStillNameTheirLine(text: String, line: Int, message: String) {
        #expect(throws: DictionaryError(file: "d.tsv", line: line, message: message)) {
            try DictionaryLoader.parse(Array(text.utf8), source: "d.tsv")
        }
    }
}
