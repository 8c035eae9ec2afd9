import Logging
import Synchronization
import Testing

@testable import SuggestCore

/// A `LogHandler` that keeps what it is given, for tests.
struct CapturingLogHandler: LogHandler {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    final class Store: Sendable {
        let entries = Mutex<[Entry]>([])
        var all: [Entry] { entries.withLock { $0 } }
    }

    let store: Store
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider? = nil

    func log(event: LogEvent) {
        let entry = Entry(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:])
        store.entries.withLock { $0.append(entry) }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// A logger that writes into a new store, at `level` and above.
    static func logger(level: Logger.Level = .trace) -> (Logger, Store) {
        let store = Store()
        var handler = CapturingLogHandler(store: store)
        handler.logLevel = level
        return (Logger(label: "test", factory: { _ in handler }), store)
    }
}

/// Provider notes — a store problem, a cut walk — as a provider reports them.
struct NotingProvider: SuggestionProvider {
    let id = "noting"
    let note: String
    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        output.notes.append(note)
        output.append(SuggestionCandidate(title: "noted", tier: .unfiltered))
    }
}

struct EngineLoggingTests {
    @Test func aKeystrokeWithNothingToNoteLogsNothing() {
        let (logger, store) = CapturingLogHandler.logger()
        let engine = SuggestionEngine(
            providers: [FixedProvider(id: "fixed", candidates: [candidate("apple", .prefix)])], logger: logger)
        var session = TypingSession()
        for text in ["a", "ap", "app"] { _ = engine.suggestions(for: SearchQuery(text: text), session: &session) }
        engine.submit(SearchQuery(text: "apple"))
        #expect(store.all.isEmpty)
    }

    @Test func aFailingProviderIsAWarningNamingItOnceWhileItKeepsFailing() {
        let (logger, store) = CapturingLogHandler.logger()
        let engine = SuggestionEngine(providers: [FailingProvider()], logger: logger)
        var session = TypingSession()
        for text in ["a", "ap", "app"] { _ = engine.suggestions(for: SearchQuery(text: text), session: &session) }
        let entries = store.all
        #expect(entries.count == 1)
        #expect(entries.first?.level == .warning)
        #expect(entries.first?.message == "provider failed: boom")
        #expect(entries.first?.metadata["suggest.source"] == "failing")
    }

    @Test func aProviderNoteIsLoggedOnceUntilAnotherReplacesIt() {
        let (logger, store) = CapturingLogHandler.logger()
        let first = SuggestionEngine(
            providers: [NotingProvider(note: "recents.json: cannot be written: Permission denied")], logger: logger)
        for text in ["a", "ab"] { _ = first.suggestions(for: text) }
        #expect(store.all.map(\.message) == ["note: recents.json: cannot be written: Permission denied"])
        #expect(store.all.first?.level == .notice)
        #expect(store.all.first?.metadata["suggest.source"] == "noting")
        // The result's diagnostics still carry the note on every keystroke.
        let notes = first.suggestions(for: "abc").diagnostics.notes
        #expect(notes == ["noting: recents.json: cannot be written: Permission denied"])
    }

    @Test func aTruncatedQueryIsANotice() {
        let (logger, store) = CapturingLogHandler.logger()
        var options = EngineOptions()
        options.maxQueryLength = 4
        let engine = SuggestionEngine(
            providers: [FixedProvider(id: "fixed", candidates: [])], options: options, logger: logger)
        _ = engine.suggestions(for: "abcdefgh")
        #expect(store.all.map(\.level) == [.notice])
        #expect(store.all.first?.message == "query truncated: query text truncated from 8 to 4 UTF-8 bytes")
    }

    @Test func anAsynchronousProviderSkippedByTheSynchronousCallIsDebugOnly() {
        let (quiet, quietStore) = CapturingLogHandler.logger(level: .info)
        let slow = SlowProvider(id: "slow", delay: .zero, deadline: .seconds(1))
        _ = SuggestionEngine(providers: [slow], logger: quiet).suggestions(for: "a")
        #expect(quietStore.all.isEmpty)
        let (verbose, verboseStore) = CapturingLogHandler.logger(level: .debug)
        _ = SuggestionEngine(providers: [slow], logger: verbose).suggestions(for: "a")
        #expect(verboseStore.all.map(\.level) == [.debug])
    }

    @Test func anAsynchronousProviderThatMissesItsDeadlineIsANotice() async {
        let (logger, store) = CapturingLogHandler.logger()
        let remote = SlowProvider(id: "remote", delay: .seconds(30), deadline: .milliseconds(1))
        let engine = SuggestionEngine(providers: [remote], logger: logger)
        var session = TypingSession()
        _ = await engine.allSuggestions(for: SearchQuery(text: "q"), session: &session)
        #expect(store.all.map(\.message) == ["provider cancelled: missed its deadline"])
        #expect(store.all.first?.level == .notice)
        #expect(store.all.first?.metadata["suggest.source"] == "remote")
    }

    @Test func aConfigurationGivesItsLoggerToTheEngine() throws {
        let (logger, store) = CapturingLogHandler.logger()
        let configuration = try EngineConfiguration(
            json: #"{"version": 1, "maxQueryLength": 2, "providers": [{"type": "static", "items": [{"title": "a"}]}]}"#,
            registry: .core, logger: logger)
        let engine = configuration.makeEngine()
        store.entries.withLock { $0.removeAll() }
        _ = engine.suggestions(for: "abc")
        #expect(store.all.map(\.message) == ["query truncated: query text truncated from 3 to 2 UTF-8 bytes"])
    }
}
