#if Server
import CoreMetrics
import Metrics
import Suggest
import Synchronization

/// The server's metrics: a request latency timer per route and status, and a time per provider per keystroke.
/// Uses the factory it is given (tests pass a test one) or the process's `MetricsSystem`.
final class ServerMetrics: Sendable {
    let factory: (any MetricsFactory)?
    private let timers = Mutex<[String: Metrics.Timer]>([:])

    init(factory: (any MetricsFactory)?) { self.factory = factory }

    private func timer(_ label: String, _ dimensions: [(String, String)]) -> Metrics.Timer {
        let key = label + dimensions.map { "|\($0.0)=\($0.1)" }.joined()
        return timers.withLock { timers in
            if let timer = timers[key] { return timer }
            let timer =
                if let factory { Metrics.Timer(label: label, dimensions: dimensions, factory: factory) } else {
                    Metrics.Timer(label: label, dimensions: dimensions)
                }
            timers[key] = timer
            return timer
        }
    }

    /// `suggest_request_duration{route, status}`.
    func request(route: String, status: Int, nanoseconds: Int64) {
        timer("suggest_request_duration", [("route", route), ("status", String(status))]).recordNanoseconds(nanoseconds)
    }

    /// `suggest_submits_unsaved_total`: one per submit acknowledged `"stored": false` because writing the user's
    /// recents failed (not for servers or connections that keep recents in memory only).
    func unsavedSubmit() {
        if let factory {
            Counter(label: "suggest_submits_unsaved_total", factory: factory).increment()
        } else {
            Counter(label: "suggest_submits_unsaved_total").increment()
        }
    }

    /// `suggest_provider_duration{provider}` for each provider of a keystroke's result.
    func providers(of result: SuggestionResult) {
        for report in result.diagnostics.providers {
            timer("suggest_provider_duration", [("provider", report.provider)])
                .recordNanoseconds(Int64(report.micros * 1000))
        }
    }
}
#endif
