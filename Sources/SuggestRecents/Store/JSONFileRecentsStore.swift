import Foundation
import SuggestCore
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps searches in a JSON file (`"store": "recents.json"`): versioned, written atomically, shared safely.
///
/// - **Journal:** once the file (the *base*) is 64 KB or more, a write appends its changes to
///   `recents.json.journal` (one JSON line each, one `write` and an `fsync`) instead of rewriting it; reading
///   replays the journal onto the base, ignoring a torn last line. Compaction rewrites the base (see ``commit(_:merge:)``)
///   with a new journal id (and the old one, as `previousJournal`) and removes the journal: a journal left naming the
///   old id is stale and ignored; one naming any other id is unreadable (reported, then moved aside as below).
/// - **Atomic:** every rewrite of the base goes to a temporary file next to it (`recents.json.tmp-…`), which is
///   flushed to disk (`fsync`) and renamed over the file. A crash leaves the old file or the new one, never a torn
///   one; stale temporary files are removed by the next write.
/// - **Shared:** writes happen under an advisory lock (`flock` on `recents.json.lock`), and each one re-reads the
///   file and merges its changes into it, so two processes (or two engines) using one file add up instead of
///   overwriting each other.
/// - **Unreadable file:** reported, and the store starts empty; the first write renames it to
///   `recents.json.corrupt-<UTC timestamp>` (never overwritten or deleted). A file from a newer format version is
///   left alone and not written to.
/// - **Reading has no side effects:** ``load()`` takes no lock, creates no file and renames nothing (so
///   `suggest validate` and a store in a read-only folder are only read).
/// - **Links and permissions:** a symbolic link is written through (its target is replaced, the link stays; the
///   lock and temporary files sit next to the target). A file without write permission (mode 0444) is read but never
///   written: changes are then reported as not saved. A replaced file keeps its mode; a new one gets 0600.
public final class JSONFileRecentsStore: RecentsStore {
    /// The file format version this build writes (and the newest it reads).
    public static let formatVersion = 1

    /// The file's path.
    public let path: String

    /// Set when the file must not be written (a newer format version, or an unreadable file that could not be moved).
    private let readOnlyReason = Locked<String?>(nil)
    /// For tests: a write stops after this many bytes of the temporary file (or of the journal lines), as if the
    /// process died there.
    let crashAfterBytes: Int?
    /// The base as a writer last read or wrote it, with the identity of its file: a writer whose base is unchanged
    /// (same inode, size and modification time, checked under the lock) skips decoding it again.
    private struct CachedBase: Sendable {
        var identity: [Int]
        var searches: [RecentSearch]
        var baseID: String?
        var previousID: String?
        var bytes: Int
    }
    private let cachedBase = Locked<CachedBase?>(nil)
    /// Below this size the base is rewritten at every write (as cheap as an append) and no journal is kept.
    let journalFromBaseBytes: Int

    /// A store for the file at `path` (created on the first write; its folder must exist).
    public convenience init(path: String) {
        self.init(path: path, crashAfterBytes: nil)
    }

    init(path: String, crashAfterBytes: Int?, journalFromBaseBytes: Int = 64 * 1024) {
        self.path = path
        self.crashAfterBytes = crashAfterBytes
        self.journalFromBaseBytes = journalFromBaseBytes
    }

    /// Reads the searches: the base file, then the changes its journal holds. No lock, no new file, no rename: the
    /// base is only ever replaced by a rename and the journal only grows by whole lines (a torn last line is
    /// ignored), so a read sees one whole version. An unreadable file is reported and left as it is (the next write
    /// moves it aside); with an unreadable journal, the error carries the base file's searches with the journal's
    /// lines before the bad one applied (``RecentsStoreError/salvaged``). A journal that cannot be read while the
    /// base changed under the read (a writer compacted, then appended to a new journal) is read again with the new
    /// base, up to three times.
    public func load() throws -> [RecentSearch] {
        let file = try target()
        var attempts = 1
        while true {
            let before = Self.identity(file)
            do {
                return try load(file)
            } catch let error as RecentsStoreError
                where error.isCorrupt && attempts < 3 && Self.identity(file) != before
            {
                attempts += 1
            }
        }
    }

