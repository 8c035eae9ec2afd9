import ArgumentParser
import Foundation
import Suggest
import SuggestBench
import SuggestIndex

/// `suggest bench CONFIG`: the latency of this configuration on its own data. Typing sessions drawn by weight from
/// the configuration's dictionaries (or a `--queries` file), typed letter by letter, some misspelt and corrected with
/// backspace, each ended by a submit; every keystroke timed, for the whole engine and each provider.
struct Bench: AsyncParsableCommand {
    /// The exit status when a p99 grew more than `--max-regression` allows.
    static let regressionStatus: Int32 = 3

    static let configuration = CommandConfiguration(
        abstract: "Measure keystroke latency on this configuration's own data (typing sessions, every keystroke timed).",
        discussion: """
            Sessions are drawn by weight from the prefix/fuzzy dictionaries and static items of the configuration \
            (or read from --queries), typed letter by letter; a share is misspelt (--typos) and some of those are \
            corrected with backspace (--corrections); each ends with a submit, so recent searches fill up. Prints \
            p50/p90/p99/p99.9/max for the engine and each provider, a histogram and the slowest keystrokes; \
            --json for machines. No store is written: a recent-searches provider keeps them in memory, a \
            popular-searches provider reads its store and keeps its counts in memory. Exit codes: 0 success; 1 invalid configuration, unreadable or unusable file; \
            3 a p99 grew more than --max-regression over --baseline; 64 usage error.
            """
    )

    @Argument(help: "The JSON configuration file.")
    var config: String

    @Option(help: "Type the searches of this file (one a line, in order) instead of drawing them from the dictionaries.")
    var queries: String?

    @Option(help: "How many typing sessions (default: 1000; with --queries, one per line).")
    var sessions: Int?

    @Option(help: "The share of sessions misspelt once, from 0 to 1.")
    var typos: Double = 0.1

    @Option(help: "The share of misspelt sessions corrected with backspace, from 0 to 1.")
    var corrections: Double = 0.5

    @Option(help: "The random seed: the same seed and options type the same sessions.")
    var seed: UInt64 = 1

    @Option(help: "How many of the slowest keystrokes to list.")
    var slowest: Int = 10

    @Flag(help: "Print the report as JSON (schema swift-suggest-bench/1) instead of the table.")
    var json = false

    @Option(help: "Also write a self-contained HTML page with the latency chart to this file.")
    var html: String?

    @Option(help: "Also write the latency chart as an SVG image to this file.")
    var svg: String?

    @Option(help: "Compare with an earlier --json report: exit 3 when a p99 grew more than --max-regression.")
    var baseline: String?

    @Option(
        name: .customLong("max-regression"),
        help: "The growth of p99 allowed over --baseline, in percent (10% or 10; default 10%).")
    var maxRegression: String?

    func validate() throws {
        guard (0...1).contains(typos) else {
            throw ValidationError("--typos: expected a share from 0 to 1 (0.2 = 20% of sessions), found \(typos)")
        }
        guard (0...1).contains(corrections) else {
            throw ValidationError("--corrections: expected a share from 0 to 1, found \(corrections)")
        }
        if let sessions, sessions < 1 { throw ValidationError("--sessions: expected 1 or more, found \(sessions)") }
        guard slowest >= 0 else { throw ValidationError("--slowest: expected 0 or more, found \(slowest)") }
        if maxRegression != nil && baseline == nil {
            throw ValidationError("--max-regression needs --baseline FILE (the report to compare with)")
        }
        _ = try allowedRegression()
    }

    /// `--max-regression` as a fraction (0.1 for `10%`).
    func allowedRegression() throws -> Double {
        guard let text = maxRegression else { return 0.1 }
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let percent = Double(number.trimmingCharacters(in: .whitespaces)), percent.isFinite, percent >= 0 else {
            throw ValidationError("--max-regression: expected a percentage such as 10% (or 10), found \"\(text)\"")
        }
        return percent / 100
    }

