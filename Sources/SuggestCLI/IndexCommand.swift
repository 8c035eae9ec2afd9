import ArgumentParser
import Foundation
import Suggest

/// `suggest index DICTIONARY --output FILE`: builds a prefix index once and saves it, so that a configuration's
/// `"index"` key (or `PrefixIndex(contentsOfFile:)`) loads it in milliseconds instead of building it.
struct Index: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build a prefix index from a TSV dictionary and save it (load it with the prefix provider's \"index\" key)."
    )

    @Argument(help: "The TSV dictionary: text<TAB>weight[<TAB>scope].")
    var dictionary: String

    @Option(name: .shortAndLong, help: "Where to write the index (default: the dictionary's path with .idx).")
    var output: String?

    @Flag(name: .long, help: "Skip bad dictionary lines instead of failing.")
    var lenient = false

    func run() throws {
        let start = ContinuousClock.now
        // On a terminal: which step of a long build is running (erased before anything else is printed).
        let progress = ProgressLine.make("reading \(dictionary)")
        func fail(_ message: String) -> ExitCode {
            progress?.finish()
            Console.error(message)
            return ExitCode(1)
        }
        let data: [UInt8]
        do {
            data = try TextFile.read(dictionary)
        } catch {
            throw fail("error: \(dictionary): \(error.description)")
        }
        let size = ByteCountFormatter.string(fromByteCount: Int64(data.count), countStyle: .file)
        progress?.update("parsing \(dictionary) (\(size))")
        let loaded: WeightedDictionary
        do {
            loaded = try DictionaryLoader.parse(data, source: dictionary, lenient: lenient)
        } catch {
            throw fail("error: \(error)")
        }
        progress?.update("indexing \(loaded.count) entries")
        let fingerprint = data.withUnsafeBytes { SourceFingerprint(bytes: $0, lenient: lenient) }
        let index = PrefixIndex(dictionary: loaded, sourceFingerprint: fingerprint)
        let path = output ?? ((dictionary as NSString).deletingPathExtension + ".idx")
        if TextFile.isSameFile(path, dictionary) {
            throw fail(
                "error: \(path): is the dictionary \(dictionary) itself; refusing to overwrite it (give another --output)"
            )
        }
        progress?.update("writing \(path)")
        do {
            try index.write(toFile: path)
        } catch {
            // The error names the file and the reason (`No space left on device`, `not a regular file (a FIFO)`).
            throw fail("error: \(error)")
        }
        progress?.finish()
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        var line = "\(path): \(loaded.count) entries indexed in \(milliseconds) ms"
        if loaded.skippedLines > 0 { line += " (\(loaded.skippedLines) bad lines skipped)" }
        Console.out(line)
    }
}
