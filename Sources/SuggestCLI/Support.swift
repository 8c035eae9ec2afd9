import ArgumentParser
import Foundation
import Suggest

/// Writes to standard output and flushes at once (a pipe would otherwise buffer whole blocks).
enum Console {
    static func out(_ line: String) { write(line, to: 1) }

    static func error(_ line: String) { write(line, to: 2) }

    /// Writes `line` to standard output; if that fails (disk full, closed, a reader gone), says so on standard error
    /// and exits with status 1: a stream whose answers are lost must not look like a success.
    static func outOrExit(_ line: String) throws {
        let code = write(line, to: 1)
        guard code == 0 else {
            Console.error("error: cannot write to standard output: \(String(cString: strerror(code)))")
            throw ExitCode(1)
        }
    }

    /// One `write(2)` loop per line: nothing is buffered, so a reader on a pipe sees each answer at once.
    /// - Returns: 0, or the `errno` of the failed write.
    @discardableResult
    static func write(_ line: String, to descriptor: Int32) -> Int32 {
        var line = line
        line.append("\n")
        return line.withUTF8 { bytes -> Int32 in
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
}

/// Exit status 1 after the messages were printed.
struct Failure: Error, CustomStringConvertible {
    var description: String { "" }
}

enum ConfigurationLoader {
    /// Loads a configuration with the built-in providers, printing every error to standard error on failure.
    static func load(_ path: String) throws -> EngineConfiguration {
        do {
            return try EngineConfiguration(contentsOf: path, registry: .builtIn)
        } catch {
            for e in error.errors { Console.error("error: \(e)") }
            // The errors are printed: exit 1 without another line.
            throw ExitCode(1)
        }
    }
}

/// Builds JSON text by hand: fast, ordered keys, no Foundation bridging.
struct JSONWriter {
    var text = ""

    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

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

    static func token(_ token: SearchToken) -> String {
        var s = "{\"kind\":\(quoted(token.kind)),\"value\":\(quoted(token.value)),\"display\":\(quoted(token.display))"
        if let image = token.systemImage { s += ",\"systemImage\":\(quoted(image))" }
        return s + "}"
    }

    static func tokens(_ tokens: [SearchToken]) -> String {
        "[" + tokens.map(token).joined(separator: ",") + "]"
    }

    /// One suggestion: the contract's fields (`text`, `provider`, `score`, `section`, `token`), then extras.
    static func suggestion(_ s: Suggestion) -> String {
        var out = "{\"text\":"
        switch s.completion {
        case .text(let text): out += quoted(text)
        case .token: out += quoted(s.title)
        }
        out += ",\"provider\":\(quoted(s.provider)),\"score\":\(number(s.score)),\"section\":\(quoted(s.section))"
        if case .token(let token) = s.completion { out += ",\"token\":\(self.token(token))" }
        out += ",\"title\":\(quoted(s.title)),\"tier\":\(quoted(s.tier.description))"
        if s.typos > 0 { out += ",\"typos\":\(s.typos)" }
        out += ",\"ranges\":[" + s.matchedRanges.map { "[\($0.lowerBound),\($0.upperBound)]" }.joined(separator: ",") + "]"
        if s.providers.count > 1 { out += ",\"providers\":[" + s.providers.map(quoted).joined(separator: ",") + "]" }
        if let subtitle = s.subtitle { out += ",\"subtitle\":\(quoted(subtitle))" }
        if let image = s.systemImage { out += ",\"systemImage\":\(quoted(image))" }
        return out + "}"
    }

    /// The `suggest batch` answer for one keystroke.
    static func result(_ result: SuggestionResult, text: String) -> String {
        var out = "{\"text\":\(quoted(text)),\"micros\":\(micros(result.diagnostics.micros))"
        out += ",\"remaining\":\(quoted(result.remainingText)),\"tokens\":\(tokens(result.tokens))"
        out += ",\"suggestions\":[" + result.suggestions.map(suggestion).joined(separator: ",") + "]"
        out += ",\"suggestedTokens\":\(tokens(result.suggestedTokens))"
        out += ",\"generation\":\(result.generation)"
        if let common = result.commonCompletion { out += ",\"commonCompletion\":\(quoted(common))" }
        let errors = result.diagnostics.errors
        if !errors.isEmpty { out += ",\"errors\":[" + errors.map(quoted).joined(separator: ",") + "]" }
        if !result.diagnostics.notes.isEmpty {
            out += ",\"notes\":[" + result.diagnostics.notes.map(quoted).joined(separator: ",") + "]"
        }
        return out + "}"
    }

    static func error(_ message: String) -> String { "{\"error\":\(quoted(message))}" }
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
