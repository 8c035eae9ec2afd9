import Foundation
import SuggestIndex

// Loads a saved prefix index (`suggest index` or a prefix provider's `"index"` writes one) and prints how long the
// load took, in milliseconds: in a fresh process, what a program that starts from a saved index waits for (its
// arrays land in memory the system has to zero first); with REPEATS > 1 the later loads reuse memory the earlier
// ones freed, as the `PrefixIndex start-up: load` benchmark measures.
//
//     swift run -c release IndexLoad FILE [REPEATS]
let arguments = CommandLine.arguments
guard arguments.count >= 2, let repeats = arguments.count > 2 ? Int(arguments[2]) : 1, repeats >= 1 else {
    FileHandle.standardError.write(Data("usage: IndexLoad FILE [REPEATS]\n".utf8))
    exit(2)
}
do {
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        let index = try PrefixIndex(contentsOfFile: arguments[1])
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        print(String(format: "%.2f ms, %d entries", elapsed, index.count))
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
