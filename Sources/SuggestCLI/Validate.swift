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
            // Validating loads the dictionaries and builds the indexes: on a terminal, say so while it lasts.
            let progress = ProgressLine.make("loading \(file)")
            do {
                let configuration = try EngineConfiguration(contentsOf: file, registry: .builtIn)
                progress?.finish()
                let ids = configuration.slots.map(\.provider.id).joined(separator: ", ")
                Console.out("\(file): OK (\(configuration.slots.count) providers: \(ids))")
            } catch {
                progress?.finish()
                failed = true
                for e in error.errors { Console.error("error: \(e)") }
            }
        }
        if failed { throw ExitCode(1) }
    }
}
