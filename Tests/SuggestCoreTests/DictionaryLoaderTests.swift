import Foundation
import Testing

@testable import SuggestCore

struct DictionaryLoaderTests {
    @Test func loadsTextWeightAndScopeSkippingCommentsAndBlankLines() throws {
        let dictionary = try DictionaryLoader.load(path: Fixture.path("fruits.tsv"))
        #expect(dictionary.count == 6)
        #expect(dictionary.text(at: 0) == "Apple")
        #expect(dictionary.weight(at: 0) == 50)
        #expect(dictionary.scope(at: 0) == "fruit")
        #expect(dictionary.text(at: 3) == "Café au lait")
        #expect(dictionary.scope(at: 4) == nil)
        #expect(dictionary.scopeNames == ["fruit", "drink", "place"])
    }

    @Test func acceptsWindowsLineEndingsAndTextOnlyLines() throws {
        let crlf = try DictionaryLoader.load(path: Fixture.path("crlf.tsv"))
        #expect(crlf.text(at: 1) == "Pear")
        #expect(crlf.weight(at: 1) == 5)
        let plain = try DictionaryLoader.parse(Array("apple\npear\n".utf8), source: "list.txt")
        #expect(plain.count == 2)
        #expect(plain.weight(at: 1) == 1)
    }

    @Test(arguments: [
        ("no-text.tsv", 2, "no text before the weight"),
        ("negative.tsv", 2, "weight -3 is negative (weights are 0 or more)"),
        ("nan.tsv", 2, "weight \"nan\" is not a finite number"),
        ("not-a-number.tsv", 2, "weight \"lots\" is not a number"),
        ("bad-utf8.tsv", 2, "invalid UTF-8 at column byte 1"),
        ("columns.tsv", 1, "too many columns (expected text<TAB>weight[<TAB>scope])"),
    ])
    func aBadLineIsAnErrorNamingFileAndLine(file: String, line: Int, message: String) {
        let path = Fixture.path(file)
        #expect(throws: DictionaryError(file: path, line: line, message: message)) {
            try DictionaryLoader.load(path: path)
        }
        let error = DictionaryError(file: path, line: line, message: message)
        #expect(error.description == "\(path):\(line): \(message)")
    }

    @Test func lenientModeSkipsBadLinesAndCountsThem() throws {
        let dictionary = try DictionaryLoader.load(path: Fixture.path("not-a-number.tsv"), lenient: true)
        #expect(dictionary.count == 2)
        #expect(dictionary.skippedLines == 1)
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: DictionaryError(file: "/nonexistent/words.tsv", message: "no such file")) {
            try DictionaryLoader.load(path: "/nonexistent/words.tsv")
        }
    }

    @Test func theCacheLoadsEachPathOnce() throws {
        let folder = Fixture.temporaryDirectory()
        let path = folder + "/words.tsv"
        try "alpha\t1\n".write(toFile: path, atomically: true, encoding: .utf8)
        let cache = DictionaryCache()
        let first = try cache.dictionary(atPath: path)
        try FileManager.default.removeItem(atPath: path)
        let second = try cache.dictionary(atPath: path)
        #expect(first.count == 1 && second.count == 1)
        var builds = 0
        for _ in 0..<3 { _ = cache.artifact("index:" + path) { builds += 1; return builds } }
        #expect(builds == 1)
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let path = Fixture.temporaryDirectory() + "/words.tsv"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: DictionaryError(file: path, message: "not a regular file (a FIFO)")) {
            try DictionaryLoader.load(path: path)
        }
    }

    @Test func crlfLinesAndAByteOrderMarkReadLikePlainLines() throws {
        let path = Fixture.temporaryDirectory() + "/windows.tsv"
        try Data([0xEF, 0xBB, 0xBF] + Array("alpha\t2\r\nbeta\t1\tscope\r\n\r\ngamma\r\n".utf8))
            .write(to: URL(fileURLWithPath: path))
        let dictionary = try DictionaryLoader.load(path: path)
        #expect((0..<dictionary.count).map { dictionary.text(at: $0) } == ["alpha", "beta", "gamma"])
        #expect(dictionary.scopeNames == ["scope"])
    }

    /// One byte order mark is skipped, not two: a second one is the first line's text.
    @Test func onlyOneByteOrderMarkIsSkipped() throws {
        let path = Fixture.temporaryDirectory() + "/twice.tsv"
        try Data([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("alpha\t2\n".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(try DictionaryLoader.load(path: path).text(at: 0) == "\u{FEFF}alpha")
    }
}
