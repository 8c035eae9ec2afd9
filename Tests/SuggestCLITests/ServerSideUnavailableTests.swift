#if !Server
import SuggestTestSupport
    import Foundation
    import Testing

    /// A `suggest` built without the `Server` trait: `serve`, `import` and the `postgres`/`remote` provider types say
    /// how to get them, with status 1, instead of a usage error or an "unknown provider type".
    struct ServerSideUnavailableTests {
        @Test(arguments: [["serve", "--config", "x.json"], ["import", "--postgres", "postgres://u@h/d", "w.tsv"]])
        func serverCommandsSayHowToBuildThem(arguments: [String]) throws {
            let output = try CLIRunner.run(arguments)
            #expect(output.status == 1)
            #expect(output.stdout.isEmpty)
            #expect(
                output.stderr == "error: `suggest \(arguments[0])` is part of the opt-in server side, which this build "
                    + "leaves out: build `suggest` with the Server trait (`swift build --traits PCRE2,Server`, or "
                    + "`make serve`)\n")
        }

        @Test(arguments: ["postgres", "remote"])
        func serverProviderTypesAreALocatedError(type: String) throws {
            let folder = TestFolders.unique("suggest-light-")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/server.suggest.json"
            try #"{"version": 1, "providers": [{"type": "static", "items": []}, {"type": "\#(type)"}]}"#
                .write(toFile: path, atomically: true, encoding: .utf8)
            let output = try CLIRunner.run(["validate", path])
            #expect(output.status == 1)
            #expect(
                output.stderr == "error: \(path): providers[1].type: \"\(type)\" providers need the server side, "
                    + "which this `suggest` was built without: build it with `swift build --traits PCRE2,Server` "
                    + "(or `make serve`)\n")
        }
    }
#endif
