import ArgumentParser
import Suggest

/// `suggest validate FILE...`: exit 0 when every file is valid, 1 with every error listed.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check configuration files; list every problem with its place."
    )

    @Argument(help: "Configuration files to check.")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do {
                let configuration = try EngineConfiguration(contentsOf: file, registry: .cli)
                let ids = configuration.slots.map(\.provider.id).joined(separator: ", ")
                Console.out("\(file): OK (\(configuration.slots.count) providers: \(ids))")
            } catch {
                failed = true
                for e in error.errors { Console.error("error: \(e)") }
            }
        }
        if failed { throw ExitCode(1) }
    }
}
