#if Server
import Foundation
import Logging
import Suggest
import SuggestServer
import Synchronization
import Testing
import SuggestTestSupport

/// A folder with a dictionary and a configuration (recents + prefix), removed by the caller.
private func makeFixture() throws -> (folder: String, configuration: String) {
    let folder = TestFolders.unique("user-engines-")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "python\t900\npytest\t300\npandas\t200\n".write(toFile: folder + "/words.tsv", atomically: true, encoding: .utf8)
    let json = """
        {"version": 1, "providers": [{"type": "recent"}, {"type": "prefix", "dictionary": "words.tsv"}]}
        """
    try json.write(toFile: folder + "/app.suggest.json", atomically: true, encoding: .utf8)
    return (folder, folder + "/app.suggest.json")
}

private func recentTitles(_ engine: SuggestionEngine, _ text: String = "") -> [String] {
    engine.suggestions(for: SearchQuery(text: text)).suggestions.filter { $0.provider == "recent" }.map(\.title)
}

/// A provider whose database is down: every keystroke fails with the same message.
private struct DownProvider: SuggestionProvider {
    let id = "catalogue"
    struct Down: Error, CustomStringConvertible { var description: String { "the database is unreachable" } }
    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws { throw Down() }
}

/// Counts the messages logged through it.
private struct CountingLogHandler: LogHandler {
    let messages: LoggedMessages
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    func log(event: LogEvent) { messages.value.withLock { $0.append("\(event.message)") } }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}

/// The messages a ``CountingLogHandler`` saw.
private final class LoggedMessages: Sendable {
    let value = Mutex<[String]>([])
}

struct UserEnginesTests {
    /// A shared provider that fails on every keystroke of every user is logged once, not once per user.
    @Test func aFailureSharedByEveryUserIsLoggedOnce() throws {
        let messages = LoggedMessages()
        let logger = Logger(label: "test") { _ in CountingLogHandler(messages: messages) }
        let configuration = EngineConfiguration(slots: [ProviderSlot(DownProvider())], logger: logger)
        let users = UserEngines(configuration: configuration)
        for user in ["alice", "bob", "carol"] {
            let engine = try users.engine(for: user)
            for text in ["p", "py", "pyt"] {
                let result = engine.suggestions(for: SearchQuery(text: text))
                #expect(result.diagnostics.errors == ["catalogue: the database is unreachable"])
            }
        }
        let logged = messages.value.withLock { $0 }
        #expect(logged == ["provider failed: the database is unreachable"], "\(logged)")
    }

    @Test func twoUsersRecentsDoNotMix() throws {
        let (folder, path) = try makeFixture()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let users = UserEngines(configuration: try EngineConfiguration(contentsOf: path, registry: .builtIn))
        let alice = try users.engine(for: "alice")
        let bob = try users.engine(for: "bob")
        alice.submit(SearchQuery(text: "alice searched this"))
        bob.submit(SearchQuery(text: "bob searched that"))
        #expect(recentTitles(alice) == ["alice searched this"])
        #expect(recentTitles(bob) == ["bob searched that"])
        #expect(try users.engine(for: "alice") === alice)
    }

    @Test func selectionLearningIsPerUser() throws {
        let (folder, path) = try makeFixture()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let users = UserEngines(configuration: try EngineConfiguration(contentsOf: path, registry: .builtIn))
        let alice = try users.engine(for: "alice")
        let bob = try users.engine(for: "bob")
        // "python" (900) leads "pytest" (300) until alice picks pytest often enough.
        let pytest = alice.suggestions(for: "py").suggestions.first { $0.title == "pytest" }!
        for _ in 0..<50 { alice.select(pytest, for: "py") }
        #expect(alice.suggestions(for: "py").suggestions.first?.title == "pytest")
        #expect(bob.suggestions(for: "py").suggestions.first?.title == "python")
    }

