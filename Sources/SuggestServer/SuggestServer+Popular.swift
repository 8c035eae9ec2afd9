#if Server
import Logging
import Suggest

extension SuggestServer {
    /// Writes the popular searches not written yet (``UserEngines/savePopular()``), logging and counting
    /// (`suggest_popular_save_failures_total`) each failure.
    /// - Returns: the failures' descriptions.
    @discardableResult
    func savePopular() -> [String] {
        let problems = users.savePopular().map(\.description)
        metrics.popularSaveFailed(problems.count)
        for problem in problems { logger.error("\(problem)") }
        return problems
    }

    /// Once the application has stopped: writes again the popular searches not written yet, logging each failure.
    /// - Returns: how many popular providers' counts are not on disk (0 when everything is written, or kept in
    ///   memory only as configured).
    public func savePopularBeforeExit() -> Int {
        savePopular().count
    }
}
#endif
