#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// The memory of this process as the system counts it.
public enum ProcessMemory: Sendable {
    /// The most resident memory the process has held since it started, in bytes (`getrusage`'s `ru_maxrss`, which
    /// Linux gives in kilobytes and Apple platforms in bytes), or nil where it is not available.
    public static func peakResidentBytes() -> Int? {
        #if canImport(Glibc) || canImport(Darwin) || canImport(Musl)
            var usage = rusage()
            #if canImport(Glibc)
                guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return nil }
            #else
                guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
            #endif
            #if canImport(Darwin)
                return Int(usage.ru_maxrss)
            #else
                return Int(usage.ru_maxrss) * 1024
            #endif
        #else
            return nil
        #endif
    }
}
