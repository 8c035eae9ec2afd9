import Foundation
import SuggestCore
@testable import SuggestRecents
import SuggestTestSupport

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let date = Locked(Date(timeIntervalSince1970: 1_795_000_000))

    var now: @Sendable () -> Date { { self.date.withLock { $0 } } }

    func advance(seconds: Double) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }
    func advance(days: Double) { advance(seconds: days * 86_400) }
}

/// A fresh folder under the temporary directory.
func makeTemporaryFolder() -> String {
    let path = TestFolders.unique("suggest-recents-")
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func files(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

extension RecentsProvider {
    /// The candidates for `text` (and `tokens`), as the engine would get them.
    func candidates(_ text: String, tokens: [SearchToken] = [], limit: Int = 8) -> [SuggestionCandidate] {
        var output = ProviderOutput()
        try! suggest(
            SuggestionRequest(query: PreparedQuery(SearchQuery(text: text, tokens: tokens)), limit: limit),
            into: &output
        )
        return output.candidates
    }

    func titles(_ text: String, tokens: [SearchToken] = [], limit: Int = 8) -> [String] {
        candidates(text, tokens: tokens, limit: limit).map(\.title)
    }
}

/// Registry with the recents provider (the `Suggest` module's `builtIn` has it too).
var recentsRegistry: ProviderRegistry {
    var registry = ProviderRegistry.core
    registry.register(RecentsProvider.self)
    return registry
}
