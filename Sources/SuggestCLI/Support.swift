import ArgumentParser
import Foundation
import Suggest
import SuggestPostgres

/// Writes to standard output and flushes at once (a pipe would otherwise buffer whole blocks).
enum Console {
    static func out(_ line: String) { write(line, to: 1) }

    static func error(_ line: String) { write(line, to: 2) }

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
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return 0
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

    /// Replaces the contents of `line` with the next line, without its `\n` (its capacity is kept, so a reused
    /// array costs no allocation). A last line without `\n` counts; a read error ends the input as end of file does.
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
            } else {
                return !line.isEmpty
            }
        }
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

/// Builds JSON text by hand: fast, ordered keys, no Foundation bridging. The `String` functions are for one-off
/// lines; `suggest batch` builds each answer with ``JSONBytes`` into one reused buffer.
enum JSONWriter {
    static func quoted(_ s: String) -> String { JSONBytes.string { $0.quoted(s) } }

    /// A JSON number. JSON has no infinity: an infinite value prints as the largest finite one of its sign (so a
    /// huge score stays the largest, never 0); NaN prints as `null`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "null" }
        if value.isInfinite {
            return value > 0 ? "\(Double.greatestFiniteMagnitude)" : "\(-Double.greatestFiniteMagnitude)"
        }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Rounds to one decimal (for microseconds).
    static func micros(_ value: Double) -> String { number((value * 10).rounded() / 10) }

    static func tokens(_ tokens: [SearchToken]) -> String { JSONBytes.string { $0.tokens(tokens) } }

    /// The `suggest batch` answer for one keystroke.
    static func result(_ result: SuggestionResult, text: String) -> String {
        JSONBytes.string { $0.result(result, text: text) }
    }

    static func error(_ message: String) -> String { JSONBytes.string { $0.error(message) } }
}

/// JSON text written straight into a byte buffer, escaping included; reuse one (``reset()``) to build line after
/// line without allocating.
struct JSONBytes: ~Copyable {
    var bytes: ByteBuffer

    init(capacity: Int = 4096) { bytes = ByteBuffer(capacity: capacity) }

    /// Builds a `String` with `body` (for the one-off ``JSONWriter`` functions).
    static func string(_ body: (inout JSONBytes) -> Void) -> String {
        var out = JSONBytes(capacity: 64)
        body(&out)
        return out.bytes.string
    }

    /// Empties the buffer, keeping its capacity.
    mutating func reset() { bytes.removeAll() }

    /// Appends a literal as it is (no escaping): punctuation and keys. (A `String` overload would win for literals
    /// and append byte by byte: text that is not a literal goes through ``append(_:)``.)
    mutating func raw(_ text: StaticString) {
        if text.hasPointerRepresentation {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        } else {
            append(String(text.unicodeScalar))
        }
    }

    /// Appends `text` as it is (no escaping).
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    /// A JSON string: `"`, `\`, the control characters and U+2028/U+2029 (which end a line in JavaScript) escaped.
    mutating func quoted(_ s: String) {
        bytes.append(0x22)
        // Native strings (all of ours) give their bytes without a copy; `var s = s; s.withUTF8` would retain.
        if s.utf8.withContiguousStorageIfAvailable({ escape($0) }) == nil {
            var s = s
            s.withUTF8 { escape($0) }
        }
        bytes.append(0x22)
    }

    /// Appends `utf8` with the JSON escapes (for ``quoted(_:)``).
    private mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
        // Copies runs of plain bytes at once; stops at the bytes that need an escape (and at 0xE2, the lead
        // byte of U+2028 and U+2029).
        var run = 0
        var i = 0
        let count = utf8.count
        while i < count {
            let b = utf8[i]
            if b >= 0x20 && b != 0x22 && b != 0x5C && b != 0xE2 {
                i += 1
                continue
            }
            if b == 0xE2, i + 2 < count, utf8[i + 1] == 0x80, utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9 {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
                raw(utf8[i + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                i += 3
                run = i
                continue
            }
            if b == 0xE2 {
                i += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
            switch b {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            default:
                // A control character: \u00XX, lowercase hex.
                let low = b & 0x0F
                raw("\\u00")
                bytes.append(0x30 + (b >> 4))
                bytes.append(low < 10 ? 0x30 + low : 0x57 + low)
            }
            i += 1
            run = i
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<count]))
    }

