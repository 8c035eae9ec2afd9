#if !Server
    import ArgumentParser

    /// `serve` and `import` in a build without the `Server` trait: hidden from the help, they say how to get a
    /// `suggest` that has them and exit with status 1, instead of an "unexpected argument" usage error.
    protocol ServerSideUnavailable: ParsableCommand {
        var arguments: [String] { get }
    }

    extension ServerSideUnavailable {
        func run() throws {
            Console.error(
                "error: `suggest \(Self.configuration.commandName ?? "")` is part of the opt-in server side, which "
                    + "this build leaves out: build `suggest` with the Server trait (`swift build --traits "
                    + "PCRE2,Server`, or `make serve`)")
            throw ExitCode(1)
        }
    }

    struct ServeUnavailable: ServerSideUnavailable {
        static let configuration = CommandConfiguration(commandName: "serve", shouldDisplay: false)
        @Argument(parsing: .allUnrecognized) var arguments: [String] = []
    }

    struct ImportUnavailable: ServerSideUnavailable {
        static let configuration = CommandConfiguration(commandName: "import", shouldDisplay: false)
        @Argument(parsing: .allUnrecognized) var arguments: [String] = []
    }
#endif
