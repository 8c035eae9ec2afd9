import ArgumentParser
import Foundation
import Suggest
import SuggestBench
import SuggestDemo
import SuggestWire

/// `suggest demo`: types a few searches keystroke by keystroke on the embedded dictionary.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Type a few searches keystroke by keystroke on the embedded demo dictionary."
    )

    @Option(name: .shortAndLong, help: "Use this configuration instead of the embedded demo (its stores are read, never written).")
    var config: String?

    @Option(name: .long, help: "How many suggestions to print per keystroke.")
    var show: Int = 5

    func validate() throws {
        guard show >= 0 else { throw ValidationError("--show \(show): expected 0 or more") }
    }

    func run() throws {
        let start = ContinuousClock.now
        let engine: SuggestionEngine
        if let config {
            // Its scripted searches are not the person's: nothing is saved to the configuration's stores.
            engine = try ConfigurationLoader.load(config).makeBenchEngine()
        } else {
            do {
                engine = try DemoData.configuration().makeEngine()
            } catch {
                for e in error.errors { Console.error("error: \(e)") }
                throw ExitCode(1)
            }
        }
        DemoScript.run(engine: engine, loadTime: ContinuousClock.now - start, show: show, write: Console.out)
    }
}
