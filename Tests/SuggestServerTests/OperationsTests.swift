#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import Logging
import NIOCore
import ServiceLifecycle
import Suggest
@testable import SuggestServer
import Synchronization
import Testing
import WSClient

/// One answer as the tests read it.
private struct Answer {
    var status: Int
    var headers: HTTPFields
    var body: String
}

private func get(_ client: some TestClientProtocol, _ uri: String, headers: HTTPFields = [:]) async throws -> Answer {
    try await client.execute(uri: uri, method: .get, headers: headers) {
        Answer(status: Int($0.status.code), headers: $0.headers, body: String(buffer: $0.body))
    }
}

/// The value of the series `name` (with its labels, as Prometheus writes them) in an exposition; nil if absent.
private func value(_ exposition: String, _ series: String) -> Double? {
    for line in exposition.split(separator: "\n") where line.hasPrefix(series + " ") {
        return Double(line.dropFirst(series.count + 1))
    }
    return nil
}

/// Keeps the records logged through it, with their metadata.
private struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        records.value.withLock { $0.append((event.message.description, merged)) }
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}

private final class LogRecords: Sendable {
    let value = Mutex<[(message: String, metadata: Logger.Metadata)]>([])
}

private let idHeader = HTTPField.Name("X-Request-ID")!

/// What running the server in production relies on: `/metrics`, `/ready`, request ids.
struct OperationsTests {
    // MARK: /metrics

    @Test func metricsShowTheServersSeriesAfterAFewRequests() async throws {
        let fixture = try Fixture()
        var options = ServerOptions(port: 0)
        options.metrics = MetricsEndpoint()
        let server = SuggestServer(configuration: try fixture.configuration(), options: options)
        try await server.makeApplication().test(.live) { client in
            #expect(try await get(client, "/suggest?q=py&session=a").status == 200)
            #expect(try await get(client, "/suggest?q=pyt&session=a").status == 200)
            #expect(try await get(client, "/suggest").status == 400)
            // Called by the rate limiter and the submit path.
            server.metrics.rateLimited(scope: "client")
            server.metrics.submitUnsaved()

            let answer = try await get(client, "/metrics")
            #expect(answer.status == 200)
            #expect(answer.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = answer.body
            #expect(value(text, #"suggest_request_duration_count{route="/suggest",status="200"}"#) == 2, "\(text)")
            #expect(value(text, #"suggest_request_duration_count{route="/suggest",status="400"}"#) == 1)
            #expect(value(text, #"suggest_provider_duration_count{provider="prefix"}"#) == 2)
            #expect(value(text, #"suggest_provider_duration_bucket{provider="prefix",le="0.0001"}"#) != nil)
            #expect(value(text, "suggest_sessions") == 1)
            #expect(value(text, "suggest_users") == 0)
            #expect((value(text, "suggest_connections_open") ?? 0) >= 1)
            #expect(value(text, "suggest_connections_refused_total") == 0)
            #expect(value(text, #"suggest_rate_limited_total{scope="client"}"#) == 1)
            #expect(value(text, "suggest_submits_unsaved_total") == 1)
        }
    }

    @Test func requestsRefusedByTheRateLimitAreCountedByScope() async throws {
        let fixture = try Fixture()
        var options = ServerOptions(port: 0, rateLimit: RateLimit(perSecond: 1, burst: 2))
        options.metrics = MetricsEndpoint()
        let server = SuggestServer(configuration: try fixture.configuration(), options: options)
        try await server.makeApplication().test(.live) { client in
            var refused = 0
            for _ in 0..<5 where try await get(client, "/suggest?q=py&session=a").status == 429 { refused += 1 }
            #expect(refused >= 2)
            let text = try await get(client, "/metrics").body
            #expect(value(text, #"suggest_rate_limited_total{scope="address"}"#) == Double(refused), "\(text)")
        }
    }

    @Test func aConnectionBeyondTheMaximumIsCounted() async throws {
        let fixture = try Fixture()
        var options = ServerOptions(port: 0, maximumConnections: 1)
        options.metrics = MetricsEndpoint()
        let server = SuggestServer(configuration: try fixture.configuration(), options: options)
        let running = try await RunningServer(server)
        let held = try LoopbackConnection(port: running.port)
        held.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        _ = await held.readResponse()
        let refused = try LoopbackConnection(port: running.port)
        #expect(await refused.readToEnd().text.hasPrefix("HTTP/1.1 503"))
        let exposition = await held.exchange("GET", "/metrics", port: running.port)
        #expect(exposition.status == 200)
        #expect(value(exposition.body, "suggest_connections_refused_total") == 1, "\(exposition.body)")
        #expect(await running.stopsGracefully())
    }

