import ArgumentParser
import Foundation
import Suggest

/// `suggest popular record|list|export`: feed a popular-searches store from a search log, look at it, and export it
/// as a weighted dictionary.
struct Popular: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record, list or export the searches a \"popular\" provider learned from everyone.",
        discussion: """
            Name the store with --store FILE (default settings), or take a configuration's "popular" provider, \
            its store and its settings (user threshold, capacity, half-life, exclusions), with --config FILE \
            (and --id with several).
            """,
        subcommands: [Record.self, List.self, Export.self]
    )

    /// Options every subcommand takes.
    struct Target: ParsableArguments {
        @Option(help: "The popular-searches store (a JSON Lines file; missing: an empty store).")
        var store: String?

        @Option(name: .shortAndLong, help: "A JSON configuration with a \"popular\" provider that has a store.")
        var config: String?

        @Option(help: "The id of the \"popular\" provider, when the configuration has several.")
        var id: String?

        /// The store named once (checked before `run`, so that a usage error shows the subcommand's usage).
        func validate() throws {
            switch (store, config) {
            case (nil, nil): throw ValidationError("name the store: --store FILE or --config FILE")
            case (.some, .some): throw ValidationError("--store and --config cannot be used together")
            case (let store?, nil) where store.isEmpty: throw ValidationError("--store: expected a file path")
            default: break
            }
        }

        /// The provider the options name, saving only on `synchronize()`; prints what is wrong and fails otherwise.
        /// A store file that does not exist yet is an empty store, with a note on standard error (a misspelt path
        /// would otherwise look like a store that learned nothing).
        func provider() throws -> PopularProvider {
            var unused: FileLock? = nil
            let provider = try provider(locking: false, lock: &unused)
            if let file = provider.store as? PopularFileStore, !FileManager.default.fileExists(atPath: file.path) {
                Console.error("note: \(file.path): no such file yet; the store is empty")
            }
            return provider
        }

        /// ``provider()``, with the store's lock (`<store>.lock`) taken before the store is read and held by `lock`
        /// when `locking`.
        func provider(locking: Bool, lock: inout FileLock?) throws -> PopularProvider {
            let provider: PopularProvider
            // `validate()` made sure that exactly one of --store and --config names the store.
            if let config {
                provider = try fromConfiguration(config, locking: locking, lock: &lock)
            } else {
                let store = self.store ?? ""
                if locking { lock = try Self.lock(store) }
                provider = PopularProvider(
                    store: PopularFileStore(path: store), options: .init(savesEveryChange: false))
            }
            if let problem = provider.loadProblem {
                Console.error("error: \(problem)")
                throw ExitCode.failure
            }
            return provider
        }

        /// The lock of the store at `path`; prints why it cannot be taken and fails otherwise.
        static func lock(_ path: String) throws -> FileLock {
            if let missing = TextFile.missingFolder(of: path) {
                Console.error("error: \(path): the folder \(missing.folder) does not exist")
                throw ExitCode.failure
            }
            do {
                return try FileLock(path + ".lock")
            } catch {
                Console.error("error: \(path): cannot \(error.operation) (\(error.reason))")
                throw ExitCode.failure
            }
        }

        private func fromConfiguration(_ config: String, locking: Bool, lock: inout FileLock?) throws
            -> PopularProvider
        {
            let configuration = try ConfigurationLoader.load(config)
            let candidates = configuration.slots.compactMap { $0.provider as? PopularProvider }
            guard !candidates.isEmpty else {
                Console.error("error: \(config) has no provider of type \"popular\"")
                throw ExitCode.failure
            }
            let ids = candidates.map(\.id).joined(separator: ", ")
            let chosen: PopularProvider
            if let id {
                guard let match = candidates.first(where: { $0.id == id }) else {
                    Console.error("error: no \"popular\" provider with id \"\(id)\" (ids: \(ids))")
                    throw ExitCode.failure
                }
                chosen = match
            } else {
                guard candidates.count == 1 else {
                    Console.error("error: \(config) has several \"popular\" providers; choose one with --id (\(ids))")
                    throw ExitCode.failure
                }
                chosen = candidates[0]
            }
            guard let store = chosen.store else {
                Console.error("error: provider \"\(chosen.id)\" keeps its searches in memory only (no \"store\")")
                throw ExitCode.failure
            }
            if let problem = chosen.loadProblem {
                Console.error("error: \(problem)")
                throw ExitCode.failure
            }
            var options = chosen.options
            options.savesEveryChange = false
            // Read again under the lock: the configuration's provider read the store before it was taken.
            if locking, let file = store as? PopularFileStore { lock = try Self.lock(file.path) }
            return PopularProvider(id: chosen.id, store: store, options: options)
        }
    }

    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Count the searches of a log read from standard input, then save the store.",
            discussion: """
                One search per line: user<TAB>text, or user<TAB>text<TAB>results, where results is the number of \
                results the search had (0: not counted) or true/false. Blank lines are skipped. A bad line stops \
                the command with its line number, before anything is saved. Prints how many searches were \
                counted and why the others were not. Two record commands on one store take turns (the second \
                waits for the first's lock, <store>.lock); a process serving the store (suggest batch or serve) \
                must not run meanwhile: it would save what it read before.
                """
        )

        @OptionGroup var target: Target

        func run() throws {
            // Held until the store is saved: another record run reads the store only after this one wrote it.
            var lock: FileLock? = nil
            let provider = try target.provider(locking: true, lock: &lock)
            defer { withExtendedLifetime(lock) {} }
            var counts: [String: Int] = [:]
            var reader = LineReader()
            var bytes: [UInt8] = []
            var number = 0
            while reader.next(into: &bytes) {
                number += 1
                if bytes.last == 0x0D { bytes.removeLast() }
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                guard let line = String(validating: bytes, as: UTF8.self) else {
                    Console.error("error: standard input:\(number): not valid UTF-8")
                    throw ExitCode.failure
                }
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count == 2 || fields.count == 3, !fields[0].isEmpty else {
                    Console.error("error: standard input:\(number): expected user<TAB>text[<TAB>results]")
                    throw ExitCode.failure
                }
                var hadResults = true
                if fields.count == 3 {
                    switch fields[2] {
                    case "true": hadResults = true
                    case "false": hadResults = false
                    default:
                        guard let n = Int(fields[2]), n >= 0 else {
                            Console.error(
                                "error: standard input:\(number): results \"\(fields[2])\" is not a count or true/false")
                            throw ExitCode.failure
                        }
                        hadResults = n > 0
                    }
                }
                let outcome = provider.record(String(fields[1]), user: String(fields[0]), hadResults: hadResults)
                counts[outcome.description, default: 0] += 1
            }
            // A log that could not be read to its end stops the command, as a bad line does.
            try reader.failIfUnread()
            do {
                try provider.synchronize()
            } catch {
                Console.error("error: \(error)")
                throw ExitCode.failure
            }
            let counted = counts.removeValue(forKey: PopularProvider.Outcome.counted.description) ?? 0
            var summary = "counted \(counted) search\(counted == 1 ? "" : "es")"
            for (reason, count) in counts.sorted(by: { $0.key < $1.key }) { summary += ", \(count) \(reason)" }
            let shown = provider.shownQueries.count
            summary += "; \(provider.queries.count) kept, \(shown) shown"
            Console.error(summary)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the searches kept, most popular first, with their users and popularity.")

        @OptionGroup var target: Target

        @Flag(help: "Also list the searches made by fewer people than the provider's minUsers.")
        var all = false

        @Flag(help: "One JSON object per line: text, users, popularity, lastUsed, shown.")
        var json = false

        func run() throws {
            let provider = try target.provider()
            let now = Date()
            for query in provider.queries {
                let shown = query.users >= provider.options.minUsers
                guard shown || all else { continue }
                let popularity = (provider.popularity(of: query, at: now) * 1000).rounded() / 1000
                if json {
                    Console.out(
                        "{\"text\":\(JSONWriter.quoted(query.text)),\"users\":\(query.users),"
                            + "\"popularity\":\(JSONWriter.number(popularity)),"
                            + "\"lastUsed\":\(JSONWriter.quoted(query.lastUsed.formatted(.iso8601))),\"shown\":\(shown)}"
                    )
                } else {
                    Console.out(
                        "\(query.text)  \(query.users) user\(query.users == 1 ? "" : "s"), popularity "
                            + "\(JSONWriter.number(popularity))\(shown ? "" : " (not shown)")")
                }
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the popular searches as a weighted dictionary (text<TAB>weight) to standard output.",
            discussion: """
                The format the "prefix" provider loads, most popular first; weights are popularities now (3 \
                decimals). Only searches made by at least --min-users people are written (default: the provider's \
                minUsers, 5 with --store). A search whose text starts with "#" (a comment in that format) is left \
                out and counted on standard error.
                """
        )

        @OptionGroup var target: Target

        @Option(help: "The least number of different people (1 or more).")
        var minUsers: Int?

        func validate() throws {
            if let minUsers, minUsers < 1 { throw ValidationError("--min-users: expected 1 or more, found \(minUsers)") }
        }

        func run() throws {
            let provider = try target.provider()
            let (lines, skipped) = provider.dictionaryLines(minUsers: minUsers)
            var text = lines.joined(separator: "\n")
            if !text.isEmpty { text.append("\n") }
            var bytes = Array(text.utf8)
            try bytes.withUnsafeMutableBufferPointer { try Console.outOrExit(UnsafeBufferPointer($0)) }
            if skipped > 0 {
                Console.error("note: \(skipped) search\(skipped == 1 ? "" : "es") starting with \"#\" left out")
            }
        }
    }
}
