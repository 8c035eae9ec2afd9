import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Runs the built `suggest serve` binary (it sits next to the test bundle in the build products folder).
struct ServeCommandTests {
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("suggest")
    }

    /// Reads standard output up to its first line (on a dispatch thread: the read blocks).
    static func firstLine(of pipe: Pipe) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var data = Data()
                while !data.contains(0x0A) {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    data.append(chunk)
                }
                let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
                continuation.resume(returning: line)
            }
        }
    }

    @Test func serveAnswersOverHTTPAndStopsGracefullyOnSIGTERM() async throws {
        let fixture = try Fixture(recentsStore: true)
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["serve", "--config", fixture.configurationPath, "--port", "0", "--log-level", "warning"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let line = await Self.firstLine(of: out)
        let prefix = "listening on http://127.0.0.1:"
        try #require(line.hasPrefix(prefix), "\(line)")
        let base = "http://127.0.0.1:" + line.dropFirst(prefix.count)

        var submit = HTTPClientRequest(url: base + "/submit")
        submit.method = .POST
        submit.body = .bytes(ByteBuffer(string: #"{"text": "pandas merge"}"#))
        let submitted = try await HTTPClient.shared.execute(submit, timeout: .seconds(30))
        #expect(submitted.status == .ok)
        let answer = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/suggest?q=pa"), timeout: .seconds(30))
        #expect(answer.status == .ok)
        let body = String(buffer: try await answer.body.collect(upTo: 1 << 20))
        #expect(texts(body) == ["pandas merge", "pandas"], "\(body)")

        process.interrupt()  // SIGINT: graceful shutdown
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
        #expect(process.terminationStatus == 0)
        let saved = try String(contentsOfFile: fixture.folder + "/recents.json", encoding: .utf8)
        #expect(saved.contains("pandas merge"))
    }
}
