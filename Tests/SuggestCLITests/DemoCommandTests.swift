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
        let printed = try CLIRunner.run([], executable: Self.demo)
        #expect(printed.status == 0, "\(printed.stderr)")
        let reference = try CLIRunner.run(["demo"])
        #expect(reference.status == 0, "\(reference.stderr)")
        #expect(printed.stdout.contains("Typing \"python\""))
        #expect(Self.withoutTimes(printed.stdout) == Self.withoutTimes(reference.stdout))
    }
}