    /// A JSON number, as ``JSONWriter/number(_:)`` writes it.
    mutating func number(_ value: Double) {
        if value == value.rounded() && abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            append(JSONWriter.number(value))
        }
    }

    mutating func integer(_ value: Int) { integer(Int64(value)) }

    mutating func integer(_ value: UInt64) {
        if value <= UInt64(Int64.max) { integer(Int64(value)) } else { append(String(value)) }
    }

    /// Decimal digits written straight into the buffer (no `String`).
    mutating func integer(_ value: Int64) {
        if value == .min { return append(String(value)) }
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        // At most 19 digits: written backwards into a fixed tuple, then appended in order.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var i = buffer.count
            repeat {
                i -= 1
                buffer[i] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[i...]))
        }
    }

    /// Rounds to one decimal (for microseconds).
    mutating func micros(_ value: Double) { number((value * 10).rounded() / 10) }

    mutating func token(_ token: SearchToken) {
        raw("{\"kind\":")
        quoted(token.kind)
        raw(",\"value\":")
        quoted(token.value)
        raw(",\"display\":")
        quoted(token.display)
        if let image = token.systemImage {
            raw(",\"systemImage\":")
            quoted(image)
        }
        byte(0x7D)
    }

    mutating func tokens(_ tokens: [SearchToken]) {
        byte(0x5B)
        for (i, token) in tokens.enumerated() {
            if i > 0 { byte(0x2C) }
            self.token(token)
        }
        byte(0x5D)
    }

    mutating func strings(_ strings: [String]) {
        byte(0x5B)
        for (i, string) in strings.enumerated() {
            if i > 0 { byte(0x2C) }
            quoted(string)
        }
        byte(0x5D)
    }

    /// One suggestion: the contract's fields (`text`, `provider`, `score`, `section`, `token`), then extras.
    mutating func suggestion(_ s: Suggestion) {
        raw("{\"text\":")
        switch s.completion {
        case .text(let text): quoted(text)
        case .token: quoted(s.title)
        case .query(let query): quoted(query.text.isEmpty ? s.title : query.text)
        }
        raw(",\"provider\":")
        quoted(s.provider)
        raw(",\"score\":")
        number(s.score)
        raw(",\"section\":")
        quoted(s.section)
        switch s.completion {
        case .text: break
        case .token(let token):
            raw(",\"token\":")
            self.token(token)
        case .query(let query):
            // A search of tokens only completes, as before `.query` existed, as its first token; `tokens` has all.
            if query.text.isEmpty, let first = query.tokens.first {
                raw(",\"token\":")
                self.token(first)
            }
            raw(",\"tokens\":[")
            for (i, token) in query.tokens.enumerated() {
                if i > 0 { byte(0x2C) }
                self.token(token)
            }
            byte(0x5D)
        }
        raw(",\"title\":")
        quoted(s.title)
        raw(",\"tier\":")
        quoted(s.tier.description)
        if s.typos > 0 {
            raw(",\"typos\":")
            integer(s.typos)
        }
        raw(",\"ranges\":[")
        for (i, range) in s.matchedRanges.enumerated() {
            if i > 0 { byte(0x2C) }
            byte(0x5B)
            integer(range.lowerBound)
            byte(0x2C)
            integer(range.upperBound)
            byte(0x5D)
        }
        byte(0x5D)
        if s.providers.count > 1 {
            raw(",\"providers\":")
            strings(s.providers)
        }
        if let subtitle = s.subtitle {
            raw(",\"subtitle\":")
            quoted(subtitle)
        }
        if let image = s.systemImage {
            raw(",\"systemImage\":")
            quoted(image)
        }
        byte(0x7D)
    }

    /// The `suggest batch` answer for one keystroke.
    mutating func result(_ result: SuggestionResult, text: String) {
        raw("{\"text\":")
        quoted(text)
        raw(",\"micros\":")
        micros(result.diagnostics.micros)
        raw(",\"remaining\":")
        quoted(result.remainingText)
        raw(",\"tokens\":")
        tokens(result.tokens)
        raw(",\"suggestions\":[")
        var first = true
        for section in result.sections {
            // Through the buffer: each suggestion is borrowed, not copied (a copy retains each of its strings).
            section.suggestions.withUnsafeBufferPointer { suggestions in
                for i in suggestions.indices {
                    if !first { byte(0x2C) }
                    first = false
                    suggestion(suggestions[i])
                }
            }
        }
        raw("],\"suggestedTokens\":")
        tokens(result.suggestedTokens)
        raw(",\"generation\":")
        integer(result.generation)
        if let common = result.commonCompletion {
            raw(",\"commonCompletion\":")
            quoted(common)
        }
        let errors = result.diagnostics.errors
        if !errors.isEmpty {
            raw(",\"errors\":")
            strings(errors)
        }
        if !result.diagnostics.notes.isEmpty {
            raw(",\"notes\":")
            strings(result.diagnostics.notes)
        }
        byte(0x7D)
    }

    mutating func error(_ message: String) {
        raw("{\"error\":")
        quoted(message)
        byte(0x7D)
    }
}

/// Recent searches that could not be saved must not vanish at exit with status 0.
enum RecentsCheck {
    /// Tries once more to save each recents provider's unsaved changes; reports those that still fail on standard
    /// error and exits with status 1.
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
        if failed { throw ExitCode(1) }
    }
}

extension ProviderRegistry {
    /// The CLI's provider types: the built-in ones and `postgres` (SuggestPostgres, which apps link only when they
    /// use it).
    static var cli: ProviderRegistry {
        var registry = ProviderRegistry.builtIn
        registry.register(PostgresProvider.self)
        return registry
    }
}