    /// One read of the base `file` and its journal (see ``load()``).
    private func load(_ file: String) throws -> [RecentSearch] {
        var base: [RecentSearch] = []
        var baseID: String? = nil
        var previousID: String? = nil
        switch readFile(file) {
        case .missing:
            break
        case .failed(let code, let text):
            throw RecentsStoreError.io("read", path: path, errno: code, reason: text)
        case .data(let data):
            do {
                (base, baseID, previousID) = try RecentsFile.decodeWithJournalID(data)
            } catch {
                switch error {
                case .newerVersion(let version):
                    let problem = RecentsStoreError.unsupportedVersion(version, path: path)
                    readOnlyReason.withLock { $0 = problem.description }
                    throw problem
                case .corrupt(let reason):
                    throw RecentsStoreError.corruptLeftAlone(path: path, reason: reason)
                }
            }
        }
        let journalPath = Self.journalPath(file)
        switch readFile(journalPath) {
        case .missing:
            return base
        case .failed(let code, let text):
            throw RecentsStoreError.io("read", path: journalPath, errno: code, reason: text)
        case .data(let data):
            do {
                let journal = try RecentsJournal.parse(data, baseID: baseID, previousID: previousID)
                return RecentsJournal.replay(journal.changes, onto: base)
            } catch {
                switch error {
                case .newerVersion(let version):
                    let problem = RecentsStoreError.unsupportedVersion(version, path: journalPath)
                    readOnlyReason.withLock { $0 = problem.description }
                    throw problem
                case .corrupt(let reason):
                    // The base and the journal's lines before the bad one were read: they are handed on, so that a
                    // bad journal line hides neither the base's searches nor an earlier removal.
                    let readable = RecentsJournal.replay(
                        RecentsJournal.changesBeforeBadLine(data, baseID: baseID, previousID: previousID), onto: base)
                    throw RecentsStoreError.corruptJournal(path: journalPath, reason: reason, searches: readable)
                }
            }
        }
    }

    /// Saves `changes` under the lock: re-reads the base and its journal, lets `merge` apply the changes, and
    /// appends them to the journal (one `write` and an `fsync`), or — when the journal has grown past
    /// max(1,000, a quarter of the base's entries) lines or the base's size, when the base is small, when nothing
    /// changed (``RecentsProvider/synchronize()``) or after moving an unreadable file aside — rewrites the base
    /// atomically with what `merge` returned and removes the journal (compaction).
    public func commit(
        _ changes: [RecentsChange],
        merge: ([RecentSearch]?) throws -> [RecentSearch]
    ) throws -> [RecentSearch] {
        try commitReportingVersion(changes, merge: merge).merged
    }

    /// What the base and the journal were after one writer's commit: while both are still so (same identities,
    /// checked under the lock), nobody else wrote, and that writer may append its next changes without reading them
    /// (``append(_:ifUnchangedSince:)``).
    struct Version: Sendable, Equatable {
        var base: [Int]?
        var journal: [Int]?
        var baseID: String?
        var baseBytes: Int
        var baseEntries: Int
        var journalLines: Int
        var journalBytes: Int
        var journalIsStale: Bool
    }

