// Temporary files and folders for the tests, gathered under one folder per test process that is removed when the
// process exits, so that `swift test` leaves nothing behind in the temporary folder.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths for the tests' temporary files and folders: each unique, all under ``root``, which the process removes when
/// it exits (whatever the tests left in it, read-only folders included).
public enum TestFolders: Sendable {
    /// `<temporary folder>/swift-suggest-tests-<process id>`, made on first use (mode 0700). A folder of ours already
    /// there (left by a test process with the same id that crashed) is removed first; anything else there (a link,
    /// another user's folder) is a fatal error rather than a place to write.
    public static let root: String = {
        let root = rootPath()
        var info = stat()
        if lstat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() { remove(root) }
        guard mkdir(root, 0o700) == 0 else { fatalError("cannot make \(root): \(String(cString: strerror(errno)))") }
        atexit { TestFolders.remove(TestFolders.rootPath()) }
        return root
    }()

    /// A new path under ``root`` (nothing is made there): `prefix`, a UUID, then `suffix`.
    public static func unique(_ prefix: String, _ suffix: String = "") -> String {
        root + "/" + prefix + UUID().uuidString + suffix
    }

    /// A new, empty folder under ``root``, named `prefix` and a UUID.
    public static func folder(_ prefix: String) -> String {
        let path = unique(prefix)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func rootPath() -> String {
        var temporary = NSTemporaryDirectory()
        if temporary.hasSuffix("/") { temporary.removeLast() }
        return temporary + "/swift-suggest-tests-\(getpid())"
    }

    /// Removes `path` and everything below it, giving the owner write permission on each folder first (a test may
    /// leave a read-only folder behind).
    static func remove(_ path: String) {
        let manager = FileManager.default
        if let walker = manager.enumerator(atPath: path) {
            for case let relative as String in walker {
                let full = path + "/" + relative
                var info = stat()
                if lstat(full, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { chmod(full, 0o700) }
            }
        }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return }
        chmod(path, 0o700)
        try? manager.removeItem(atPath: path)
    }
}
