#if Server
import Foundation
import HTTPTypes
import Hummingbird
import SuggestCore
import SuggestWire
import Synchronization

/// What a browser may do: which `Host` names the server answers to, which origins may call it from a page, and
/// the rules every request meets before it is routed (``BrowserGate``). See the guide's "Browsers".
final class BrowserPolicy: Sendable {
    /// The names besides the loopback ones (`Host` with or without a port; `*` any).
    let allowedHosts: [(name: String, port: Int?)]
    let anyHost: Bool
    /// Exact origins (`https://app.example.com`), lowercased.
    let allowedOrigins: Set<String>
    /// The port the server listens on (the bound one once known: `--port 0` picks one).
    let port: Atomic<Int>

    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
    /// `Access-Control-Max-Age` of an allowed preflight, in seconds.
    static let preflightMaxAge = 600

    init(options: ServerOptions) {
        anyHost = options.allowedHosts.contains("*")
        allowedHosts = options.allowedHosts.filter { $0 != "*" }.map { Self.split($0.lowercased()) }
        allowedOrigins = Set(options.allowedOrigins.map { $0.lowercased() })
        port = Atomic(options.port)
    }

    /// `name[:port]` (`[v6]:port` for an IPv6 literal); a port that is not a number is kept in the name (and then
    /// matches nothing).
    static func split(_ authority: String) -> (name: String, port: Int?) {
        guard let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") else {
            return (authority, nil)
        }
        guard let port = Int(authority[authority.index(after: colon)...]) else { return (authority, nil) }
        return (String(authority[..<colon]), port)
    }

    /// Nil when the server answers to `authority` (the `Host` header); otherwise the refusal: 400 without a Host,
    /// 421 (Misdirected Request) for a name that is neither a loopback one on the server's port nor allowed.
    func hostProblem(_ authority: String?) -> RequestProblem? {
        guard let authority, !authority.isEmpty else { return RequestProblem(.badRequest, "missing Host header") }
        if anyHost { return nil }
        let (name, port) = Self.split(authority.lowercased())
        if Self.loopbackNames.contains(name), port == nil || port == self.port.load(ordering: .relaxed) { return nil }
        for allowed in allowedHosts where allowed.name == name && (allowed.port == nil || allowed.port == port) {
            return nil
        }
        return RequestProblem(
            .misdirectedRequest, "this server does not answer to Host \"\(authority.prefix(100))\" (see --allowed-host)")
    }

    /// Whether a request with this `Origin` may be answered: the page is on the server's own origin (`http://` or
    /// `https://` and the `Host`), or its origin was allowed. A `ws://` or `wss://` origin is no page's (browsers
    /// send the page's origin; some WebSocket client libraries send the URL's own): taken as no `Origin`.
    func accepts(origin: String, host: String?) -> Bool {
        let origin = origin.lowercased()
        if allowedOrigins.contains(origin) || origin.hasPrefix("ws://") || origin.hasPrefix("wss://") { return true }
        guard let host = host?.lowercased() else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }

    /// The refusal of a request whose `Host` or `Origin` is not accepted (steps 1 and 2 of ``BrowserGate``).
    func problem(with request: Request) -> RequestProblem? {
        let authority = request.head.authority
        if let problem = hostProblem(authority) { return problem }
        if let origin = request.headers[.origin], !accepts(origin: origin, host: authority) {
            return RequestProblem(.forbidden, "origin \"\(origin.prefix(100))\" is not allowed (see --allow-origin)")
        }
        return nil
    }

    /// Whether `text` is an exact origin: `http` or `https`, `://`, a host and an optional port, nothing else.
    static func isOrigin(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.path.isEmpty, url.query == nil, url.fragment == nil,
            url.user == nil, url.password == nil
        else { return false }
        return text.lowercased() == "\(scheme)://\(host.lowercased())" + (url.port.map { ":\($0)" } ?? "")
            || text.lowercased() == "\(scheme)://[\(host.lowercased())]" + (url.port.map { ":\($0)" } ?? "")
    }
}

/// The rules every request meets before it is routed, in this order:
/// 1. `Host` (DNS rebinding): ``BrowserPolicy/hostProblem(_:)``, 421 or 400.
/// 2. `Origin`, when the request has one (browsers send it on every cross-origin request, on POSTs and on
///    WebSocket upgrades): the server's own origin or an allowed one, else 403. No `Origin`: not a browser's
///    cross-origin request, allowed.
/// 3. CORS preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin: 204 with
///    `Access-Control-Allow-Origin`, `-Methods` (GET, POST), `-Headers` (Authorization, Content-Type), `-Max-Age`.
/// 4. `POST` needs `Content-Type: application/json`, else 415: a page cannot send that cross-origin without a
///    preflight, which closes the form / `text/plain` CSRF.
/// Every answer to an allowed cross-origin request (errors included) carries `Access-Control-Allow-Origin`.
struct BrowserGate<Context: RequestContext>: RouterMiddleware {
    let policy: BrowserPolicy

    @concurrent
    func handle(
        _ request: Request,
        context: Context,
        next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let problem = policy.problem(with: request) { return Self.refusal(problem) }
        let origin = request.headers[.origin]
        let crossOrigin = origin.flatMap { policy.allowedOrigins.contains($0.lowercased()) ? $0 : nil }
        if request.method == .options, let crossOrigin, request.headers[.accessControlRequestMethod] != nil {
            return Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: crossOrigin,
                    .accessControlAllowMethods: "GET, POST",
                    .accessControlAllowHeaders: "Authorization, Content-Type",
                    .accessControlMaxAge: String(BrowserPolicy.preflightMaxAge),
                    .vary: "Origin",
                ]
            )
        }
        var response: Response
        if request.method == .post, !Self.isJSON(request.headers[.contentType]) {
            response = Self.refusal(RequestProblem(.unsupportedMediaType, "POST needs Content-Type: application/json"))
        } else {
            response = try await next(request, context)
        }
        if let crossOrigin {
            response.headers[.accessControlAllowOrigin] = crossOrigin
            response.headers[.accessControlExposeHeaders] = "WWW-Authenticate"
            response.headers.append(HTTPField(name: .vary, value: "Origin"))
        }
        return response
    }

    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    static func refusal(_ problem: RequestProblem) -> Response {
        var response = Response.json(SuggestRequestID.errorJSON(problem.message), status: problem.status)
        response.headers.append(contentsOf: problem.headers)
        return response
    }
}
/// The WebSocket router's outermost middleware: a refused upgrade (Host, Origin, credentials, a bad parameter) is
/// answered with its own status, headers and JSON body. Hummingbird answers every upgrade its WebSocket router does
/// not make with a bare 400, so the refusal is handed to the connection's ``QuiesceBeforeFirstRequestHandler``,
/// which sends it in place of that 400.
struct UpgradeRefusal: RouterMiddleware {
    let policy: BrowserPolicy

    @concurrent
    func handle(
        _ request: Request,
        context: SuggestRequestContext,
        next: @concurrent (Request, SuggestRequestContext) async throws -> Response
    ) async throws -> Response {
        var problem = policy.problem(with: request)
        if problem == nil {
            do {
                return try await next(request, context)
            } catch let refusal as RequestProblem {
                problem = refusal
            }
        }
        guard let problem else { return Response(status: .badRequest) }
        await QuiesceBeforeFirstRequestHandler.refuse(context.channel, with: problem)
        return Response(status: problem.status)
    }
}
#endif
