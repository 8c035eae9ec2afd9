#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import Suggest
import SuggestServer
import Synchronization
import NIOWebSocket
import Testing
import WSCore

/// An asynchronous provider that answers "slow…" only once the test opens the gate (ignoring cancellation, so
/// that a stale answer really comes back late) and anything else at once.
final class GatedProvider: SuggestionProvider {
    let id = "gated"
    var execution: ProviderExecution { .asynchronous(deadline: .seconds(30)) }
    let gate = Mutex<[CheckedContinuation<Void, Never>]?>([])

    func open() {
        let waiting = gate.withLock { state -> [CheckedContinuation<Void, Never>] in
            let waiting = state ?? []
            state = nil
            return waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
        let text = request.query.query.text
        if text.hasPrefix("slow") {
            await withCheckedContinuation { continuation in
                let opened = gate.withLock { state -> Bool in
                    guard state != nil else { return true }
                    state!.append(continuation)
                    return false
                }
                if opened { continuation.resume() }
            }
        }
        return ProviderOutput(candidates: [SuggestionCandidate(title: "answer to " + text, tier: .unfiltered)])
    }
}

/// The next text message ("" for another kind or the end).
func nextText(_ messages: inout WebSocketInboundMessageStream.AsyncIterator) async throws -> String {
    let message = try await messages.next(isolation: #isolation)
    guard case .text(let text)? = message else { return "" }
    return text
}

struct WebSocketTests {
    @Test func keystrokesStreamLatestWinsAndOtherActionsAreAcknowledged() async throws {
        let gated = GatedProvider()
        let configuration = EngineConfiguration(slots: [ProviderSlot(gated)])
        let server = SuggestServer(configuration: configuration, options: ServerOptions(port: 0))
        let received = Mutex<[String]>([])
        try await server.makeApplication().test(.live) { client in
            try await client.ws("/ws") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                func next() async throws -> String {
                    let text = try await nextText(&messages)
                    received.withLock { $0.append(text) }
                    return text
                }
                try await outbound.write(.text(#"{"text": "slow one"}"#))
                // The synchronous part of "slow one" comes at once (no suggestion yet: its provider waits).
                let first = object(try await next())
                #expect(first["text"] as? String == "slow one")
                try await outbound.write(.text(#"{"text": "fast"}"#))
                var answer = object(try await next())
                while (answer["suggestions"] as? [Any])?.isEmpty ?? true { answer = object(try await next()) }
                #expect(answer["text"] as? String == "fast")
                #expect(texts(String(data: try JSONSerialization.data(withJSONObject: answer), encoding: .utf8)!)
                    == ["answer to fast"])
                // Now the stale keystroke's provider answers: that answer must never be sent.
                gated.open()
                try await outbound.write(.text(#"{"bad": 1}"#))
                let answer1 = try await next()
                #expect(object(answer1)["error"] as? String == #"unknown key "bad""#)
                try await outbound.write(.text(#"{"submit": "fast"}"#))
                let answer2 = try await next()
                // No "recent" provider: nothing is kept, so nothing is left unwritten.
                #expect(answer2 == #"{"submitted":"fast","stored":true}"#)
                try await outbound.write(.text(#"{"text": "last"}"#))
                var last = object(try await next())
                while (last["suggestions"] as? [Any])?.isEmpty ?? true { last = object(try await next()) }
                #expect(last["text"] as? String == "last")
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        let all = received.withLock { $0 }
        #expect(!all.contains { $0.contains("answer to slow one") }, "\(all)")
    }

    @Test func aWebSocketWithAnInvalidUserIsRefused() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(
            configuration: try fixture.configuration(), options: ServerOptions(port: 0, identity: .insecureUserParameter))
        try await server.makeApplication().test(.live) { client in
            await #expect(throws: (any Error).self) {
                try await client.ws("/ws?user=") { _, _, _ in }
            }
        }
    }

    /// A message over ``ServerOptions/maximumBodyBytes`` (64 KiB) closes the connection with 1009 (message too
    /// large); the server goes on.
    @Test(.timeLimit(.minutes(1)))
    func aMessageOverTheLimitClosesTheConnection() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration(), options: ServerOptions(port: 0))
        try await server.makeApplication().test(.live) { client in
            let close = try await client.ws("/ws") { inbound, outbound, _ in
                try await outbound.write(.text(#"{"text": ""# + String(repeating: "a", count: 70_000) + #""}"#))
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                #expect(try await messages.next() == nil)
            }
            #expect(close?.closeCode == .messageTooLarge)
            // The server still answers, on a new connection.
            let after = try await client.executeRequest(uri: "/suggest?q=py", method: .get, headers: [:], body: nil)
            #expect(after.status == .ok)
        }
    }
}
#endif
