import Foundation
import Testing
import SuggestTestSupport

/// `suggest bench`, run as a person or a CI job runs it.
struct BenchCommandTests {
    /// A folder with a configuration over a small dictionary (recent + prefix + fuzzy + static).
    struct Workspace {
        let folder: URL
        var config: String { folder.appendingPathComponent("words.suggest.json").path }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        init(dictionary: String = "python\t100\npandas\t60\nnumpy\t50\nrequests\t80\nflask\t20\ndjango\t40\n") throws {
            folder = URL(fileURLWithPath: TestFolders.unique("bench-cli-"))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try dictionary.write(to: folder.appendingPathComponent("words.tsv"), atomically: true, encoding: .utf8)
            try write(
                "words.suggest.json",
                """
                { "version": 1, "limit": 10, "providers": [
                  { "type": "recent", "store": "recents.json" },
                  { "type": "prefix", "dictionary": "words.tsv" },
                  { "type": "fuzzy", "dictionary": "words.tsv" },
                  { "type": "static", "id": "places", "items": [ { "title": "Paris", "popularity": 3 } ] } ] }
                """)
        }

        func write(_ name: String, _ text: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func theTableShowsEveryProviderAHistogramAndTheSlowestKeystrokes() throws {
        let w = try Workspace()
        defer { w.remove() }
        let output = try CLIRunner.run(["bench", w.config, "--sessions", "50", "--typos", "0.3"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.lines
        #expect(lines.first?.hasPrefix("suggest bench · words.suggest.json · ") == true)
        #expect(lines.contains("50 sessions drawn by weight from 7 searches · seed 1"))
        #expect(lines.contains { $0.hasPrefix("per keystroke       count      p50      p90      p99    p99.9      max") })
        for row in ["engine ", "  recent ", "  prefix ", "  fuzzy ", "  places (static) ", "submit "] {
            #expect(lines.contains { $0.hasPrefix(row) }, "no row \(row)")
        }
        #expect(lines.contains { $0.hasPrefix("engine, every keystroke (log time axis") })
        #expect(lines.contains { $0.contains("◀ p50") })
        #expect(lines.contains { $0.hasPrefix("slowest keystrokes") })
        #expect(lines.allSatisfy { $0.count <= 80 }, "a line wider than 80 columns")
        // Not a terminal: no colour, no progress line.
        #expect(!output.stdout.contains("\u{1B}["))
        #expect(output.stderr.isEmpty)
        // The bench never writes the recent searches' store.
        #expect(!FileManager.default.fileExists(atPath: w.path("recents.json")))
    }

    /// Neither the bench nor `suggest demo --config` writes what people searched: a popular provider's store is read
    /// and left as it was, a recent provider's never created.
    @Test func benchAndDemoLeaveTheStoresAlone() throws {
        let w = try Workspace()
        defer { w.remove() }
        try w.write(
            "stores.suggest.json",
            """
            { "version": 1, "providers": [
              { "type": "recent", "store": "recents.json" },
              { "type": "popular", "store": "popular.json", "minUsers": 1 },
              { "type": "prefix", "dictionary": "words.tsv" } ] }
            """)
        let config = w.path("stores.suggest.json")
        let seed = try CLIRunner.run(["popular", "record", "--store", w.path("popular.json")], stdin: Data("u1\tpython\n".utf8))
        #expect(seed.status == 0, "\(seed.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: w.path("popular.json")))
        let bench = try CLIRunner.run(["bench", config, "--sessions", "30"])
        #expect(bench.status == 0, "\(bench.stderr)")
        let demo = try CLIRunner.run(["demo", "--config", config])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: w.path("popular.json"))) == before)
        #expect(!FileManager.default.fileExists(atPath: w.path("recents.json")))
    }

