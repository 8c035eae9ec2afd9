#if Server
public import CoreMetrics
import HTTPTypes
import Hummingbird
import NIOCore
import Suggest
public import Prometheus

/// `GET /metrics`: the Prometheus text exposition of a registry, for a scraper, not for browsers
/// (``ServerOptions/metrics``; `suggest serve --metrics`).
///
/// The server's own series (see the "Running in production" guide) are written to ``registry`` through
/// ``factory``; so is anything else in the process that uses `MetricsSystem` after it was bootstrapped with
/// ``factory`` (`suggest serve --metrics` does that).
///
/// Who may read it: a request is answered only when
/// - its peer address is in ``allowedClients`` (default: loopback, `127.0.0.0/8` and `::1`),
/// - it has no `Origin` header (a page's request, which a scraper never sends), and
/// - it has no `Forwarded` or `X-Forwarded-For` header (it came through a proxy, whose own address would be the
///   peer: a reverse proxy on the same machine would otherwise make the series public).
///
/// Any other request is refused with 403.
public struct MetricsEndpoint: Sendable {
    /// The registry `/metrics` shows.
    public let registry: PrometheusCollectorRegistry
    /// The peer addresses that may read `/metrics`.
    public var allowedClients: [AddressRange]

    /// Loopback: `127.0.0.0/8` and `::1`.
    public static var loopback: [AddressRange] {
        // Both are valid ranges: the initializer cannot fail on them.
        [try! AddressRange("127.0.0.0/8"), try! AddressRange("::1/128")]
    }

    /// - Parameters:
    ///   - registry: where the series are kept (a new, empty one by default).
    ///   - allowedClients: the peer addresses that may read `/metrics` (default: loopback only).
    public init(
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        allowedClients: [AddressRange] = MetricsEndpoint.loopback
    ) {
        self.registry = registry
        self.allowedClients = allowedClients
    }

    /// A swift-metrics factory writing into ``registry``: timers are histograms in seconds, with buckets from
    /// 100 µs (a provider's time per keystroke) to 10 s (a request).
    public var factory: any MetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.durationBuckets
        return factory
    }

    static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]

    /// Nil when a request from `peer` with `headers` may read `/metrics`; else the 403 refusing it.
    func problem(peer: String?, headers: HTTPFields) -> RequestProblem? {
        if headers[.origin] != nil {
            return RequestProblem(.forbidden, "/metrics is not for browsers (the request has an Origin header)")
        }
        if headers[Self.forwarded] != nil || headers[Self.xForwardedFor] != nil {
            return RequestProblem(
                .forbidden, "/metrics is not served through a proxy (Forwarded or X-Forwarded-For): scrape the server directly")
        }
        guard let peer, allowedClients.contains(where: { $0.contains(peer) }) else {
            return RequestProblem(.forbidden, "/metrics: this client's address is not allowed (see --metrics-allow)")
        }
        return nil
    }

    static let forwarded = HTTPField.Name("Forwarded")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// The exposition (`text/plain; version=0.0.4`), never cached.
    func response() -> Response {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
#endif

#if Server
extension SuggestServer {
    /// The factory of the server's metrics: `given` and the endpoint's (both when both are there), or either alone;
    /// nil (the process's `MetricsSystem`) without either.
    static func factory(_ given: (any MetricsFactory)?, _ endpoint: MetricsEndpoint?) -> (any MetricsFactory)? {
        switch (given, endpoint) {
        case (let given?, let endpoint?): MultiplexMetricsHandler(factories: [given, endpoint.factory])
        case (let given?, nil): given
        case (nil, let endpoint?): endpoint.factory
        case (nil, nil): nil
        }
    }

    /// Sets the gauges (open connections, sessions, users) to their values now.
    func sampleGauges() {
        metrics.sample(
            connections: connections.count, sessions: sessions.count, users: users.count,
            popularUnsaved: users.popularProviders.reduce(0) { $0 + $1.unsavedChangeCount }
                + (users.options.recentsDatabase?.unwrittenPopularSearches ?? 0))
    }
}
#endif
