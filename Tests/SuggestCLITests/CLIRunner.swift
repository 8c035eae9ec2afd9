import Foundation

/// Runs the built `suggest` binary, for tests that check the command line as a user sees it.
///
/// The binary sits next to this test bundle in the build products folder, whatever the scratch path.
enum CLIRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    static var productsDirectory: URL {
        Bundle.module.bundleURL.deletingLastPathComponent()
    }

    static var executable: URL { productsDirectory.appendingPathComponent("suggest") }

    static func fixture(_ name: String) -> String {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!.path
    }

    /// Runs `suggest arguments…` (or another of the package's executables) with `stdin` as standard input (nil:
    /// `stdinFile`, or /dev/null) and waits for it to exit.
    static func run(
        _ arguments: [String], stdin: Data? = nil, stdinFile: FileHandle? = nil, currentDirectory: String? = nil,
        executable: URL = CLIRunner.executable
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? stdinFile ?? FileHandle.nullDevice : input
        try process.run()
        // Read both pipes while writing, so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        group.wait()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self)
        )
    }

    /// Runs `suggest arguments…` with `lines` joined by newlines on standard input.
    static func run(_ arguments: [String], lines: [String]) throws -> Output {
        try run(arguments, stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// Parses one JSON line of output.
    static func json(_ line: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
    }
}

/// A `suggest batch` process kept open: write a line, read its answer, before writing the next — which only works
/// if the tool flushes every answer.
final class BatchProcess {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    var buffer = Data()

    init(config: String) throws {
        process.executableURL = CLIRunner.executable
        process.arguments = ["batch", "--config", config]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Sends one line and waits (up to `timeout`) for one line back.
    func send(_ line: String, timeout: TimeInterval = 10) throws -> String? {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                return String(decoding: line, as: UTF8.self)
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
        return nil
    }

    func close() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
