import Foundation
import Suggest
import Testing
import SuggestTestSupport

/// `SuggestIndexBuilder`, the worker `SuggestIndexPlugin` runs at build time, run as the build runs it.
struct IndexBuilderToolTests {
    static var tool: URL { CLIRunner.productsDirectory.appendingPathComponent("SuggestIndexBuilder") }

    func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = Self.tool
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func temporaryFolder() throws -> String {
        let path = TestFolders.unique("suggest-builder-")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func buildsAnIndexThatAPrefixProviderTakesForThatDictionary() throws {
        let folder = try temporaryFolder()
        let tsv = folder + "/fruits.tsv"
        try FileManager.default.copyItem(atPath: CLIRunner.fixture("fruits.tsv"), toPath: tsv)
        let result = try run([tsv, folder + "/fruits.idx"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let index = try PrefixIndex(contentsOfFile: folder + "/fruits.idx")
        #expect(index.count == 4)
        #expect(index.dictionary.source == "fruits.tsv")
        let cache = DictionaryCache()
        #expect(cache.usePrebuiltIndex(index, forDictionaryAtPath: tsv))
    }

    @Test func aBadLineFailsTheBuildNamingFileAndLine() throws {
        let folder = try temporaryFolder()
        let tsv = folder + "/bad.tsv"
        try "apple\t5\nbanana\tlots\n".write(toFile: tsv, atomically: true, encoding: .utf8)
        let result = try run([tsv, folder + "/bad.idx"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(tsv):2: error: "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/bad.idx"))
    }

    @Test func aMissingArgumentIsAUsageError() throws {
        let result = try run(["only-one.tsv"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("usage: SuggestIndexBuilder"))
    }
}