    @Test func jsonFollowsTheDocumentedSchemaAndTheSameSeedTypesTheSameSessions() throws {
        let w = try Workspace()
        defer { w.remove() }
        let output = try CLIRunner.run(["bench", w.config, "--sessions", "40", "--json", "--seed", "7"])
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(report["schema"] as? String == "swift-suggest-bench/1")
        #expect(
            Set(report.keys) == [
                "schema", "configuration", "run", "loadMillis", "peakMemoryBytes", "engine", "providers", "submit",
                "slowest", "bins",
            ])
        let configuration = try #require(report["configuration"] as? [String: Any])
        #expect(configuration["file"] as? String == "words.suggest.json")
        let providers = try #require(report["providers"] as? [[String: Any]])
        #expect(providers.map { $0["id"] as? String } == ["recent", "prefix", "fuzzy", "places"])
        #expect(providers.map { $0["type"] as? String } == ["recent", "prefix", "fuzzy", "static"])
        let engine = try #require(report["engine"] as? [String: Any])
        let latency = try #require(engine["latency"] as? [String: Double])
        #expect(Set(latency.keys) == ["count", "mean", "p50", "p90", "p99", "p999", "max"])
        #expect(latency["p50"]! <= latency["p99"]! && latency["p99"]! <= latency["max"]!)
        #expect((engine["histogram"] as? [Int])?.count == 70)
        #expect((engine["histogram"] as? [Int])?.reduce(0, +) == Int(latency["count"]!))
        let run = try #require(report["run"] as? [String: Any])
        #expect(run["sessions"] as? Int == 40)
        #expect(run["seed"] as? Int == 7)
        #expect(run["source"] as? String == "dictionaries")
        #expect((report["submit"] as? [String: Any]).flatMap { ($0["latency"] as? [String: Double])?["count"] } == 40)
        #expect((report["peakMemoryBytes"] as? Int ?? 0) > 1_000_000)
        let slowest = try #require(report["slowest"] as? [[String: Any]])
        #expect(slowest.count == 10)
        #expect(slowest.allSatisfy { $0["text"] is String && $0["micros"] is Double })

        // The same seed: the same keystrokes (the times differ).
        let again = try CLIRunner.run(["bench", w.config, "--sessions", "40", "--json", "--seed", "7"])
        let second = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let keys = ["keystrokes", "backspaces", "misspelt", "corrected", "targets"]
        #expect(keys.map { (second["run"] as? [String: Any])?[$0] as? Int } == keys.map { run[$0] as? Int })
    }

