#if Server
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
public import SuggestCore
import SuggestWire

/// Suggestions from another `suggest serve` (`"type": "remote"`): each keystroke asks its `GET /suggest` and merges
/// the answer with the local providers, so an engine can join its own recent searches with a shared server's
/// catalogue.
///
/// ```json
/// {"type": "remote", "url": "http://127.0.0.1:8080", "deadlineMilliseconds": 150, "minIntervalMilliseconds": 120,
///  "section": "Catalogue"}
/// ```
///
/// - **Asynchronous:** ``execution`` is `.asynchronous(deadline:)`, so `SuggestionEngine/results(for:)` shows the
///   local suggestions at once and the remote ones when they come; the async keystroke call waits at most the
///   deadline. A server that is down, slow, or answers an error is a provider error in the keystroke's
///   diagnostics, never a failed keystroke.
/// - **Who is asking:** for a server that verifies bearer tokens (`suggest serve --jwt-secret-file` or `--jwks-file`),
///   `tokenFile` names a file holding the token (a JWT whose `sub` is the user the server sees); each request sends
///   `Authorization: Bearer TOKEN`. The token is read once, when the configuration is loaded (surrounding whitespace
///   and line breaks dropped); a file that cannot be read, is empty, or holds anything but visible ASCII is an error
///   naming `tokenFile`. The token is never written in the configuration itself, so the JSON can be shared while the
///   file stays private. `user` and `tokenFile` do not go together (such a server refuses `user=`).
/// - **What is sent:** the text, tokens and scope of the keystroke (and `user`, when configured). The remote's
///   ranking is kept: its tier, typos and ranges, and its score as the popularity (times this entry's `weight`).
/// - **Fast typing:** with `minIntervalMilliseconds` (``minimumInterval``), a search field asks the server for a
///   keystroke that came sooner than that after the previous one only once typing pauses that long, and always for
///   the last keystroke (`SuggestionProvider/minimumInterval`); the local providers answer every keystroke at once.
/// - **Limits:** an answer larger than 1 MiB is an error; at most the engine's limit of suggestions is taken.
/// - **A server that is down** is not asked on every keystroke: a refused connection fails at once (connections are
///   not retried), and after 3 failures in a row (a failed connection, a timeout, a 5xx status) the ``breaker``
///   opens: keystrokes skip the server at once, and one keystroke asks it again after 0.5 s, then 1, 2, 4, 8 s
///   while it stays down. The first answer closes it.
public struct RemoteProvider: ConfigurableProvider {
    public struct Configuration: Decodable, Sendable {
        /// The server's base URL (`http://host:port`).
        public var url: String
        /// How long a keystroke waits for the server (default 200 ms).
        public var deadlineMilliseconds: Int
        /// A user id sent as `user=` (the remote's per-user recents); none by default.
        public var user: String?
        /// While keystrokes come faster than this, the server is asked only once typing pauses this long (and
        /// always for the last keystroke); 0 to 5000, default 0: every keystroke is asked.
        public var minIntervalMilliseconds: Int
        /// A file holding the bearer token sent as `Authorization: Bearer TOKEN`, relative to the configuration
        /// file; none by default (no `Authorization` header).
        public var tokenFile: String?

        private enum CodingKeys: String, CodingKey {
            case url, deadlineMilliseconds, user, minIntervalMilliseconds, tokenFile
        }

        public init(
            url: String,
            deadlineMilliseconds: Int = 200,
            user: String? = nil,
            minIntervalMilliseconds: Int = 0,
            tokenFile: String? = nil
        ) {
            self.url = url
            self.deadlineMilliseconds = deadlineMilliseconds
            self.user = user
            self.minIntervalMilliseconds = minIntervalMilliseconds
            self.tokenFile = tokenFile
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            url = try c.decode(String.self, forKey: .url)
            deadlineMilliseconds = try c.decodeIfPresent(Int.self, forKey: .deadlineMilliseconds) ?? 200
            user = try c.decodeIfPresent(String.self, forKey: .user)
            minIntervalMilliseconds =
                try c.decodeIfPresent(Int.self, forKey: .minIntervalMilliseconds, in: Self.minIntervalRange) ?? 0
            tokenFile = try c.decodeIfPresent(String.self, forKey: .tokenFile)
        }

