#if Server
import Foundation
import Testing

/// The built `suggest serve`: what its exit status says about users' recent searches.
struct ServeExitStatusTests {
    static func waitForExit(_ process: Process) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
    }

    /// Searches that could not be written by the end: exit status 74, and standard error says how many users lost
    /// theirs; the log names the file.
    @Test(.timeLimit(.minutes(1)))
    func searchesNotSavedByTheEndExit74AndSayHowManyUsersLostThem() async throws {
        let fixture = try Fixture()
        let users = fixture.folder + "/users"
        try FileManager.default.createDirectory(atPath: users, withIntermediateDirectories: true)
        let repair = try UnwritableUsersFolder.make(users)
        defer { try? repair() }
        let server = try await SpawnedServer(fixture, ["--insecure-user-parameter", "--users-folder", users])
        for user in ["alice", "bob"] {
            let answer = try await server.post("/submit?user=\(user)", #"{"text": "pandas merge"}"#)
            #expect(answer.status == 202, "\(answer)")
            #expect(!answer.body.contains(users), "\(answer)")
        }
        // A user who only typed has nothing to lose.
        #expect(try await server.get("/suggest?q=pa&user=carol").status == 200)
        server.process.interrupt()
        await Self.waitForExit(server.process)
        #expect(server.process.terminationStatus == 74)
        let error = server.standardError
        #expect(error.contains("error: the recent searches of 2 users could not be saved and are lost"), "\(error)")
        #expect(error.contains(users + "/recent/alice.json"), "the log names the file: \(error)")
    }

    /// Everything written: exit status 0 and nothing about lost searches.
    @Test(.timeLimit(.minutes(1)))
    func searchesSavedByTheEndExit0() async throws {
        let fixture = try Fixture()
        let users = fixture.folder + "/users"
        try FileManager.default.createDirectory(atPath: users, withIntermediateDirectories: true)
        let server = try await SpawnedServer(fixture, ["--insecure-user-parameter", "--users-folder", users])
        let answer = try await server.post("/submit?user=alice", #"{"text": "pandas merge"}"#)
        #expect(answer.status == 200 && object(answer.body)["stored"] as? Bool == true, "\(answer)")
        server.process.interrupt()
        await Self.waitForExit(server.process)
        #expect(server.process.terminationStatus == 0)
        #expect(!server.standardError.contains("lost"), "\(server.standardError)")
    }
}
#endif
