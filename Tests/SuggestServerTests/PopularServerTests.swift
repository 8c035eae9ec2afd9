#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import MetricsTestKit
import NIOCore
import Suggest
import SuggestServer
import Testing
import WSCore

private func get(_ client: some TestClientProtocol, _ uri: String) async throws -> (status: Int, body: String) {
    try await client.execute(uri: uri, method: .get) { ($0.status.code, String(buffer: $0.body)) }
}

private func post(_ client: some TestClientProtocol, _ uri: String, _ body: String) async throws -> (status: Int, body: String) {
    try await client.execute(
        uri: uri, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: body)
    ) {
        ($0.status.code, String(buffer: $0.body))
    }
}

/// The texts an answer shows in its "Popular" section.
private func popular(_ body: String) -> [String] {
    (object(body)["suggestions"] as? [[String: Any]] ?? []).filter { $0["section"] as? String == "Popular" }
        .compactMap { $0["text"] as? String }
}

/// `suggest serve` with a `"popular"` provider: one provider for all users, counting identified users' submits. Each
/// server listens on a free loopback port (`.live`); the exit-status test runs the built binary.
struct PopularServerTests {
    /// A fixture with a popular provider (`minUsers` 5, the default) after the recent and prefix ones.
    static func fixture() throws -> Fixture {
        try Fixture(extraProviders: #", {"type": "popular"}"#)
    }

    static func options(_ folder: String) -> ServerOptions {
        ServerOptions(port: 0, users: .init(recentsFolder: folder), identity: .insecureUserParameter)
    }

    @Test func aSearchByFiveUsersIsPopularForASixthAndByFourForNobody() async throws {
        let fixture = try Self.fixture()
        let folder = try UsersFolder()
        let server = SuggestServer(configuration: try fixture.configuration(), options: Self.options(folder.path))
        try await server.makeApplication().test(.live) { client in
            for user in ["u1", "u2", "u3", "u4"] {
                let answer = try await post(client, "/submit?user=\(user)", #"{"text": "pandas merge"}"#)
                #expect(answer.status == 200, "\(answer)")
            }
            // The first user again, and differently spelled: still four people.
            _ = try await post(client, "/submit?user=u1", #"{"text": "  Pandas   Merge "}"#)
            // Four users: never shown to anyone else, on an empty field or while typing.
            #expect(popular(try await get(client, "/suggest?q=&user=u6").body) == [])
            #expect(!texts(try await get(client, "/suggest?q=pandas+m&user=u6").body).contains("pandas merge"))
            #expect(!texts(try await get(client, "/suggest?q=pandas+m").body).contains("pandas merge"))

            _ = try await post(client, "/submit?user=u5", #"{"text": "pandas merge"}"#)
            #expect(popular(try await get(client, "/suggest?q=&user=u6").body) == ["pandas merge"])
            #expect(texts(try await get(client, "/suggest?q=pandas+m&user=u6").body).contains("pandas merge"))
            // Anonymous callers see it too.
            #expect(popular(try await get(client, "/suggest?q=").body) == ["pandas merge"])
            // One shared provider, counting five different people.
            let shared = try #require(server.users.popularProviders.first)
            #expect(server.users.popularProviders.count == 1)
            #expect(shared.queries.first { $0.text.lowercased() == "pandas merge" }?.users == 5)
        }
        #expect(FileManager.default.fileExists(atPath: folder.path + "/popular/popular.json"))
    }

    @Test func aRestartKeepsTheCounts() async throws {
        let fixture = try Self.fixture()
        let folder = try UsersFolder()
        let first = SuggestServer(configuration: try fixture.configuration(), options: Self.options(folder.path))
        try await first.makeApplication().test(.live) { client in
            for user in ["u1", "u2", "u3", "u4"] {
                _ = try await post(client, "/submit?user=\(user)", #"{"text": "new york pizza"}"#)
            }
        }
        #expect(first.saveAll().isEmpty)
        #expect(first.savePopularBeforeExit() == 0)
        #expect(UserEngines.popularStorePath(provider: "popular", in: folder.path) == folder.path + "/popular/popular.json")

        let restarted = SuggestServer(configuration: try fixture.configuration(), options: Self.options(folder.path))
        try await restarted.makeApplication().test(.live) { client in
            #expect(popular(try await get(client, "/suggest?q=&user=u9").body) == [])
            // A user counted before the restart is still remembered: their search again counts nothing.
            _ = try await post(client, "/submit?user=u4", #"{"text": "new york pizza"}"#)
            #expect(popular(try await get(client, "/suggest?q=&user=u9").body) == [])
            // A fifth user after the restart: five in all.
            _ = try await post(client, "/submit?user=u5", #"{"text": "new york pizza"}"#)
            #expect(popular(try await get(client, "/suggest?q=&user=u9").body) == ["new york pizza"])
        }
    }

    /// User ids are counted in Normalization Form C: `é` as one scalar or as `e` and U+0301 is one person.
    @Test func oneUserInTwoUnicodeFormsCountsOnce() async throws {
        let fixture = try Self.fixture()
        let folder = try UsersFolder()
        let server = SuggestServer(configuration: try fixture.configuration(), options: Self.options(folder.path))
        try await server.makeApplication().test(.live) { client in
            // "Renée" composed and decomposed (percent-encoded UTF-8), and three others: four people, not five.
            for user in ["Ren%C3%A9e", "Rene%CC%81e", "u2", "u3", "u4"] {
                _ = try await post(client, "/submit?user=\(user)", #"{"text": "pytest fixtures"}"#)
            }
            #expect(popular(try await get(client, "/suggest?q=&user=u9").body) == [])
        }
    }

    /// Over WebSocket: an identified user's submit counts; an anonymous connection's never does, however many
    /// connections it opens.
    @Test func webSocketSubmitsCountForIdentifiedUsersOnly() async throws {
        let fixture = try Self.fixture()
        let folder = try UsersFolder()
        let server = SuggestServer(configuration: try fixture.configuration(), options: Self.options(folder.path))
        try await server.makeApplication().test(.live) { client in
            for user in ["u1", "u2", "u3"] {
                _ = try await post(client, "/submit?user=\(user)", #"{"text": "python decorators"}"#)
            }
            func submit(_ path: String) async throws {
                _ = try await client.ws(path) { inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    try await outbound.write(.text(#"{"submit": "python decorators"}"#))
                    let answer = object(try await nextText(&messages))
                    #expect(answer["submitted"] as? String == "python decorators", "\(answer)")
                }
            }
            for _ in 0..<3 { try await submit("/ws") }
            #expect(popular(try await get(client, "/suggest?q=&user=u9").body) == [])
            try await submit("/ws?user=u4")
            #expect(popular(try await get(client, "/suggest?q=&user=u9").body) == [])
            try await submit("/ws?user=u5")
            #expect(popular(try await get(client, "/suggest?q=&user=u9").body) == ["python decorators"])
        }
    }

    /// With `"store"` in the provider's configuration that file is used, not the users folder.
    @Test func theStoreTheConfigurationNamesIsUsed() async throws {
        let fixture = try Fixture(extraProviders: #", {"type": "popular", "store": "shared-popular.json", "minUsers": 2}"#)
        let folder = try UsersFolder()
        let server = SuggestServer(configuration: try fixture.configuration(), options: Self.options(folder.path))
        try await server.makeApplication().test(.live) { client in
            for user in ["u1", "u2"] {
                _ = try await post(client, "/submit?user=\(user)", #"{"text": "pandas pivot"}"#)
            }
            #expect(popular(try await get(client, "/suggest?q=&user=u9").body) == ["pandas pivot"])
        }
        #expect(server.savePopularBeforeExit() == 0)
        let saved = try String(contentsOfFile: fixture.folder + "/shared-popular.json", encoding: .utf8)
        #expect(saved.contains(#""text":"pandas pivot""#), "\(saved)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/popular"))
    }

    /// A write that failed (the provider's folder could not be made) is done by the next ``UserEngines/savePopular()``
    /// (every sweep) once the folder can be made.
    @Test func countsNotWrittenAreWrittenByTheNextSave() throws {
        let folder = try UsersFolder()
        let repair = try UnwritableUsersFolder.make(folder.path, provider: "popular")
        let configuration = EngineConfiguration(slots: [ProviderSlot(RecentsProvider()), ProviderSlot(PopularProvider())])
        let users = UserEngines(configuration: configuration, options: .init(recentsFolder: folder.path))
        try users.engine(for: "alice").submit(SearchQuery(text: "pandas merge"))
        let shared = try #require(users.popularProviders.first)
        #expect(shared.unsavedChangeCount == 1)
        #expect(shared.saveProblem != nil)
        let failures = users.savePopular()
        #expect(failures.map(\.provider) == ["popular"])
        #expect(failures.first?.description.contains(folder.path + "/popular/popular.json") == true, "\(failures)")
        try repair()
        #expect(users.savePopular().isEmpty)
        #expect(shared.unsavedChangeCount == 0)
        let restarted = UserEngines(configuration: configuration, options: .init(recentsFolder: folder.path))
        #expect(restarted.popularProviders.first?.queries.map(\.text) == ["pandas merge"])
    }

    /// With `recordSelections`, a suggestion a user chose counts as their search: five people choosing it make it
    /// popular for a sixth, four do not.
    @Test func selectionsCountWhenTheProviderRecordsThem() async throws {
        let fixture = try Fixture(extraProviders: #", {"type": "popular", "recordSelections": true}"#)
        let folder = try UsersFolder()
        let server = SuggestServer(configuration: try fixture.configuration(), options: Self.options(folder.path))
        try await server.makeApplication().test(.live) { client in
            for i in 1...5 {
                if i == 5 {
                    #expect(popular(try await get(client, "/suggest?q=&user=u6").body) == [])
                }
                let shown = try await get(client, "/suggest?q=pan&user=u\(i)&session=s\(i)")
                #expect(texts(shown.body).contains("pandas"), "\(shown.body)")
                let selected = try await post(client, "/select?user=u\(i)&session=s\(i)", #"{"text": "pandas"}"#)
                #expect(selected.status == 200, "\(selected)")
            }
            #expect(popular(try await get(client, "/suggest?q=&user=u6").body) == ["pandas"])
        }
        #expect(server.users.popularProviders.first?.queries.first?.users == 5)
    }

    /// A popular save that fails at the sweep is counted in `suggest_popular_save_failures_total`, and the counts
    /// not saved show in `suggest_popular_unsaved` until a sweep saves them.
    @Test func failedPopularSavesShowInTheMetrics() async throws {
        let fixture = try Self.fixture()
        let folder = try UsersFolder()
        let repair = try UnwritableUsersFolder.make(folder.path, provider: "popular")
        let metrics = TestMetrics()
        let server = SuggestServer(
            configuration: try fixture.configuration(), options: Self.options(folder.path), metricsFactory: metrics)
        try await server.makeApplication().test(.router) { client in
            _ = try await post(client, "/submit?user=alice", #"{"text": "pandas merge"}"#)
            _ = try await post(client, "/submit?user=bob", #"{"text": "pandas pivot"}"#)
        }
        // The application's own shutdown tried once already.
        let failures = try metrics.expectCounter("suggest_popular_save_failures_total")
        let before = failures.totalValue
        server.sweep()
        #expect(failures.totalValue == before + 1)
        #expect(try metrics.expectGauge("suggest_popular_unsaved").lastValue == 2)
        try repair()
        server.sweep()
        #expect(failures.totalValue == before + 1)
        #expect(try metrics.expectGauge("suggest_popular_unsaved").lastValue == 0)
    }

    /// Popular searches that cannot be written by the end: exit status 74, and standard error says so.
    @Test(.timeLimit(.minutes(1)))
    func popularSearchesNotSavedByTheEndExit74() async throws {
        let fixture = try Self.fixture()
        let users = fixture.folder + "/users"
        try FileManager.default.createDirectory(atPath: users, withIntermediateDirectories: true)
        let repair = try UnwritableUsersFolder.make(users, provider: "popular")
        defer { try? repair() }
        let server = try await SpawnedServer(fixture, ["--insecure-user-parameter", "--users-folder", users])
        _ = try await server.post("/submit?user=alice", #"{"text": "pandas merge"}"#)
        server.process.interrupt()
        await ServeExitStatusTests.waitForExit(server.process)
        #expect(server.process.terminationStatus == 74)
        let error = server.standardError
        #expect(error.contains("error: the popular searches of 1 provider could not be saved"), "\(error)")
        #expect(error.contains(users + "/popular/popular.json"), "the log names the file: \(error)")
    }
}
#endif
