#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import WSCore
import HummingbirdWSTesting
import Logging
import NIOCore
import NIOWebSocket
import PostgresNIO
import Suggest
import SuggestPostgres
import Synchronization
@testable import SuggestServer
import SuggestTestSupport
import Testing

/// One request with a JSON body (the users database suites' client).
func send(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil)
    async throws -> (status: Int, body: String)
{
    try await client.execute(
        uri: uri, method: method, headers: [.contentType: "application/json"], body: body.map { ByteBuffer(string: $0) }
    ) { ($0.status.code, String(buffer: $0.body)) }
}

/// The texts of an answer's suggestions from the `"recent"` provider (alone, or merged with another's).
private func recentTexts(_ body: String) -> [String] {
    (object(body)["suggestions"] as? [[String: Any]] ?? []).filter {
        $0["provider"] as? String == "recent" || ($0["providers"] as? [String] ?? []).contains("recent")
    }
    .compactMap { $0["text"] as? String }
}

/// A configuration (recents with `capacity`, and a prefix dictionary) in a temporary folder.
private func configuration(capacity: Int = 100, recordSelections: Bool = false) throws -> EngineConfiguration {
    let folder = URL(fileURLWithPath: TestFolders.unique("suggest-usersdb-"))
        .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "python\t900\npandas\t200\n".write(toFile: folder + "/words.tsv", atomically: true, encoding: .utf8)
    try """
    {"version": 1, "providers": [{"type": "recent", "capacity": \(capacity), "recordSelections": \(recordSelections)}, {"type": "prefix", "dictionary": "words.tsv"}]}
    """.write(toFile: folder + "/app.suggest.json", atomically: true, encoding: .utf8)
    return try EngineConfiguration(contentsOf: folder + "/app.suggest.json", registry: .builtIn)
}

/// A server keeping users' recents in `database`.
private func replica(_ database: UsersDatabase, capacity: Int = 100, recordSelections: Bool = false, port: Int = 8080)
    throws -> SuggestServer
{
    SuggestServer(
        configuration: try configuration(capacity: capacity, recordSelections: recordSelections),
        options: ServerOptions(
            port: port, users: .init(recentsDatabase: database), identity: .insecureUserParameter, rateLimit: nil))
}

/// A user id no other test (or earlier run) uses.
private func newUser(_ stem: String) -> String { "\(stem)-\(UUID().uuidString.prefix(8))" }

