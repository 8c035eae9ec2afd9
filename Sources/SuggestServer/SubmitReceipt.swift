#if Server
import Suggest
import SuggestCore

/// What a `submit` acknowledgement says about the submitting user's recent searches, for `POST /submit` and the
/// WebSocket `submit` message alike.
///
/// - ``stored``: every recent search of the user is written to their files (the one just submitted included),
///   or the configuration has no `"recent"` provider and there is nothing to keep. `POST /submit` answers 200.
/// - ``memoryOnly(reason:)``: the server keeps this user's recents in memory only (no users folder, or an anonymous
///   WebSocket connection): nothing is ever written, as configured, and nothing failed. `POST /submit` answers 200.
/// - ``unsaved(_:)``: writing failed (a read-only or full users folder, …): the searches are held in memory,
///   written with the user's next change, at eviction or at shutdown. `POST /submit` answers 202; the failure is
///   logged with the file's path and counted in `suggest_submits_unsaved_total`.
/// - ``queued``: the users database (`--users-database`) did not confirm the write in time or is down: the search
///   is held in memory and written when the database answers. `POST /submit` answers 202; it is logged and counted
///   in `suggest_submits_unsaved_total`.
enum SubmitReceipt: Sendable, Equatable {
    case stored
    case memoryOnly(reason: String)
    /// The providers whose recents are not written, each with the store's message (which names the file: for the
    /// log only, never for the client).
    case unsaved([Problem])
    /// Not confirmed by the users database (yet): queued in memory.
    case queued

    struct Problem: Sendable, Equatable {
        var provider: String
        var message: String
    }

    /// What the client is told when writing failed: no path, no system message.
    static let unsavedReason =
        "recent searches could not be written: they are kept in memory and written with the next change or at shutdown"

    /// What the client is told when the users database did not confirm the write: nothing about the database.
    static let queuedReason =
        "the users database did not confirm the write: the search is kept in memory and written when the database answers"

    /// The state of `engine`'s recents right after a submit.
    ///
    /// A provider's save problem is set by a failed write and cleared by the next successful one, which writes every
    /// change not written before: so no problem after this submit means it is written.
    static func of(_ engine: SuggestionEngine, anonymous: Bool) -> SubmitReceipt {
        let recents = engine.slots.compactMap { $0.provider as? RecentsProvider }
        guard !recents.isEmpty else { return .stored }
        if recents.allSatisfy({ $0.store == nil }) {
            return .memoryOnly(
                reason: anonymous
                    ? "an anonymous connection's recent searches are kept in memory and end with it"
                    : "this server keeps recent searches in memory only (no users folder)")
        }
        let problems = recents.compactMap { provider in
            provider.saveProblem.map { Problem(provider: provider.id, message: $0) }
        }
        return problems.isEmpty ? .stored : .unsaved(problems)
    }

    var isStored: Bool { self == .stored }

    /// Whether writing failed or is not confirmed (`POST /submit` answers 202 Accepted: held in memory, not stored).
    var isUnsaved: Bool {
        switch self {
        case .unsaved, .queued: return true
        case .stored, .memoryOnly: return false
        }
    }

    /// The acknowledgement: `{"submitted":TEXT,"stored":true}`, or `"stored":false` with a `"reason"`.
    func json(submitted text: String) -> String {
        let head = "{\"submitted\":" + JSONWriter.quoted(text) + ",\"stored\":"
        switch self {
        case .stored: return head + "true}"
        case .memoryOnly(let reason): return head + "false,\"reason\":" + JSONWriter.quoted(reason) + "}"
        case .unsaved: return head + "false,\"reason\":" + JSONWriter.quoted(Self.unsavedReason) + "}"
        case .queued: return head + "false,\"reason\":" + JSONWriter.quoted(Self.queuedReason) + "}"
        }
    }
}
#endif
