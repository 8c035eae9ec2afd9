#if Server
import Foundation
import JWTKit
import Testing

/// The built `suggest serve` running as a process on a free loopback port, its standard error in a file.
final class SpawnedServer: Sendable {
    let process: Process
    let port: Int
    let standardErrorPath: String
    var base: String { "http://127.0.0.1:\(port)" }

    /// Starts `suggest serve --config FIXTURE --port 0 --log-level warning ARGUMENTS` and waits for its first line.
    init(_ fixture: borrowing Fixture, _ arguments: [String]) async throws {
        process = Process()
        process.executableURL = ServeCommandTests.executable
        process.arguments =
            ["serve", "--config", fixture.configurationPath, "--port", "0", "--log-level", "warning"] + arguments
        let out = Pipe()
        process.standardOutput = out
        standardErrorPath = fixture.folder + "/stderr-\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: standardErrorPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: standardErrorPath)
        try process.run()
        let line = await ServeCommandTests.firstLine(of: out)
        let prefix = "listening on http://127.0.0.1:"
        guard line.hasPrefix(prefix), let port = Int(line.dropFirst(prefix.count)) else {
            process.terminate()
            let error = (try? String(contentsOfFile: standardErrorPath, encoding: .utf8)) ?? ""
            throw ServeCommandTests.ServerDidNotStart(line: line + error)
        }
        self.port = port
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    var standardError: String { (try? String(contentsOfFile: standardErrorPath, encoding: .utf8)) ?? "" }

    /// One request on a connection of its own (`Host: 127.0.0.1:PORT` unless `headers` names another).
    func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: String? = nil
    ) async throws -> RawResponse {
        let connection = try LoopbackConnection(port: port)
        connection.send(RawResponse.request(method, target, port: port, headers: headers, body: body))
        return await connection.readResponse()
    }

    /// `GET` with `Authorization: Bearer TOKEN` when a token is given.
    func get(_ target: String, token: String? = nil, headers: [(String, String)] = []) async throws -> RawResponse {
        try await send("GET", target, headers: headers + (token.map { [("Authorization", "Bearer " + $0)] } ?? []))
    }

    /// `POST` of JSON with `Authorization: Bearer TOKEN` when a token is given.
    func post(_ target: String, _ body: String, token: String? = nil, headers: [(String, String)] = []) async throws
        -> RawResponse
    {
        try await send(
            "POST", target,
            headers: [("Content-Type", "application/json")] + headers
                + (token.map { [("Authorization", "Bearer " + $0)] } ?? []),
            body: body)
    }

    /// A WebSocket upgrade request for `/ws`; the answer's head only (101 keeps the connection open).
    func upgrade(_ target: String = "/ws", headers: [(String, String)] = []) async throws -> RawResponse {
        try await send(
            "GET", target,
            headers: [
                ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
                ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
            ] + headers)
    }

    /// Runs `suggest serve` with `arguments` expecting it not to start: its exit status and standard error.
    static func failure(_ fixture: borrowing Fixture, _ arguments: [String]) async throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = ServeCommandTests.executable
        process.arguments = ["serve", "--config", fixture.configurationPath, "--port", "0"] + arguments
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = err.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
        }
    }
}

/// An HTTP/1.1 response read off a raw connection.
struct RawResponse: Sendable, CustomStringConvertible {
    var status = 0
    /// Header names lowercased; a repeated header's values joined with ", ".
    var headers: [String: String] = [:]
    var body = ""
    /// Why no response could be read (status 0): the connection closed, a timeout, or an error; with the bytes read.
    var failure: String? = nil
    var description: String { "\(status) \(headers) \(body)" + (failure.map { " (\($0))" } ?? "") }
    var error: String? { object(body)["error"] as? String }

    static func request(_ method: String, _ target: String, port: Int, headers: [(String, String)], body: String?)
        -> String
    {
        var text = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { text += "Host: 127.0.0.1:\(port)\r\n" }
        for (name, value) in headers where !(name.lowercased() == "host" && value.isEmpty) {
            text += "\(name): \(value)\r\n"
        }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "Connection: close\r\n\r\n" + (body ?? "")
        return text
    }

    /// Parses a response's head and as much body as `Content-Length` says (all of `text` without one).
    init(parsing text: String) {
        guard let end = text.range(of: "\r\n\r\n") else { return }
        let lines = text[..<end.lowerBound].split(separator: "\r\n")
        status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        body = String(text[end.upperBound...])
    }

