#if Server
import Foundation
import HTTPTypes
import JWTKit
import Logging
import NIOWebSocket
import SuggestServer
import Testing
import WSClient

/// Who is asking, against the built `suggest serve` over loopback: a user's recents are read and written only with
/// that user's verified identity.
@Suite(.timeLimit(.minutes(2)))
struct IdentityTests {
    /// The suggestion texts of alice's answer for `q` (empty unless 200).
    static func texts(_ server: SpawnedServer, _ q: String, token: String) async throws -> [String] {
        let answer = try await server.get("/suggest?q=\(q)", token: token)
        #expect(answer.status == 200, "\(answer)")
        return SuggestServerTests_texts(answer.body)
    }

    @Test func hs256TokensIdentifyTheUserAndForgedMissingOrExpiredOnesReadAndWriteNothing() async throws {
        let fixture = try Fixture()
        try Tokens.secret.write(toFile: fixture.folder + "/secret", atomically: true, encoding: .utf8)
        let server = try await SpawnedServer(fixture, ["--jwt-secret-file", fixture.folder + "/secret"])
        let alice = try await Tokens.hs256("alice")
        #expect(try await server.post("/submit", #"{"text": "pandas merge"}"#, token: alice).status == 200)
        #expect(try await Self.texts(server, "pa", token: alice) == ["pandas merge", "pandas"])

        // No credential: 401 with a JSON error and a Bearer challenge, for reads and writes alike.
        let missing = try await server.get("/suggest?q=pa")
        #expect(missing.status == 401)
        #expect(missing.error == "missing bearer token (Authorization: Bearer JWT)", "\(missing)")
        #expect(missing.headers["www-authenticate"] == #"Bearer realm="suggest""#)
        #expect(try await server.post("/submit", #"{"text": "no token"}"#).status == 401)
        let basic = try await server.get("/suggest?q=pa", headers: [("Authorization", "Basic YWxpY2U6eA==")])
        #expect(basic.status == 401)

        // Forged (another secret), unsigned, expired beyond the leeway: refused, nothing written.
        let forged = try await Tokens.hs256("alice", secret: "another secret that is also long enough to use")
        let forgedWrite = try await server.post("/submit", #"{"text": "pandas forged"}"#, token: forged)
        #expect(forgedWrite.status == 401)
        #expect(forgedWrite.error == "invalid token signature", "\(forgedWrite)")
        #expect(forgedWrite.headers["www-authenticate"] == #"Bearer realm="suggest", error="invalid_token""#)
        let forgedRead = try await server.get("/suggest?q=pa", token: forged)
        #expect(forgedRead.status == 401)
        #expect(!forgedRead.body.contains("pandas merge"))
        let unsigned = try await server.post("/submit", #"{"text": "pandas unsigned"}"#, token: Tokens.unsigned("alice"))
        #expect(unsigned.status == 401)
        #expect(unsigned.error == #"token algorithm "none" is not accepted"#, "\(unsigned)")
        let expired = try await Tokens.hs256("alice", expires: -(BearerVerifier.leeway + 60))
        let expiredWrite = try await server.post("/submit", #"{"text": "pandas expired"}"#, token: expired)
        #expect(expiredWrite.status == 401)
        #expect(expiredWrite.error == "token expired", "\(expiredWrite)")
        // Within the leeway (clock skew) a token that just expired is still accepted.
        let justExpired = try await Tokens.hs256("alice", expires: -10)
        #expect(try await server.get("/suggest?q=pa", token: justExpired).status == 200)
        let noExp = try await server.get("/suggest?q=pa", token: try await Tokens.hs256("alice", expires: nil))
        #expect(noExp.error == "token has no exp claim", "\(noExp)")
        let noSub = try await server.get("/suggest?q=pa", token: try await Tokens.hs256(nil))
        #expect(noSub.error == "token has no sub claim", "\(noSub)")
        // `user=` is not an identity here.
        let parameter = try await server.get("/suggest?q=pa&user=alice")
        #expect(parameter.status == 400)
        #expect(parameter.error?.hasPrefix(#"parameter "user" is not accepted"#) == true, "\(parameter)")

        #expect(try await Self.texts(server, "pa", token: alice) == ["pandas merge", "pandas"])
        // Nobody else was given an engine: only alice is a user.
        #expect(object(try await server.get("/health").body)["users"] as? Int == 1)
        // Bob's token reads bob's (empty) recents.
        #expect(try await Self.texts(server, "pa", token: try await Tokens.hs256("bob")) == ["pandas"])
    }

    @Test func theAudienceIsCheckedWhenGiven() async throws {
        let fixture = try Fixture()
        try (Tokens.secret + "\n").write(toFile: fixture.folder + "/secret", atomically: true, encoding: .utf8)
        let server = try await SpawnedServer(
            fixture, ["--jwt-secret-file", fixture.folder + "/secret", "--jwt-audience", "suggest-api"])
        let right = try await Tokens.hs256("alice", audience: "suggest-api")
        #expect(try await server.post("/submit", #"{"text": "pandas merge"}"#, token: right).status == 200)
        for wrong in [try await Tokens.hs256("alice", audience: "another-api"), try await Tokens.hs256("alice")] {
            let refused = try await server.post("/submit", #"{"text": "pandas wrong"}"#, token: wrong)
            #expect(refused.status == 401)
            #expect(refused.error == "token is not for this audience", "\(refused)")
        }
        #expect(try await Self.texts(server, "pa", token: right) == ["pandas merge", "pandas"])
    }

    @Test func jwksTokensSignedES256AndRS256AreAcceptedAndOthersRefused() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--jwks-file", Tokens.jwksPath])
        let es = try await Tokens.es256("alice")
        #expect(try await server.post("/submit", #"{"text": "pandas merge"}"#, token: es).status == 200)
        #expect(try await Self.texts(server, "pa", token: try await Tokens.rs256("alice")) == ["pandas merge", "pandas"])
        // Signed by another P-256 key under the fixture's kid.
        let otherKey = ES256PrivateKey().pemRepresentation
        let forged = try await server.post(
            "/submit", #"{"text": "pandas forged"}"#, token: try await Tokens.es256("alice", key: otherKey))
        #expect(forged.status == 401)
        #expect(forged.error == "invalid token signature", "\(forged)")
        // HS256 with the RSA key's kid (algorithm confusion) is refused before any key is tried.
        let confused = try await server.get("/suggest?q=pa", token: try await Tokens.hs256("alice", kid: "test-rs256"))
        #expect(confused.status == 401)
        #expect(confused.error == #"token algorithm "HS256" is not accepted"#, "\(confused)")
        let expired = try await server.get("/suggest?q=pa", token: try await Tokens.es256("alice", expires: -3600))
        #expect(expired.error == "token expired", "\(expired)")
        #expect(try await Self.texts(server, "pa", token: es) == ["pandas merge", "pandas"])
    }

    @Test func theWebSocketTakesTheTokenAsASubprotocolEntry() async throws {
        let fixture = try Fixture()
        try Tokens.secret.write(toFile: fixture.folder + "/secret", atomically: true, encoding: .utf8)
        let server = try await SpawnedServer(fixture, ["--jwt-secret-file", fixture.folder + "/secret"])
        let alice = try await Tokens.hs256("alice")
        #expect(try await server.post("/submit", #"{"text": "pandas merge"}"#, token: alice).status == 200)

        let none = try await server.upgrade()
        #expect(none.status == 401, "\(none)")
        #expect(none.headers["www-authenticate"] == #"Bearer realm="suggest""#)
        let forged = try await server.upgrade(headers: [
            ("Sec-WebSocket-Protocol", "suggest, bearer." + (try await Tokens.hs256("alice", secret: String(repeating: "x", count: 40))))
        ])
        #expect(forged.status == 401, "\(forged)")
        let accepted = try await server.upgrade(headers: [("Sec-WebSocket-Protocol", "suggest, bearer." + alice)])
        #expect(accepted.status == 101, "\(accepted)")
        #expect(accepted.headers["sec-websocket-protocol"] == "suggest")
        let header = try await server.upgrade(headers: [("Authorization", "Bearer " + alice)])
        #expect(header.status == 101, "\(header)")

        // A whole session: the connection is alice's (her recents answer).
        let (answers, answer) = AsyncStream.makeStream(of: String.self)
        var configuration = WebSocketClientConfiguration()
        configuration.additionalHeaders = [.secWebSocketProtocol: "suggest, bearer." + alice]
        try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(server.port)/ws", configuration: configuration, logger: Logger(label: "test")
        ) { inbound, outbound, _ in
            try await outbound.write(.text(#"{"text": "pa"}"#))
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            answer.yield(try await nextText(&messages))
            try await outbound.close(.normalClosure, reason: nil)
        }
        answer.finish()
        var iterator = answers.makeAsyncIterator()
        let first = await iterator.next() ?? ""
        #expect(SuggestServerTests_texts(first) == ["pandas merge", "pandas"], "\(first)")
    }

    @Test func theUserHeaderIsBelievedOnlyFromATrustedProxy() async throws {
        let fixture = try Fixture()
        let elsewhere = try await SpawnedServer(
            fixture, ["--user-header", "X-User", "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "fd00::/8"])
        let claimed = try await elsewhere.post("/submit", #"{"text": "pandas merge"}"#, headers: [("X-User", "alice")])
        #expect(claimed.status == 403)
        #expect(claimed.error == "X-User: accepted only from a trusted proxy", "\(claimed)")
        let direct = try await elsewhere.get("/suggest?q=pa")
        #expect(direct.status == 403)
        #expect(direct.error == "requests must come through a trusted proxy", "\(direct)")
        #expect(object(try await elsewhere.get("/health").body)["users"] as? Int == 0)

        let proxied = try await SpawnedServer(fixture, ["--user-header", "X-User", "--trusted-proxy", "127.0.0.0/8"])
        #expect(try await proxied.post("/submit", #"{"text": "pandas merge"}"#, headers: [("X-User", "alice")]).status == 200)
        let alice = try await proxied.get("/suggest?q=pa", headers: [("X-User", "alice")])
        #expect(SuggestServerTests_texts(alice.body) == ["pandas merge", "pandas"], "\(alice)")
        let bob = try await proxied.get("/suggest?q=pa", headers: [("X-User", "bob")])
        #expect(SuggestServerTests_texts(bob.body) == ["pandas"], "\(bob)")
        let nobody = try await proxied.get("/suggest?q=pa")
        #expect(nobody.status == 403)
        #expect(nobody.error == "missing X-User header", "\(nobody)")
    }

    /// A session id names a different session for each user (and for each anonymous connection): another caller
    /// using the same id never advances it. `generation` counts a session's keystrokes.
    @Test func sessionIdsCannotBeUsedAcrossUsersOrConnections() async throws {
        let fixture = try Fixture()
        try Tokens.secret.write(toFile: fixture.folder + "/secret", atomically: true, encoding: .utf8)
        let server = try await SpawnedServer(fixture, ["--jwt-secret-file", fixture.folder + "/secret"])
        let alice = try await Tokens.hs256("alice"), bob = try await Tokens.hs256("bob")
        func generation(_ q: String, _ token: String) async throws -> Int? {
            object(try await server.get("/suggest?q=\(q)&session=s1", token: token).body)["generation"] as? Int
        }
        #expect(try await generation("p", alice) == 1)
        #expect(try await generation("py", alice) == 2)
        #expect(try await generation("py", bob) == 1)
        #expect(try await generation("pyt", bob) == 2)
        #expect(try await generation("pyt", alice) == 3)

        let anonymous = try await SpawnedServer(fixture, [])
        let first = try LoopbackConnection(port: anonymous.port), second = try LoopbackConnection(port: anonymous.port)
        func generation(_ q: String, on connection: LoopbackConnection) async -> Int? {
            object(await connection.exchange("GET", "/suggest?q=\(q)&session=s1", port: anonymous.port).body)["generation"]
                as? Int
        }
        #expect(await generation("p", on: first) == 1)
        #expect(await generation("py", on: first) == 2)
        #expect(await generation("py", on: second) == 1)
        #expect(await generation("pyt", on: first) == 3)
    }

    @Test func anonymousServersLearnNothingAClientCanSeeFromAnother() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, [])
        let submit = try await server.post("/submit", #"{"text": "pandas merge"}"#)
        #expect(submit.status == 403)
        #expect(submit.error?.hasPrefix("anonymous requests cannot submit or select") == true, "\(submit)")
        #expect(try await server.post("/select", #"{"text": "pandas"}"#).status == 403)
        #expect(SuggestServerTests_texts(try await server.get("/suggest?q=pa").body) == ["pandas"])

        // A WebSocket connection keeps its own recents, for itself only.
        func session(_ lines: [String]) async throws -> String {
            let (answers, answer) = AsyncStream.makeStream(of: String.self)
            try await WebSocketClient.connect(url: "ws://127.0.0.1:\(server.port)/ws", logger: Logger(label: "test")) {
                inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                for line in lines {
                    try await outbound.write(.text(line))
                    answer.yield(try await nextText(&messages))
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            answer.finish()
            var last = ""
            for await text in answers { last = text }
            return last
        }
        let own = try await session([#"{"submit": "pandas merge"}"#, #"{"text": "pa"}"#])
        #expect(SuggestServerTests_texts(own) == ["pandas merge", "pandas"], "\(own)")
        let other = try await session([#"{"text": "pa"}"#])
        #expect(SuggestServerTests_texts(other) == ["pandas"], "\(other)")
        #expect(SuggestServerTests_texts(try await server.get("/suggest?q=pa").body) == ["pandas"])
    }

    @Test func theInsecureUserParameterStillWorksAndWarns() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--insecure-user-parameter"])
        #expect(try await server.post("/submit?user=alice", #"{"text": "pandas merge"}"#).status == 200)
        #expect(SuggestServerTests_texts(try await server.get("/suggest?q=pa&user=alice").body) == ["pandas merge", "pandas"])
        #expect(SuggestServerTests_texts(try await server.get("/suggest?q=pa&user=bob").body) == ["pandas"])
        // Without user=: anonymous.
        #expect(try await server.post("/submit", #"{"text": "pandas x"}"#).status == 403)
        #expect(server.standardError.contains("--insecure-user-parameter: user= is believed as given"), "\(server.standardError)")
    }

    @Test(arguments: [
        (["--jwt-secret-file", "/nonexistent/secret"], "error: --jwt-secret-file /nonexistent/secret: cannot read"),
        (["--jwt-secret-file", "SHORT"], "error: --jwt-secret-file SHORT: the secret is 5 bytes; HS256 needs at least 32"),
        (["--jwks-file", "/nonexistent/jwks.json"], "error: --jwks-file /nonexistent/jwks.json: cannot read"),
        (["--jwks-file", "MALFORMED"], "error: --jwks-file MALFORMED: malformed JSON"),
        (["--jwks-file", "HMAC"], #"error: --jwks-file HMAC: keys[0].kty: expected "RSA" or "EC", found "oct""#),
        (["--jwks-file", "NOKID"], "error: --jwks-file NOKID: keys[0].kid: missing"),
        (["--jwks-file", "WRONGALG"], #"error: --jwks-file WRONGALG: keys[0].alg: expected "ES256" for this key type, found RS256"#),
        (["--jwks-file", "BADPOINT"], #"error: --jwks-file BADPOINT: keys[0] (kid "k"): unusable key"#),
        (["--user-header", "X-User", "--trusted-proxy", "10.0.0.0/33"], #"error: --trusted-proxy "10.0.0.0/33": prefix length must be 0 to 32"#),
        (["--user-header", "X-User", "--trusted-proxy", "::1/129"], #"error: --trusted-proxy "::1/129": prefix length must be 0 to 128"#),
        (["--user-header", "X-User", "--trusted-proxy", "proxy.local"], #"error: --trusted-proxy "proxy.local": not an IPv4 or IPv6 address"#),
    ])
    func badSecretsKeySetsAndRangesStopTheStartWithALocatedError(_ arguments: [String], _ message: String) async throws {
        let fixture = try Fixture()
        let files = [
            "SHORT": "short\n",
            "MALFORMED": "{\"keys\": [",
            "HMAC": #"{"keys": [{"kty": "oct", "kid": "h", "k": "c2VjcmV0"}]}"#,
            "NOKID": #"{"keys": [{"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA"}]}"#,
            "WRONGALG": #"{"keys": [{"kty": "EC", "crv": "P-256", "alg": "RS256", "kid": "k", "x": "AA", "y": "AA"}]}"#,
            "BADPOINT": #"{"keys": [{"kty": "EC", "crv": "P-256", "kid": "k", "x": "AA", "y": "AA"}]}"#,
        ]
        var arguments = arguments
        for (index, argument) in arguments.enumerated() {
            if let contents = files[argument] {
                let path = fixture.folder + "/" + argument
                try contents.write(toFile: path, atomically: true, encoding: .utf8)
                arguments[index] = path
            }
        }
        let expected = files.keys.reduce(message) { $0.replacingOccurrences(of: " \($1):", with: " \(fixture.folder)/\($1):") }
        let (status, error) = try await SpawnedServer.failure(fixture, arguments)
        #expect(status == 1)
        #expect(error.hasPrefix(expected), "\(error)")
    }

    @Test(arguments: [
        (["--jwt-secret-file", "s", "--insecure-user-parameter"], "--jwt-secret-file and --insecure-user-parameter: choose one way of knowing who is asking"),
        (["--jwks-file", "j", "--user-header", "X-User", "--trusted-proxy", "127.0.0.1"], "--jwks-file and --user-header: choose one way of knowing who is asking"),
        (["--jwt-audience", "a"], "--jwt-audience: needs --jwt-secret-file or --jwks-file"),
        (["--user-header", "X-User"], "--user-header: needs --trusted-proxy CIDR"),
        (["--trusted-proxy", "127.0.0.1"], "--trusted-proxy: needs --user-header NAME"),
        (["--user-header", "X User", "--trusted-proxy", "127.0.0.1"], #"--user-header: "X User" is not a header name"#),
    ])
    func conflictingIdentityOptionsAreUsageErrors(_ arguments: [String], _ message: String) async throws {
        let fixture = try Fixture()
        let (status, error) = try await SpawnedServer.failure(fixture, arguments)
        #expect(status == 64)
        #expect(error.contains("Error: " + message), "\(error)")
    }
}

/// `texts(_:)` of Fixture.swift (named apart: these suites have members called `texts`).
func SuggestServerTests_texts(_ text: String) -> [String] { texts(text) }
#endif
