import ArgumentParser
import Foundation
import Suggest

/// `suggest interactive CONFIG`: a search field in the terminal — type and see the suggestions at each keystroke.
struct Interactive: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Type in a search field and see the suggestions at each keystroke (a full-screen terminal UI).",
        discussion: """
            Keys: type text; ↑/↓ select a row; Tab completes (the selected row, or what every top suggestion \
            starts with); Enter submits (the selected row, or the text); Backspace on an empty field takes the \
            last token apart; Esc clears the field; Ctrl-S cycles the scopes; Ctrl-C (or Ctrl-D on an empty \
            field) leaves. NO_COLOR or TERM=dumb: no colours or attributes, the selection is marked with ">". \
            Needs a terminal of at least \(InteractiveScreen.minimumWidth)×\(InteractiveScreen.minimumHeight) on \
            standard input and output; for pipes and scripts use `suggest batch`.
            """
    )

    @Argument(help: "The JSON configuration file.")
    var config: String

    func run() async throws {
        // Every problem of the configuration, with its place, before the terminal is touched.
        let configuration = try ConfigurationLoader.load(config)
        guard TerminalMode.isInteractive else {
            Console.error(
                "error: suggest interactive needs a terminal on standard input and standard output; "
                    + "to answer lines from a pipe or a script, use `suggest batch --config \(config)`")
            throw ExitCode(64)
        }
        guard let size = TerminalMode.size() else {
            Console.error("error: cannot read the terminal's size")
            throw ExitCode(1)
        }
        guard size.width >= InteractiveScreen.minimumWidth && size.height >= InteractiveScreen.minimumHeight else {
            Console.error("error: " + InteractiveScreen.tooSmallMessage(width: size.width, height: size.height))
            throw ExitCode(1)
        }
        let engine = configuration.makeEngine()
        let scopes = Self.scopes(of: configuration.slots)
        let color = Self.usesColor(ProcessInfo.processInfo.environment)
        do {
            try await Self.run(engine: engine, scopes: scopes, size: size, color: color)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        try RecentsCheck.saveOrFail(configuration)
    }

    @MainActor
    static func run(
        engine: SuggestionEngine, scopes: [SearchScope], size: (width: Int, height: Int), color: Bool
    ) async throws(TerminalError) {
        let session = SearchSession(engine: engine, scopes: scopes)
        session.isSearching = true
        let app = InteractiveApp(
            controller: InteractiveController(session: session), width: size.width, height: size.height, color: color)
        try await app.run()
    }

    /// Colour and attributes unless `NO_COLOR` is set (to anything but the empty string, https://no-color.org) or
    /// `TERM` is `dumb` or unset.
    static func usesColor(_ environment: [String: String]) -> Bool {
        guard !Console.colorIsOff(environment), let term = environment["TERM"] else { return false }
        return !term.isEmpty
    }

    /// The scopes the dictionaries of the prefix and fuzzy providers name (their third column), in order of
    /// first appearance.
    static func scopes(of slots: [ProviderSlot]) -> [SearchScope] {
        var names: [String] = []
        for slot in slots {
            let dictionary: WeightedDictionary? =
                if let prefix = slot.provider as? PrefixProvider {
                    prefix.index.base.dictionary
                } else if let fuzzy = slot.provider as? FuzzyProvider {
                    fuzzy.index.dictionary
                } else {
                    nil
                }
            for name in dictionary?.scopeNames ?? [] where !names.contains(name) { names.append(name) }
        }
        return names.map { SearchScope($0) }
    }
}
