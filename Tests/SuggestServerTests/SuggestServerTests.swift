#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MetricsTestKit
import NIOCore
import Suggest
import SuggestServer
import SuggestWire
import Testing

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

struct SuggestServerTests {
    @Test func healthAnswers() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration())
        try await server.makeApplication().test(.router) { client in
            let (status, body) = try await get(client, "/health")
            #expect(status == 200)
            #expect(object(body)["status"] as? String == "ok")
        }
    }

    @Test func suggestAnswersTheBatchJSONForOneKeystroke() async throws {
        let fixture = try Fixture()
        let configuration = try fixture.configuration()
        let server = SuggestServer(configuration: configuration)
        try await server.makeApplication().test(.router) { client in
            let (status, body) = try await get(client, "/suggest?q=py")
            #expect(status == 200)
            #expect(object(body)["text"] as? String == "py")
            #expect(texts(body) == ["python", "pytest"])
            // The same answer as `suggest batch` gives for the line {"text": "py"} (but for the time).
            var processor = BatchProcessor(engine: configuration.makeEngine())
            var out = JSONBytes()
            await processor.answer(Array(#"{"text":"py"}"#.utf8), into: &out)
            var batch = object(out.bytes.string)
            var served = object(body)
            batch["micros"] = nil
            served["micros"] = nil
            #expect(NSDictionary(dictionary: batch).isEqual(to: served))
            // A space as + or %20, tokens and scope as parameters.
            let answer1 = try await get(client, "/suggest?q=new+y")
            #expect(texts(answer1.body) == ["new york"])
            let answer2 = try await get(client, "/suggest?q=new%20y&scope=all")
            #expect(texts(answer2.body) == ["new york"])
            let tokens = "%5B%7B%22kind%22%3A%22from%22%2C%22value%22%3A%22alice%22%7D%5D"
            let withTokens = try await get(client, "/suggest?q=pa&tokens=\(tokens)")
            #expect(withTokens.status == 200)
            #expect((object(withTokens.body)["tokens"] as? [[String: Any]])?.first?["value"] as? String == "alice")
        }
    }

    /// `composing=` is the text an input method is still composing after `q`, as a batch line's `"composing"`.
    @Test func suggestTakesTheTextBeingComposedAsBatchDoes() async throws {
        let fixture = try Fixture()
        let configuration = try fixture.configuration()
        let server = SuggestServer(configuration: configuration, options: ServerOptions(maximumTextBytes: 8))
        try await server.makeApplication().test(.router) { client in
            let (status, body) = try await get(client, "/suggest?q=py&composing=t")
            #expect(status == 200, "\(body)")
            // The same answer as `suggest batch` gives for the line {"text": "py", "composing": "t"} (but the time).
            var processor = BatchProcessor(engine: configuration.makeEngine())
            var out = JSONBytes()
            await processor.answer(Array(#"{"text":"py","composing":"t"}"#.utf8), into: &out)
            var batch = object(out.bytes.string)
            var served = object(body)
            #expect(served["composing"] as? String == "t", "\(body)")
            batch["micros"] = nil
            served["micros"] = nil
            #expect(NSDictionary(dictionary: batch).isEqual(to: served), "\(batch) \(served)")
            // Without it the field holds "py" alone: a different answer.
            #expect(object(try await get(client, "/suggest?q=py").body)["composing"] == nil)
            // The limit counts both parts.
            let long = try await get(client, "/suggest?q=pyth&composing=onic")
            #expect(long.status == 200)
            let tooLong = try await get(client, "/suggest?q=pyth&composing=onics")
            #expect(tooLong.status == 414)
            #expect(object(tooLong.body)["error"] as? String == "q and composing: longer than 8 UTF-8 bytes")
            let misspelt = try await get(client, "/suggest?q=py&composig=t")
            #expect(misspelt.status == 400)
            #expect((object(misspelt.body)["error"] as? String)?.contains("did you mean \"composing\"") == true)
        }
    }

    /// The server believes `user=` here (`--insecure-user-parameter`); `IdentityTests` checks the real identities.
    static let insecure = ServerOptions(identity: .insecureUserParameter)

    @Test func usersRecentsDoNotMix() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration(), options: Self.insecure)
        try await server.makeApplication().test(.router) { client in
            let answer3 = try await post(client, "/submit?user=alice", #"{"text": "pandas groupby"}"#)
            // No users folder: kept in memory as configured (200, "stored": false and why).
            #expect(answer3.status == 200)
            #expect(answer3.body
                == #"{"submitted":"pandas groupby","stored":false,"reason":"this server keeps recent searches in memory only (no users folder)"}"#)
            let answer4 = try await get(client, "/suggest?q=pa&user=alice")
            #expect(texts(answer4.body) == ["pandas groupby", "pandas"])
            let answer5 = try await get(client, "/suggest?q=pa&user=bob")
            #expect(texts(answer5.body) == ["pandas"])
            let answer6 = try await get(client, "/suggest?q=pa")
            #expect(texts(answer6.body) == ["pandas"])
            #expect(server.users.count == 2)
        }
    }

    @Test func selectLearnsFromTheSessionsLastAnswer() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration(), options: Self.insecure)
        try await server.makeApplication().test(.router) { client in
            let answer7 = try await get(client, "/suggest?q=py&session=s1&user=carol")
            #expect(texts(answer7.body) == ["python", "pytest"])
            for _ in 0..<50 {
                _ = try await get(client, "/suggest?q=py&session=s1&user=carol")
                let answer8 = try await post(client, "/select?session=s1&user=carol", #"{"text": "pytest"}"#)
                #expect(answer8.status == 200)
            }
            let answer9 = try await get(client, "/suggest?q=py&session=s1&user=carol")
            #expect(texts(answer9.body) == ["pytest", "python"])
            let answer10 = try await get(client, "/suggest?q=py&session=s2&user=dave")
            #expect(texts(answer10.body) == ["python", "pytest"])
        }
    }

    @Test(arguments: [
        ("/suggest", "missing parameter \"q\""),
        ("/suggest?q=py&sesion=1", "unknown parameter \"sesion\" — did you mean \"session\"?"),
        ("/suggest?q=py&q=pa", "parameter \"q\" given twice"),
        ("/suggest?q=%ZZ", "malformed percent-encoding in the query: %ZZ"),
        ("/suggest?q=py&tokens=%5B1%5D", "tokens[0]: expected {\"kind\": string, \"value\": string}"),
        ("/suggest?q=py&tokens=%5B", "tokens: malformed JSON at column 2: unexpected end of input, expected a value"),
        ("/suggest?q=py&user=", "user: invalid user id (expected 1 to 100 UTF-8 bytes, no control characters)"),
        ("/suggest?q=py&session=%09", "session: invalid session id (expected 1 to 100 UTF-8 bytes, no control characters)"),
    ])
    func badQueriesAre400WithAJSONError(_ uri: String, _ message: String) async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration(), options: Self.insecure)
        try await server.makeApplication().test(.router) { client in
            let (status, body) = try await get(client, uri)
            #expect(status == 400)
            #expect(object(body)["error"] as? String == message, "\(body)")
        }
    }

    @Test(arguments: [
        ("not json", "malformed JSON at column 1: unexpected 'n', expected a value"),
        ("[]", "expected a JSON object, found an array"),
        (#"{"txt": "a"}"#, "unknown key \"txt\" — did you mean \"text\"?"),
        (#"{"text": 1}"#, "text: expected a string"),
        (#"{"text": "a", "tokens": {}}"#, "tokens: expected an array"),
    ])
    func badBodiesAre400WithAJSONError(_ body: String, _ message: String) async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration(), options: Self.insecure)
        try await server.makeApplication().test(.router) { client in
            let (status, answer) = try await post(client, "/submit?user=u", body)
            #expect(status == 400)
            #expect(object(answer)["error"] as? String == message, "\(answer)")
        }
    }

    @Test func unknownEndpointsAre404WithAJSONError() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration())
        try await server.makeApplication().test(.router) { client in
            let (status, body) = try await get(client, "/nowhere")
            #expect(status == 404)
            #expect(object(body)["error"] as? String != nil, "\(body)")
        }
    }

    @Test func limitsAre413And414() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(
            configuration: try fixture.configuration(),
            options: ServerOptions(
                maximumBodyBytes: 100, maximumTargetBytes: 2_000, maximumTextBytes: 50, identity: .insecureUserParameter)
        )
        try await server.makeApplication().test(.router) { client in
            let big = #"{"text": ""# + String(repeating: "a", count: 200) + #""}"#
            let tooLarge = try await post(client, "/submit?user=u", big)
            #expect(tooLarge.status == 413)
            #expect(object(tooLarge.body)["error"] as? String == "request body too large")
            let longText = try await get(client, "/suggest?q=" + String(repeating: "a", count: 51))
            #expect(longText.status == 414)
            #expect(object(longText.body)["error"] as? String == "q: longer than 50 UTF-8 bytes")
            let longTarget = try await get(client, "/suggest?q=a&scope=" + String(repeating: "s", count: 2_000))
            #expect(longTarget.status == 414)
            #expect(object(longTarget.body)["error"] as? String == "request target longer than 2000 bytes")
            let answer11 = try await get(client, "/suggest?q=" + String(repeating: "a", count: 50))
            #expect(answer11.status == 200)
        }
    }

    @Test func sessionsAreBoundedAndIdleOnesForgotten() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(
            configuration: try fixture.configuration(),
            options: ServerOptions(maximumSessions: 3, sessionIdleTimeout: .seconds(60))
        )
        try await server.makeApplication().test(.router) { client in
            for i in 0..<10 { _ = try await get(client, "/suggest?q=p&session=s\(i)") }
            #expect(server.sessionCount == 3)
        }
        server.sweep(now: .now + .seconds(61))
        #expect(server.sessionCount == 0)
    }

    @Test func requestsAndProvidersAreTimed() async throws {
        let fixture = try Fixture()
        let metrics = TestMetrics()
        let server = SuggestServer(configuration: try fixture.configuration(), metricsFactory: metrics)
        try await server.makeApplication().test(.router) { client in
            _ = try await get(client, "/suggest?q=py")
            _ = try await get(client, "/suggest")
        }
        let ok = try metrics.expectTimer("suggest_request_duration", [("route", "/suggest"), ("status", "200")])
        #expect(ok.values.count == 1)
        let bad = try metrics.expectTimer("suggest_request_duration", [("route", "/suggest"), ("status", "400")])
        #expect(bad.values.count == 1)
        #expect(try metrics.expectTimer("suggest_provider_duration", [("provider", "prefix")]).values.count == 1)
    }

    /// Over a real loopback socket (`.live` binds 127.0.0.1 on a free port).
    @Test func servesOverLoopback() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration(), options: ServerOptions(port: 0))
        try await server.makeApplication().test(.live) { client in
            #expect(client.port != nil)
            let (status, body) = try await get(client, "/suggest?q=pan&session=live")
            #expect(status == 200)
            #expect(texts(body) == ["pandas"])
        }
    }
}
#endif