    @Test func metricsAreNotServedUnlessAsked() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration(), options: ServerOptions(port: 0))
        try await server.makeApplication().test(.live) { client in
            let answer = try await get(client, "/metrics")
            #expect(answer.status == 404)
        }
    }

    @Test func metricsAreRefusedToAClientOutsideTheAllowedRanges() async throws {
        let fixture = try Fixture()
        var options = ServerOptions(port: 0)
        options.metrics = MetricsEndpoint(allowedClients: [try AddressRange("10.0.0.0/8")])
        let server = SuggestServer(configuration: try fixture.configuration(), options: options)
        try await server.makeApplication().test(.live) { client in
            let answer = try await get(client, "/metrics")
            #expect(answer.status == 403)
            #expect(object(answer.body)["error"] as? String == "/metrics: this client's address is not allowed (see --metrics-allow)")
        }
    }

    @Test(arguments: [
        ("127.0.0.1", [:], true),
        ("::1", [:], true),
        ("::ffff:127.0.0.1", [:], true),
        ("192.168.1.10", [:], false),
        (nil, [:], false),
        ("127.0.0.1", ["Origin": "http://localhost:8080"], false),
        ("127.0.0.1", ["X-Forwarded-For": "203.0.113.7"], false),
        ("127.0.0.1", ["Forwarded": "for=203.0.113.7"], false),
    ] as [(String?, [String: String], Bool)])
    func metricsAccessRule(peer: String?, headers: [String: String], allowed: Bool) {
        var fields = HTTPFields()
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        #expect((MetricsEndpoint().problem(peer: peer, headers: fields) == nil) == allowed)
    }

    @Test func metricsAllowedRangesReplaceLoopback() throws {
        let endpoint = MetricsEndpoint(allowedClients: [try AddressRange("10.1.0.0/16")])
        #expect(endpoint.problem(peer: "10.1.2.3", headers: [:]) == nil)
        #expect(endpoint.problem(peer: "127.0.0.1", headers: [:])?.status == .forbidden)
    }

    // MARK: /ready

    @Test func readyUntilDraining() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration())
        try await server.makeApplication().test(.router) { client in
            let before = try await get(client, "/ready")
            #expect(before.status == 200)
            #expect(object(before.body)["status"] as? String == "ready")
            server.beginDraining()
            let after = try await get(client, "/ready")
            #expect(after.status == 503)
            #expect(object(after.body)["status"] as? String == "draining")
            // Liveness is not readiness: still 200.
            #expect(try await get(client, "/health").status == 200)
        }
    }

    /// At graceful shutdown the drain period comes first: /ready is 503 while searches are still answered, then the
    /// server stops.
    @Test(.timeLimit(.minutes(1)))
    func theDrainPeriodAnswersReadyWith503AndKeepsServing() async throws {
        let fixture = try Fixture()
        var options = ServerOptions(port: 0)
        options.drainPeriod = .seconds(2)
        let server = SuggestServer(configuration: try fixture.configuration(), options: options)
        let (ports, found) = AsyncStream.makeStream(of: Int.self)
        let group = ServiceGroup(
            services: [server.makeService { found.yield($0) }], logger: Logger(label: "test"))
        let run = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let connection = try LoopbackConnection(port: port)
        #expect(await connection.exchange("GET", "/ready", port: port).status == 200)

        await group.triggerGracefulShutdown()
        while server.isReady { try await Task.sleep(for: .milliseconds(5)) }
        let ready = await connection.exchange("GET", "/ready", port: port)
        #expect(ready.status == 503)
        #expect(object(ready.body)["status"] as? String == "draining")
        // A new connection is still taken, and searches answered.
        let other = try LoopbackConnection(port: port)
        let answer = await other.exchange("GET", "/suggest?q=py", port: port)
        #expect(answer.status == 200)
        #expect(texts(answer.body) == ["python", "pytest"])

        try await run.value
        #expect(!server.isReady)
    }

    // MARK: Request ids

    @Test func aSaneRequestIDIsEchoed() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration())
        try await server.makeApplication().test(.router) { client in
            let answer = try await get(client, "/health", headers: [idHeader: "req-42/ABC.def"])
            #expect(answer.headers[idHeader] == "req-42/ABC.def")
        }
    }

    @Test(arguments: [nil, "", "has space", "tab\there", String(repeating: "x", count: 129), "é"])
    func anotherRequestIDIsReplaced(incoming: String?) async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration())
        try await server.makeApplication().test(.router) { client in
            var headers = HTTPFields()
            if let incoming { headers[idHeader] = incoming }
            let answer = try await get(client, "/health", headers: headers)
            let id = try #require(answer.headers[idHeader])
            #expect(id != incoming)
            #expect(id.count == 32 && id.allSatisfy(\.isHexDigit), "\(id)")
            let again = try await get(client, "/health", headers: headers)
            #expect(again.headers[idHeader] != id)
        }
    }

    @Test func theLongestAcceptedRequestIDIs128Bytes() {
        #expect(SuggestRequestID.accepting(String(repeating: "x", count: 128)) != nil)
        #expect(SuggestRequestID.accepting(String(repeating: "x", count: 129)) == nil)
    }

    @Test func errorsCarryTheRequestID() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration())
        try await server.makeApplication().test(.router) { client in
            let missing = try await get(client, "/suggest", headers: [idHeader: "trace-1"])
            #expect(missing.status == 400)
            #expect(missing.headers[idHeader] == "trace-1")
            #expect(object(missing.body)["requestId"] as? String == "trace-1", "\(missing.body)")
            #expect(object(missing.body)["error"] as? String == "missing parameter \"q\"")
            // Hummingbird's own 404, and a refusal before routing (a foreign Origin).
            let unknown = try await get(client, "/nowhere")
            #expect(unknown.status == 404)
            #expect(object(unknown.body)["requestId"] as? String == unknown.headers[idHeader])
            let foreign = try await get(client, "/health", headers: [.origin: "https://evil.example"])
            #expect(foreign.status == 403)
            #expect(object(foreign.body)["requestId"] as? String == foreign.headers[idHeader])
        }
    }

    @Test func logLinesOfARequestCarryItsID() async throws {
        let fixture = try Fixture()
        let records = LogRecords()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .debug
        let server = SuggestServer(configuration: try fixture.configuration(), logger: logger)
        try await server.makeApplication().test(.router) { client in
            _ = try await get(client, "/suggest?q=secret+words", headers: [idHeader: "log-7"])
        }
        let lines = records.value.withLock { $0 }.filter { $0.metadata["hb.request.id"] == "log-7" }
        #expect(lines.map(\.message).contains("GET /suggest 200"), "\(lines)")
        // What was typed is not logged.
        #expect(!records.value.withLock { $0 }.contains { $0.message.contains("secret") })
    }

    /// Each WebSocket message's log lines carry `CONNECTION-N`: the upgrade's `X-Request-ID` (or a new id) and the
    /// message's number on the connection.
    @Test func logLinesOfAWebSocketMessageCarryItsID() async throws {
        let fixture = try Fixture()
        let records = LogRecords()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .debug
        let server = SuggestServer(
            configuration: try fixture.configuration(), options: ServerOptions(port: 0), logger: logger)
        try await server.makeApplication().test(.live) { client in
            var configuration = WebSocketClientConfiguration()
            configuration.additionalHeaders = [idHeader: "conn-9"]
            _ = try await client.ws("/ws", configuration: configuration) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try await outbound.write(.text(#"{"text": "secret words"}"#))
                try await outbound.write(.text(#"{"submit": "secret words"}"#))
                try await outbound.write(.text(#"{"bad": 1}"#))
                while object(try await nextText(&messages))["error"] == nil {}
            }
            // A connection without an id gets a new one.
            _ = try await client.ws("/ws") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try await outbound.write(.text(#"{"reset": true}"#))
                _ = try await nextText(&messages)
            }
        }
        let lines = records.value.withLock { $0 }.filter { $0.message.hasPrefix("ws ") }
        func id(_ message: String) -> String? {
            lines.first { $0.message == message }.flatMap { $0.metadata["hb.request.id"].map { "\($0)" } }
        }
        #expect(id("ws text") == "conn-9-1", "\(lines)")
        #expect(id("ws submit not stored") == "conn-9-2", "\(lines)")
        #expect(id("ws refused: not a valid line") == "conn-9-3", "\(lines)")
        let fresh = try #require(id("ws reset"), "\(lines)")
        #expect(fresh.count == 34 && fresh.hasSuffix("-1") && fresh.dropLast(2).allSatisfy(\.isHexDigit), "\(fresh)")
        #expect(lines.allSatisfy { $0.metadata["hb.request.id"] != nil }, "\(lines)")
        // What was typed is not logged.
        #expect(!records.value.withLock { $0 }.contains { $0.message.contains("secret") })
    }
}
#endif
