import Foundation
import PackagePlugin

/// `swift package suggest-validate [--validator NAME] [FILE...]`: validates every `*.suggest.json` in the package
/// (and the files named) with the same messages and exit codes as `suggest validate`.
///
/// Which program checks them:
/// - `--validator NAME`: that executable product of the package;
/// - otherwise the package's executable that depends on the `SuggestValidation` module (a validator whose main is
///   `SuggestValidation.main(registry:)`, knowing the package's own provider types) — it is an error to have two;
/// - otherwise the `suggest` tool, which knows the built-in provider types only.
///
/// Thin on purpose: the work happens in the validator.
@main
struct SuggestValidatePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var arguments = arguments
        var validatorName: String? = nil
        if let i = arguments.firstIndex(of: "--validator") {
            guard i + 1 < arguments.count else { throw PluginFailure.usage("--validator needs an executable's name") }
            validatorName = arguments[i + 1]
            arguments.removeSubrange(i...(i + 1))
        }
        let root = context.package.directoryURL
        var files: [String] = []
        if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) {
            for case let url as URL in walker {
                let path = url.path
                if path.contains("/.build") || path.contains("/.swiftpm/") || path.contains("/.git/") {
                    if url.hasDirectoryPath { walker.skipDescendants() }
                    continue
                }
                if url.lastPathComponent.hasSuffix(".suggest.json") { files.append(path) }
            }
        }
        files.sort()
        // Explicit paths given after the verb are validated too.
        files += arguments.filter { !$0.hasPrefix("-") }
        if files.isEmpty {
            print("suggest-validate: no *.suggest.json files in \(root.path)")
            return
        }

        let validator = try findValidator(in: context.package, named: validatorName)
        let executable: URL
        if let validator {
            print("suggest-validate: building \(validator) (the package's validator)")
            let result = try packageManager.build(
                .product(validator),
                parameters: .init(configuration: .debug, logging: .concise)
            )
            guard result.succeeded,
                let artifact = result.builtArtifacts.first(where: { $0.kind == .executable })
            else {
                print(result.logText)
                throw PluginFailure.usage("could not build the validator \(validator)")
            }
            executable = artifact.url
        } else {
            executable = try context.tool(named: "suggest").url
        }

        // The validator's lines (results on standard output, errors on standard error) through one pipe, printed
        // here in the order written: relayed separately, SwiftPM could cut a line in two around its own messages.
        let process = Process()
        process.executableURL = executable
        process.arguments = ["validate"] + files
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let lines = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        print(String(decoding: lines, as: UTF8.self), terminator: "")
        if process.terminationStatus != 0 {
            let name = validator ?? "suggest validate"
            Diagnostics.error("\(name) found problems (exit \(process.terminationStatus))")
            throw PluginFailure.status(name, process.terminationStatus)
        }
    }

    /// The executable product named `name`, or the one whose main target depends on SuggestValidation, or nil.
    func findValidator(in package: Package, named name: String?) throws -> String? {
        let executables = package.products(ofType: ExecutableProduct.self)
        if let name {
            guard executables.contains(where: { $0.name == name }) else {
                let known = executables.map(\.name).sorted().joined(separator: ", ")
                throw PluginFailure.usage("no executable product \"\(name)\" in the package (executables: \(known))")
            }
            return name
        }
        let validators = executables.filter { product in
            // The `suggest` tool itself (in this package) validates with the built-in types only.
            product.name != "suggest" && Self.dependsOnValidation(product.mainTarget)
        }
        guard validators.count <= 1 else {
            let names = validators.map(\.name).sorted().joined(separator: ", ")
            throw PluginFailure.usage("several validators (\(names)): choose one with --validator NAME")
        }
        return validators.first?.name
    }

    static func dependsOnValidation(_ target: any Target) -> Bool {
        if target.recursiveTargetDependencies.contains(where: { $0.name == "SuggestValidation" }) { return true }
        return target.dependencies.contains { dependency in
            if case .product(let product) = dependency { return product.name == "SuggestValidation" }
            return false
        }
    }
}

enum PluginFailure: Error, CustomStringConvertible {
    case status(String, Int32)
    case usage(String)

    var description: String {
        switch self {
        case .status(let name, let status): "\(name) exited with status \(status)"
        case .usage(let message): "suggest-validate: \(message)"
        }
    }
}
