import Foundation
import Suggest
import Synchronization
import Testing

@testable import suggest

/// The keys of `suggest interactive` on a `SearchSession`, and an asynchronous provider's late answer reaching the
/// screen without a key.
@MainActor
struct InteractiveControllerTests {
    /// Answers `late:<text>` after `delay`.
    struct LateProvider: SuggestionProvider {
        let id = "late"
        let delay: Duration
        var execution: ProviderExecution { .asynchronous(deadline: .seconds(5)) }

        func suggestions(for request: SuggestionRequest) async throws -> ProviderOutput {
            try await Task.sleep(for: delay)
            return ProviderOutput(candidates: [
                SuggestionCandidate(title: "late:\(request.query.text)", tier: .prefix, popularity: 1)
            ])
        }
    }

    func controller(_ providers: [any SuggestionProvider]) -> InteractiveController {
        InteractiveController(session: SearchSession(engine: SuggestionEngine(providers: providers)))
    }

    static let fruits = StaticProvider(
        id: "fruits",
        items: [.init(title: "Apple", popularity: 3), .init(title: "Apricot", popularity: 2), .init(title: "Banana")])

    @Test func anAsynchronousAnswerUpdatesTheFrameWithoutAKey() async throws {
        let controller = controller([Self.fruits, LateProvider(delay: .milliseconds(50))])
        let updates = Mutex(0)
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        controller.onUpdate = {
            updates.withLock { $0 += 1 }
            continuation.yield()
        }
        #expect(controller.handle(.text("a")) == .continue)
        var frame = controller.frame(help: "")
        #expect(frame.items.contains(.suggestion(controller.session.result.suggestions[0])))
        #expect(frame.status.contains("waiting for late"))
        #expect(!controller.session.result.suggestions.contains { $0.title == "late:a" })
        // No key: the late answer arrives and the controller reports it.
        for await _ in stream where controller.session.result.suggestions.contains(where: { $0.title == "late:a" }) {
            break
        }
        frame = controller.frame(help: "")
        #expect(frame.items.contains { if case .suggestion(let s) = $0 { s.title == "late:a" } else { false } })
        #expect(!frame.status.contains("waiting"))
        #expect(updates.withLock { $0 } >= 1)
    }

    @Test func theSelectionFollowsItsRowAcrossAnUpdate() async throws {
        let controller = controller([Self.fruits, LateProvider(delay: .milliseconds(20))])
        _ = controller.handle(.text("ap"))
        _ = controller.handle(.down)
        _ = controller.handle(.down)
        #expect(controller.selection == .suggestion(.text("Apricot")))
        await controller.session.waitForUpdates()
        #expect(controller.session.result.suggestions.contains { $0.title == "late:ap" })
        #expect(controller.selection == .suggestion(.text("Apricot")))
        let frame = controller.frame(help: "")
        #expect(
            frame.selected.map { frame.items[$0] }
                == .suggestion(controller.session.result.suggestions.first { $0.title == "Apricot" }!))
    }

    @Test func keysDriveTheSession() {
        let controller = controller([Self.fruits])
        _ = controller.handle(.text("a"))
        _ = controller.handle(.text("p"))
        #expect(controller.session.text == "ap")
        _ = controller.handle(.backspace)
        #expect(controller.session.text == "a")
        // ↓ ↓ ↑ ↑: the first row, the second, the first, none.
        _ = controller.handle(.down)
        _ = controller.handle(.down)
        _ = controller.handle(.up)
        #expect(controller.currentSelection == .suggestion(.text("Apple")))
        _ = controller.handle(.up)
        #expect(controller.currentSelection == nil)
        _ = controller.handle(.down)
        _ = controller.handle(.tab)
        #expect(controller.session.text == "Apple")
        _ = controller.handle(.enter)
        #expect(controller.submitted == "Apple")
        #expect(controller.status.contains("submitted \"Apple\""))
        _ = controller.handle(.escape)
        #expect(controller.session.text == "")
        #expect(controller.submitted == nil)
        _ = controller.handle(.text("one two"))
        _ = controller.handle(.control("w"))
        #expect(controller.session.text == "one ")
        _ = controller.handle(.control("u"))
        #expect(controller.session.text == "")
        #expect(controller.handle(.text("x")) == .continue)
        #expect(controller.handle(.control("d")) == .continue)
        _ = controller.handle(.backspace)
        #expect(controller.handle(.control("d")) == .quit)
        #expect(controller.handle(.control("c")) == .quit)
    }

    @Test func controlSCyclesTheScopes() {
        let session = SearchSession(
            engine: SuggestionEngine(providers: [Self.fruits]), scopes: ["fruits", "vegetables"])
        let controller = InteractiveController(session: session)
        #expect(session.scope == nil)
        _ = controller.handle(.control("s"))
        #expect(session.scope == "fruits")
        _ = controller.handle(.control("s"))
        #expect(session.scope == "vegetables")
        _ = controller.handle(.control("s"))
        #expect(session.scope == nil)
    }
}
