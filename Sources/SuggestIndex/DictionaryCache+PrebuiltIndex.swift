import Foundation
public import SuggestCore

extension DictionaryCache {
    /// Offers a prebuilt prefix index for the dictionary file at `path`, so that the providers of a configuration
    /// read with this cache (`prefix`, `fuzzy`) use it instead of parsing the dictionary and building one.
    ///
    /// The index is taken only if it was built from the file's current bytes (its ``PrefixIndex/sourceFingerprint``
    /// matches, `lenient` included): an index `SuggestIndexPlugin` made at build time, or one `suggest index` saved.
    /// `path` must be spelled as the configuration resolves it: the configuration file's folder, `/`, then the
    /// `"dictionary"` value.
    ///
    /// ```swift
    /// let cache = DictionaryCache()
    /// if let url = Bundle.module.url(forResource: "words", withExtension: "idx") {
    ///     let index = try PrefixIndex(contentsOfFile: url.path)
    ///     cache.usePrebuiltIndex(index, forDictionaryAtPath: folder + "/words.tsv")
    /// }
    /// let configuration = try EngineConfiguration(contentsOf: folder + "/search.suggest.json", registry: .builtIn,
    ///                                             cache: cache)
    /// ```
    /// - Returns: true when the index was taken; false when it was built from other bytes (or without a
    ///   fingerprint), or the dictionary file cannot be read; the providers then build their own as usual.
    /// - Complexity: one read and hash of the dictionary file, O(n) in its size.
    @discardableResult
    public func usePrebuiltIndex(
        _ index: PrefixIndex,
        forDictionaryAtPath path: String,
        lenient: Bool = false
    ) -> Bool {
        guard let expected = index.sourceFingerprint, expected.lenient == lenient,
            SourceFingerprint(contentsOfFile: path, lenient: lenient) == expected
        else { return false }
        _ = artifact(PrefixIndex.cacheKey(dictionaryPath: path, lenient: lenient)) { index }
        return true
    }
}
