// libFuzzer target: dictionary bytes (`text<TAB>weight[<TAB>scope]` lines), loaded strictly and leniently from a
// file; a strict failure must name a line; whatever loads must build a prefix index and answer a search.
import Foundation
import Suggest

let path = FileManager.default.temporaryDirectory.appendingPathComponent("suggest-fuzz-dictionary-\(getpid()).tsv").path

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDictionary(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard FileManager.default.createFile(atPath: path, contents: data) else { fatalError("cannot write \(path)") }
    for lenient in [false, true] {
        do {
            let dictionary = try DictionaryLoader.load(path: path, lenient: lenient)
            let index = PrefixIndex(dictionary: dictionary)
            var buffer = PrefixIndex.SearchBuffer()
            for i in 0..<min(dictionary.count, 4) {
                index.search(PreparedQuery(SearchQuery(text: String(dictionary.text(at: i).prefix(2)))), limit: 8,
                             into: &buffer)
            }
        } catch {
            if !"\(error)".contains(":") { fatalError("an error without its place: \(error)") }
        }
    }
    return 0
}
