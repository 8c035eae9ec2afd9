// libFuzzer target: a saved prefix index (`suggest index`, `"index"` in a configuration) with bytes overwritten and,
// for most inputs, its checksum made right again, so that the structure checks behind the checksum are reached. A
// file that does not load must say why; one that loads must answer prefix, inner-word and every-word searches and a
// fuzzy provider's typing without crashing.
//
// An input is a list of patches on the payload of a small index saved at start: a flag byte (bit 0: leave the
// checksum as it is), then records of a 2-byte offset (little-endian, modulo the payload's length), a length byte
// (1–8 bytes written) and the bytes.
import Foundation
import Suggest
// The file's own checksum function (`Checksum.hash`), so that patched files pass it: debug builds are testable.
@testable import SuggestIndex

let headerSize = PrefixIndex.headerSize
let words: [String] = {
    // Enough keys (about 700) that searches use the rank tables' blocks (32 and 128 keys) and the trie's wide levels.
    let heads = ["café", "cafe au lait", "new york", "python", "py", "types-", "über", "straße", "東京", "ab cd", "z"]
    let tails = ["", "s", "er", " times", "-dateutil", "naïve", "requests", "tower", " x y", "ing", "タワー", "zeal"]
    var words: [String] = []
    for (i, head) in heads.enumerated() {
        for (j, tail) in tails.enumerated() {
            for k in 0..<5 { words.append(k == 0 ? head + tail : "\(head)\(tail)\(k * 7 + i + j)") }
        }
    }
    return words
}()
let base: [UInt8] = {
    let entries = words.enumerated().map { i, text in
        (text: text, weight: Double(1 + (i * 7919) % 1000), scope: i % 3 == 0 ? "scope\(i % 2)" : String?.none)
    }
    return PrefixIndex(dictionary: WeightedDictionary(entries: entries)).serialized()
}()
let queries = ["", "c", "ca", "caf", "cafe", "new y", "york new", "yor ne", "pyth", "py date", "ueber", "strass", "東",
               "x y", "ab c", "zz", "cafee", "nwe york", "reqeusts", "a b c d e f g"]
/// Typed letter by letter through the fuzzy provider (fewer: the provider is made again for every input).
let typed = ["cafee", "nwe yor", "pyth dat", "東京タ", "ab c", "reqeusts"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIndexFile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    var file = base
    let payloadCount = file.count - headerSize
    var at = 1
    while at + 3 <= input.count, payloadCount > 0 {
        let offset = Int(input[at]) | Int(input[at + 1]) << 8
        let length = 1 + Int(input[at + 2] & 7)
        at += 3
        for k in 0..<length where at + k < input.count {
            file[headerSize + (offset + k) % payloadCount] = input[at + k]
        }
        at += length
    }
    if input.isEmpty || input[0] & 1 == 0 {
        file.withUnsafeMutableBytes { raw in
            let sum = Checksum.hash(UnsafeRawBufferPointer(rebasing: raw[headerSize...]))
            raw.storeBytes(of: sum, toByteOffset: 24, as: UInt64.self)
        }
    }
    let index: PrefixIndex
    do {
        index = try file.withUnsafeBytes { raw throws(PrefixIndexError) in try PrefixIndex(serialized: raw, file: "fuzz.index") }
    } catch {
        if !"\(error)".contains("fuzz.index") { fatalError("an error without its file: \(error)") }
        return 0
    }
    var buffer = PrefixIndex.SearchBuffer()
    for text in queries {
        let query = PreparedQuery(SearchQuery(text: text))
        index.search(query, limit: 10, infix: true, everyWord: true, into: &buffer)
        for hit in buffer.hits { _ = index.dictionary.text(at: Int(hit.entry)) }
    }
    guard let provider = try? FuzzyProvider(index: FuzzyIndex(index)) else { return 0 }
    var state: (any Sendable)? = nil
    for text in typed {
        // Typed letter by letter, as a session would (each keystroke narrows from the one before).
        var sofar = ""
        for character in text {
            sofar.append(character)
            var output = ProviderOutput()
            try? provider.suggest(
                SuggestionRequest(query: PreparedQuery(SearchQuery(text: sofar)), limit: 10, previousState: state),
                into: &output)
            state = output.state
        }
    }
    return 0
}
