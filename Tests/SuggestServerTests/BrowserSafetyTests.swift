#if Server
import Foundation
@testable import SuggestServer
import Testing

/// CORS, JSON-only POSTs, the WebSocket's Origin check and the Host check, against the built `suggest serve`.
@Suite(.timeLimit(.minutes(2)))
struct BrowserSafetyTests {
    static let app = "https://app.example"
    static let evil = "https://evil.example"

    @Test func corsPreflightPassesForAnAllowedOriginOnly() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--insecure-user-parameter", "--allow-origin", Self.app])
        let preflight = try await server.send(
            "OPTIONS", "/submit?user=alice",
            headers: [
                ("Origin", Self.app), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "authorization, content-type"),
            ])
        #expect(preflight.status == 204, "\(preflight)")
        #expect(preflight.headers["access-control-allow-origin"] == Self.app)
        #expect(preflight.headers["access-control-allow-methods"] == "GET, POST")
        #expect(preflight.headers["access-control-allow-headers"] == "Authorization, Content-Type")
        #expect(preflight.headers["access-control-max-age"] == "600")

        let foreign = try await server.send(
            "OPTIONS", "/submit?user=alice", headers: [("Origin", Self.evil), ("Access-Control-Request-Method", "POST")])
        #expect(foreign.status == 403, "\(foreign)")
        #expect(foreign.headers["access-control-allow-origin"] == nil)
        #expect(foreign.headers.keys.allSatisfy { !$0.hasPrefix("access-control-") })

        // The actual request from the allowed origin carries the CORS header, errors too.
        let allowed = try await server.post("/submit?user=alice", #"{"text": "pandas merge"}"#, headers: [("Origin", Self.app)])
        #expect(allowed.status == 200, "\(allowed)")
        #expect(allowed.headers["access-control-allow-origin"] == Self.app)
        let bad = try await server.get("/suggest?user=alice", headers: [("Origin", Self.app)])
        #expect(bad.status == 400)
        #expect(bad.headers["access-control-allow-origin"] == Self.app)
        // Same-origin pages need no --allow-origin (and get no CORS header).
        let same = try await server.get("/suggest?q=pa&user=alice", headers: [("Origin", "http://127.0.0.1:\(server.port)")])
        #expect(same.status == 200, "\(same)")
        #expect(same.headers["access-control-allow-origin"] == nil)
        #expect(SuggestServerTests_texts(same.body) == ["pandas merge", "pandas"])
    }

    @Test func crossOriginAndNonJSONPostsAreRefusedAndStoreNothing() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--insecure-user-parameter", "--allow-origin", Self.app])
        // The form / text/plain CSRF: no preflight in a browser, so the server refuses the type itself.
        let plain = try await server.send(
            "POST", "/submit?user=alice", headers: [("Content-Type", "text/plain"), ("Origin", Self.evil)],
            body: #"{"text": "pandas csrf"}"#)
        #expect(plain.status == 403, "\(plain)")
        let plainSameOrigin = try await server.send(
            "POST", "/submit?user=alice", headers: [("Content-Type", "text/plain")], body: #"{"text": "pandas plain"}"#)
        #expect(plainSameOrigin.status == 415, "\(plainSameOrigin)")
        #expect(plainSameOrigin.error == "POST needs Content-Type: application/json")
        let form = try await server.send(
            "POST", "/submit?user=alice", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: #"{"text": "pandas form"}"#)
        #expect(form.status == 415)
        let noType = try await server.send("POST", "/reset?user=alice&session=s")
        #expect(noType.status == 415)
        // JSON from a foreign origin (which a browser would only send after a refused preflight).
        let foreign = try await server.post("/submit?user=alice", #"{"text": "pandas foreign"}"#, headers: [("Origin", Self.evil)])
        #expect(foreign.status == 403)
        #expect(foreign.error == #"origin "https://evil.example" is not allowed (see --allow-origin)"#, "\(foreign)")
        #expect(foreign.headers["access-control-allow-origin"] == nil)
        let json = try await server.post("/submit?user=alice", #"{"text": "pandas merge"}"#)
        #expect(json.status == 200)
        #expect(json.headers["content-type"] == "application/json; charset=utf-8")
        let read = try await server.get("/suggest?q=pa&user=alice")
        #expect(SuggestServerTests_texts(read.body) == ["pandas merge", "pandas"], "\(read)")
    }

    @Test func webSocketUpgradesCheckTheOrigin() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--allow-origin", Self.app])
        let foreign = try await server.upgrade(headers: [("Origin", Self.evil)])
        #expect(foreign.status == 403, "\(foreign)")
        #expect(foreign.error == #"origin "https://evil.example" is not allowed (see --allow-origin)"#)
        #expect(try await server.upgrade(headers: [("Origin", "null")]).status == 403)
        #expect(try await server.upgrade(headers: [("Origin", Self.app)]).status == 101)
        #expect(try await server.upgrade(headers: [("Origin", "http://127.0.0.1:\(server.port)")]).status == 101)
        #expect(try await server.upgrade().status == 101)  // no Origin: not a browser
        // The URL's own origin, as some WebSocket client libraries send it (never a page's).
        #expect(try await server.upgrade(headers: [("Origin", "ws://127.0.0.1")]).status == 101)
        // A plain GET /ws is not an upgrade.
        #expect(try await server.get("/ws").status == 426)
    }

    @Test func theHostHeaderIsChecked() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, [])
        for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "LOCALHOST", "[::1]:\(server.port)"] {
            let answer = try await server.get("/suggest?q=pa", headers: [("Host", host)])
            #expect(answer.status == 200, "\(host): \(answer)")
        }
        for host in ["evil.example:\(server.port)", "evil.example", "127.0.0.1:\(server.port + 1)", "127.0.0.2:\(server.port)"] {
            let answer = try await server.get("/suggest?q=pa", headers: [("Host", host)])
            #expect(answer.status == 421, "\(host): \(answer)")
            #expect(answer.error?.hasPrefix("this server does not answer to Host") == true, "\(answer)")
        }
        let upgrade = try await server.upgrade(headers: [("Host", "evil.example:\(server.port)")])
        #expect(upgrade.status == 421, "\(upgrade)")

        let named = try await SpawnedServer(fixture, ["--allowed-host", "suggest.test"])
        #expect(try await named.get("/health", headers: [("Host", "suggest.test:8443")]).status == 200)
        #expect(try await named.get("/health", headers: [("Host", "other.test")]).status == 421)
    }

    @Test(arguments: [
        (["--host", "0.0.0.0"], "--host 0.0.0.0: listening beyond loopback needs --allowed-host NAME"),
        (["--allow-origin", "https://app.example/"], "--allow-origin https://app.example/: expected an exact origin"),
        (["--allow-origin", "*"], "--allow-origin *: expected an exact origin"),
    ])
    func badBrowserOptionsAreUsageErrors(_ arguments: [String], _ message: String) async throws {
        let fixture = try Fixture()
        let (status, error) = try await SpawnedServer.failure(fixture, arguments)
        #expect(status == 64)
        #expect(error.contains("Error: " + message), "\(error)")
    }

    // MARK: Units

    @Test func addressRangesMatchIPv4IPv6AndMappedAddresses() throws {
        let v4 = try AddressRange("10.0.0.0/8")
        #expect(v4.contains("10.200.3.4"))
        #expect(!v4.contains("11.0.0.1"))
        #expect(v4.contains("::ffff:10.1.2.3"))
        #expect(!v4.contains("fd00::1"))
        let v6 = try AddressRange("fd00::/8")
        #expect(v6.contains("fd12:3456::1"))
        #expect(!v6.contains("fe80::1"))
        #expect(!v6.contains("10.0.0.1"))
        let one = try AddressRange("::1")
        #expect(one.contains("::1"))
        #expect(!one.contains("::2"))
        #expect(try AddressRange("0.0.0.0/0").contains("203.0.113.9"))
        #expect(try AddressRange("192.168.1.77/24").contains("192.168.1.1"))
        #expect(throws: AddressRange.Problem.self) { try AddressRange("10.0.0.0/-1") }
        #expect(throws: AddressRange.Problem.self) { try AddressRange("10.0.0.0/") }
        #expect(throws: AddressRange.Problem.self) { try AddressRange("10.0.0/8") }
    }

    @Test func originsAndHostsAreParsedExactly() {
        #expect(ServerOptions.isExactOrigin("https://app.example.com"))
        #expect(ServerOptions.isExactOrigin("http://localhost:3000"))
        #expect(ServerOptions.isExactOrigin("http://[::1]:3000"))
        #expect(!ServerOptions.isExactOrigin("https://app.example.com/"))
        #expect(!ServerOptions.isExactOrigin("https://app.example.com/path"))
        #expect(!ServerOptions.isExactOrigin("ftp://app.example.com"))
        #expect(!ServerOptions.isExactOrigin("app.example.com"))
        #expect(BrowserPolicy.split("[::1]:8080") == ("[::1]", 8080))
        #expect(BrowserPolicy.split("[::1]") == ("[::1]", nil))
        #expect(BrowserPolicy.split("example.com") == ("example.com", nil))
        #expect(ServerOptions.isLoopback("127.0.0.1") && ServerOptions.isLoopback("::1") && ServerOptions.isLoopback("localhost"))
        #expect(!ServerOptions.isLoopback("0.0.0.0") && !ServerOptions.isLoopback("::"))
    }
}
#endif
