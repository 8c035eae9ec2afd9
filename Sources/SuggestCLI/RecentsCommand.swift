import ArgumentParser
import Foundation
import Suggest
import SuggestWire

/// `suggest recents list|remove|clear --config C`: look at and edit the recent searches a configuration stores.
struct Recents: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, remove or clear the recent searches of a configuration's \"recent\" provider.",
        discussion: """
            The provider must have a "store" file (and not be "ephemeral"). With several "recent" providers, \
            choose one with --id.
            """,
        subcommands: [List.self, Remove.self, Clear.self]
    )

    /// Options every subcommand takes.
    struct Target: ParsableArguments {
        @Option(name: .shortAndLong, help: "The JSON configuration file.")
        var config: String

        @Option(help: "The id of the \"recent\" provider, when the configuration has several.")
        var id: String?

        /// The configuration's recents provider with a store; prints what is wrong and fails otherwise.
        func provider() throws -> RecentsProvider {
            let configuration = try ConfigurationLoader.load(config)
            let candidates = configuration.slots.compactMap { $0.provider as? RecentsProvider }
            guard !candidates.isEmpty else {
                Console.error("error: \(config) has no provider of type \"recent\"")
                throw ExitCode.failure
            }
            let provider: RecentsProvider
            if let id {
                guard let chosen = candidates.first(where: { $0.id == id }) else {
                    Console.error(
                        "error: no \"recent\" provider with id \"\(id)\" (ids: \(candidates.map(\.id).joined(separator: ", ")))"
                    )
                    throw ExitCode.failure
                }
                provider = chosen
            } else {
                guard candidates.count == 1 else {
                    Console.error(
                        "error: \(config) has several \"recent\" providers; choose one with --id (\(candidates.map(\.id).joined(separator: ", ")))"
                    )
                    throw ExitCode.failure
                }
                provider = candidates[0]
            }
            guard provider.store != nil else {
                Console.error(
                    "error: provider \"\(provider.id)\" keeps its searches in memory only (no \"store\", or \"ephemeral\": true)"
                )
                throw ExitCode.failure
            }
            if let problem = provider.loadProblem { Console.error("warning: \(problem)") }
            return provider
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the recent searches, most recent first.")

        @OptionGroup var target: Target

        @Flag(help: "One JSON object per line: text, tokens, scope, uses, firstUsed, lastUsed, frecency.")
        var json = false

        func run() throws {
            let provider = try target.provider()
            let now = Date()
            var out = JSONBytes(capacity: 256)
            for search in provider.searches {
                if json {
                    out.reset()
                    out.raw("{\"text\":")
                    out.quoted(search.query.text)
                    out.raw(",\"tokens\":")
                    out.tokens(search.query.tokens)
                    if let scope = search.query.scope {
                        out.raw(",\"scope\":")
                        out.quoted(scope.name)
                    }
                    out.raw(",\"uses\":")
                    out.integer(search.uses)
                    out.raw(",\"firstUsed\":")
                    out.quoted(Recents.format(search.firstUsed))
                    out.raw(",\"lastUsed\":")
                    out.quoted(Recents.format(search.lastUsed))
                    out.raw(",\"frecency\":")
                    out.number((provider.frecency(of: search, at: now) * 1000).rounded() / 1000)
                    out.byte(0x7D)
                    Console.out(out.bytes.string)
                } else {
                    var line = search.query.text
                    if !search.query.tokens.isEmpty {
                        let tokens = search.query.tokens.map(\.description).joined(separator: " ")
                        line += line.isEmpty ? "[\(tokens)]" : "  [\(tokens)]"
                    }
                    if let scope = search.query.scope { line += "  (scope \(scope.name))" }
                    line += "  \(search.uses) use\(search.uses == 1 ? "" : "s"), last \(Recents.format(search.lastUsed))"
                    Console.out(line)
                }
            }
            // A store that could not be read (reported above) is a failure, as for every file a command reads.
            if provider.loadProblem != nil { throw ExitCode.failure }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget one recent search (compared without case, diacritics or extra spaces)."
        )

        @OptionGroup var target: Target

        @Argument(help: "The search's text (empty for a search made only of tokens).")
        var text: String

        @Option(name: .customLong("token"), help: "A token of the search, as kind:value (repeat for several).")
        var tokens: [String] = []

        /// Tokens checked before `run`, so that a usage error shows this subcommand's usage.
        func validate() throws {
            for token in tokens { _ = try SearchToken.commandLine(token) }
        }

        func run() throws {
            var query = SearchQuery(text: text)
            for token in tokens { query.tokens.append(try SearchToken.commandLine(token)) }
            let provider = try target.provider()
            guard provider.remove(query) else {
                Console.error("error: no recent search \(JSONWriter.quoted(text))\(tokens.isEmpty ? "" : " with \(tokens.joined(separator: " "))")")
                throw ExitCode.failure
            }
            try Recents.checkSaved(provider)
            Console.out("removed \(JSONWriter.quoted(text))")
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget every recent search.")

        @OptionGroup var target: Target

        func run() throws {
            let provider = try target.provider()
            let count = provider.searches.count
            provider.clear()
            try Recents.checkSaved(provider)
            Console.out("cleared \(count) recent search\(count == 1 ? "" : "es")")
        }
    }

    static func checkSaved(_ provider: RecentsProvider) throws {
        if let problem = provider.saveProblem {
            Console.error("error: \(problem)")
            throw ExitCode.failure
        }
    }

    /// `2026-11-22T02:43:00Z`
    static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
