#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
@testable import SuggestServer
import Testing

/// The token bucket alone, on made-up instants (no clock, no sleeping).
struct TokenBucketTests {

    @Test func aFullBucketAllowsTheBurstThenTheRate() {
        let start = ContinuousClock.now
        func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
        var bucket = TokenBucket(rate: 2, capacity: 3, now: at(0))
        for _ in 0..<3 { #expect(bucket.take(now: at(0)) == nil) }
        #expect(bucket.take(now: at(0)) == .milliseconds(500))
        #expect(bucket.take(now: at(250)) == .milliseconds(250))
        #expect(bucket.take(now: at(500)) == nil)
        #expect(bucket.take(now: at(500)) == .milliseconds(500))
        // A long quiet spell fills it up to the burst and no further.
        for _ in 0..<3 { #expect(bucket.take(now: at(60_000)) == nil) }
        #expect(bucket.take(now: at(60_000)) == .milliseconds(500))
    }

    @Test func aRefusedRequestTakesNothing() {
        let start = ContinuousClock.now
        func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
        var bucket = TokenBucket(rate: 1, capacity: 1, now: at(0))
        #expect(bucket.take(now: at(0)) == nil)
        for _ in 0..<100 { #expect(bucket.take(now: at(0)) == .seconds(1)) }
        // However often it was refused, the client is served as soon as a token has grown.
        #expect(bucket.take(now: at(1000)) == nil)
    }

    @Test func anEarlierInstantGainsNothing() {
        let start = ContinuousClock.now
        func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
        var bucket = TokenBucket(rate: 10, capacity: 1, now: at(1000))
        #expect(bucket.take(now: at(1000)) == nil)
        #expect(bucket.take(now: at(0)) == .milliseconds(100))
        #expect(bucket.take(now: at(1100)) == nil)
    }

    @Test(arguments: [(0, 1), (1, 1), (999, 1), (1000, 1), (1001, 2), (2500, 3)])
    func retryAfterIsWholeSecondsRoundedUpAndAtLeastOne(_ milliseconds: Int, _ seconds: Int) {
        #expect(RateLimiter.retryAfterSeconds(.milliseconds(milliseconds)) == seconds)
    }
}

/// The buckets of every client, in a bounded table, on an injected clock.
struct RateLimiterTests {
    final class TestClock: Sendable {
        let now = Mutex(ContinuousClock.now)
        func advance(_ duration: Duration) { now.withLock { $0 += duration } }
        var read: @Sendable () -> ContinuousClock.Instant { { self.now.withLock { $0 } } }
    }

    @Test func eachClientHasABucketOfItsOwn() {
        let clock = TestClock()
        let limiter = RateLimiter(limit: RateLimit(perSecond: 1, burst: 2), clock: clock.read)
        #expect(limiter.take(.address("127.0.0.1")) == nil)
        #expect(limiter.take(.address("127.0.0.1")) == nil)
        #expect(limiter.take(.address("127.0.0.1")) == .seconds(1))
        #expect(limiter.take(.address("127.0.0.2")) == nil)
        #expect(limiter.take(.user("127.0.0.1")) == nil)
        clock.advance(.seconds(1))
        #expect(limiter.take(.address("127.0.0.1")) == nil)
        #expect(limiter.take(.address("127.0.0.1")) == .seconds(1))
    }

    @Test func theLeastRecentlyUsedBucketGoesBeyondTheMaximum() {
        let clock = TestClock()
        let limiter = RateLimiter(limit: RateLimit(perSecond: 1, burst: 1, maximumClients: 2), clock: clock.read)
        #expect(limiter.take(.user("a")) == nil)
        #expect(limiter.take(.user("b")) == nil)
        // a was used after b (a refusal counts as a use): c's bucket takes b's place.
        #expect(limiter.take(.user("a")) != nil)
        #expect(limiter.take(.user("c")) == nil)
        #expect(limiter.count == 2)
        #expect(limiter.take(.user("a")) != nil)  // still empty: kept
        #expect(limiter.take(.user("b")) == nil)  // a full bucket again: it was evicted
        #expect(limiter.count == 2)
    }

    /// A WebSocket's wait for a token ends once one has grown.
    @Test func waitingForATokenTakesOne() async {
        let limiter = RateLimiter(limit: RateLimit(perSecond: 100, burst: 1))
        await limiter.waitForToken(.user("a"))
        await limiter.waitForToken(.user("a"))  // ~10 ms
        #expect(limiter.take(.user("a")) != nil)
    }
}

/// The rate limits over HTTP and WebSocket.
@Suite(.timeLimit(.minutes(2)))
struct RateLimitTests {
    /// In-process requests have no peer address: only the users' buckets apply.
    @Test func aUserBeyondTheRateGets429WithRetryAfterAndOthersAreServed() async throws {
        let fixture = try Fixture()
        let options = ServerOptions(
            // One token every 20 s: however slow the machine, the third request comes before the next token.
            identity: .insecureUserParameter, rateLimit: RateLimit(perSecond: 0.05, burst: 2))
        let server = SuggestServer(configuration: try fixture.configuration(), options: options)
        try await server.makeApplication().test(.router) { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/suggest?q=py&user=alice", method: .get) { #expect($0.status == .ok) }
            }
            try await client.execute(uri: "/suggest?q=py&user=alice", method: .get) { response in
                #expect(response.status == .tooManyRequests)
                // The wait left, rounded up: 20 s less the time the first requests took.
                let retryAfter = Int(response.headers[.retryAfter] ?? "") ?? 0
                #expect((1...20).contains(retryAfter))
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(
                    object(String(buffer: response.body))["error"] as? String
                        == "too many requests: at most 0.05 a second per user (bursts of 2); try again in \(retryAfter) s")
            }
            try await client.execute(uri: "/reset?user=alice", method: .post, headers: [.contentType: "application/json"]) {
                #expect($0.status == .tooManyRequests)
            }
            try await client.execute(uri: "/suggest?q=py&user=bob", method: .get) { #expect($0.status == .ok) }
            // Health checks are not limited.
            for _ in 0..<10 { try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) } }
        }
    }

    /// A heavy client (127.0.0.1, two connections sending as fast as they can) gets 429s while a light one
    /// (127.0.0.2, below the rate) is served every time, and no more than a few of the heavy client's answers go
    /// out while a light request waits for its own (counted, not timed).
    @Test func aLightClientIsServedWhileAHeavyOneGets429() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--rate-limit", "10", "--rate-burst", "10"])
        let port = server.port
        final class Shared: Sendable {
            let stop = Atomic(false)
            let answers = Atomic(0)
        }
        let shared = Shared()
        let start = ContinuousClock.now
        let heavy = Task.detached { () -> (ok: Int, limited: Int, other: [String], retryAfter: Set<String>) in
            await withTaskGroup(of: (Int, Int, [String], Set<String>).self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        var ok = 0, limited = 0, other: [String] = [], retryAfter: Set<String> = []
                        guard let connection = try? LoopbackConnection(port: port) else { return (0, 0, ["no connection"], []) }
                        while !shared.stop.load(ordering: .relaxed) {
                            let response = await connection.exchange("GET", "/suggest?q=py", port: port)
                            shared.answers.add(1, ordering: .relaxed)
                            switch response.status {
                            case 200: ok += 1
                            case 429:
                                limited += 1
                                retryAfter.insert(response.headers["retry-after"] ?? "none")
                                if !(response.error ?? "").hasPrefix("too many requests: at most 10 a second per address") {
                                    other.append("\(response)")
                                }
                            default:
                                other.append("\(response)")
                                return (ok, limited, other, retryAfter)
                            }
                        }
                        return (ok, limited, other, retryAfter)
                    }
                }
                var total = (ok: 0, limited: 0, other: [String](), retryAfter: Set<String>())
                for await (ok, limited, other, retryAfter) in group {
                    total.ok += ok
                    total.limited += limited
                    total.other += other
                    total.retryAfter.formUnion(retryAfter)
                }
                return total
            }
        }
        // Let the heavy client use up its burst first.
        try await Task.sleep(for: .milliseconds(300))
        let light = try LoopbackConnection(port: port, from: "127.0.0.2")
        var lightStatuses: [Int] = []
        var heavyDuringLight: [Int] = []
        for _ in 0..<15 {
            let before = shared.answers.load(ordering: .relaxed)
            let response = await light.exchange("GET", "/suggest?q=py", port: port)
            heavyDuringLight.append(shared.answers.load(ordering: .relaxed) - before)
            lightStatuses.append(response.status)
            try await Task.sleep(for: .milliseconds(150))  // under 10 a second
        }
        shared.stop.store(true, ordering: .relaxed)
        let result = await heavy.value
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(lightStatuses == Array(repeating: 200, count: 15), "\(lightStatuses)")
        #expect(result.other.isEmpty, "\(result.other.prefix(3))")
        #expect(result.limited > 0)
        #expect(result.retryAfter == ["1"], "\(result.retryAfter)")
        // The burst, then 10 a second.
        #expect(Double(result.ok) <= 10 + 10 * seconds + 1, "\(result.ok) served in \(seconds) s")
        // A refusal is cheap, so the heavy client's answers go on while a light request is served; but a light
        // request never waits behind a queue of them.
        #expect(heavyDuringLight.max() ?? 0 <= 50, "heavy answers during each light request: \(heavyDuringLight)")
        print("heavy: \(result.ok) served, \(result.limited) refused in \(seconds) s; heavy answers during each light request: \(heavyDuringLight)")
    }

    /// Keystrokes above the rate on a WebSocket wait (the newest one wins) instead of closing the socket.
    @Test func aWebSocketAboveTheRateWaitsAndStaysOpen() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--rate-limit", "2", "--rate-burst", "2"])
        let socket = try await RawWebSocket(port: server.port)
        var flood: [UInt8] = []
        for i in 0..<40 { flood += RawWebSocket.frame(Array(#"{"text":"k\#(i)"}"#.utf8)) }
        flood += RawWebSocket.frame(Array(#"{"text":"py"}"#.utf8))
        socket.connection.send(bytes: flood)
        let (seen, close) = await socket.read(timeout: 20) { texts in
            texts.last.map { object($0)["text"] as? String } == "py"
        }
        #expect(close == nil)
        #expect(seen.last.map { object($0)["text"] as? String } == "py")
        #expect(texts(seen.last ?? "") == ["python", "pytest"])
        // The upgrade took one token, the burst's other one a keystroke, then one more after half a second: by
        // then every keystroke had come, and the newest won.
        #expect(seen.count <= 3, "\(seen.count) answers: \(seen)")
        socket.sendText(#"{"reset":true}"#)
        let (acknowledged, close2) = await socket.read(texts: 1, timeout: 10)
        #expect(close2 == nil)
        #expect(acknowledged.last == #"{"reset":true}"#, "\(acknowledged)")
    }

    /// Bad values are refused at start, naming the option.
    @Test(arguments: [
        (["--rate-limit=-1"], "--rate-limit: expected requests per second from 0"),
        (["--rate-limit", "nan"], "--rate-limit: expected requests per second from 0"),
        (["--rate-burst", "0"], "--rate-burst: expected 1 to 1000000"),
        (["--rate-limit", "0", "--rate-burst", "5"], "--rate-burst: needs a --rate-limit above 0"),
        (["--body-timeout", "0"], "--body-timeout: expected seconds above 0"),
    ])
    func rateAndBodyOptionsAreChecked(_ arguments: [String], _ message: String) async throws {
        let fixture = try Fixture()
        let (status, error) = try await SpawnedServer.failure(fixture, arguments)
        #expect(status != 0)
        #expect(error.contains(message), "\(error)")
    }

    // MARK: Body timeout

    static func partialPost(_ target: String, declared: Int, sent: String) -> String {
        "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(declared)\r\n\r\n"
            + sent
    }

    /// A POST whose body stops coming: 408 and closed once the body timeout has passed.
    @Test func aBodyNotCompleteInTimeIsAnswered408AndClosed() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--insecure-user-parameter", "--body-timeout", "1"])
        let connection = try LoopbackConnection(port: server.port)
        let start = ContinuousClock.now
        connection.send(Self.partialPost("/submit?user=alice", declared: 100, sent: #"{"text": "py"#))
        let (text, closed) = await connection.readToEnd(timeout: 6)
        let elapsed = ContinuousClock.now - start
        let response = RawResponse(parsing: text)
        #expect(response.status == 408, "\(response)")
        #expect(response.error == "request body not complete within 1 s")
        #expect(response.headers["connection"] == "close")
        #expect(closed)
        #expect(elapsed >= .milliseconds(900) && elapsed < .milliseconds(4000), "\(elapsed)")
        #expect(try await server.get("/health").status == 200)
    }

    /// A body that arrives in parts within the timeout is read as usual.
    @Test func aSlowBodyWithinTheTimeoutIsServed() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--insecure-user-parameter", "--body-timeout", "2"])
        let connection = try LoopbackConnection(port: server.port)
        let body = #"{"text": "python tutorial"}"#
        connection.send(Self.partialPost("/submit?user=alice", declared: body.utf8.count, sent: String(body.prefix(10))))
        try await Task.sleep(for: .milliseconds(500))
        connection.send(String(body.dropFirst(10)))
        let response = await connection.readResponse()
        #expect(response.status == 200, "\(response)")
        // Served whole: this server has no users folder, so the search is acknowledged as kept in memory.
        #expect(response.body.hasPrefix(#"{"submitted":"python tutorial","stored":false"#), "\(response.body)")
    }

    /// A request answered before its body came (an anonymous POST is refused at once): the rest of the body has the
    /// body timeout too, then the connection closes.
    @Test func aBodyStillComingAfterTheAnswerIsCutAtTheTimeout() async throws {
        let fixture = try Fixture()
        let server = try await SpawnedServer(fixture, ["--body-timeout", "1", "--keep-alive-timeout", "60"])
        let connection = try LoopbackConnection(port: server.port)
        let start = ContinuousClock.now
        connection.send(Self.partialPost("/submit", declared: 100, sent: #"{"text""#))
        let (text, closed) = await connection.readToEnd(timeout: 6)
        let elapsed = ContinuousClock.now - start
        #expect(RawResponse(parsing: text).status == 403, "\(text)")
        #expect(closed)
        #expect(elapsed < .milliseconds(4000), "\(elapsed)")
    }
}
#endif
