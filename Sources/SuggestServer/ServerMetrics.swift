#if Server
import CoreMetrics
import Metrics
import Suggest
import Synchronization

/// The server's metrics (the series of `GET /metrics`, see ``MetricsEndpoint``):
/// - `suggest_request_duration{route, status}`: a timer per route and status (seconds in Prometheus).
/// - `suggest_provider_duration{provider}`: each provider's time per keystroke.
/// - `suggest_connections_open`, `suggest_sessions`, `suggest_users`: gauges, sampled at each scrape of `/metrics`
///   and at each sweep (``ServerOptions/sweepInterval``).
/// - `suggest_connections_refused_total`: connections answered 503 for being beyond the maximum.
/// - `suggest_connections_evicted_total`: connections that had not sent a whole request, closed at the maximum to
///   make room for a new one.
/// - `suggest_rate_limited_total{scope}`: requests refused by a rate limit.
/// - `suggest_submits_unsaved_total`: submits (or selections) that were not saved to a user's store.
/// - `suggest_popular_save_failures_total`: failed attempts of the sweep (or of shutdown) to save a popular
///   provider's searches.
/// - `suggest_popular_unsaved`: counted popular searches not saved yet (not in the provider's file, or not written
///   to the users database), sampled with the other gauges.
///
/// Uses the factory it is given (tests pass a test one) or the process's `MetricsSystem`.
final class ServerMetrics: Sendable {
    let factory: (any MetricsFactory)?
    private let timers = Mutex<[String: Metrics.Timer]>([:])
    private let counters = Mutex<[String: Counter]>([:])
    let connectionsOpen: Gauge
    let sessions: Gauge
    let users: Gauge
    let connectionsRefused: Counter
    let connectionsEvicted: Counter
    let submitsUnsaved: Counter
    let popularSaveFailures: Counter
    let popularUnsaved: Gauge

    init(factory: (any MetricsFactory)?) {
        self.factory = factory
        func gauge(_ label: String) -> Gauge {
            if let factory { Gauge(label: label, dimensions: [], factory: factory) } else { Gauge(label: label) }
        }
        func counter(_ label: String) -> Counter {
            if let factory { Counter(label: label, dimensions: [], factory: factory) } else { Counter(label: label) }
        }
        connectionsOpen = gauge("suggest_connections_open")
        sessions = gauge("suggest_sessions")
        users = gauge("suggest_users")
        popularUnsaved = gauge("suggest_popular_unsaved")
        // Made now, so that a scrape shows them at 0 before the first event.
        connectionsRefused = counter("suggest_connections_refused_total")
        connectionsEvicted = counter("suggest_connections_evicted_total")
        submitsUnsaved = counter("suggest_submits_unsaved_total")
        popularSaveFailures = counter("suggest_popular_save_failures_total")
    }

    private static func key(_ label: String, _ dimensions: [(String, String)]) -> String {
        label + dimensions.map { "|\($0.0)=\($0.1)" }.joined()
    }

    private func timer(_ label: String, _ dimensions: [(String, String)]) -> Metrics.Timer {
        timers.withLock { timers in
            if let timer = timers[Self.key(label, dimensions)] { return timer }
            let timer =
                if let factory { Metrics.Timer(label: label, dimensions: dimensions, factory: factory) } else {
                    Metrics.Timer(label: label, dimensions: dimensions)
                }
            timers[Self.key(label, dimensions)] = timer
            return timer
        }
    }

    private func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        counters.withLock { counters in
            if let counter = counters[Self.key(label, dimensions)] { return counter }
            let counter =
                if let factory { Counter(label: label, dimensions: dimensions, factory: factory) } else {
                    Counter(label: label, dimensions: dimensions)
                }
            counters[Self.key(label, dimensions)] = counter
            return counter
        }
    }

    /// `suggest_request_duration{route, status}`.
    func request(route: String, status: Int, nanoseconds: Int64) {
        timer("suggest_request_duration", [("route", route), ("status", String(status))]).recordNanoseconds(nanoseconds)
    }

    /// `suggest_provider_duration{provider}` for each provider of a keystroke's result.
    func providers(of result: SuggestionResult) {
        for report in result.diagnostics.providers {
            timer("suggest_provider_duration", [("provider", report.provider)])
                .recordNanoseconds(Int64(report.micros * 1000))
        }
    }

    /// `suggest_rate_limited_total{scope}` + 1: a request refused by the rate limit of `scope` (such as `client` or
    /// `user`).
    func rateLimited(scope: String) {
        counter("suggest_rate_limited_total", [("scope", scope)]).increment()
    }

    /// `suggest_submits_unsaved_total` + 1: a submit acknowledged `"stored": false` because writing the user's
    /// recents failed (not for servers or connections that keep recents in memory only).
    func submitUnsaved() { submitsUnsaved.increment() }

    /// `suggest_connections_refused_total` + 1: a connection refused for being beyond the maximum.
    func connectionRefused() { connectionsRefused.increment() }

    /// `suggest_connections_evicted_total` + 1: a connection waiting for its first request closed to make room.
    func connectionEvicted() { connectionsEvicted.increment() }

    /// `suggest_popular_save_failures_total` + `count`.
    func popularSaveFailed(_ count: Int) { if count > 0 { popularSaveFailures.increment(by: count) } }

    /// Sets the gauges to what the server holds now.
    func sample(connections: Int, sessions: Int, users: Int, popularUnsaved: Int) {
        connectionsOpen.record(connections)
        self.sessions.record(sessions)
        self.users.record(users)
        self.popularUnsaved.record(popularUnsaved)
    }
}
#endif