    func run() async throws {
        // Files that can be checked before the configuration loads (which takes seconds for big dictionaries).
        let baselineReport = try baseline.map { path in try orExit { try LatencyReport(baselineFile: path) } }
        let searches = try queries.map { path in try orExit { try Self.readQueries(path) } }
        // An output file that cannot be written is an error before the sessions run, not after.
        for (path, option) in [(html, "--html"), (svg, "--svg")] {
            guard let path, let problem = Self.outputProblem(path) else { continue }
            Console.error("error: \(option) \(path): cannot be written (\(problem))")
            throw ExitCode(1)
        }

        let loadStart = ContinuousClock.now
        let configuration = try ConfigurationLoader.load(config)
        let engine = configuration.makeBenchEngine()
        let loadMillis = ((ContinuousClock.now - loadStart) / .microseconds(10)).rounded() / 100
        let described = LatencyReport.Configuration(
            file: (config as NSString).lastPathComponent, providers: engine.providers)

        var options = TypingScript.Options(typos: typos, corrections: corrections, seed: seed)
        let script: TypingScript
        let targetCount: Int
        if let searches {
            options.sessions = sessions ?? searches.count
            script = TypingScript(searches: searches, options: options)
            targetCount = searches.count
        } else {
            let targets = BenchTargets(configuration: configuration)
            guard !targets.isEmpty else {
                Console.error("error: \(config): \(BenchError.nothingToType(emptyLists: targets.emptyLists))")
                throw ExitCode(1)
            }
            options.sessions = sessions ?? 1_000
            script = TypingScript(drawingFrom: targets, options: options)
            targetCount = targets.count
        }
        if let baselineReport, let path = baseline {
            // A baseline of another configuration is an error before the sessions run, not after.
            var probe = baselineReport
            probe.configuration = described
            _ = try orExit {
                try BaselineComparison(current: probe, baseline: baselineReport, maxRegression: 0, file: path)
            }
        }

        let progress = ProgressLine.make("typing \(LatencyFormat.count(script.sessions)) sessions")
        let run = LatencyBench(engine: engine, slowestCount: slowest).run(script) { done, total in
            progress?.update(Self.progressText(done: done, total: total))
        }
        progress?.finish()

        let date = ISO8601DateFormatter().string(from: Date())
        let report = run.report(
            configuration: described, options: options, source: searches == nil ? "dictionaries" : "queries",
            targets: targetCount, date: date, loadMillis: loadMillis, peakMemoryBytes: ProcessMemory.peakResidentBytes()
        )
        let color = Self.wantsColor(descriptor: 1)
        if json {
            try Console.outOrExit(String(decoding: report.jsonData().dropLast(), as: UTF8.self))
        } else {
            try Console.outOrExit(String(report.text(color: color).dropLast()))
        }
        if let html { try write(report.html(), to: html, option: "--html") }
        if let svg { try write(report.svg(), to: svg, option: "--svg") }

        if let baselineReport, let path = baseline {
            let comparison = try orExit {
                try BaselineComparison(
                    current: report, baseline: baselineReport, maxRegression: try allowedRegression(), file: path)
            }
            // With --json, standard output holds only the report.
            let text = comparison.text(baseline: path, color: json ? Self.wantsColor(descriptor: 2) : color)
            if json {
                Console.write(text, to: 2, newline: false)
            } else {
                try Console.outOrExit("\n" + String(text.dropLast()))
            }
            if !comparison.passed { throw ExitCode(Self.regressionStatus) }
        }
    }

    /// Runs `body`; a ``BenchError`` is printed as `error: …` and the command exits with status 1.
    private func orExit<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as BenchError {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
    }

    private func write(_ text: String, to path: String, option: String) throws {
        do {
            try AtomicFileWriter.write(Array(text.utf8), to: path)
        } catch {
            Console.error("error: \(option) \(path): cannot be written (\(error.reason))")
            throw ExitCode(1)
        }
    }

    /// Why a report could not be written at `path`, when that shows before writing: a folder (or another kind of
    /// file) there, or a folder that does not exist.
    static func outputProblem(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            return isFolder.boolValue ? "is a folder" : nil
        }
        guard let missing = TextFile.missingFolder(of: path) else { return nil }
        return missing.exists ? "\(missing.folder) is not a folder" : "the folder \(missing.folder) does not exist"
    }

    /// The searches of a `--queries` file: one a line, blank lines skipped, a `\r` before `\n` ignored.
    static func readQueries(_ path: String) throws(BenchError) -> [String] {
        let bytes: [UInt8]
        do {
            bytes = TextFile.withoutByteOrderMark(try TextFile.read(path))
        } catch {
            throw .queries("--queries \(path)", error.description)
        }
        var searches: [String] = []
        for (number, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            var line = line
            if line.last == 0x0D { line = line.dropLast() }
            guard let text = String(validating: line, as: UTF8.self) else {
                throw .queries("--queries \(path)", "line \(number + 1): not valid UTF-8")
            }
            let search = text.trimmingCharacters(in: .whitespaces)
            if !search.isEmpty { searches.append(search) }
        }
        guard !searches.isEmpty else { throw .queries("--queries \(path)", "no search in it (one search a line)") }
        return searches
    }

    /// `[██████░░░░░░░░░░░░░░] 31% 4,120/13,290 steps`.
    static func progressText(done: Int, total: Int) -> String {
        let width = 20
        let filled = total > 0 ? done * width / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = total > 0 ? done * 100 / total : 100
        return "typing sessions [\(bar)] \(percent)% \(LatencyFormat.count(done))/\(LatencyFormat.count(total)) steps"
    }

    /// Colour only for a terminal, and never when `NO_COLOR` is set (no-color.org) or `TERM` is `dumb`.
    static func wantsColor(descriptor: Int32) -> Bool {
        !Console.colorIsOff(ProcessInfo.processInfo.environment) && isatty(descriptor) == 1
    }
}
