import ArgumentParser
import Foundation
import Suggest
import SuggestWire

/// `suggest batch --config C`: JSON Lines in, one JSON line out per input line, flushed, in order.
struct Batch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer JSON lines on standard input, one JSON line each (see the Suggest article \"The suggest command\").",
        discussion: """
            Input lines: {"text": "pyt"} (optional "tokens": [{"kind","value"}], "scope"), {"submit": "python"}, \
            {"select": "python"}, {"reset": true}. Consecutive text lines are one person typing. A malformed \
            line is answered with {"error": "..."} and the stream goes on.
            """
    )

    @Option(name: .shortAndLong, help: "The JSON configuration file.")
    var config: String

    @Flag(help: "Also give each provider's time per keystroke: \"timings\":{\"prefix\":3.5,\"fuzzy\":12.5}.")
    var diagnostics = false

    func run() async throws {
        let configuration = try ConfigurationLoader.load(config)
        RecentsCheck.warnUnreadStores(configuration, file: config)
        var processor = BatchProcessor(engine: configuration.makeEngine())
        processor.reportsProviders = diagnostics
        // A reader that goes away is a write error (EPIPE) reported below, not a silent death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var input = LineReader(descriptor: 0)
        var line: [UInt8] = []
        var out = JSONBytes()
        while input.next(into: &line) {
            // One answer per line, blank lines included, written with one `write(2)` as soon as it is computed (an
            // asynchronous provider within its deadline): an answer that cannot be written stops the stream.
            out.reset()
            await processor.answer(line, into: &out)
            out.byte(0x0A)
            try out.bytes.withUnsafeBufferPointer { try Console.outOrExit($0) }
        }
        try RecentsCheck.saveOrFail(configuration)
        try input.failIfUnread()
    }
}
