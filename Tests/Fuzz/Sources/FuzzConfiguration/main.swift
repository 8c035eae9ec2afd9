// libFuzzer target: a configuration document. It is read with the built-in registry (every provider type) from a
// folder holding a small dictionary; an error must be a ConfigurationErrors value with at least one located
// message, never a crash; a configuration that loads must answer a keystroke.
import Foundation
import Suggest

let folder: String = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("suggest-fuzz-config-\(getpid())")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try! "python\t900\npytest\t300\nNew York\t500\tplaces\n".write(
        to: url.appendingPathComponent("words.tsv"), atomically: true, encoding: .utf8)
    return url.path
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let json = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    do {
        let configuration = try EngineConfiguration(json: json, baseDirectory: folder, registry: .builtIn)
        let engine = configuration.makeEngine()
        _ = engine.suggestions(for: "py")
    } catch {
        if error.errors.isEmpty { fatalError("an error without a message") }
    }
    return 0
}