    /// ``commit(_:merge:)``, also saying what the files are now and whether the base was rewritten (then it holds
    /// exactly `merged`; otherwise the base and journal hold everything read plus `changes`).
    func commitReportingVersion(
        _ changes: [RecentsChange],
        compacting: Bool = false,
        merge: ([RecentSearch]?) throws -> [RecentSearch]
    ) throws -> (merged: [RecentSearch], version: Version?, compacted: Bool) {
        let file = try writableTarget()
        return try withFileLock(file) {
            let (stored, problem) = try readForUpdate(file)
            if let problem, !problem.isCorrupt || problem.movedTo == nil { throw problem }
            let merged = try merge(stored?.searches)
            removeStaleTemporaryFiles(file)
            if !compacting, let stored, !stored.mustCompact, !changes.isEmpty, stored.baseBytes >= journalFromBaseBytes {
                let lines = try RecentsJournal.lines(changes)
                let lineLimit = max(1_000, stored.baseEntries / 4)
                if stored.journal.lineCount + changes.count <= lineLimit,
                    stored.journal.validBytes + lines.count <= stored.baseBytes
                {
                    let end = try append(lines, to: file, after: stored)
                    let version = Version(
                        base: Self.identity(file), journal: Self.identity(Self.journalPath(file)),
                        baseID: stored.baseID, baseBytes: stored.baseBytes, baseEntries: stored.baseEntries,
                        journalLines: stored.journal.lineCount + changes.count, journalBytes: end, journalIsStale: false
                    )
                    return (merged, version, false)
                }
            }
            let (id, bytes) = try compact(
                merged, into: file, replacing: stored?.baseID, staleJournal: stored?.journal.isStale ?? true)
            let version = Version(
                base: Self.identity(file), journal: nil, baseID: id, baseBytes: bytes, baseEntries: merged.count,
                journalLines: 0, journalBytes: 0, journalIsStale: true
            )
            return (merged, version, true)
        }
    }

    /// Appends `changes` to the journal (one `write` and an `fsync`) when the files are still as `version` says —
    /// nobody wrote since — and the journal has room (the limits of ``commit(_:merge:)``): no reading, decoding or
    /// merging, so its cost does not grow with the number of searches.
    /// - Returns: the files' new version; nil when someone else wrote or compaction is due (then use
    ///   ``commit(_:merge:)``).
    func append(_ changes: [RecentsChange], ifUnchangedSince version: Version) throws -> Version? {
        guard !changes.isEmpty, version.base != nil, version.baseBytes >= journalFromBaseBytes else { return nil }
        let file = try writableTarget()
        let journalPath = Self.journalPath(file)
        return try withFileLock(file) {
            guard Self.identity(file) == version.base, Self.identity(journalPath) == version.journal else { return nil }
            let lines = try RecentsJournal.lines(changes)
            guard version.journalLines + changes.count <= max(1_000, version.baseEntries / 4),
                version.journalBytes + lines.count <= version.baseBytes
            else { return nil }
            var stored = Stored(searches: [])
            stored.baseID = version.baseID
            stored.journal.validBytes = version.journalBytes
            stored.journal.lineCount = version.journalLines
            stored.journal.isStale = version.journalIsStale
            let end = try append(lines, to: file, after: stored)
            var next = version
            next.journal = Self.identity(journalPath)
            next.journalLines += changes.count
            next.journalBytes = end
            next.journalIsStale = false
            return next
        }
    }

    /// The file to write: `path` or its link's target; throws when it must not be written.
    private func writableTarget() throws -> String {
        if let reason = readOnlyReason.withLock({ $0 }) { throw RecentsStoreError.readOnly(path: path, reason: reason) }
        let file = try target()
        var info = stat()
        if stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o222 == 0 {
            // Nobody may write it: someone made it read-only on purpose. Read it, never replace it.
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw RecentsStoreError.readOnly(path: path, reason: "the file is read-only (mode 0\(mode))")
        }
        return file
    }

    /// Device, inode, size and modification time of `file`; nil if it cannot be read.
    static func identity(_ file: String) -> [Int]? {
        var info = stat()
        guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let mtime = info.st_mtimespec
        #else
        let mtime = info.st_mtim
        #endif
        return [Int(info.st_dev), Int(info.st_ino), Int(info.st_size), Int(mtime.tv_sec), Int(mtime.tv_nsec)]
    }

    /// Where the journal of the base `file` is.
    static func journalPath(_ file: String) -> String { file + ".journal" }

