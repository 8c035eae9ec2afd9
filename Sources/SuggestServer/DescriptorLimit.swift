#if Server
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`), which bounds how many connections the server can hold.
public enum DescriptorLimit: Sendable {
    /// Raises the soft open-file limit to the hard one (on Darwin, to at most `OPEN_MAX`).
    /// - Returns: the soft limit now in force (nil when it cannot be read).
    @discardableResult
    public static func raise() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        var wanted = limit.rlim_max
        #if canImport(Darwin)
        wanted = min(wanted, rlim_t(OPEN_MAX))
        #endif
        if wanted > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return current()
    }

    /// The soft open-file limit now (nil when it cannot be read; `Int.max` when unlimited).
    public static func current() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// The connections a process with `descriptors` open files may hold: all but a tenth of them, and at least 64
    /// kept for everything else (listening socket, log, recents files, configuration); at least 1.
    public static func defaultMaximumConnections(descriptors: Int) -> Int {
        guard descriptors < Int.max / 2 else { return 1_000_000 }
        return max(1, descriptors - max(64, descriptors / 10))
    }

    /// How many connections beyond `maximum` may be open while connections closed to make room are still closing:
    /// a third of the descriptors left beyond the maximum, from 16 to 64 (34 under 1,024 open files with the default
    /// maximum).
    public static func evictionSlack(descriptors: Int, maximum: Int) -> Int {
        guard descriptors < Int.max / 2 else { return 64 }
        return min(64, max(16, (descriptors - maximum) / 3))
    }
}
#endif
