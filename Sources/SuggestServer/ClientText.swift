#if Server
import Foundation
import SuggestCore

/// What clients may read of the server's own messages: a keystroke's `notes` and `errors` name no file of the
/// server. A message that holds a path is replaced by a generic reason, keeping the provider id in front; the whole
/// message is in the engine's log (it logs every note and provider failure).
enum ClientText {
    /// Whether `text` holds what looks like a file path: a word (between spaces, quotes, brackets or `=`) that
    /// contains `/` or starts with `~`, and is not a URL (`scheme://`).
    static func containsPath(_ text: String) -> Bool {
        let separators: Set<Character> = [" ", "\t", "\n", "\"", "'", "(", ")", "[", "]", "<", ">", "=", ","]
        for word in text.split(whereSeparator: { separators.contains($0) }) {
            if word.contains("://") { continue }
            if word.contains("/") || word.hasPrefix("~") { return true }
        }
        return false
    }

    /// `message` (`provider: text`) when it holds no path; else `provider: ` and a generic reason.
    static func redacted(_ message: String) -> String {
        guard containsPath(message) else { return message }
        var provider = ""
        if let colon = message.range(of: ": ") {
            let head = message[..<colon.lowerBound]
            if !containsPath(String(head)) && !head.contains(" ") { provider = String(head) + ": " }
        }
        let reason: String
        if message.contains("could not save recent searches") {
            reason = SubmitReceipt.unsavedReason
        } else if message.contains("could not read recent searches") {
            reason = "recent searches could not be read: started empty (details in the server's log)"
        } else {
            reason = "a problem on the server (details in the server's log)"
        }
        return provider + reason
    }

    /// `result` with its notes and provider errors redacted; nil when none needed it.
    static func redacted(_ result: SuggestionResult) -> SuggestionResult? {
        let diagnostics = result.diagnostics
        let needs =
            diagnostics.notes.contains { containsPath($0) }
            || diagnostics.providers.contains { report in
                if case .failed(let message) = report.outcome { return containsPath(message) }
                return false
            }
        guard needs else { return nil }
        var result = result
        result.diagnostics.notes = diagnostics.notes.map { redacted($0) }
        for i in result.diagnostics.providers.indices {
            if case .failed(let message) = result.diagnostics.providers[i].outcome {
                result.diagnostics.providers[i].outcome = .failed(message: redacted(message))
            }
        }
        return result
    }
}
#endif
