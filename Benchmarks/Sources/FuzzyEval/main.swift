// FuzzyEval: our side of Benchmarks/Scripts/fuzzy-compare.sh and fuzzy-quality.sh.
import Glibc
//
//   FuzzyEval DICTIONARY.tsv QUERIES.txt [--typing] [--limit N]
//
// Loads the dictionary, builds the fuzzy index (its time goes to standard error), then answers each query line
// with one output line: `query<TAB>micros<TAB>suggestion 1<TAB>suggestion 2...` (the engine's ranked titles, at
// most --limit, default 5). Cold by default: every query is a new typing session. With --typing, each query is
// typed one character at a time in one session and `micros` lists every keystroke's time, comma-separated.
// Options for experiments (FuzzyOptions): --no-subsequence, --no-spelling-guard, --strict-prefix (forgiveWrongPrefix
// off), --exact-prefix N, --whole-word-boost X, --phrase-penalty X, --length-penalty X, --two-typos-from N,
// --two-typos-whole-from N, --three-typos-whole-from N; --tiers appends each title's tier ("title|1-typo").
import SuggestCore
import SuggestFuzzy
import SuggestIndex

@main
struct FuzzyEval {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        // Removes a flag from the arguments; whether it was there.
        func flag(_ name: String) -> Bool {
            guard let i = arguments.firstIndex(of: name) else { return false }
            arguments.remove(at: i)
            return true
        }
        // Removes an option and its value from the arguments; the value.
        func value(_ name: String) -> String? {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
            defer { arguments.removeSubrange(i...(i + 1)) }
            return arguments[i + 1]
        }
        let typing = flag("--typing")
        // Each title followed by its tier ("title|1-typo"): for the analysis of misses.
        let tiers = flag("--tiers")
        var fuzzyOptions = FuzzyOptions()
        if flag("--no-subsequence") { fuzzyOptions.subsequence = false }
        if flag("--no-spelling-guard") { fuzzyOptions.spellingGuard = false }
        if flag("--strict-prefix") { fuzzyOptions.forgiveWrongPrefix = false }
        if let v = value("--exact-prefix").flatMap(Int.init) { fuzzyOptions.exactPrefixLength = v }
        if let v = value("--whole-word-boost").flatMap(Double.init) { fuzzyOptions.wholeWordBoost = v }
        if let v = value("--phrase-penalty").flatMap(Double.init) { fuzzyOptions.phrasePenalty = v }
        if let v = value("--length-penalty").flatMap(Double.init) { fuzzyOptions.completionLengthPenalty = v }
        if let v = value("--two-typos-from").flatMap(Int.init) { fuzzyOptions.minLengthTwoTypos = v }
        if let v = value("--two-typos-whole-from").flatMap(Int.init) { fuzzyOptions.minLengthTwoTyposWholeWord = v }
        if let v = value("--three-typos-whole-from").flatMap(Int.init) { fuzzyOptions.minLengthThreeTyposWholeWord = v }
        let limit = value("--limit").flatMap(Int.init) ?? 5
        guard arguments.count == 2 else {
            print("usage: FuzzyEval DICTIONARY.tsv QUERIES.txt [--typing] [--limit N]")
            return
        }
        let clock = ContinuousClock()
        let loadStart = clock.now
        let dictionary = try DictionaryLoader.load(path: arguments[0], lenient: true)
        let loaded = clock.now
        let index = FuzzyIndex(dictionary)
        let built = clock.now
        printError("loaded \(dictionary.count) entries in \(ms(loaded - loadStart)) ms; index built in \(ms(built - loaded)) ms")
        let n = Double(max(1, index.count))
        let prefixBytes = Double(index.prefixIndex.indexByteCount) / n
        let dictionaryBytes = Double(index.prefixIndex.dictionaryByteCount) / n
        let extraBytes = Double(index.extraByteCount) / n
        printError(
            "bytes per entry beyond the text: dictionary \(hundredths(dictionaryBytes)) + prefix index "
                + "\(hundredths(prefixBytes)) + fuzzy extras \(hundredths(extraBytes)) = "
                + "\(hundredths(dictionaryBytes + prefixBytes + extraBytes))")
        let provider = try FuzzyProvider(index: index, options: fuzzyOptions)
        var options = EngineOptions()
        options.limit = limit
        let engine = SuggestionEngine(slots: [ProviderSlot(provider)], options: options)
        let queries = try readLines(arguments[1])
        for query in queries where !query.isEmpty {
            var session = TypingSession()
            var times: [String] = []
            var last: SuggestionResult? = nil
            let steps: [String] =
                typing ? (1...query.count).map { String(query.prefix($0)) } : [query]
            for text in steps {
                let start = clock.now
                let result = engine.suggestions(for: SearchQuery(text: text), session: &session)
                let elapsed = clock.now - start
                times.append(micros(elapsed))
                last = result
            }
            let titles = last?.suggestions.prefix(limit).map { tiers ? "\($0.title)|\($0.tier)" : $0.title } ?? []
            print(([query, times.joined(separator: ",")] + titles).joined(separator: "\t"))
        }
    }

    static func hundredths(_ v: Double) -> String {
        let c = Int((v * 100).rounded())
        return "\(c / 100).\(c % 100 < 10 ? "0" : "")\(c % 100)"
    }

    static func ms(_ d: Duration) -> String {
        let v = Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15
        return String(Int(v.rounded()))
    }

    static func micros(_ d: Duration) -> String {
        let v = Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
        return String((v * 10).rounded() / 10)
    }

    static func readLines(_ path: String) throws -> [String] {
        guard let file = fopen(path, "r") else { throw EvalError(message: "cannot read \(path)") }
        defer { fclose(file) }
        var lines: [String] = []
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        while getline(&buffer, &capacity, file) > 0 {
            var line = String(cString: buffer!)
            while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
            lines.append(line)
        }
        free(buffer)
        return lines
    }

    static func printError(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}

struct EvalError: Error {
    var message: String
}
