#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PostgresNIO
import Suggest
import SuggestPostgres
@testable import SuggestServer
import Synchronization
import Testing
import SuggestTestSupport

/// The texts of an answer's suggestions from the popular provider `provider`.
private func popularTexts(_ body: String, provider: String) -> [String] {
    (object(body)["suggestions"] as? [[String: Any]] ?? []).filter {
        $0["provider"] as? String == provider || ($0["providers"] as? [String] ?? []).contains(provider)
    }
    .compactMap { $0["text"] as? String }
}

/// Popular searches shared by replicas through the users database.
@Suite(.enabled(if: UsersTestDatabase.isAvailable, UsersTestDatabase.skipReason))
struct UsersDatabasePopularTests {
    /// A configuration with a popular provider named `provider` (unique per test: the database outlives tests).
    static func configuration(provider: String) throws -> EngineConfiguration {
        let folder = URL(fileURLWithPath: TestFolders.unique("suggest-popular-"))
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "python\t900\npandas\t200\n".write(toFile: folder + "/words.tsv", atomically: true, encoding: .utf8)
        try """
        {"version": 1, "providers": [{"type": "recent"}, {"type": "prefix", "dictionary": "words.tsv"},
          {"type": "popular", "id": "\(provider)", "minUsers": 5}]}
        """.write(toFile: folder + "/app.suggest.json", atomically: true, encoding: .utf8)
        return try EngineConfiguration(contentsOf: folder + "/app.suggest.json", registry: .builtIn)
    }

    /// A replica: its own database client, the popular searches read, the server made.
    static func replica(provider: String, retryInterval: Duration = .seconds(1)) async throws
        -> (SuggestServer, UsersDatabase)
    {
        // A generous connect timeout: this suite checks the sharing, and the suites beside it start many replicas
        // on a fresh database at once.
        let database = UsersDatabase(
            settings: try UsersTestDatabase.settings(),
            // A submit waits for its write longer than the default 2 s: the suites beside this one load the database
            // and the machine (2 s was once not enough on CI, and the submit answered "stored": false).
            options: .init(submitWait: .seconds(15), retryInterval: retryInterval, connectTimeout: .seconds(30)))
        let configuration = try configuration(provider: provider)
        try await database.preparePopular(configuration)
        let server = SuggestServer(
            configuration: configuration,
            options: ServerOptions(
                port: 8080, users: .init(recentsDatabase: database), identity: .insecureUserParameter, rateLimit: nil))
        return (server, database)
    }

