// libFuzzer target: one `suggest batch` input line, answered by the CLI's own BatchProcessor (module SuggestWire,
// which `suggest serve` uses too) over an engine with every built-in provider on a small dictionary. Each
// answer must be one valid JSON object (checked with Foundation's parser, independently of the project's writer).
import Foundation
import Suggest
import SuggestWire

let engine: SuggestionEngine = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("suggest-fuzz-batch-\(getpid())")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let words = folder.appendingPathComponent("words.tsv")
    try! "python\t900\npytest\t300\nNew York\t500\tplaces\nCafé\t40\nstraße\t30\ndjango-rest-framework\t60\n"
        .write(to: words, atomically: true, encoding: .utf8)
    let json = """
        {"version": 1, "limit": 8, "providers": [
          {"type": "recent"}, {"type": "prefix", "dictionary": "words.tsv"}, {"type": "fuzzy", "dictionary": "words.tsv"},
          {"type": "tokens", "rules": [{"kind": "from", "pattern": "\\\\bfrom:(?<value>\\\\S+)", "values": ["alice"]}],
           "vocabulary": {"ingredient": ["Chicken", "Beef"]}},
          {"type": "static", "items": [{"title": "Apple"}, {"title": "Chicken", "token": {"kind": "ingredient", "value": "Chicken"}}]}
        ]}
        """
    return try! EngineConfiguration(json: json, baseDirectory: folder.path, registry: .builtIn).makeEngine()
}()
nonisolated(unsafe) var processor = BatchProcessor(engine: engine)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatchLine(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let line = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    // One line: the batch reader splits on newlines before the processor sees a line.
    guard !line.contains(0x0A) else { return 0 }
    var out = JSONBytes()
    processor.answerWithoutWaiting(line, into: &out)
    let answer = out.bytes.string
    guard let data = answer.data(using: .utf8),
        (try? JSONSerialization.jsonObject(with: data)) is [String: Any]
    else {
        fatalError("not one JSON object: \(answer.prefix(300))")
    }
    return 0
}