    @Test func theDictionaryIsSharedNotReloaded() throws {
        let (folder, path) = try makeFixture()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = DictionaryCache()
        let first = try EngineConfiguration(contentsOf: path, registry: .builtIn, cache: cache)
        _ = try EngineConfiguration(contentsOf: path, registry: .builtIn, cache: cache)
        #expect(cache.loads == 1)
        let users = UserEngines(configuration: first)
        let a = try users.engine(for: "a")
        let b = try users.engine(for: "b")
        // The prefix provider is the same instance; the recents provider is each user's own.
        #expect(a.slots[1].provider as? PrefixProvider === b.slots[1].provider as? PrefixProvider)
        #expect(a.slots[0].provider as? RecentsProvider !== b.slots[0].provider as? RecentsProvider)
        #expect(cache.loads == 1)
    }

    @Test func theBoundHoldsAndTheLeastRecentlyUsedGoes() throws {
        let (folder, path) = try makeFixture()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let users = UserEngines(
            configuration: try EngineConfiguration(contentsOf: path, registry: .builtIn),
            options: .init(maximumUsers: 3)
        )
        let start = ContinuousClock.now
        for (i, user) in ["u1", "u2", "u3"].enumerated() { _ = try users.engine(for: user, now: start + .seconds(i)) }
        _ = try users.engine(for: "u1", now: start + .seconds(10))  // u2 is now the least recently used
        _ = try users.engine(for: "u4", now: start + .seconds(11))
        #expect(users.count == 3)
        #expect(Set(users.users) == ["u1", "u3", "u4"])
        for i in 5..<40 { _ = try users.engine(for: "u\(i)", now: start + .seconds(20 + i)) }
        #expect(users.count == 3)
        #expect(users.evictions == 36)
    }

    @Test func idleUsersAreEvicted() throws {
        let (folder, path) = try makeFixture()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let users = UserEngines(
            configuration: try EngineConfiguration(contentsOf: path, registry: .builtIn),
            options: .init(idleTimeout: .seconds(60))
        )
        let start = ContinuousClock.now
        _ = try users.engine(for: "old", now: start)
        _ = try users.engine(for: "recent", now: start + .seconds(50))
        users.evictIdle(now: start + .seconds(61))
        #expect(users.users == ["recent"])
    }

    @Test func evictionSavesAndTheUserGetsTheirRecentsBack() throws {
        let (folder, path) = try makeFixture()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/users"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        let users = UserEngines(
            configuration: try EngineConfiguration(contentsOf: path, registry: .builtIn),
            options: .init(maximumUsers: 1, recentsFolder: store)
        )
        try users.engine(for: "alice").submit(SearchQuery(text: "pandas dataframe"))
        try users.engine(for: "bob").submit(SearchQuery(text: "bob's search"))  // evicts alice
        #expect(users.users == ["bob"])
        #expect(FileManager.default.fileExists(atPath: store + "/recent/alice.json"))
        #expect(recentTitles(try users.engine(for: "alice")) == ["pandas dataframe"])
        #expect(users.enginesBuilt == 3)
    }

    @Test(arguments: ["", String(repeating: "a", count: 101), "tab\there"])
    func invalidUsersAreRefused(_ user: String) throws {
        let (folder, path) = try makeFixture()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let users = UserEngines(configuration: try EngineConfiguration(contentsOf: path, registry: .builtIn))
        #expect(throws: UserEngines.InvalidUser.self) { try users.engine(for: user) }
    }

    @Test func storeFileNamesStayInTheFolder() {
        #expect(UserEngines.storeFileName(for: "alice_1-b") == "alice_1-b.json")
        #expect(UserEngines.storeFileName(for: "../etc") == "%2e%2e%2fetc.json")
        #expect(UserEngines.storeFileName(for: "Alice") == "%41lice.json")
        #expect(UserEngines.storeFileName(for: "%41lice") == "%2541lice.json")
        #expect(UserEngines.storeFileName(for: ".") == "%2e.json")
    }
}
#endif
