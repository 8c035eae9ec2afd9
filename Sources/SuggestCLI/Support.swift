import ArgumentParser
import Foundation
import Suggest

#if Server
    import SuggestPostgres
    import SuggestRemote
#endif

/// Writes to standard output and flushes at once (a pipe would otherwise buffer whole blocks).
enum Console {
    /// Whether the environment forbids colour and attributes: `NO_COLOR` set to anything but the empty string
    /// (https://no-color.org), or `TERM` is `dumb`.
    static func colorIsOff(_ environment: [String: String]) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return true }
        return environment["TERM"] == "dumb"
    }

    /// Writes a line for people to read (control characters of the data in it shown as U+FFFD, see ``printable(_:)``).
    static func out(_ line: String) { write(printable(line), to: 1) }

    /// Writes a line for people to read on standard error, as ``out(_:)`` does.
    static func error(_ line: String) { write(printable(line), to: 2) }

    /// `line` with each control character but a tab or a line end shown as U+FFFD: a title, a search or a value
    /// echoed in an error could otherwise drive the terminal (an ESC sequence, a bell, a carriage return).
    static func printable(_ line: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            scalar != "\t" && scalar != "\n" && TerminalText.isControl(scalar)
        }
        guard line.unicodeScalars.contains(where: isControl) else { return line }
        var out = String.UnicodeScalarView()
        for scalar in line.unicodeScalars { out.append(isControl(scalar) ? "\u{FFFD}" : scalar) }
        return String(out)
    }

    /// Writes `line` to standard output; if that fails (disk full, closed, a reader gone), says so on standard error
    /// and exits with status 1: a stream whose answers are lost must not look like a success.
    static func outOrExit(_ line: String) throws {
        var line = line
        line.append("\n")
        try line.withUTF8 { try outOrExit($0) }
    }

    /// Writes the bytes of one or more whole lines (each ending in `\n`) to standard output, or exits with status 1
    /// as ``outOrExit(_:)-(String)`` does.
    static func outOrExit(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        let code = write(bytes, to: 1)
        guard code == 0 else {
            Console.error("error: cannot write to standard output: \(String(cString: strerror(code)))")
            throw ExitCode(1)
        }
    }

    /// One `write(2)` loop per line: nothing is buffered, so a reader on a pipe sees each answer at once.
    /// - Returns: 0, or the `errno` of the failed write.
    @discardableResult
    static func write(_ line: String, to descriptor: Int32, newline: Bool = true) -> Int32 {
        var line = line
        if newline { line.append("\n") }
        return line.withUTF8 { write($0, to: descriptor) }
    }

    /// Writes all of `bytes` (one `write(2)` unless the descriptor takes them in parts).
    /// - Returns: 0, or the `errno` of the failed write.
    static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32 {
        TextFile.writeAll(UnsafeRawBufferPointer(bytes), to: descriptor) == bytes.count ? 0 : errno
    }
}

/// Standard input read in 64 KB blocks into one reused buffer and split on `\n` (no UTF-8 repair: invalid input
/// must be reported, not replaced). `read(2)` returns what a pipe holds without waiting for a full block, so a
/// writer that waits for each answer before sending the next line is served at once.
struct LineReader {
    let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    /// The unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0

    init(descriptor: Int32 = 0) { self.descriptor = descriptor }

    /// The `errno` of a read that failed (standard input is a folder, a device that fails); the input ended there.
    private(set) var failure: Int32? = nil

    /// Replaces the contents of `line` with the next line, without its `\n` (its capacity is kept, so a reused
    /// array costs no allocation). A last line without `\n` counts; a read error ends the input (see ``failure``),
    /// and the part of a line read before it is dropped.
    /// - Returns: false at the end of the input.
    mutating func next(into line: inout [UInt8]) -> Bool {
        line.removeAll(keepingCapacity: true)
        while true {
            if start < end {
                let found = buffer.withUnsafeBufferPointer { b -> Int? in
                    guard let hit = memchr(b.baseAddress! + start, 0x0A, end - start) else { return nil }
                    return b.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                }
                if let newline = found {
                    line.append(contentsOf: buffer[start..<newline])
                    start = newline + 1
                    return true
                }
                line.append(contentsOf: buffer[start..<end])
            }
            start = 0
            end = 0
            let n = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress!, $0.count) }
            if n > 0 {
                end = n
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 {
                failure = errno
                line.removeAll(keepingCapacity: true)
                return false
            } else {
                return !line.isEmpty
            }
        }
    }
}

