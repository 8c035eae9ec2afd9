/// Why a ``RecentsStore`` could not read or write.
public struct RecentsStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Code: Hashable, Sendable {
        case corrupt(movedTo: String?)
        case corruptLeftAlone
        case unsupportedVersion(Int)
        case readOnly
        case io(operation: String, errno: Int32)
        case simulatedCrash
    }

    let code: Code
    /// The file (or store) at fault.
    public let path: String
    /// Details: the decoder's message, the system's error text.
    public let reason: String
    /// The searches that could still be read when only the journal is unreadable: the base file's, with the
    /// journal's lines before the bad one applied.
    public let salvaged: [RecentSearch]?

    init(_ code: Code, path: String, reason: String, salvaged: [RecentSearch]? = nil) {
        self.code = code
        self.path = path
        self.reason = reason
        self.salvaged = salvaged
    }

    /// The stored searches could not be decoded; the unreadable file was renamed to `movedTo` (nil if that failed
    /// too, in which case the store no longer writes to it).
    public static func corrupt(path: String, movedTo: String?, reason: String) -> RecentsStoreError {
        RecentsStoreError(.corrupt(movedTo: movedTo), path: path, reason: reason)
    }

    /// The stored searches could not be decoded when read; the file is left as it is until the next write, which
    /// moves it aside.
    public static func corruptLeftAlone(path: String, reason: String) -> RecentsStoreError {
        RecentsStoreError(.corruptLeftAlone, path: path, reason: reason)
    }

    /// The journal at `path` could not be decoded when read (a bad line before its last, or a header naming another
    /// base than the file's); `searches`, the base file's with the journal's lines before the bad one applied (none
    /// for a bad header), were read (``salvaged``). The journal is left as it is until the next write, which applies
    /// those lines to the base and moves the journal aside.
    public static func corruptJournal(path: String, reason: String, searches: [RecentSearch]) -> RecentsStoreError {
        RecentsStoreError(.corruptLeftAlone, path: path, reason: reason, salvaged: searches)
    }

    /// The file was written by a newer version of swift-suggest; it is left alone and not written to.
    public static func unsupportedVersion(_ version: Int, path: String) -> RecentsStoreError {
        RecentsStoreError(.unsupportedVersion(version), path: path, reason: "file format version \(version)")
    }

    /// The store refuses to write (after an unsupported version, or a file it could not move aside).
    public static func readOnly(path: String, reason: String) -> RecentsStoreError {
        RecentsStoreError(.readOnly, path: path, reason: reason)
    }

    /// A system call failed.
    public static func io(_ operation: String, path: String, errno: Int32, reason: String) -> RecentsStoreError {
        RecentsStoreError(.io(operation: operation, errno: errno), path: path, reason: reason)
    }

    /// Whether this error says the file was unreadable (and moved aside).
    public var isCorrupt: Bool {
        switch code {
        case .corrupt, .corruptLeftAlone: return true
        default: return false
        }
    }

    /// Where the unreadable file was moved, for ``isCorrupt`` errors.
    public var movedTo: String? {
        if case .corrupt(let movedTo) = code { return movedTo }
        return nil
    }

    public var description: String {
        switch code {
        case .corrupt(let movedTo?):
            "\(path) is unreadable (\(reason)); it was kept as \(movedTo) and a new one started"
        case .corruptLeftAlone:
            "\(path) is unreadable (\(reason)); it is left as it is until a search is saved, "
                + "which keeps it as \(path).corrupt-<time> and starts a new one"
        case .corrupt(nil):
            "\(path) is unreadable (\(reason)) and could not be moved aside; it is left alone and not written"
        case .unsupportedVersion(let version):
            "\(path) has file format version \(version), newer than this build reads (\(JSONFileRecentsStore.formatVersion)); it is left alone and not written"
        case .readOnly:
            "\(path) is not written: \(reason)"
        case .io(let operation, _):
            "\(path): \(operation) failed: \(reason)"
        case .simulatedCrash:
            "\(path): simulated crash during a write"
        }
    }
}
