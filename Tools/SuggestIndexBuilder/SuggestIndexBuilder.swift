import Foundation
import SuggestCore
import SuggestIndex

/// `SuggestIndexBuilder DICTIONARY.tsv OUTPUT.idx [--lenient]`: the worker of `SuggestIndexPlugin`.
///
/// Reads a TSV dictionary (`text<TAB>weight[<TAB>scope]`), builds its prefix index with the dictionary's fingerprint
/// (so a loader can tell it was built from these bytes) and saves it, exactly as `suggest index` does. It depends on
/// SuggestCore and SuggestIndex only, never on `Suggest`, whose own resources the plugin builds.
///
/// Exit status 0 on success; 1 with `FILE:LINE: error: …` on standard error (the form build logs and IDEs point
/// at) for a bad line or a file that cannot be read or written; 64 for a usage error.
@main
enum SuggestIndexBuilder {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let lenient = arguments.contains("--lenient")
        arguments.removeAll { $0 == "--lenient" }
        guard arguments.count == 2, !arguments.contains(where: { $0.hasPrefix("-") }) else {
            fail("usage: SuggestIndexBuilder DICTIONARY.tsv OUTPUT.idx [--lenient]", status: 64)
        }
        let (input, output) = (arguments[0], arguments[1])
        guard let data = FileManager.default.contents(atPath: input) else {
            fail("\(input): error: no such file or not readable")
        }
        let dictionary: WeightedDictionary
        do {
            // The index records the file's name only, so the resource does not depend on where it was built.
            let name = (input as NSString).lastPathComponent
            dictionary = try DictionaryLoader.parse([UInt8](data), source: name, lenient: lenient)
        } catch {
            let location = error.line.map { "\(input):\($0)" } ?? input
            fail("\(location): error: \(error.message)")
        }
        let fingerprint = data.withUnsafeBytes { SourceFingerprint(bytes: $0, lenient: lenient) }
        do {
            try PrefixIndex(dictionary: dictionary, sourceFingerprint: fingerprint).write(toFile: output)
        } catch {
            fail("\(output): error: \(error)")
        }
    }

    static func fail(_ message: String, status: Int32 = 1) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(status)
    }
}
