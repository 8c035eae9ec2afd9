#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

extension TextFile {
    /// Writes every byte of `bytes` to `descriptor` (at `offset` with `pwrite(2)` when given, else at the current
    /// position with `write(2)`), retrying after `EINTR` and after a partial write: the one write loop of the package
    /// (the `suggest` tool's output, index files, the recents store and its journal).
    /// - Returns: how many bytes were written: `bytes.count`, or fewer when a write failed (then `errno` says why).
    @discardableResult
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int? = nil) -> Int {
        var done = 0
        while done < bytes.count {
            let pointer = bytes.baseAddress! + done
            let n: Int
            if let offset {
                n = pwrite(descriptor, pointer, bytes.count - done, off_t(offset + done))
            } else {
                n = write(descriptor, pointer, bytes.count - done)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return done
            }
            done += n
        }
        return done
    }
}