/// Replicas sharing per-user recents through PostgreSQL (`--users-database`).
@Suite(.enabled(if: UsersTestDatabase.isAvailable, UsersTestDatabase.skipReason))
struct UsersDatabaseTests {
    @Test func aSubmitOnOneReplicaIsSuggestedByTheOtherAtItsNextKeystroke() async throws {
        let settings = try UsersTestDatabase.settings()
        // Generous waits: the suites beside this one load the database and this 2-core machine (a submit's 2 s default
        // was once not enough on CI).
        let options = UsersDatabase.Options(keystrokeWait: .seconds(10), submitWait: .seconds(15))
        let databaseA = UsersDatabase(settings: settings, options: options)
        let databaseB = UsersDatabase(settings: settings, options: options)
        defer { databaseA.shutdown(); databaseB.shutdown() }
        let a = try replica(databaseA)
        let b = try replica(databaseB)
        let user = newUser("alice")
        try await a.makeApplication().test(.router) { clientA in
            try await b.makeApplication().test(.router) { clientB in
                // B knows the user already (an engine built, the database read: nothing yet).
                let before = try await send(clientB, .get, "/suggest?user=\(user)&q=zebr")
                #expect(before.status == 200)
                #expect(recentTexts(before.body).isEmpty)
                let submitted = try await send(clientA, .post, "/submit?user=\(user)", #"{"text": "zebra crossing"}"#)
                #expect(submitted.status == 200, "\(submitted)")
                #expect(submitted.body == #"{"submitted":"zebra crossing","stored":true}"#)
                let after = try await send(clientB, .get, "/suggest?user=\(user)&q=zebr")
                #expect(after.status == 200)
                #expect(recentTexts(after.body) == ["zebra crossing"], "\(after.body)")
                #expect(object(after.body)["notes"] == nil, "\(after.body)")
                // And back: B's submit is suggested by A, merged with A's own.
                _ = try await send(clientB, .post, "/submit?user=\(user)", #"{"text": "zebra finch"}"#)
                let onA = try await send(clientA, .get, "/suggest?user=\(user)&q=zebra")
                #expect(Set(recentTexts(onA.body)) == ["zebra crossing", "zebra finch"], "\(onA.body)")
            }
        }
        try await UsersTestDatabase.withClient { client in
            let stored = try await UsersTestDatabase.stored(user: user, client: client)
            #expect(stored == ["zebra crossing": 1, "zebra finch": 1])
        }
    }

    @Test func aWebSocketKeystrokeSeesAnotherReplicasSubmitAndItsOwnSubmitIsStored() async throws {
        let settings = try UsersTestDatabase.settings()
        // Generous waits: the suites beside this one load the database and this 2-core machine (a submit's 2 s default
        // was once not enough on CI).
        let options = UsersDatabase.Options(keystrokeWait: .seconds(10), submitWait: .seconds(15))
        let databaseA = UsersDatabase(settings: settings, options: options)
        let databaseB = UsersDatabase(settings: settings, options: options)
        defer { databaseA.shutdown(); databaseB.shutdown() }
        let a = try replica(databaseA)
        let b = try replica(databaseB, port: 0)
        let user = newUser("socket")
        try await a.makeApplication().test(.router) { clientA in
            try await b.makeApplication().test(.live) { clientB in
                _ = try await clientB.ws("/ws?user=\(user)") { inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    try await outbound.write(.text(#"{"text": "zebr"}"#))
                    let before = try await nextText(&messages)
                    #expect(recentTexts(before).isEmpty, "\(before)")
                    let submitted = try await send(
                        clientA, .post, "/submit?user=\(user)", #"{"text": "zebra crossing"}"#)
                    #expect(submitted.status == 200, "\(submitted)")
                    try await outbound.write(.text(#"{"text": "zebra"}"#))
                    let after = try await nextText(&messages)
                    #expect(recentTexts(after) == ["zebra crossing"], "\(after)")
                    try await outbound.write(.text(#"{"submit": "zebra finch"}"#))
                    let receipt = try await nextText(&messages)
                    #expect(receipt == #"{"submitted":"zebra finch","stored":true}"#)
                    try await outbound.close(.normalClosure, reason: nil)
                }
            }
        }
        try await UsersTestDatabase.withClient { client in
            let stored = try await UsersTestDatabase.stored(user: user, client: client)
            #expect(stored == ["zebra crossing": 1, "zebra finch": 1])
        }
    }

    @Test func aSelectionTheRecentsRecordIsWrittenAndSeenByTheOtherReplica() async throws {
        let settings = try UsersTestDatabase.settings()
        // Generous waits: the suites beside this one load the database and this 2-core machine (a submit's 2 s default
        // was once not enough on CI).
        let options = UsersDatabase.Options(keystrokeWait: .seconds(10), submitWait: .seconds(15))
        let databaseA = UsersDatabase(settings: settings, options: options)
        let databaseB = UsersDatabase(settings: settings, options: options)
        defer {
            databaseA.shutdown()
            databaseB.shutdown()
        }
        let a = try replica(databaseA, recordSelections: true)
        let b = try replica(databaseB, recordSelections: true)
        let user = newUser("chooser")
        try await a.makeApplication().test(.router) { clientA in
            try await b.makeApplication().test(.router) { clientB in
                let shown = try await send(clientA, .get, "/suggest?user=\(user)&session=s1&q=pyt")
                #expect(texts(shown.body).contains("python"), "\(shown.body)")
                let selected = try await send(clientA, .post, "/select?user=\(user)&session=s1", #"{"text": "python"}"#)
                #expect(selected.status == 200, "\(selected)")
                let onB = try await send(clientB, .get, "/suggest?user=\(user)&q=py")
                #expect(recentTexts(onB.body) == ["python"], "\(onB.body)")
            }
        }
        try await UsersTestDatabase.withClient { client in
            let stored = try await UsersTestDatabase.stored(user: user, client: client)
            #expect(stored == ["python": 1])
        }
    }

    @Test func replicasStartingTogetherMakeTheSchemaOnce() async throws {
        let settings = try UsersTestDatabase.settings()
        // A generous connect timeout: this test checks that the schema is made once, and the suites beside it start
        // many replicas on a fresh database at once (5 s was once not enough on a loaded CI machine).
        let databases = (0..<4).map { _ in
            UsersDatabase(settings: settings, options: .init(connectTimeout: .seconds(30)))
        }
        defer { for database in databases { database.shutdown() } }
        let ready = await withTaskGroup(of: Bool.self) { group in
            for database in databases { group.addTask { await database.prepare() } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(ready == [true, true, true, true])
        try await UsersTestDatabase.withClient { client in
            var versions: [Int32] = []
            for try await version in try await client.query(
                "SELECT version FROM suggest_schema_versions WHERE component = 'users'"
            ).decode(Int32.self) {
                versions.append(version)
            }
            #expect(versions == [UsersDatabase.schemaVersion])
        }
    }

    @Test func aUserWhoNeverSubmittedHasNoRowAndEachUserKeepsAtMostTheCapacity() async throws {
        // A generous wait for each submit: this test is about the rows, not about a slow database.
        let database = UsersDatabase(settings: try UsersTestDatabase.settings(), options: .init(submitWait: .seconds(10)))
        defer { database.shutdown() }
        let server = try replica(database, capacity: 3)
        let typist = newUser("typist")
        let submitter = newUser("submitter")
        try await server.makeApplication().test(.router) { client in
            for q in ["p", "py", "pyt"] { _ = try await send(client, .get, "/suggest?user=\(typist)&q=\(q)") }
            for i in 1...5 {
                let answer = try await send(client, .post, "/submit?user=\(submitter)", #"{"text": "search \#(i)"}"#)
                #expect(answer.status == 200)
            }
        }
        try await UsersTestDatabase.withClient { client in
            #expect(try await UsersTestDatabase.stored(user: typist, client: client) == nil)
            let stored = try #require(try await UsersTestDatabase.stored(user: submitter, client: client))
            #expect(stored == ["search 3": 1, "search 4": 1, "search 5": 1])
        }
    }

    @Test func aDownDatabaseAnswersFromMemoryQueuesSubmitsAndWritesEachOnceWhenBack() async throws {
        let direct = try UsersTestDatabase.settings()
        let proxy = try TCPProxy(upstreamHost: direct.host, upstreamPort: UInt16(direct.port))
        try proxy.start()
        var settings = direct
        settings.host = "127.0.0.1"
        settings.port = Int(proxy.port)
        let options = UsersDatabase.Options(
            keystrokeWait: .milliseconds(200), submitWait: .seconds(1), retryInterval: .milliseconds(250),
            connectTimeout: .seconds(1))
        let databaseA = UsersDatabase(settings: settings, options: options)
        let databaseB = UsersDatabase(settings: settings, options: options)
        defer { databaseA.shutdown(); databaseB.shutdown(); proxy.stop() }
        // The schema (made before the first write anyway).
        _ = await databaseA.prepare()
        let a = try replica(databaseA, capacity: 1_000)
        let b = try replica(databaseB, capacity: 1_000)
        let users = (0..<16).map { newUser("crowd\($0)") }

        struct Answer: Sendable {
            var user: String
            var text: String
            var status: Int
            var stored: Bool?
            var start: ContinuousClock.Instant
            var end: ContinuousClock.Instant
        }
        final class Tally: Sendable {
            let answers = Mutex<[Answer]>([])
            let notedKeystrokes = Atomic<Int>(0)
            let failedKeystrokes = Atomic<Int>(0)
            let outage = Mutex<(start: ContinuousClock.Instant, end: ContinuousClock.Instant)?>(nil)
        }
        let tally = Tally()

        try await a.makeApplication().test(.router) { clientA in
            try await b.makeApplication().test(.router) { clientB in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // The outage lasts at least 1.5 s, and until a submit was both made and answered within it (so
                    // that however slow the machine, the test sees one), at most 30 s.
                    group.addTask {
                        try await Task.sleep(for: .seconds(1))
                        let start = ContinuousClock.now
                        proxy.stop()
                        while ContinuousClock.now - start < .seconds(30) {
                            try await Task.sleep(for: .milliseconds(100))
                            let seen = tally.answers.withLock { $0.contains { $0.start > start } }
                            if seen && ContinuousClock.now - start >= .milliseconds(1_500) { break }
                        }
                        let end = ContinuousClock.now
                        try proxy.start()
                        tally.outage.withLock { $0 = (start, end) }
                    }
                    // Each client makes at least 20 submits, and goes on until one of them starts after the outage.
                    for c in 0..<64 {
                        group.addTask {
                            let user = users[c % users.count]
                            var afterOutage = false
                            var i = 0
                            while (i < 20 || !afterOutage) && i < 1_000 {
                                defer { i += 1 }
                                let client = (c + i) % 2 == 0 ? clientA : clientB
                                let keystroke = try await send(client, .get, "/suggest?user=\(user)&q=s")
                                if keystroke.status != 200 { tally.failedKeystrokes.add(1, ordering: .relaxed) }
                                if (object(keystroke.body)["notes"] as? [String])?.contains(where: {
                                    $0.contains("users database")
                                }) == true {
                                    tally.notedKeystrokes.add(1, ordering: .relaxed)
                                }
                                let text = "s \(c) \(i)"
                                let start = ContinuousClock.now
                                let answer = try await send(
                                    client, .post, "/submit?user=\(user)", #"{"text": "\#(text)"}"#)
                                let end = ContinuousClock.now
                                if let outage = tally.outage.withLock({ $0 }), start > outage.end { afterOutage = true }
                                let stored = object(answer.body)["stored"] as? Bool
                                tally.answers.withLock {
                                    $0.append(
                                        Answer(
                                            user: user, text: text, status: answer.status, stored: stored, start: start,
                                            end: end))
                                }
                                try await Task.sleep(for: .milliseconds(100))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
        // Everything queued is written once the database is back.
        #expect(await databaseA.flush(within: .seconds(10)) == [])
        #expect(await databaseB.flush(within: .seconds(10)) == [])

        let all = tally.answers.withLock { $0 }
        #expect(all.count >= 64 * 20)
        #expect(tally.failedKeystrokes.load(ordering: .relaxed) == 0)
        let window = try #require(tally.outage.withLock { $0 })
        // Submitted and answered while the database could not be reached: never stored:true.
        let duringOutage = all.filter { $0.start > window.start && $0.end < window.end }
        #expect(!duringOutage.isEmpty)
        #expect(
            duringOutage.allSatisfy { $0.stored == false && $0.status == 202 },
            "\(duringOutage.filter { $0.stored != false }.count) answered stored during the outage")
        #expect(tally.notedKeystrokes.load(ordering: .relaxed) > 0)
        #expect(all.contains { $0.stored == true && $0.start > window.end })
        #expect(all.allSatisfy { ($0.stored == true && $0.status == 200) || ($0.stored == false && $0.status == 202) })

        try await UsersTestDatabase.withClient { client in
            for user in users {
                let stored = try await UsersTestDatabase.stored(user: user, client: client) ?? [:]
                let submitted = all.filter { $0.user == user }
                // Every submit is there (those answered stored:true were committed before their answer; the others
                // were queued and written since), each exactly once.
                for answer in submitted {
                    #expect(
                        stored[answer.text] == 1,
                        "\(user): \(answer.text): \(stored[answer.text] ?? 0) uses stored (\(answer.stored.map { "\($0)" } ?? "?"))"
                    )
                }
                #expect(stored.count == submitted.count)
            }
        }
    }

    @Test func aTimedOutKeystrokeAnswersFromMemoryAndSaysSo() async throws {
        // A port that accepts connections and never answers: the check cannot finish.
        let silent = try SilentListener()
        var settings = try UsersTestDatabase.settings()
        settings.host = "127.0.0.1"
        settings.port = Int(silent.port)
        let database = UsersDatabase(
            settings: settings,
            options: .init(
                keystrokeWait: .milliseconds(50), submitWait: .milliseconds(200), connectTimeout: .seconds(30),
                shutdownWait: .milliseconds(500)))
        defer { database.shutdown() }
        let server = try replica(database)
        let user = newUser("patient")
        // The database's user ("suggest" in CI) is part of every answer's `"suggestions"` key: look for user@host.
        let secrets = ["\(settings.user)@", "\(silent.port)", "127.0.0.1", settings.database ?? "-"]
        try await server.makeApplication().test(.router) { client in
            let start = ContinuousClock.now
            let keystroke = try await send(client, .get, "/suggest?user=\(user)&q=py")
            // Not the 30 s connect timeout (the keystroke waits 50 ms; a loaded machine adds its own delays).
            #expect(ContinuousClock.now - start < .seconds(10))
            #expect(keystroke.status == 200)
            #expect(texts(keystroke.body).contains("python"))
            let notes = object(keystroke.body)["notes"] as? [String] ?? []
            #expect(notes.contains { $0.contains("did not answer within 50 ms") }, "\(keystroke.body)")
            let submit = try await send(client, .post, "/submit?user=\(user)", #"{"text": "pandas merge"}"#)
            #expect(submit.status == 202)
            #expect(object(submit.body)["stored"] as? Bool == false)
            let reason = object(submit.body)["reason"] as? String ?? ""
            #expect(reason.hasPrefix("the users database did not confirm the write"))
            // No user, host, port or database in what the client sees.
            for text in [keystroke.body, submit.body] {
                for secret in secrets { #expect(!text.contains(secret), "\(text)") }
            }
            // Held in memory: suggested all the same.
            let again = try await send(client, .get, "/suggest?user=\(user)&q=pan")
            #expect(recentTexts(again.body) == ["pandas merge"])
        }
        #expect(database.usersWithQueuedChanges == [user])
        #expect(server.saveBeforeExit() == 1)
    }
}

/// What a stored row or a submit acknowledgement says, without a database.
struct UsersDatabaseRowTests {
    @Test func storedSearchesRoundTrip() throws {
        let date = Date(timeIntervalSince1970: 1_790_000_000.25)
        let searches = [
            RecentSearch(
                query: SearchQuery(text: "pandas", scope: "docs"), firstUsed: date, lastUsed: date, uses: 2, score: 1.5)
        ]
        let json = StoredSearch.encode(searches)
        #expect(try StoredSearch.decode(json) == searches)
    }

    @Test(arguments: [
        ("{}", "not an array of searches"),
        (
            #"[{"text":"a","uses":0,"score":1,"firstUsed":1,"lastUsed":2}]"#,
            "searches[0]: uses, score or times out of range"
        ),
        (
            #"[{"text":"a","uses":1,"score":1,"firstUsed":3,"lastUsed":2}]"#,
            "searches[0]: uses, score or times out of range"
        ),
        (#"[{"text":"","uses":1,"score":1,"firstUsed":1,"lastUsed":2}]"#, "searches[0]: neither text nor tokens"),
    ])
    func aBadRowIsRefusedNamingTheEntry(json: String, message: String) {
        #expect {
            _ = try StoredSearch.decode(json)
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }

    @Test func aQueuedSubmitIsAcknowledgedAsNotStoredWithAGenericReason() {
        let receipt = SubmitReceipt.queued
        #expect(receipt.isUnsaved)
        #expect(
            receipt.json(submitted: "x")
                == #"{"submitted":"x","stored":false,"reason":"the users database did not confirm the write: the search is kept in memory and written when the database answers"}"#
        )
    }

    @Test func theProviderMergeIsTheProvidersOwn() {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let a = RecentSearch(SearchQuery(text: "a"), at: date)
        let b = RecentSearch(SearchQuery(text: "b"), at: date + 1)
        let c = RecentSearch(SearchQuery(text: "c"), at: date + 2)
        let merged = RecentsProvider.merged(
            [a], applying: [.record(a), .record(b), .record(c)], options: .init(capacity: 2))
        #expect(merged.count == 2)
        #expect(merged.first { $0.query.text == "a" }?.uses == 2)
    }
}

#endif
#if Server
/// `suggest serve --users-database`'s option errors, each naming the option.
struct UsersDatabaseOptionTests {
    @Test func aFolderAndADatabaseAtOnceAreRefused() async throws {
        let fixture = try Fixture()
        let (status, error) = try await SpawnedServer.failure(
            fixture, ["--users-folder", fixture.folder, "--users-database", "postgres://suggest@127.0.0.1:1/x"])
        #expect(status != 0)
        #expect(error.contains("--users-folder and --users-database: give one"), "\(error)")
    }

    @Test(arguments: [
        ("mysql://u@h/d", "expected a postgres:// or postgresql:// URL"),
        ("postgres://u:secret@h:99999/d", "port 99999 is not from 1 to 65535"),
        ("postgres://u@h/d?sslmode=maybe", "sslmode \"maybe\" is not one of"),
    ])
    func aBadURLIsRefusedWithoutItsPassword(url: String, message: String) async throws {
        let fixture = try Fixture()
        let (status, error) = try await SpawnedServer.failure(fixture, ["--users-database", url])
        #expect(status != 0)
        #expect(error.contains("--users-database: "), "\(error)")
        #expect(error.contains(message), "\(error)")
        #expect(!error.contains("secret"), "\(error)")
    }

    @Test func theKeystrokeWaitIsBounded() async throws {
        let fixture = try Fixture()
        let (status, error) = try await SpawnedServer.failure(
            fixture, ["--users-database", "postgres://u@h/d", "--users-database-wait", "0"])
        #expect(status != 0)
        #expect(error.contains("--users-database-wait 0: expected 1 to 60000 milliseconds"), "\(error)")
    }
}
#endif
#if Server
/// The built `suggest serve --users-database`: its exit status says whether every submit reached the database.
@Suite(.enabled(if: UsersTestDatabase.isAvailable, UsersTestDatabase.skipReason))
struct UsersDatabaseExitStatusTests {
    /// The test database's URL through `port` on loopback.
    static func url(port: UInt16) throws -> String {
        let settings = try UsersTestDatabase.settings()
        return "postgres://\(settings.user)@127.0.0.1:\(port)/\(settings.database ?? settings.user)?sslmode=disable"
    }

    @Test(.timeLimit(.minutes(1)))
    func submitsQueuedWhileTheDatabaseWasDownAreWrittenAtTheLatestAtShutdown() async throws {
        let fixture = try Fixture()
        let direct = try UsersTestDatabase.settings()
        // Not started yet: the database cannot be reached.
        let proxy = try TCPProxy(upstreamHost: direct.host, upstreamPort: UInt16(direct.port))
        defer { proxy.stop() }
        let server = try await SpawnedServer(
            fixture, ["--insecure-user-parameter", "--users-database", try Self.url(port: proxy.port)])
        let user = newUser("late")
        let answer = try await server.post("/submit?user=\(user)", #"{"text": "pandas merge"}"#)
        #expect(answer.status == 202, "\(answer)")
        #expect(object(answer.body)["stored"] as? Bool == false)
        #expect(!answer.body.contains("\(proxy.port)") && !answer.body.contains("127.0.0.1"), "\(answer)")
        try proxy.start()
        server.process.interrupt()
        await ServeExitStatusTests.waitForExit(server.process)
        #expect(server.process.terminationStatus == 0, "\(server.standardError)")
        try await UsersTestDatabase.withClient { client in
            let stored = try await UsersTestDatabase.stored(user: user, client: client)
            #expect(stored == ["pandas merge": 1])
        }
    }

    /// While the database is down, at most `--users-database-queue` changes wait; a submit beyond them is never
    /// written, and the exit status says something was lost.
    @Test(.timeLimit(.minutes(1)))
    func changesBeyondTheQueueBoundAreNeverWrittenAndExit74() async throws {
        let fixture = try Fixture()
        let direct = try UsersTestDatabase.settings()
        let proxy = try TCPProxy(upstreamHost: direct.host, upstreamPort: UInt16(direct.port))
        defer { proxy.stop() }
        let server = try await SpawnedServer(
            fixture,
            [
                "--insecure-user-parameter", "--users-database", try Self.url(port: proxy.port),
                "--users-database-queue", "2",
            ])
        let user = newUser("bounded")
        for text in ["first search", "second search", "third search"] {
            let answer = try await server.post("/submit?user=\(user)", #"{"text": "\#(text)"}"#)
            #expect(answer.status == 202, "\(answer)")
            #expect(object(answer.body)["stored"] as? Bool == false)
        }
        // The third is in memory all the same.
        let keystroke = try await server.get("/suggest?q=third&user=\(user)")
        #expect(keystroke.body.contains("third search"), "\(keystroke)")
        try proxy.start()
        server.process.interrupt()
        await ServeExitStatusTests.waitForExit(server.process)
        #expect(server.process.terminationStatus == 74, "\(server.standardError)")
        #expect(
            server.standardError.contains("1 changes of 1 users were never written to the users database"),
            "\(server.standardError)")
        try await UsersTestDatabase.withClient { client in
            let stored = try await UsersTestDatabase.stored(user: user, client: client)
            #expect(stored == ["first search": 1, "second search": 1])
        }
    }

    @Test func aQueueBoundBelowOneIsRefused() async throws {
        let fixture = try Fixture()
        let (status, error) = try await SpawnedServer.failure(
            fixture, ["--users-database", "postgres://u@127.0.0.1:1/d", "--users-database-queue", "0"])
        #expect(status != 0)
        #expect(error.contains("--users-database-queue 0: expected at least 1"), "\(error)")
    }

    @Test(.timeLimit(.minutes(1)))
    func submitsNeverWrittenExit74() async throws {
        let fixture = try Fixture()
        let direct = try UsersTestDatabase.settings()
        let proxy = try TCPProxy(upstreamHost: direct.host, upstreamPort: UInt16(direct.port))
        let server = try await SpawnedServer(
            fixture, ["--insecure-user-parameter", "--users-database", try Self.url(port: proxy.port)])
        for user in ["alice", "bob"] {
            let answer = try await server.post("/submit?user=\(newUser(user))", #"{"text": "pandas merge"}"#)
            #expect(answer.status == 202, "\(answer)")
        }
        // A keystroke answers from memory meanwhile, and says so.
        let keystroke = try await server.get("/suggest?q=pa&user=carol")
        #expect(keystroke.status == 200)
        #expect(keystroke.body.contains("recent searches from this server's memory"), "\(keystroke)")
        server.process.interrupt()
        await ServeExitStatusTests.waitForExit(server.process)
        #expect(server.process.terminationStatus == 74)
        let error = server.standardError
        #expect(error.contains("error: the recent searches of 2 users could not be saved and are lost"), "\(error)")
    }
}

/// A users database whose schema a newer suggest made is left alone.
@Suite(.enabled(if: UsersTestDatabase.isAvailable, UsersTestDatabase.skipReason))
struct UsersDatabaseSchemaTests {
    /// Runs `body` with a new database (its settings, a client on it, and its table list), made with a schema version
    /// row at `version`; drops it after.
    func withScratchDatabase(
        _ stem: String, schemaVersion version: Int,
        _ body: (PostgresConnectionSettings, PostgresClient, () async throws -> [String]) async throws -> Void
    ) async throws {
        let name = "suggest_\(stem)_\(UInt32.random(in: 0...UInt32.max))"
        try await UsersTestDatabase.withClient { client in
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        var settings = try UsersTestDatabase.settings()
        settings.database = name
        let client = PostgresClient(
            configuration: settings.clientConfiguration(maximumConnections: 1),
            backgroundLogger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let runner = Task { await client.run() }
        try await client.query(
            "CREATE TABLE suggest_schema_versions (component text PRIMARY KEY, version integer NOT NULL, migrated timestamptz NOT NULL DEFAULT now())"
        )
        try await client.query(
            "INSERT INTO suggest_schema_versions (component, version) VALUES ('users', \(Int32(version)))")
        func tables() async throws -> [String] {
            var tables: [String] = []
            for try await table in try await client.query(
                "SELECT tablename FROM pg_tables WHERE tablename LIKE 'suggest_%' ORDER BY tablename"
            ).decode(String.self) {
                tables.append(table)
            }
            return tables
        }
        try await body(settings, client, tables)
        runner.cancel()
        try await Task.sleep(for: .milliseconds(200))
        try await UsersTestDatabase.withClient { client in
            try await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
        }
    }

    /// A database a version-1 suggest made (recents only) gets the popular searches' tables; its rows are kept.
    @Test func aVersionOneSchemaIsMigrated() async throws {
        try await withScratchDatabase("v1", schemaVersion: 1) { settings, old, tables in
            try await old.query(
                "CREATE TABLE suggest_user_recents (user_id text NOT NULL, provider text NOT NULL, version bigint NOT NULL, searches jsonb NOT NULL, applied uuid[] NOT NULL, updated timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (user_id, provider))"
            )
            try await old.query(
                #"INSERT INTO suggest_user_recents VALUES ('alice', 'recent', 3, '[{"text": "zebra crossing", "uses": 1, "lastUsed": 1700000000}]', '{}')"#
            )
            let database = UsersDatabase(settings: settings)
            defer { database.shutdown() }
            #expect(await database.prepare())
            var version: Int32 = 0
            for try await v in try await old.query(
                "SELECT version FROM suggest_schema_versions WHERE component = 'users'"
            ).decode(Int32.self) {
                version = v
            }
            #expect(version == UsersDatabase.schemaVersion)
            #expect(try await tables() == [
                "suggest_popular_queries", "suggest_popular_salts", "suggest_schema_versions", "suggest_user_recents",
            ])
            var rows = 0
            for try await _ in try await old.query("SELECT version FROM suggest_user_recents WHERE version = 3").decode(
                Int64.self)
            {
                rows += 1
            }
            #expect(rows == 1)
        }
    }

    @Test func aNewerSchemaIsRefusedAndNothingIsWritten() async throws {
        try await withScratchDatabase("newer", schemaVersion: 3) { settings, _, tables in
            let database = UsersDatabase(
                settings: settings, options: .init(submitWait: .seconds(5), shutdownWait: .milliseconds(500)))
            defer { database.shutdown() }
            #expect(await database.prepare() == false)
            let server = try replica(database)
            try await server.makeApplication().test(.router) { client in
                let answer = try await send(client, .post, "/submit?user=alice", #"{"text": "pandas merge"}"#)
                #expect(answer.status == 202, "\(answer)")
            }
            try await ensureSchemaFails(database)
            #expect(try await tables() == ["suggest_schema_versions"])
        }
    }

    private func ensureSchemaFails(_ database: UsersDatabase) async throws {
        await #expect {
            try await database.ensureSchema()
        } throws: { error in
            "\(UsersDatabase.underlying(error))".contains("schema is version 3, newer than this suggest knows (2)")
        }
    }
}
#endif

#if Server
/// Two built `suggest serve` processes on one database, 64 clients alternating between them while the database is
/// paused (every byte held, connections open) and resumed in the middle.
@Suite(.enabled(if: UsersTestDatabase.isAvailable, UsersTestDatabase.skipReason), .timeLimit(.minutes(3)))
struct UsersDatabaseReplicaProcessTests {
    /// How long the clients type and submit (`SUGGEST_REPLICA_SECONDS`, default 30); the database is paused for the
    /// middle sixth of it.
    static var seconds: Double {
        ProcessInfo.processInfo.environment["SUGGEST_REPLICA_SECONDS"].flatMap(Double.init) ?? 30
    }

    struct Answer: Sendable {
        var user: String
        var text: String
        var status: Int
        var stored: Bool?
        var start: ContinuousClock.Instant
        var end: ContinuousClock.Instant
    }

    @Test func everySubmitAnsweredStoredIsInTheDatabaseOnceAndTheRestAfterShutdown() async throws {
        let fixture = try Fixture()
        let direct = try UsersTestDatabase.settings()
        let proxy = try TCPProxy(upstreamHost: direct.host, upstreamPort: UInt16(direct.port))
        try proxy.start()
        defer { proxy.resume(); proxy.stop() }
        let arguments = [
            "--insecure-user-parameter", "--rate-limit", "0", "--users-database",
            try UsersDatabaseExitStatusTests.url(port: proxy.port),
        ]
        let replicas = [try await SpawnedServer(fixture, arguments), try await SpawnedServer(fixture, arguments)]
        let users = (0..<64).map { newUser("replica\($0)") }
        let seconds = Self.seconds
        let begin = ContinuousClock.now
        let pause = (start: begin + .seconds(seconds * 5 / 12), end: begin + .seconds(seconds * 7 / 12))
        final class Tally: Sendable {
            let answers = Mutex<[Answer]>([])
            let failedKeystrokes = Mutex<[String]>([])
            /// When the proxy really held bytes: from the return of `pause()` to the call of `resume()` (the task's
            /// sleeps may end late on a loaded machine).
            let paused = Mutex<(start: ContinuousClock.Instant, end: ContinuousClock.Instant)?>(nil)
        }
        let tally = Tally()

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await Task.sleep(until: pause.start)
                proxy.pause()
                let start = ContinuousClock.now
                try await Task.sleep(until: pause.end)
                let end = ContinuousClock.now
                proxy.resume()
                tally.paused.withLock { $0 = (start, end) }
            }
            for (c, user) in users.enumerated() {
                group.addTask {
                    var i = 0
                    while ContinuousClock.now - begin < .seconds(seconds) {
                        let r = (c + i) % 2
                        let replica = replicas[r]
                        let sent = ContinuousClock.now
                        let keystroke = try await replica.get("/suggest?user=\(user)&q=s")
                        if keystroke.status != 200 {
                            let when = "replica \(r), \(user), sent at \(sent - begin), answered at \(ContinuousClock.now - begin)"
                            tally.failedKeystrokes.withLock { $0.append("\(keystroke) [\(when)]") }
                        }
                        let text = "s \(c) \(i)"
                        let start = ContinuousClock.now
                        let answer = try await replica.post("/submit?user=\(user)", #"{"text": "\#(text)"}"#)
                        let stored = object(answer.body)["stored"] as? Bool
                        let end = ContinuousClock.now
                        tally.answers.withLock {
                            $0.append(
                                Answer(
                                    user: user, text: text, status: answer.status, stored: stored, start: start,
                                    end: end))
                        }
                        i += 1
                        try await Task.sleep(for: .milliseconds(400))
                    }
                }
            }
            try await group.waitForAll()
        }
        // SIGINT: each replica writes what it still queues before it exits.
        for replica in replicas { replica.process.interrupt() }
        for replica in replicas {
            await ServeExitStatusTests.waitForExit(replica.process)
            #expect(replica.process.terminationStatus == 0, "\(replica.standardError)")
        }

        let all = tally.answers.withLock { $0 }
        let failedKeystrokes = tally.failedKeystrokes.withLock { $0 }
        let pausedAt = tally.paused.withLock { $0 }.map { "paused from \($0.start - begin) to \($0.end - begin)" } ?? ""
        #expect(
            failedKeystrokes.isEmpty,
            "\(failedKeystrokes.prefix(3)); \(pausedAt); replicas' standard error: \(replicas.map { $0.standardError.suffix(2_000) })")
        let unexpected = all.filter {
            !(($0.status == 200 && $0.stored == true) || ($0.status == 202 && $0.stored == false))
        }
        #expect(
            unexpected.isEmpty,
            "\(unexpected.count) of \(all.count) submits: \(unexpected.prefix(5)); \(pausedAt); begin \(begin)")
        // Submitted and answered while the database was paused: never stored:true (its commit could not happen).
        let paused = try #require(tally.paused.withLock { $0 })
        let duringPause = all.filter { $0.start > paused.start && $0.end < paused.end }
        #expect(!duringPause.isEmpty)
        #expect(duringPause.allSatisfy { $0.stored == false }, "\(duringPause.filter { $0.stored != false }.count)")
        #expect(all.contains { $0.stored == true && $0.start > paused.end })
        try await UsersTestDatabase.withClient { client in
            for user in users {
                let stored = try await UsersTestDatabase.stored(user: user, client: client) ?? [:]
                let submitted = all.filter { $0.user == user }
                // Each submit exactly once: those answered stored were committed before their answer, the others
                // were written after the pause or at shutdown.
                let wrong = submitted.filter { stored[$0.text] != 1 }
                #expect(
                    wrong.isEmpty,
                    "\(user): \(wrong.prefix(3).map { "\($0.text): \(stored[$0.text] ?? 0) (\($0.stored.map { "\($0)" } ?? "?"))" })"
                )
                #expect(stored.count == submitted.count, "\(user): \(stored.count) stored, \(submitted.count) submitted")
            }
        }
    }
}
#endif
