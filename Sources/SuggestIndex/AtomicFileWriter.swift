import Foundation
import SuggestCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file's contents atomically, the POSIX way, with every failure reported with its `errno` text.
///
/// - A symbolic link is written through: its target gets the new contents and the link stays a link.
/// - An existing file that is not a regular file (a FIFO, a device such as `/dev/full`, a folder) is refused.
/// - The bytes go to a temporary file next to the target, which is flushed (`fsync`), closed and renamed over it;
///   a short write, a failed `fsync` or `close` (disk full: `ENOSPC`) is an error and the target is untouched.
/// - A replaced file keeps its permissions; a new one gets 0644 less the umask.
package enum AtomicFileWriter {
    /// What went wrong, for a person: `No space left on device`, `not a regular file (a FIFO)`.
    package struct Failure: Error {
        package var reason: String
    }

    private static let counter = Atomic<Int>(0)

    /// Writes `bytes` to `path` (see the type's documentation).
    package static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let target = try resolveLinks(path)
        var info = stat()
        var mode: mode_t = 0o644
        var replacing = false
        if stat(target, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw Failure(reason: "not a regular file (\(kind(of: info.st_mode)))")
            }
            mode = info.st_mode & 0o7777
            replacing = true
        } else if errno != ENOENT {
            throw failure(errno, target == path ? nil : target)
        }
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        let serial = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).tmp-\(getpid())-\(serial)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(errno, folder.isEmpty ? "." : folder) }
        var closed = false
        defer {
            if !closed { close(fd) }
        }
        do throws(Failure) {
            if replacing && fchmod(fd, mode) != 0 { throw failure(errno, nil) }
            let code = bytes.withUnsafeBytes { raw in TextFile.writeAll(raw, to: fd) == raw.count ? 0 : errno }
            if code != 0 { throw failure(code, nil) }
            if fsync(fd) != 0 { throw failure(errno, nil) }
            closed = true
            if close(fd) != 0 { throw failure(errno, nil) }
            if rename(temporary, target) != 0 { throw failure(errno, nil) }
        } catch {
            unlink(temporary)
            throw error
        }
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    /// `path` with symbolic links followed to the file they name (which need not exist yet).
    static func resolveLinks(_ path: String) throws(Failure) -> String {
        guard let target = SymbolicLinks.target(of: path) else {
            throw Failure(reason: "too many levels of symbolic links, or a link that cannot be read")
        }
        return target
    }

    static func failure(_ code: Int32, _ place: String?) -> Failure {
        let text = String(cString: strerror(code))
        return Failure(reason: place.map { "\($0): \(text)" } ?? text)
    }

    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a folder"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
