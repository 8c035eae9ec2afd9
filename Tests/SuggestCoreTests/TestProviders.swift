import Synchronization

@testable import SuggestCore

/// Offers fixed candidates whatever the query.
struct FixedProvider: SuggestionProvider {
    let id: String
    var candidates: [SuggestionCandidate]

    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        output.candidates += candidates
    }
}

/// Always throws.
struct FailingProvider: SuggestionProvider {
    struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
    let id = "failing"
    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws { throw Boom() }
}

/// Counts keystrokes of a typing session in its state, and offers the count as a title.
struct CountingProvider: SuggestionProvider {
    let id = "counting"
    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        let count = (request.previousState as? Int ?? 0) + 1
        output.state = count
        output.append(SuggestionCandidate(title: "count \(count)", tier: .unfiltered))
    }
}

/// Turns a trailing "#word " into a tag token and suggests a tag token for a partial "#wo".
struct HashtagProvider: SuggestionProvider {
    let id = "hashtags"
    func extractTokens(from query: SearchQuery, submitting: Bool) throws -> TokenExtraction? {
        var words = query.text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var tokens = query.tokens
        var changed = false
        for (i, word) in words.enumerated() where word.hasPrefix("#") && word.count > 1 {
            let complete = i < words.count - 1 || submitting
            if complete {
                tokens.append(SearchToken(kind: "tag", value: String(word.dropFirst())))
                words[i] = ""
                changed = true
            }
        }
        let last = words.last ?? ""
        let suggested: [SearchToken] = last.hasPrefix("#") ? [SearchToken(kind: "tag", value: "swift")] : []
        guard changed || !suggested.isEmpty else { return nil }
        return TokenExtraction(
            tokens: tokens,
            remainingText: words.filter { !$0.isEmpty }.joined(separator: " "),
            suggestedTokens: suggested
        )
    }
}

/// Records what it hears.
final class RecordingProvider: SuggestionProvider {
    let id = "recording"
    let submitted = Mutex<[SearchQuery]>([])
    let selected = Mutex<[String]>([])
    func didSubmit(_ query: SearchQuery) { submitted.withLock { $0.append(query) } }
    func didSelect(_ suggestion: Suggestion, for query: SearchQuery) { selected.withLock { $0.append(suggestion.title) } }
}

/// An asynchronous provider that answers after `delay`.
struct SlowProvider: SuggestionProvider {
    let id: String
    let delay: Duration
    let deadline: Duration
    var execution: ProviderExecution { .asynchronous(deadline: deadline) }

    func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
        try await Task.sleep(for: delay)
        return ProviderOutput(candidates: [
            SuggestionCandidate(title: "\(id):\(request.query.text)", tier: .prefix, popularity: 1)
        ])
    }
}

func candidate(_ title: String, _ tier: MatchTier, _ popularity: Double = 1, typos: Int = 0) -> SuggestionCandidate {
    SuggestionCandidate(title: title, tier: tier, typos: typos, popularity: popularity)
}
