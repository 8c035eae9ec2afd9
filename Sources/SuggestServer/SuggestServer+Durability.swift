#if Server
import Logging
import Suggest

extension SuggestServer {
    /// The acknowledgement of a submit by `user` (nil: anonymous) just made on `engine`. A submit whose recents could
    /// not be written is logged (through `logger`, default the server's) with the file's path and counted in
    /// `suggest_submits_unsaved_total`.
    func receipt(forSubmitOn engine: SuggestionEngine, user: String?, logger: Logger? = nil) -> SubmitReceipt {
        let receipt = SubmitReceipt.of(engine, anonymous: user == nil)
        if case .unsaved(let problems) = receipt {
            metrics.submitUnsaved()
            let logger = logger ?? self.logger
            for problem in problems {
                logger.error(
                    "\(user ?? "anonymous"): \(problem.provider): submitted search kept in memory only: \(problem.message)")
            }
        }
        return receipt
    }

    /// Once the application has stopped: saves again every user's recents not saved yet (those that failed during
    /// the run or in the shutdown save), logging each failure with its path.
    /// - Returns: how many users' recent searches are lost: still not saved now, or dropped during the run
    ///   (``UserEngines/usersLost``). 0 when everything is on disk (or recents are kept in memory only).
    public func saveBeforeExit() -> Int {
        let failures = users.saveAll()
        for failure in failures { logger.error("\(failure)") }
        return Set(failures.map(\.user)).count + users.usersLost
    }
}

extension Caller {
    /// The user's id, nil for an anonymous caller.
    var userID: String? {
        if case .user(let user) = self { return user }
        return nil
    }
}
#endif
