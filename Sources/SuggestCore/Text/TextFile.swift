import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// The one way the engine reads the text files it is given (configurations, dictionaries, vocabularies), so that
/// they all accept the same things:
///
/// - only a regular file (after links) is read: a FIFO or a device is refused at once, never waited on;
/// - a UTF-8 byte order mark at the start is not part of the text;
/// - a line ends at `\n`, and a `\r` before it belongs to the line end (`\r\n` files read like `\n` files).
package enum TextFile {
    /// Whether `a` and `b` name one file after links (the same device and inode), so that writing `a` would destroy
    /// `b`; false when either cannot be examined.
    package static func isSameFile(_ a: String, _ b: String) -> Bool {
        var x = stat()
        var y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Why a file could not be read.
    package enum Problem: Error, Hashable, Sendable {
        case missing
        case folder
        /// Not a regular file: "a FIFO", "a character device", …
        case notRegular(String)
        /// The system's reason (`Permission denied`).
        case unreadable(String)

        /// `no such file`, `is a folder`, `not a regular file (a FIFO)`, `cannot be read (Permission denied)`.
        package var description: String {
            switch self {
            case .missing: "no such file"
            case .folder: "is a folder"
            case .notRegular(let kind): "not a regular file (\(kind))"
            case .unreadable(let reason): "cannot be read (\(reason))"
            }
        }
    }

    /// `problem` (reading `path`) in words; a missing file names the file of its folder it is likely a misspelling
    /// of: `no such file — did you mean "food.tsv"?`.
    package static func describe(_ problem: Problem, at path: String) -> String {
        guard problem == .missing else { return problem.description }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard !name.isEmpty,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder),
            let nearest = NearestName.nearestFile(to: name, in: names.filter { !$0.hasPrefix(".") }.sorted()),
            nearest != name
        else { return problem.description }
        return "no such file — did you mean \"\(nearest)\"?"
    }

    /// The folder a file at `path` would be made in (`.` for a bare name), when it is not there as a folder: nil
    /// when it is, `(folder, exists: false)` when nothing is there, `(folder, exists: true)` when something else is.
    package static func missingFolder(of path: String) -> (folder: String, exists: Bool)? {
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder)
        return exists && isFolder.boolValue ? nil : (folder, exists)
    }

    /// Why what is at `path` (after links) could not be a file the engine reads or writes: nil for a regular file
    /// and for nothing at all (a file to be made).
    package static func kindProblem(_ path: String) -> Problem? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return problem(mode: info.st_mode)
    }

    /// Nil for a regular file's mode, the problem otherwise.
    private static func problem(mode: mode_t) -> Problem? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: .folder
        case S_IFIFO: .notRegular("a FIFO")
        case S_IFCHR: .notRegular("a character device")
        case S_IFBLK: .notRegular("a block device")
        case S_IFSOCK: .notRegular("a socket")
        default: .notRegular("an unknown kind of file")
        }
    }

    /// The bytes of the regular file at `path`, as they are: the readers skip a leading byte order mark, once
    /// (``TextLines``, `DictionaryLoader.parse`, `JSONParser.parse(_:skippingByteOrderMark:)`).
    package static func read(_ path: String) throws(Problem) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missing }
            if code == EISDIR { throw .folder }
            throw .unreadable(String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        if let problem = problem(mode: info.st_mode) { throw problem }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// `bytes` without a leading UTF-8 byte order mark.
    package static func withoutByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: JSONParser.byteOrderMark) ? Array(bytes.dropFirst(3)) : bytes
    }
}

/// The lines of a text file's bytes, with 1-based numbers: a leading byte order mark is skipped, a line ends at
/// `\n` and a `\r` right before it is not part of the line. No allocation per line.
package struct TextLines: IteratorProtocol, Sequence {
    package struct Line {
        /// 1-based.
        package var number: Int
        /// The line's bytes in the array, without `\r\n` or `\n`.
        package var range: Range<Int>
    }

    let bytes: [UInt8]
    var start: Int
    var number = 0

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.start = bytes.starts(with: JSONParser.byteOrderMark) ? 3 : 0
    }

    package mutating func next() -> Line? {
        guard start < bytes.count else { return nil }
        number += 1
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        var lineEnd = end
        if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        defer { start = end + 1 }
        return Line(number: number, range: start..<lineEnd)
    }
}
