import Foundation
import Suggest
import SuggestDemo

// `suggest-demo`: what `suggest demo` prints, built without the rest of the command (no argument parser, no bench,
// no interactive mode), so that `make demo` compiles only the engine and its providers.
let start = ContinuousClock.now
do {
    let engine = try DemoData.configuration().makeEngine()
    DemoScript.run(engine: engine, loadTime: ContinuousClock.now - start) { print($0) }
} catch {
    for problem in error.errors { FileHandle.standardError.write(Data("error: \(problem)\n".utf8)) }
    exit(1)
}