    /// The file the store reads and writes: `path`, or the file its symbolic links lead to.
    private func target() throws -> String {
        guard let file = SymbolicLinks.target(of: path) else {
            throw RecentsStoreError.io("follow the link", path: path, errno: ELOOP, reason: Self.errorText(ELOOP))
        }
        return file
    }

    // MARK: Reading

    /// What a writer read under the lock.
    private struct Stored {
        var searches: [RecentSearch]
        var baseID: String?
        /// The journal id of the base the base replaced (see ``RecentsFile/previousJournal``).
        var previousID: String?
        var baseBytes = 0
        var baseEntries = 0
        var journal = RecentsJournal()
        /// The journal was unreadable and moved aside: the base must be rewritten whole.
        var mustCompact = false
    }

    /// Reads the base and its journal under the lock. Missing: `[]`. An unreadable base: moved aside (with its
    /// journal), `nil` and a corrupt error. An unreadable journal: moved aside, the base alone and a corrupt error.
    /// Newer version: the store turns read-only, `nil` and the error.
    private func readForUpdate(_ file: String) throws -> (Stored?, RecentsStoreError?) {
        var stored = Stored(searches: [])
        let journalPath = Self.journalPath(file)
        let identity = Self.identity(file)
        if let identity, let cached = cachedBase.withLock({ $0 }), cached.identity == identity {
            stored.searches = cached.searches
            stored.baseID = cached.baseID
            stored.previousID = cached.previousID
            stored.baseBytes = cached.bytes
            stored.baseEntries = cached.searches.count
            return readJournalForUpdate(journalPath, into: stored)
        }
        cachedBase.withLock { $0 = nil }
        switch readFile(file) {
        case .missing:
            break
        case .failed(let code, let text):
            // A folder (or a device) where the file should be is not ours to move: an error, nothing renamed.
            if code == EACCES || code == EIO {
                return (nil, moveAsideWithJournal(file, reason: text))
            }
            throw RecentsStoreError.io("read", path: path, errno: code, reason: text)
        case .data(let data):
            do {
                (stored.searches, stored.baseID, stored.previousID) = try RecentsFile.decodeWithJournalID(data)
                stored.baseBytes = data.count
                stored.baseEntries = stored.searches.count
                if let identity {
                    let base = CachedBase(
                        identity: identity, searches: stored.searches, baseID: stored.baseID,
                        previousID: stored.previousID, bytes: data.count)
                    cachedBase.withLock { $0 = base }
                }
            } catch {
                switch error {
                case .newerVersion(let version):
                    let problem = RecentsStoreError.unsupportedVersion(version, path: path)
                    readOnlyReason.withLock { $0 = problem.description }
                    return (nil, problem)
                case .corrupt(let reason):
                    return (nil, moveAsideWithJournal(file, reason: reason))
                }
            }
        }
        return readJournalForUpdate(journalPath, into: stored)
    }

    private func readJournalForUpdate(_ journalPath: String, into stored: Stored) -> (Stored?, RecentsStoreError?) {
        var stored = stored
        switch readFile(journalPath) {
        case .missing:
            return (stored, nil)
        case .failed(let code, let text):
            if code == EACCES || code == EIO {
                stored.mustCompact = true
                return (stored, moveAside(journalPath, reason: text))
            }
            return (nil, RecentsStoreError.io("read", path: journalPath, errno: code, reason: text))
        case .data(let data):
            do {
                stored.journal = try RecentsJournal.parse(data, baseID: stored.baseID, previousID: stored.previousID)
                stored.searches = RecentsJournal.replay(stored.journal.changes, onto: stored.searches)
                return (stored, nil)
            } catch {
                switch error {
                case .newerVersion(let version):
                    let problem = RecentsStoreError.unsupportedVersion(version, path: journalPath)
                    readOnlyReason.withLock { $0 = problem.description }
                    return (nil, problem)
                case .corrupt(let reason):
                    // The lines before the bad one still apply (a removal must not come back); the base is
                    // rewritten with them and the journal moved aside.
                    stored.searches = RecentsJournal.replay(
                        RecentsJournal.changesBeforeBadLine(
                            data, baseID: stored.baseID, previousID: stored.previousID),
                        onto: stored.searches)
                    stored.mustCompact = true
                    return (stored, moveAside(journalPath, reason: reason))
                }
            }
        }
    }

