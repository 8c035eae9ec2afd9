#if Server
import Logging
import Suggest

extension SuggestServer {
    /// The acknowledgement of a submit by `user` (nil: anonymous) just made on `engine`. A submit whose recents could
    /// not be written is logged (through `logger`, default the server's) with the file's path and counted in
    /// `suggest_submits_unsaved_total`.
    ///
    /// With a users database, waits (at most `UsersDatabase.Options.submitWait`) until the database has committed
    /// every change of the user's recents made so far, this submit's included: `.stored` only then, else `.queued`.
    func receipt(forSubmitOn engine: SuggestionEngine, user: String?, logger: Logger? = nil) async -> SubmitReceipt {
        let logger = logger ?? self.logger
        if let database = users.options.recentsDatabase, let user {
            let stores = engine.slots.compactMap { ($0.provider as? RecentsProvider)?.store as? DatabaseRecentsStore }
            if !stores.isEmpty {
                var unwritten: [String] = []
                for store in stores where !(await database.write(store, through: store.lastSequence)) {
                    unwritten.append(store.provider)
                }
                if unwritten.isEmpty { return .stored }
                metrics.submitUnsaved()
                for provider in unwritten {
                    logger.error(
                        "\(user): \(provider): submitted search kept in memory: not confirmed by the users database (\(database.location)); written when it answers"
                    )
                }
                return .queued
            }
        }
        let receipt = SubmitReceipt.of(engine, anonymous: user == nil)
        if case .unsaved(let problems) = receipt {
            metrics.submitUnsaved()
            for problem in problems {
                logger.error(
                    "\(user ?? "anonymous"): \(problem.provider): submitted search kept in memory only: \(problem.message)")
            }
        }
        return receipt
    }

    /// With a users database: writes `engine`'s queued changes (a recorded selection), waiting at most
    /// `UsersDatabase.Options.submitWait`. - Returns: whether they are written (true without a users database).
    func writeQueued(of engine: SuggestionEngine) async -> Bool {
        guard let database = users.options.recentsDatabase else { return true }
        var written = true
        for case let store as DatabaseRecentsStore in engine.slots.compactMap({ ($0.provider as? RecentsProvider)?.store })
        where !(await database.write(store, through: store.lastSequence)) {
            written = false
        }
        return written
    }

    /// Once the application has stopped: saves again every user's recents not saved yet (those that failed during
    /// the run or in the shutdown save), logging each failure with its path.
    /// - Returns: how many users' recent searches are lost: still not saved now, or dropped during the run
    ///   (``UserEngines/usersLost``). 0 when everything is on disk (or recents are kept in memory only).
    ///   With a users database: the users whose changes it has not confirmed (after ``flushUsersDatabase(within:)``),
    ///   or who lost changes beyond `UsersDatabase.Options.maximumQueuedChanges`.
    public func saveBeforeExit() -> Int {
        let failures = users.saveAll()
        for failure in failures { logger.error("\(failure)") }
        var unwritten: [String] = []
        if let database = users.options.recentsDatabase {
            unwritten = database.usersWithQueuedChanges
            for user in unwritten {
                logger.error("\(user): recent searches not written to the users database (\(database.location)): lost")
            }
            let overflowed = database.usersWithLostChanges
            if !overflowed.isEmpty {
                logger.error(
                    "\(database.lostChanges) changes of \(overflowed.count) users were never written to the users database (\(database.location)): more than \(database.options.maximumQueuedChanges) waited while it was down"
                )
            }
            unwritten += overflowed
        }
        return Set(failures.map(\.user) + unwritten).count + users.usersLost
    }

    /// With a users database: writes every queued change, trying until `limit` has passed (at shutdown).
    /// - Returns: the users whose changes are still not written (empty without a users database).
    @discardableResult
    public func flushUsersDatabase(within limit: Duration = .seconds(10)) async -> [String] {
        guard let database = users.options.recentsDatabase else { return [] }
        return await database.flush(within: limit)
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