        /// The values `minIntervalMilliseconds` may take.
        public static let minIntervalRange = 0...5_000
    }

    public static let typeName = "remote"

    public let id: String
    /// The `…/suggest` endpoint.
    public let endpoint: String
    public let deadline: Duration
    public let user: String?
    /// While keystrokes come faster than this, the server is asked only once typing pauses (see
    /// `SuggestionProvider/minimumInterval`); `.zero`: every keystroke.
    public let minimumInterval: Duration
    /// Whether the server is asked (shared by the copies of this provider).
    public let breaker: CircuitBreaker
    /// The bearer token sent with each request (nil: none); no error or note of this provider holds it.
    let bearerToken: String?

    /// The largest answer read, in bytes.
    public static let maximumAnswerBytes = 1 << 20

    public var execution: ProviderExecution { .asynchronous(deadline: deadline) }

    /// A provider asking the server at `url` (scheme, host, port, optional path prefix).
    /// - Parameters:
    ///   - id: the provider's id in results and diagnostics.
    ///   - url: the server's base URL; requests go to `URL/suggest`.
    ///   - deadline: how long a keystroke waits for the server.
    ///   - user: sent as `user=` (nil: not sent).
    ///   - minimumInterval: while keystrokes come faster than this, the server is asked only once typing pauses
    ///     (``minimumInterval``); `.zero` (or less): every keystroke.
    ///   - bearerToken: sent as `Authorization: Bearer TOKEN` with each request (nil: no `Authorization` header).
    public init(
        id: String = "remote",
        url: String,
        deadline: Duration = .milliseconds(200),
        user: String? = nil,
        minimumInterval: Duration = .zero,
        bearerToken: String? = nil
    ) {
        self.id = id
        self.bearerToken = bearerToken
        self.minimumInterval = max(minimumInterval, .zero)
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        self.endpoint = base + "/suggest"
        self.deadline = deadline
        self.user = user
        self.breaker = CircuitBreaker()
    }

    public init(configuration: Configuration, context: ProviderContext) throws {
        guard configuration.url.hasPrefix("http://") || configuration.url.hasPrefix("https://"),
            URL(string: configuration.url)?.host != nil
        else {
            throw context.error(at: "url", "expected an http:// or https:// URL with a host, found \"\(configuration.url)\"")
        }
        guard Configuration.minIntervalRange.contains(configuration.minIntervalMilliseconds) else {
            throw context.error(
                at: "minIntervalMilliseconds",
                "expected an integer from 0 to 5000, found \(configuration.minIntervalMilliseconds)"
            )
        }
        guard (1...60_000).contains(configuration.deadlineMilliseconds) else {
            throw context.error(
                at: "deadlineMilliseconds",
                "expected an integer from 1 to 60000, found \(configuration.deadlineMilliseconds)"
            )
        }
        var token: String? = nil
        if let file = configuration.tokenFile {
            guard configuration.user == nil else {
                throw context.error(
                    at: "user", "not with tokenFile: a server that takes bearer tokens knows the user from the token")
            }
            token = try Self.readToken(file, context: context)
        }
        self.init(
            id: context.id,
            url: configuration.url,
            deadline: .milliseconds(configuration.deadlineMilliseconds),
            user: configuration.user,
            minimumInterval: .milliseconds(configuration.minIntervalMilliseconds),
            bearerToken: token
        )
    }

