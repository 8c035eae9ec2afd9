#if !Server
    import ArgumentParser

    /// `serve` and `import` in a build without the `Server` trait: hidden from the help, they say how to get a
    /// `suggest` that has them and exit with status 1, instead of an "unexpected argument" usage error.
    struct ServerSideUnavailable: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "serve", shouldDisplay: false)

        @Argument(parsing: .allUnrecognized) var arguments: [String] = []

        func run() throws {
            Console.error(Self.message("serve"))
            throw ExitCode(1)
        }

        static func message(_ command: String) -> String {
            "error: `suggest \(command)` is part of the opt-in server side, which this build leaves out: build "
                + "`suggest` with the Server trait (`swift build --traits PCRE2,Server`, or `make serve`)"
        }
    }

    /// `import` in a build without the `Server` trait (see ``ServerSideUnavailable``).
    struct ImportUnavailable: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "import", shouldDisplay: false)

        @Argument(parsing: .allUnrecognized) var arguments: [String] = []

        func run() throws {
            Console.error(ServerSideUnavailable.message("import"))
            throw ExitCode(1)
        }
    }
#endif
