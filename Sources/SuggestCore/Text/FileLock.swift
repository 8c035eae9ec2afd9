#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive `flock` on a lock file (made if missing), held until the value is released; waits while another
/// holder has it. `flock` locks belong to the open file, so two holders in one process exclude each other as two
/// processes do. The file stores that lock `<store>.lock` (recent and popular searches) share this.
package final class FileLock {
    /// Why the lock could not be taken: the operation (`open lock file …`, `lock …`) and `errno`.
    package struct Failure: Error {
        package var operation: String
        package var code: Int32
        /// The system's words for ``code``.
        package var reason: String { String(cString: strerror(code)) }
    }

    private let fd: Int32

    package init(_ path: String) throws(Failure) {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(operation: "open lock file \(path)", code: errno) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let failure = Failure(operation: "lock \(path)", code: errno)
                close(fd)
                throw failure
            }
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
