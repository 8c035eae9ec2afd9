import ArgumentParser
import Suggest
import SuggestValidation

/// `suggest validate FILE...`: exit 0 when every file is valid, 1 with every error listed. The CLI's provider types
/// (built-in, `postgres`, `remote`) only; a package with its own types validates with its own executable (``SuggestValidation/main(registry:arguments:)``).
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check configuration files; list their problems, each with its place.",
        discussion: """
            Knows the built-in provider types, `postgres` and `remote` only. For your own types, build a validator: an executable whose \
            main is `SuggestValidation.main(registry: yourRegistry)`; `swift package suggest-validate` finds it.
            """
    )

    @Argument(help: "Configuration files to check.")
    var files: [String]

    func run() throws {
        // A progress line on standard error while each file's dictionaries load (only on a terminal).
        var progress: ProgressLine? = nil
        let status = SuggestValidation.validate(files: files, registry: .cli) { file in
            if let file {
                progress = ProgressLine.make("validating \(file)")
            } else {
                progress?.finish()
                progress = nil
            }
        }
        if status != 0 { throw ExitCode(status) }
    }
}