    /// The token in `file` (relative to the configuration), without surrounding whitespace.
    /// - Throws: an error at `tokenFile` when the file cannot be read, is empty, or holds anything but visible ASCII.
    static func readToken(_ file: String, context: ProviderContext) throws -> String {
        guard !file.isEmpty else { throw context.error(at: "tokenFile", "expected a file path, found an empty string") }
        let path = context.resolve(file)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw context.error(at: "tokenFile", "\(path): cannot be read: \(reason)")
        }
        var bytes = ArraySlice(data)
        while let first = bytes.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D {
            bytes.removeFirst()
        }
        while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { bytes.removeLast() }
        guard !bytes.isEmpty else { throw context.error(at: "tokenFile", "\(path): the file is empty") }
        guard bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw context.error(
                at: "tokenFile", "\(path): a bearer token is visible ASCII only (no spaces or line breaks inside)")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The request URL for `query`.
    public func url(for query: SearchQuery) -> String {
        var url = endpoint + "?q=" + Self.percentEncoded(query.text)
        if let scope = query.scope { url += "&scope=" + Self.percentEncoded(scope.name) }
        if !query.tokens.isEmpty { url += "&tokens=" + Self.percentEncoded(JSONWriter.tokens(query.tokens)) }
        if let user { url += "&user=" + Self.percentEncoded(user) }
        return url
    }

    public func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
        let trial: Bool
        switch breaker.decide() {
        case .ask(let isTrial): trial = isTrial
        case .skip(let lastError):
            throw RemoteError("\(endpoint) is down (\(lastError)): not asked; it is asked again after a pause")
        }
        var http = HTTPClientRequest(url: url(for: request.query.query))
        if let bearerToken { http.headers.add(name: "Authorization", value: "Bearer " + bearerToken) }
        let response: HTTPClientResponse
        let body: [UInt8]
        do {
            // The request gives up a little before the engine's deadline, so that a server that does not answer in
            // time counts as failed (the engine's own cancellation is not counted: it also ends superseded
            // keystrokes).
            response = try await Self.client.execute(http, timeout: .nanoseconds(Self.nanoseconds(deadline) / 10 * 9))
            body = Array(buffer: try await response.body.collect(upTo: Self.maximumAnswerBytes))
        } catch {
            if Task.isCancelled {
                breaker.abandoned(trial: trial)
                throw CancellationError()
            }
            let message = Self.describe(error)
            breaker.failed(message, trial: trial)
            throw RemoteError("\(endpoint): \(message)")
        }
        if response.status.code >= 500 {
            breaker.failed("status \(response.status.code)", trial: trial)
        } else {
            breaker.succeeded()
        }
        let answer: JSONValue
        do {
            answer = try JSONParser.parse(body)
        } catch {
            throw RemoteError("\(endpoint): answer is not JSON (status \(response.status.code))")
        }
        guard response.status == .ok else {
            throw RemoteError("\(endpoint): status \(response.status.code): \(answer["error"]?.stringValue ?? "no message")")
        }
        return try Self.output(from: answer, limit: request.limit)
    }

    /// A short text for a failed request: AsyncHTTPClient's errors describe themselves at length.
    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded: return "no answer within the deadline"
            case .connectTimeout: return "connection timed out"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: break
            }
        }
        let text = "\(error)"
        if text.contains("Connection refused") { return "connection refused" }
        if text.contains("connectTimeout") || text.contains("Connection timed out") { return "connection timed out" }
        return text
    }

    /// The HTTP client of every remote provider: AsyncHTTPClient's defaults, except that a connection that cannot be
    /// made fails its request at once instead of being retried until the request's timeout (the breaker decides when
    /// to try again). It lives as long as the process, like `HTTPClient.shared`.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(2)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// The candidates of another `suggest serve`'s answer (read by SuggestWire's `BatchAnswer`).
    public static func output(from answer: JSONValue, limit: Int) throws -> ProviderOutput {
        do {
            return try BatchAnswer.output(from: answer, limit: limit)
        } catch {
            throw RemoteError(error.message)
        }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// RFC 3986 unreserved characters stay; every other byte is `%XX`.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            let unreserved =
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D
                || b == 0x2E || b == 0x5F || b == 0x7E
            if unreserved {
                out.append(b)
            } else {
                out.append(0x25)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

public struct RemoteError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension ProviderRegistry {
    /// Adds the `remote` provider type.
    public mutating func registerRemote() { register(RemoteProvider.self) }
}
#endif
