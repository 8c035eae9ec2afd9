#if Server
import Foundation
import Testing

/// `suggest serve`'s operations options against the built binary: `--metrics`, `--metrics-allow`, `--drain-seconds`,
/// and the request ids of its answers.
struct ServeOperationsTests {
    @Test(.timeLimit(.minutes(1)))
    func metricsAreServedToLoopbackWithTheFlag() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--metrics"])
        #expect(try await server.get("/suggest?q=py").status == 200)
        let answer = try await server.get("/metrics")
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(answer.body.contains(#"suggest_request_duration_count{route="/suggest",status="200"} 1"#), "\(answer.body)")
        #expect(answer.body.contains("suggest_connections_refused_total 0"))
        server.process.terminate()
    }

    @Test(.timeLimit(.minutes(1)))
    func metricsAreNotServedWithoutTheFlagNorToOtherRanges() async throws {
        let fixture = try Fixture()
        let off = try await SpawnedServer(fixture, [])
        #expect(try await off.get("/metrics").status == 404)
        off.process.terminate()
        let elsewhere = try await SpawnedServer(fixture, ["--metrics", "--metrics-allow", "10.0.0.0/8"])
        let refused = try await elsewhere.get("/metrics")
        #expect(refused.status == 403)
        #expect(refused.error?.contains("not allowed") == true, "\(refused)")
        #expect(try await elsewhere.get("/metrics", headers: [("X-Forwarded-For", "10.1.2.3")]).status == 403)
        elsewhere.process.terminate()
    }

    @Test(.timeLimit(.minutes(1)))
    func theOperationsOptionsAreChecked() async throws {
        let fixture = try Fixture()
        let withoutMetrics = try await SpawnedServer.failure(fixture, ["--metrics-allow", "10.0.0.0/8"])
        #expect(withoutMetrics.status != 0)
        #expect(withoutMetrics.error.contains("--metrics-allow: needs --metrics"), "\(withoutMetrics.error)")
        let badRange = try await SpawnedServer.failure(fixture, ["--metrics", "--metrics-allow", "10.0.0.0/33"])
        #expect(badRange.error.contains("prefix length must be 0 to 32"), "\(badRange.error)")
        let badDrain = try await SpawnedServer.failure(fixture, ["--drain-seconds", "-1"])
        #expect(badDrain.error.contains("--drain-seconds"), "\(badDrain.error)")
    }

    /// SIGTERM with `--drain-seconds`: `/ready` is 503 at once while searches are still answered, then the process
    /// exits 0.
    @Test(.timeLimit(.minutes(1)))
    func sigtermDrainsThenStops() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--drain-seconds", "3"])
        let ready = try await server.get("/ready")
        #expect(ready.status == 200)
        #expect(ready.headers["x-request-id"]?.count == 32)
        kill(server.process.processIdentifier, SIGTERM)
        var status = 0
        for _ in 0..<100 {
            status = try await server.get("/ready").status
            if status == 503 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(status == 503)
        #expect(try await server.get("/suggest?q=py", headers: [("X-Request-ID", "drain-1")]).headers["x-request-id"]
            == "drain-1")
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                server.process.waitUntilExit()
                continuation.resume()
            }
        }
        #expect(server.process.terminationStatus == 0)
    }
}
#endif
