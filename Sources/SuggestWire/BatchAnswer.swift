public import SuggestCore

/// Reading a `suggest batch` answer (the format `suggest serve` answers with) back into candidates: what the remote
/// provider does with another server's answer. The inverse of `JSONBytes.result(_:text:)` for the fields a candidate
/// has: text, title, subtitle, token, tier, typos, matched ranges, score (as popularity), system image, and the
/// factor the kinds of its typos put on its popularity.
public enum BatchAnswer: Sendable {
    /// The first `limit` suggestions of `answer` as candidates, and its `errors` as notes (`remote: …`).
    /// - Throws: `BatchCommand.Problem` when the answer has no `suggestions` array or a suggestion has no `text`.
    public static func output(from answer: JSONValue, limit: Int) throws(BatchCommand.Problem) -> ProviderOutput {
        guard case .array(let items) = answer["suggestions"] else { throw BatchCommand.Problem("answer without \"suggestions\"") }
        var output = ProviderOutput()
        for item in items.prefix(max(0, limit)) {
            guard let text = item["text"]?.stringValue else { throw BatchCommand.Problem("a suggestion without \"text\"") }
            let title = item["title"]?.stringValue ?? text
            var completion = Suggestion.Completion.text(text)
            if let token = item["token"], let kind = token["kind"]?.stringValue, let value = token["value"]?.stringValue {
                completion = .token(
                    SearchToken(
                        kind: kind, value: value, display: token["display"]?.stringValue,
                        systemImage: token["systemImage"]?.stringValue
                    )
                )
            }
            let tier = item["tier"]?.stringValue.flatMap { name in MatchTier.allCases.first { $0.description == name } }
            var ranges: [Range<Int>] = []
            if case .array(let pairs) = item["ranges"] {
                for pair in pairs {
                    if case .array(let bounds) = pair, bounds.count == 2, let lower = bounds[0].intValue,
                        let upper = bounds[1].intValue, lower <= upper
                    {
                        ranges.append(lower..<upper)
                    }
                }
            }
            let score = item["score"]?.doubleValue ?? 1
            var candidate =
                SuggestionCandidate(
                    title: title,
                    subtitle: item["subtitle"]?.stringValue,
                    completion: completion,
                    matchedRanges: ranges,
                    tier: tier ?? .contains,
                    typos: item["typos"]?.intValue ?? 0,
                    popularity: score.isFinite && score > 0 ? score : 1,
                    systemImage: item["systemImage"]?.stringValue
                )
            if let factor = item["typoKindFactor"]?.doubleValue, factor.isFinite, factor > 0 {
                candidate.typoKindFactor = factor
            }
            if case .bool(true)? = item["wordsOutOfOrder"] { candidate.wordsOutOfOrder = true }
            output.append(candidate)
        }
        if case .array(let errors) = answer["errors"] {
            for error in errors { if let message = error.stringValue { output.notes.append("remote: \(message)") } }
        }
        return output
    }
}

extension JSONValue {
    fileprivate var doubleValue: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    fileprivate var intValue: Int? {
        guard let n = doubleValue, n == n.rounded(), abs(n) < 1e15 else { return nil }
        return Int(n)
    }
}
