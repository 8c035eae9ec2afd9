#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import MetricsTestKit
import NIOCore
import NIOWebSocket
import Suggest
import Synchronization
@testable import SuggestServer
import Testing
import WSCore

private func request(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil)
    async throws -> (status: Int, body: String)
{
    try await client.execute(
        uri: uri, method: method, headers: [.contentType: "application/json"], body: body.map { ByteBuffer(string: $0) }
    ) { ($0.status.code, String(buffer: $0.body)) }
}

/// `submit` says `"stored": true` only once the user's recents are written; else it says they are held in memory
/// (HTTP 202), counts it, logs the file, and no answer names a server path.
struct SubmitAcknowledgementTests {
    static func options(_ folder: String, port: Int = 8080) -> ServerOptions {
        ServerOptions(port: port, users: .init(recentsFolder: folder), identity: .insecureUserParameter)
    }

    @Test func aWrittenSubmitIsStored() async throws {
        let fixture = try Fixture()
        let folder = try UsersFolder()
        let server = SuggestServer(configuration: try fixture.configuration(), options: Self.options(folder.path))
        try await server.makeApplication().test(.router) { client in
            let answer = try await request(client, .post, "/submit?user=alice", #"{"text": "pandas merge"}"#)
            #expect(answer.status == 200)
            #expect(answer.body == #"{"submitted":"pandas merge","stored":true}"#)
        }
        #expect(FileManager.default.fileExists(atPath: folder.path + "/recent/alice.json"))
    }

    @Test func anUnwritableUsersFolderIsAcknowledgedAsHeldInMemoryCountedAndNamesNoPath() async throws {
        let fixture = try Fixture()
        let folder = try UsersFolder()
        let repair = try UnwritableUsersFolder.make(folder.path)
        let metrics = TestMetrics()
        let server = SuggestServer(
            configuration: try fixture.configuration(), options: Self.options(folder.path), metricsFactory: metrics)
        let bodies = Mutex<[String]>([])
        try await server.makeApplication().test(.router) { client in
            let first = try await request(client, .post, "/submit?user=alice", #"{"text": "pandas merge"}"#)
            #expect(first.status == 202, "\(first)")
            let answer = object(first.body)
            #expect(answer["submitted"] as? String == "pandas merge")
            #expect(answer["stored"] as? Bool == false)
            #expect((answer["reason"] as? String)?.hasPrefix("recent searches could not be written") == true, "\(first)")
            let second = try await request(client, .post, "/submit?user=alice", #"{"text": "pandas plot"}"#)
            #expect(second.status == 202)
            // Kept in memory: suggested, and the keystroke's notes say why without the file.
            let keystroke = try await request(client, .get, "/suggest?q=pa&user=alice")
            #expect(texts(keystroke.body).prefix(2).sorted() == ["pandas merge", "pandas plot"], "\(keystroke)")
            let notes = object(keystroke.body)["notes"] as? [String] ?? []
            #expect(notes.contains { $0.hasPrefix("recent: recent searches could not be written") }, "\(notes)")
            bodies.withLock { $0 = [first.body, second.body, keystroke.body] }
        }
        for body in bodies.withLock({ $0 }) {
            #expect(!body.contains(folder.path) && !body.contains("/recent/"), "a server path in \(body)")
        }
        #expect(try metrics.expectCounter("suggest_submits_unsaved_total").totalValue == 2)
        // Once the folder can be written again, the shutdown's save writes what was held.
        try repair()
        #expect(server.saveBeforeExit() == 0)
        let saved = try String(contentsOfFile: folder.path + "/recent/alice.json", encoding: .utf8)
        #expect(saved.contains("pandas merge") && saved.contains("pandas plot"))
    }

    @Test func theWebSocketSubmitSaysTheSame() async throws {
        let fixture = try Fixture()
        let folder = try UsersFolder()
        let repair = try UnwritableUsersFolder.make(folder.path)
        defer { try? repair() }
        let metrics = TestMetrics()
        let server = SuggestServer(
            configuration: try fixture.configuration(), options: Self.options(folder.path, port: 0),
            metricsFactory: metrics)
        try await server.makeApplication().test(.live) { client in
            try await client.ws("/ws?user=alice") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try await outbound.write(.text(#"{"submit": "pandas merge"}"#))
                let answer = try await nextText(&messages)
                #expect(object(answer)["stored"] as? Bool == false, "\(answer)")
                #expect(!answer.contains(folder.path))
                try await outbound.write(.text(#"{"text": "pa"}"#))
                var keystroke = try await nextText(&messages)
                while texts(keystroke).isEmpty { keystroke = try await nextText(&messages) }
                #expect(texts(keystroke).first == "pandas merge")
                #expect(!keystroke.contains(folder.path) && (object(keystroke)["notes"] as? [String])?.isEmpty == false)
                try await outbound.close(.normalClosure, reason: nil)
            }
            try await client.ws("/ws") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try await outbound.write(.text(#"{"submit": "anonymous"}"#))
                let answer = object(try await nextText(&messages))
                #expect(answer["stored"] as? Bool == false)
                #expect((answer["reason"] as? String)?.contains("anonymous connection") == true)
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        #expect(try metrics.expectCounter("suggest_submits_unsaved_total").totalValue == 1)
    }

    @Test(arguments: [
        ("recent: could not save recent searches: /var/lib/suggest/recent/alice.json: open failed: Permission denied", true),
        ("recent: could not read recent searches: ~/users/a.json is unreadable; started empty", true),
        ("remote: HTTP 503 from https://api.example.com/suggest", false),
        ("query text truncated to 1024 UTF-8 bytes", false),
    ])
    func notesNamingAFileAreReplaced(_ note: String, _ hasPath: Bool) {
        let redacted = ClientText.redacted(note)
        #expect((redacted != note) == hasPath, "\(redacted)")
        #expect(!redacted.contains("/var/lib") && !redacted.contains("~/"))
        if hasPath { #expect(redacted.hasPrefix("recent: ")) }
    }
}
#endif