    init() {}
}

extension LoopbackConnection {
    /// Reads one response: its head, then its body to `Content-Length` (or to the end of the connection); after a
    /// 101 the head only.
    func readResponse(timeout: Int = 10) async -> RawResponse {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [descriptor] in
                var limit = timeval(tv_sec: timeout, tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                var data: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 4096)
                func complete() -> Bool {
                    let text = String(decoding: data, as: UTF8.self)
                    guard text.contains("\r\n\r\n") else { return false }
                    let response = RawResponse(parsing: text)
                    if response.status == 101 { return true }
                    guard let length = response.headers["content-length"].flatMap(Int.init) else { return false }
                    return response.body.utf8.count >= length
                }
                let start = ContinuousClock.now
                var ending: String? = nil
                while !complete() {
                    let n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    if n < 0 && errno == EINTR { continue }
                    if n == 0 { ending = "the server closed the connection"; break }
                    if n < 0 {
                        ending = errno == EAGAIN || errno == EWOULDBLOCK
                            ? "no more bytes within \(timeout) s" : "recv failed: \(String(cString: strerror(errno)))"
                        break
                    }
                    data += chunk[0..<n]
                }
                var response = RawResponse(parsing: String(decoding: data, as: UTF8.self))
                if response.status == 0 {
                    response.failure = "\(ending ?? "incomplete"): \(data.count) bytes read in \(ContinuousClock.now - start)"
                }
                continuation.resume(returning: response)
            }
        }
    }

    /// Sends a keep-alive request (no `Connection: close`) and reads its answer.
    func exchange(_ method: String, _ target: String, port: Int, headers: [(String, String)] = []) async -> RawResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        send(text + "\r\n")
        return await readResponse()
    }
}

// MARK: Tokens

/// The claims the tests put in their tokens.
struct TestClaims: JWTPayload {
    var sub: SubjectClaim?
    var exp: ExpirationClaim?
    var aud: AudienceClaim?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

enum Tokens {
    static let secret = "a test secret of at least thirty-two bytes, never used elsewhere"

    static func claims(_ sub: String?, expires: TimeInterval?, audience: String?) -> TestClaims {
        TestClaims(
            sub: sub.map { SubjectClaim(value: $0) },
            exp: expires.map { ExpirationClaim(value: Date().addingTimeInterval($0)) },
            aud: audience.map { AudienceClaim(value: [$0]) })
    }

    /// An HS256 token (signed with `secret`).
    static func hs256(
        _ sub: String?, secret: String = Tokens.secret, expires: TimeInterval? = 3600, audience: String? = nil,
        kid: String? = nil
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return try await keys.sign(
            claims(sub, expires: expires, audience: audience), header: kid.map { JWTHeader(fields: ["kid": .string($0)]) } ?? JWTHeader())
    }

    static func fixture(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil))
        return try String(contentsOf: url, encoding: .utf8)
    }

    static var jwksPath: String { Bundle.module.url(forResource: "Fixtures/jwks.json", withExtension: nil)!.path }

    /// An ES256 token signed with the fixture's key (kid `test-es256`), or with `key` (a PEM) under that kid.
    static func es256(_ sub: String, key: String? = nil, expires: TimeInterval = 3600) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(pem: try key ?? fixture("es256-test-key.pem")), kid: "test-es256")
        return try await keys.sign(claims(sub, expires: expires, audience: nil), kid: "test-es256")
    }

    /// An RS256 token signed with the fixture's key (kid `test-rs256`).
    static func rs256(_ sub: String) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(
            rsa: try Insecure.RSA.PrivateKey(pem: try fixture("rs256-test-key.pem")), digestAlgorithm: .sha256,
            kid: "test-rs256")
        return try await keys.sign(claims(sub, expires: 3600, audience: nil), kid: "test-rs256")
    }

    /// An unsigned token (`alg: none`) for `sub`.
    static func unsigned(_ sub: String) -> String {
        func encode(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let exp = Int(Date().timeIntervalSince1970) + 3600
        return encode(#"{"alg":"none","typ":"JWT"}"#) + "." + encode(#"{"sub":"\#(sub)","exp":\#(exp)}"#) + "."
    }
}
#endif