    @Test func aSearchFiveUsersMadeAcrossTwoReplicasIsShownOnBothAndFourIsNot() async throws {
        let provider = "popular_\(UUID().uuidString.prefix(8))"
        let (a, databaseA) = try await Self.replica(provider: provider)
        let (b, databaseB) = try await Self.replica(provider: provider)
        defer { databaseA.shutdown(); databaseB.shutdown() }
        // Both replicas hash a person alike (one salt, made by the first).
        let hashA = try #require(a.users.popularProviders.first).userHash(of: "alice")
        let hashB = try #require(b.users.popularProviders.first).userHash(of: "alice")
        #expect(hashA == hashB)
        try await a.makeApplication().test(.router) { clientA in
            try await b.makeApplication().test(.router) { clientB in
                for i in 0..<5 {
                    let client = i % 2 == 0 ? clientA : clientB
                    let answer = try await send(client, .post, "/submit?user=person\(i)", #"{"text": "pandas merge"}"#)
                    #expect(answer.status == 200, "\(answer)")
                    if i < 4 {
                        _ = try await send(client, .post, "/submit?user=person\(i)", #"{"text": "numpy stack"}"#)
                    }
                }
                // Neither replica saw five people on its own (3 and 2).
                // Each writes what it counted, then reads what the other wrote.
                await databaseA.synchronizePopular()
                await databaseB.synchronizePopular()
                await databaseA.synchronizePopular()
                for client in [clientA, clientB] {
                    let empty = try await send(client, .get, "/suggest?user=someone&q=")
                    #expect(popularTexts(empty.body, provider: provider) == ["pandas merge"], "\(empty.body)")
                    let typed = try await send(client, .get, "/suggest?user=someone&q=pan")
                    #expect(popularTexts(typed.body, provider: provider) == ["pandas merge"], "\(typed.body)")
                    let four = try await send(client, .get, "/suggest?user=someone&q=num")
                    #expect(popularTexts(four.body, provider: provider).isEmpty, "\(four.body)")
                }
            }
        }
        // The database counted each person once.
        let shared = try #require(a.users.popularProviders.first).queries
        #expect(shared.first { $0.text == "pandas merge" }?.users == 5)
        #expect(shared.first { $0.text == "numpy stack" }?.users == 4)
        #expect(databaseA.unwrittenPopularSearches == 0)
        #expect(databaseB.unwrittenPopularSearches == 0)

        // A replica started later reads the counts at start; one person searching again counts nothing.
        let (c, databaseC) = try await Self.replica(provider: provider)
        defer { databaseC.shutdown() }
        let popularC = try #require(c.users.popularProviders.first)
        #expect(popularC.shownQueries.map(\.text) == ["pandas merge"])
        try await c.makeApplication().test(.router) { clientC in
            _ = try await send(clientC, .post, "/submit?user=person0", #"{"text": "pandas merge"}"#)
            _ = try await send(clientC, .post, "/submit?user=person4", #"{"text": "numpy stack"}"#)
        }
        await databaseC.synchronizePopular()
        #expect(popularC.queries.first { $0.text == "pandas merge" }?.users == 5)
        #expect(popularC.queries.first { $0.text == "numpy stack" }?.users == 5)
        await databaseA.synchronizePopular()
        #expect(try #require(a.users.popularProviders.first).shownQueries.map(\.text).sorted() == [
            "numpy stack", "pandas merge",
        ])
    }

    /// Change numbers are committed in order: a replica's write that is still open when another replica's later
    /// write is ready holds that one back, so a third replica that reads in between does not pass the first one's
    /// numbers and miss its rows.
    @Test(.timeLimit(.minutes(2))) func aReaderDoesNotPassTheChangesOfAWriteStillOpen() async throws {
        let provider = "popular_\(UUID().uuidString.prefix(8))"
        // No background writes: the test writes A's queue in a transaction it holds open; B writes its queue when its
        // application stops.
        let (a, databaseA) = try await Self.replica(provider: provider, retryInterval: .seconds(3_600))
        let (b, databaseB) = try await Self.replica(provider: provider, retryInterval: .seconds(3_600))
        let (c, databaseC) = try await Self.replica(provider: provider, retryInterval: .seconds(3_600))
        defer { databaseA.shutdown(); databaseB.shutdown(); databaseC.shutdown() }
        let batch = try await a.makeApplication().test(.router) { client in
            for i in 0..<5 { _ = try await send(client, .post, "/submit?user=a\(i)", #"{"text": "pandas merge"}"#) }
            return databaseA.popularShare.withLock { share in
                defer { share.outbox = [] }
                return share.outbox
            }
        }
        #expect(batch.count == 5)
        let shared = try #require(databaseA.popularShare.withLock { $0.providers[provider] })
        let (opened, openedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let held = Task {
            // Whatever happens, the test goes on (a write that failed before opening fails the test below).
            defer { openedSignal.finish() }
            try await databaseA.client.withTransaction(logger: UsersDatabase.silent) { connection in
                try await UsersDatabase.lockPopularChanges(on: connection)
                for pending in batch { try await UsersDatabase.count(pending, shared, on: connection) }
                openedSignal.yield()
                for await _ in release { break }
            }
        }
        for await _ in opened { break }
        let writing = Task {
            try await b.makeApplication().test(.router) { client in
                for i in 0..<5 {
                    _ = try await send(client, .post, "/submit?user=b\(i)", #"{"text": "numpy stack"}"#)
                }
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        await databaseC.synchronizePopular()
        releaseSignal.yield()
        try await held.value
        try await writing.value
        await databaseC.synchronizePopular()
        let popularC = try #require(c.users.popularProviders.first)
        #expect(Set(popularC.shownQueries.map(\.text)) == ["pandas merge", "numpy stack"])
        #expect(databaseB.unwrittenPopularSearches == 0)
    }

    /// A database that cannot be reached at start: the popular searches cannot be shared, so `suggest serve` does
    /// not start (exit 69), naming no password.
    @Test func anUnreachableDatabaseAtStartStopsTheServer() async throws {
        let fixture = try Fixture(extraProviders: #", {"type": "popular"}"#)
        let (status, error) = try await SpawnedServer.failure(
            fixture, ["--users-database", "postgres://suggest:secret@127.0.0.1:1/suggest?sslmode=disable"])
        #expect(status == 69, "\(error)")
        #expect(error.contains("--users-database: the popular searches could not be read"), "\(error)")
        #expect(!error.contains("secret"))
    }
}
#endif
