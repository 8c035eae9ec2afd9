import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Following symbolic links by hand, for writers that must replace a link's target and keep the link (an atomic
/// rename over the link itself would turn it into a regular file).
package enum SymbolicLinks {
    /// `path` with symbolic links followed to the file they name, which need not exist yet (a dangling link names
    /// the file to create). nil after 40 links (a loop) or when a link cannot be read.
    package static func target(of path: String) -> String? {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length >= 0 else { return nil }
            let destination = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = destination.hasPrefix("/")
                ? destination
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
        }
        return nil
    }
}
