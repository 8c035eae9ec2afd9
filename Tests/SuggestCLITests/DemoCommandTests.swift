import Foundation
import Testing

/// `suggest-demo` (what `make demo` runs) prints what `suggest demo` prints, but for the keystrokes' times.
struct DemoCommandTests {
    static var demo: URL { CLIRunner.productsDirectory.appendingPathComponent("suggest-demo") }

    /// The output with every time (`12.3 µs`, `in 15.0 ms`, `in 0.12 s`) and the padding after it replaced by `T `.
    static func withoutTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9]+(\.[0-9]+)? (µs|ms|s)\b *"#, with: "T ", options: .regularExpression)
    }

    @Test func itPrintsWhatSuggestDemoPrints() throws {
        let process = Process()
        process.executableURL = Self.demo
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let reference = try CLIRunner.run(["demo"])
        #expect(reference.status == 0, "\(reference.stderr)")
        #expect(printed.contains("Typing \"python\""))
        #expect(Self.withoutTimes(printed) == Self.withoutTimes(reference.stdout))
    }
}