extension LineReader {
    /// Says why the input could not be read, and exits with status 1, when a read failed.
    func failIfUnread() throws {
        guard let failure else { return }
        Console.error("error: cannot read standard input: \(String(cString: strerror(failure)))")
        throw ExitCode(1)
    }
}

/// Exit status 1 after the messages were printed.
struct Failure: Error, CustomStringConvertible {
    var description: String { "" }
}

enum ConfigurationLoader {
    /// Loads a configuration with the built-in providers, printing every error to standard error on failure.
    static func load(_ path: String) throws -> EngineConfiguration {
        // Dictionaries are parsed and indexed while the configuration is read: seconds for millions of entries.
        let progress = ProgressLine.make("loading \(path)")
        defer { progress?.finish() }
        do {
            return try EngineConfiguration(contentsOf: path, registry: .cli)
        } catch {
            progress?.finish()
            for e in error.errors { Console.error("error: \(e)") }
            // The errors are printed: exit 1 without another line.
            throw ExitCode(1)
        }
    }
}

/// Recent (and popular) searches that could not be saved must not vanish at exit with status 0.
enum RecentsCheck {
    /// Writes `warning: FILE: providers[i].store: why` on standard error for each recent or popular searches store
    /// of `configuration` (loaded from `file`) that could not be read: the provider started without (some of) its
    /// searches, and a command that goes on must not hide it (as `suggest validate` reports it).
    static func warnUnreadStores(_ configuration: EngineConfiguration, file: String) {
        for warning in configuration.storeWarnings { Console.error("warning: \(file): \(warning)") }
    }

    /// Tries once more to save each recents and popular provider's unsaved changes; reports those that still fail on
    /// standard error and exits with status 1 — searches must not vanish at exit with status 0. (A popular provider
    /// whose store could not be read never writes it: its searches are reported as not saved.)
    static func saveOrFail(_ configuration: EngineConfiguration) throws {
        var failed = false
        for case let provider as RecentsProvider in configuration.slots.map(\.provider) {
            let count = provider.unsavedChangeCount
            guard count > 0 else { continue }
            do {
                try provider.synchronize()
            } catch {
                let changes = provider.unsavedChangeCount
                let plural = changes == 1 ? "" : "s"
                Console.error("error: \(provider.id): \(changes) change\(plural) to the recent searches not saved: \(error)")
                failed = true
            }
        }
        for case let provider as PopularProvider in configuration.slots.map(\.provider) {
            let count = provider.unsavedChangeCount
            guard count > 0 else { continue }
            do {
                try provider.synchronize()
            } catch {
                let searches = count == 1 ? "1 search" : "\(count) searches"
                Console.error("error: \(provider.id): \(searches) not saved: \(error)")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}

extension ProviderRegistry {
    /// The CLI's provider types: the built-in ones, `postgres` (SuggestPostgres) and `remote` (another
    /// `suggest serve`, SuggestRemote). Without the `Server` trait the last two are known by name only: a
    /// configuration that uses them gets an error saying how to build a `suggest` that has them.
    static var cli: ProviderRegistry {
        var registry = ProviderRegistry.builtIn
        #if Server
            registry.register(PostgresProvider.self)
            registry.registerRemote()
        #else
            for typeName in ["postgres", "remote"] {
                registry.register(typeName) { _, _, context in
                    throw context.error(
                        at: "type",
                        "\"\(typeName)\" providers need the server side, which this `suggest` was built without: "
                            + "build it with `swift build --traits PCRE2,Server` (or `make serve`)"
                    )
                }
            }
        #endif
        return registry
    }
}

extension SearchToken {
    /// A token given on the command line as `kind:value`: the kind is what comes before the first colon (not
    /// empty), the value all after it.
    /// - Throws: a usage error naming the argument.
    static func commandLine(_ argument: String) throws -> SearchToken {
        guard let colon = argument.firstIndex(of: ":"), colon != argument.startIndex else {
            throw ValidationError("--token \(argument): expected kind:value")
        }
        return SearchToken(kind: String(argument[..<colon]), value: String(argument[argument.index(after: colon)...]))
    }
}