    /// Moves an unreadable base aside, and its journal too (its changes belong to that base).
    private func moveAsideWithJournal(_ file: String, reason: String) -> RecentsStoreError {
        let problem = moveAside(file, reason: reason)
        let journalPath = Self.journalPath(file)
        if problem.movedTo != nil, access(journalPath, F_OK) == 0 {
            _ = moveAside(journalPath, reason: "its base \(file) was unreadable")
        }
        return problem
    }

    private enum ReadResult {
        case missing
        case data(Data)
        case failed(Int32, String)
    }

    private func readFile(_ file: String) -> ReadResult {
        // O_NONBLOCK: a FIFO must not block the reader; it is refused as not a regular file.
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            let code = errno
            return code == ENOENT ? .missing : .failed(code, Self.errorText(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failed(errno, Self.errorText(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .failed(EISDIR, Self.errorText(EISDIR)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .failed(EINVAL, "not a regular file") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                return .failed(code, Self.errorText(code))
            }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return .data(data)
    }

    /// Renames the unreadable file to `<path>.corrupt-<timestamp>`; if that fails, the store turns read-only.
    private func moveAside(_ file: String, reason: String) -> RecentsStoreError {
        let stamp = Self.timestamp(Date())
        var target = "\(file).corrupt-\(stamp)"
        var n = 2
        while access(target, F_OK) == 0 {
            target = "\(file).corrupt-\(stamp)-\(n)"
            n += 1
        }
        let reported = file.hasSuffix(".journal") ? file : path
        if rename(file, target) == 0 {
            syncDirectory(file)
            return .corrupt(path: reported, movedTo: target, reason: reason)
        }
        let problem = RecentsStoreError.corrupt(path: reported, movedTo: nil, reason: reason)
        readOnlyReason.withLock { $0 = problem.description }
        return problem
    }

    // MARK: Writing

    private static let temporaryCounter = Atomic<Int>(0)

    /// Writes `data` to a temporary file, flushes it, and renames it over the file.
    private func write(_ data: Data, to file: String) throws {
        let serial = Self.temporaryCounter.wrappingAdd(1, ordering: .relaxed).oldValue
        let temporary = "\(file).tmp-\(getpid())-\(serial)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ioError("create \(temporary)") }
        // A replaced file keeps its permissions (0640 stays 0640); a new one stays 0600.
        var existing = stat()
        if stat(file, &existing) == 0 { _ = fchmod(fd, existing.st_mode & 0o777) }
        var length = data.count
        if let crashAfterBytes { length = min(length, crashAfterBytes) }
        let written = data.withUnsafeBytes { raw in
            TextFile.writeAll(UnsafeRawBufferPointer(rebasing: raw[..<length]), to: fd)
        }
        if crashAfterBytes != nil {
            // As if the process died here: the partial temporary file stays, the file is untouched.
            close(fd)
            throw RecentsStoreError(.simulatedCrash, path: path, reason: "stopped after \(written) bytes")
        }
        guard written == length, fsync(fd) == 0 else {
            let error = ioError("write \(temporary)")
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let error = ioError("write \(temporary)")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, file) == 0 else {
            let error = ioError("rename \(temporary)")
            unlink(temporary)
            throw error
        }
        syncDirectory(file)
    }

    /// Rewrites the base atomically with `searches`, a new journal id and the id it replaces (`previousID`, the old
    /// base's), then removes the journal (a writer that dies in between leaves a journal naming the old id: the base
    /// says it was compacted, so it is ignored and replaced). A `staleJournal` (one the old base ignored: its changes
    /// are in it already) is removed first, so that no journal outlives the base after the one it followed.
    /// - Returns: the base's journal id and size.
    @discardableResult
    private func compact(
        _ searches: [RecentSearch], into file: String, replacing previousID: String?, staleJournal: Bool
    ) throws -> (id: String, bytes: Int) {
        let id = UUID().uuidString
        let data = try RecentsFile.encode(searches, journal: id, previousJournal: previousID)
        cachedBase.withLock { $0 = nil }
        if staleJournal, unlink(Self.journalPath(file)) == 0 { syncDirectory(file) }
        try write(data, to: file)
        if unlink(Self.journalPath(file)) == 0 { syncDirectory(file) }
        if let identity = Self.identity(file) {
            let base = CachedBase(
                identity: identity, searches: searches, baseID: id, previousID: previousID, bytes: data.count)
            cachedBase.withLock { $0 = base }
        }
        return (id, data.count)
    }

    /// Appends `lines` to the journal with one write and an `fsync`: after its last whole line (a torn line left by
    /// a writer that died is cut off first), or, when it follows another base or is missing, as a new journal.
    /// - Returns: the journal's size after them.
    @discardableResult
    private func append(_ lines: Data, to file: String, after stored: Stored) throws -> Int {
        let journalPath = Self.journalPath(file)
        let fd = open(journalPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ioError("open \(journalPath)") }
        var data = Data()
        var offset = stored.journal.validBytes
        let fresh = stored.journal.isStale
        if fresh {
            offset = 0
            data = try RecentsJournal.header(baseID: stored.baseID)
            // The journal keeps the base's permissions.
            var existing = stat()
            if stat(file, &existing) == 0 { _ = fchmod(fd, existing.st_mode & 0o777) }
        }
        data.append(lines)
        guard ftruncate(fd, off_t(offset)) == 0 else {
            let error = ioError("truncate \(journalPath)")
            close(fd)
            throw error
        }
        var length = data.count
        if let crashAfterBytes { length = min(length, crashAfterBytes) }
        let written = data.withUnsafeBytes { raw in
            TextFile.writeAll(UnsafeRawBufferPointer(rebasing: raw[..<length]), to: fd, at: offset)
        }
        if crashAfterBytes != nil {
            close(fd)
            throw RecentsStoreError(.simulatedCrash, path: path, reason: "stopped after \(written) bytes")
        }
        guard written == length, fsync(fd) == 0 else {
            let error = ioError("write \(journalPath)")
            // Whole lines only: cut what was written (the lines before stay).
            _ = ftruncate(fd, off_t(offset))
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw ioError("write \(journalPath)") }
        if fresh { syncDirectory(file) }
        return offset + length
    }

    /// Temporary files left by a writer that died. Only called under the lock, when no other writer is active.
    private func removeStaleTemporaryFiles(_ file: String) {
        let url = URL(fileURLWithPath: file)
        let folder = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            unlink(folder + "/" + name)
        }
    }

    /// Makes a rename durable.
    private func syncDirectory(_ file: String) {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        let fd = open(folder, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    // MARK: Locking

    /// Runs `body` holding an exclusive `flock` on `<file>.lock` (next to the link's target, so that a link and its
    /// target share one lock). `flock` locks belong to the open file, so two stores in one process exclude each other
    /// as two processes do.
    private func withFileLock<T>(_ file: String, _ body: () throws -> T) throws -> T {
        let lock: FileLock
        do {
            lock = try FileLock(file + ".lock")
        } catch {
            throw RecentsStoreError.io(error.operation, path: path, errno: error.code, reason: error.reason)
        }
        return try withExtendedLifetime(lock) { try body() }
    }

    // MARK: Helpers

    private func ioError(_ operation: String) -> RecentsStoreError {
        let code = errno
        return .io(operation, path: path, errno: code, reason: Self.errorText(code))
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The time now as the names of files moved aside give it (``timestamp(_:)``).
    package static func timestampNow() -> String { timestamp(Date()) }

    /// `20261122T023600Z`
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ v: Int?) -> String { v.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(c.year ?? 0)\(two(c.month))\(two(c.day))T\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
    }
}