    @Test func htmlAndSVGChartsAreWrittenSelfContained() throws {
        let w = try Workspace()
        defer { w.remove() }
        let output = try CLIRunner.run([
            "bench", w.config, "--sessions", "30", "--html", w.path("bench.html"), "--svg", w.path("bench.svg"),
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let html = try String(contentsOfFile: w.path("bench.html"), encoding: .utf8)
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(html.contains(">p99</text>") && html.contains(">p50</text>"))
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("href="))
        let svg = try String(contentsOfFile: w.path("bench.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg ") && svg.hasSuffix("</svg>\n"))
        #expect(svg.contains(">fuzzy</text>"))
    }

    /// A baseline made by `--json` with every p99 multiplied by `factor`.
    func baseline(_ w: Workspace, scaledBy factor: Double, name: String) throws -> String {
        let made = try CLIRunner.run(["bench", w.config, "--sessions", "40", "--json"])
        #expect(made.status == 0, "\(made.stderr)")
        var report = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        func scale(_ series: [String: Any]) -> [String: Any] {
            var series = series
            var latency = series["latency"] as! [String: Any]
            latency["p99"] = (latency["p99"] as! Double) * factor
            series["latency"] = latency
            return series
        }
        report["engine"] = scale(report["engine"] as! [String: Any])
        report["providers"] = (report["providers"] as! [[String: Any]]).map(scale)
        try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: w.path(name)))
        return w.path(name)
    }

    @Test func aBaselineWithHigherP99sPasses() throws {
        let w = try Workspace()
        defer { w.remove() }
        // Every p99 made 1000x higher: this run cannot exceed them.
        let base = try baseline(w, scaledBy: 1_000, name: "base.json")
        let output = try CLIRunner.run(["bench", w.config, "--sessions", "40", "--baseline", base])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.lines.contains { $0.hasPrefix("p99 against \(base) (allowed: +10%") })
        #expect(output.lines.last == "no p99 grew more than 10%")
    }

    @Test func aBaselineWithLowerP99sFailsWithStatus3() throws {
        let w = try Workspace()
        defer { w.remove() }
        // Every p99 made 0: any p99 above 1 µs (the floor) is a regression; the engine's always is.
        let base = try baseline(w, scaledBy: 0, name: "base.json")
        let output = try CLIRunner.run([
            "bench", w.config, "--sessions", "40", "--json", "--baseline", base, "--max-regression", "25%",
        ])
        #expect(output.status == 3)
        // Standard output is still the report alone; the verdict goes to standard error.
        #expect((try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8))) != nil)
        #expect(output.stderr.contains("p99 regressed more than 25%: engine"))
        #expect(output.stderr.contains("  engine ") && output.stderr.contains("REGRESSED"))
    }

    @Test func aBaselineThatIsMissingNotJSONOrOfAnotherConfigurationIsAClearError() throws {
        let w = try Workspace()
        defer { w.remove() }
        let missing = try CLIRunner.run(["bench", w.config, "--baseline", w.path("none.json")])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: baseline \(w.path("none.json")): no such file\n")

        try w.write("text.json", "p99 was 12 µs\n")
        let notJSON = try CLIRunner.run(["bench", w.config, "--baseline", w.path("text.json")])
        #expect(notJSON.status == 1)
        #expect(notJSON.stderr.hasPrefix("error: baseline \(w.path("text.json")): not JSON: 1:1: "))

        // A report of the same file name with other providers.
        let made = try CLIRunner.run(["bench", w.config, "--sessions", "5", "--json"])
        try w.write("other.json", made.stdout.replacingOccurrences(of: "\"fuzzy\"", with: "\"typos\""))
        let other = try CLIRunner.run(["bench", w.config, "--sessions", "5", "--baseline", w.path("other.json")])
        #expect(other.status == 1)
        #expect(other.stderr.contains("it measured another configuration: providers recent (recent), prefix (prefix), typos"))
        #expect(other.stdout.isEmpty)

        let usage = try CLIRunner.run(["bench", w.config, "--max-regression", "10%"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--max-regression needs --baseline FILE"))
        let percent = try CLIRunner.run(["bench", w.config, "--baseline", w.path("other.json"), "--max-regression", "ten"])
        #expect(percent.status == 64)
        #expect(percent.stderr.contains("--max-regression: expected a percentage such as 10% (or 10), found \"ten\""))
    }

    @Test func aConfigurationThatCannotLoadGetsTheLocatedErrorsOfValidate() throws {
        let path = CLIRunner.fixture("broken.json")
        let bench = try CLIRunner.run(["bench", path])
        let validate = try CLIRunner.run(["validate", path])
        #expect(bench.status == 1)
        #expect(bench.stderr == validate.stderr)
        let missing = try CLIRunner.run(["bench", "/nonexistent.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: /nonexistent.json: no such file\n")
    }

    @Test func nothingToTypeSaysToPassQueries() throws {
        let w = try Workspace(dictionary: "")
        defer { w.remove() }
        try w.write("only-prefix.json", #"{ "version": 1, "providers": [ { "type": "prefix", "dictionary": "words.tsv" } ] }"#)
        let emptyDictionary = try CLIRunner.run(["bench", w.path("only-prefix.json")])
        #expect(emptyDictionary.status == 1)
        #expect(
            emptyDictionary.stderr
                == "error: \(w.path("only-prefix.json")): the dictionary is empty (\(w.path("words.tsv"))): nothing to "
                + "draw searches from; pass --queries FILE (one search a line)\n")

        try w.write("recent.json", #"{ "version": 1, "providers": [ { "type": "recent" } ] }"#)
        let noDictionary = try CLIRunner.run(["bench", w.path("recent.json")])
        #expect(noDictionary.status == 1)
        #expect(noDictionary.stderr.contains("no dictionary and no static items to draw searches from: pass --queries FILE"))

        // With --queries it runs.
        try w.write("queries.txt", "paris\r\n\nlondon\n  new york  \n")
        let queries = try CLIRunner.run(["bench", w.path("recent.json"), "--queries", w.path("queries.txt"), "--json"])
        #expect(queries.status == 0, "\(queries.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(queries.stdout.utf8)) as? [String: Any])
        let run = try #require(report["run"] as? [String: Any])
        #expect(run["source"] as? String == "queries")
        #expect(run["sessions"] as? Int == 3)
        #expect(run["targets"] as? Int == 3)
        // A query with an ESC in it is shown with U+FFFD in the text report's slowest keystrokes.
        try w.write("escape.txt", "pa\u{1B}[2Jris\n")
        let escape = try CLIRunner.run(["bench", w.path("recent.json"), "--queries", w.path("escape.txt")])
        #expect(escape.status == 0, "\(escape.stderr)")
        #expect(!escape.stdout.contains("\u{1B}"))
        #expect(escape.stdout.contains("pa\u{FFFD}[2J"), "\(escape.stdout)")
    }

    @Test func badQueriesFilesAndOptionsAreClearErrors() throws {
        let w = try Workspace()
        defer { w.remove() }
        let missing = try CLIRunner.run(["bench", w.config, "--queries", w.path("none.txt")])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: --queries \(w.path("none.txt")): no such file\n")

        try w.write("blank.txt", "\n   \n")
        let blank = try CLIRunner.run(["bench", w.config, "--queries", w.path("blank.txt")])
        #expect(blank.status == 1)
        #expect(blank.stderr == "error: --queries \(w.path("blank.txt")): no search in it (one search a line)\n")

        try Data([0x61, 0x0A, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: w.path("bad.txt")))
        let invalid = try CLIRunner.run(["bench", w.config, "--queries", w.path("bad.txt")])
        #expect(invalid.status == 1)
        #expect(invalid.stderr == "error: --queries \(w.path("bad.txt")): line 2: not valid UTF-8\n")

        let folder = try CLIRunner.run(["bench", w.config, "--queries", w.folder.path])
        #expect(folder.status == 1)
        #expect(folder.stderr.hasSuffix(": is a folder\n"))

        for (option, value, message) in [
            ("--typos", "1.5", "--typos: expected a share from 0 to 1 (0.2 = 20% of sessions), found 1.5"),
            ("--typos", "-0.1", "--typos: expected a share from 0 to 1 (0.2 = 20% of sessions), found -0.1"),
            ("--corrections", "2", "--corrections: expected a share from 0 to 1, found 2.0"),
            ("--sessions", "0", "--sessions: expected 1 or more, found 0"),
        ] {
            let output = try CLIRunner.run(["bench", w.config, "\(option)=\(value)"])
            #expect(output.status == 64, "\(option) \(value)")
            #expect(output.stderr.contains(message), "\(output.stderr)")
        }
        let unwritable = try CLIRunner.run(["bench", w.config, "--sessions", "3", "--html", "/nonexistent/dir/b.html"])
        #expect(unwritable.status == 1)
        #expect(
            unwritable.stderr == "error: --html /nonexistent/dir/b.html: cannot be written (the folder /nonexistent/dir does not exist)\n",
            "before the sessions run: \(unwritable.stderr)")
        #expect(unwritable.stdout.isEmpty, "no report when it cannot be written")
        let charts: String = w.path("charts")
        try FileManager.default.createDirectory(atPath: charts, withIntermediateDirectories: true)
        let onAFolder = try CLIRunner.run(["bench", w.config, "--sessions", "3", "--svg", charts])
        #expect(onAFolder.status == 1)
        let expected = "error: --svg " + charts + ": cannot be written (is a folder)\n"
        #expect(onAFolder.stderr == expected)
    }
}
