import Foundation
import SuggestCore
import Testing

@testable import SuggestIndex
import SuggestTestSupport

/// `DictionaryCache.usePrebuiltIndex`: an index is taken only when it was built from the dictionary's current bytes.
struct PrebuiltIndexTests {
    func dictionaryFile(_ text: String) throws -> String {
        let path = TestFolders.unique("suggest-prebuilt-", ".tsv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func index(of path: String, lenient: Bool = false) throws -> PrefixIndex {
        PrefixIndex.fingerprinted(dictionary: try DictionaryLoader.load(path: path), path: path, lenient: lenient)
    }

    @Test func anIndexOfTheSameBytesIsTakenAndSharedUnderTheProvidersKey() throws {
        let path = try dictionaryFile("apple\t5\napricot\t3\n")
        let prebuilt = try index(of: path)
        let cache = DictionaryCache()
        #expect(cache.usePrebuiltIndex(prebuilt, forDictionaryAtPath: path))
        let shared = cache.artifact(PrefixIndex.cacheKey(dictionaryPath: path, lenient: false)) { () -> PrefixIndex in
            Issue.record("the prebuilt index was not in the cache: built again")
            return prebuilt
        }
        #expect(shared.count == 2)
    }

    @Test func anIndexOfOtherBytesIsRefused() throws {
        let path = try dictionaryFile("apple\t5\n")
        let prebuilt = try index(of: path)
        try Data("apple\t6\n".utf8).write(to: URL(fileURLWithPath: path))
        let cache = DictionaryCache()
        #expect(!cache.usePrebuiltIndex(prebuilt, forDictionaryAtPath: path))
        var built = false
        _ = cache.artifact(PrefixIndex.cacheKey(dictionaryPath: path, lenient: false)) { () -> PrefixIndex in
            built = true
            return prebuilt
        }
        #expect(built)
    }

    @Test func anIndexReadWithAnotherLenientSettingOrWithoutFingerprintIsRefused() throws {
        let path = try dictionaryFile("apple\t5\n")
        let cache = DictionaryCache()
        #expect(!cache.usePrebuiltIndex(try index(of: path, lenient: true), forDictionaryAtPath: path))
        let unfingerprinted = PrefixIndex(dictionary: try DictionaryLoader.load(path: path))
        #expect(!cache.usePrebuiltIndex(unfingerprinted, forDictionaryAtPath: path))
        #expect(!cache.usePrebuiltIndex(try index(of: path), forDictionaryAtPath: path + ".missing"))
    }
}
