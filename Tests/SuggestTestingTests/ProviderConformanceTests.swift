import Suggest
import SuggestTesting
import Testing

struct ProviderConformanceTests {
    static let queries: [SearchQuery] = ["a", "ap", "green", "cafe", "angst", "zzz", "green ap"]

    @Test func aGoodProviderPassesEveryCheck() async throws {
        let report = await ProviderConformance(GoodListProvider(), queries: Self.queries).report()
        #expect(report.passed, "\(report)")
        #expect(report.skipped.keys.sorted { $0.rawValue < $1.rawValue } == [.cancellation])
        #expect(Set(report.checked) == Set(ProviderConformance.Check.allCases).subtracting([.cancellation]))
        try await ProviderConformance(GoodListProvider(), queries: Self.queries).run()
    }

    @Test func aGoodRemoteProviderPassesEveryCheckCancellationIncluded() async throws {
        let report = await ProviderConformance(GoodRemoteProvider(), queries: Self.queries).report()
        #expect(report.passed, "\(report)")
        #expect(report.checked.contains(.cancellation))
        #expect(report.skipped.isEmpty)
    }

    /// Each broken provider fails exactly the check it breaks, and the error names the query.
    @Test(arguments: [
        (BrokenProvider.Fault.emptyID, ProviderConformance.Check.providerID),
        (.throwsOnSearch, .answers),
        (.suggestsOnEmptyField, .emptyQuery),
        (.ignoresLimit, .limitPerTier),
        (.rangeOutsideTitle, .matchedRanges),
        (.rangeInsideCharacter, .matchedRanges),
        (.notANumberPopularity, .scores),
        (.negativePopularity, .scores),
        (.alternatesOrder, .deterministicOrder),
        (.throwsAfterSubmit, .submitAndSelect),
        (.narrowsBlindly, .typingSession),
        (.rangesOnEmptyField, .emptyQuery),
        (.negativeTypos, .scores),
    ])
    func aBrokenProviderFailsTheCheckItBreaks(fault: BrokenProvider.Fault, check: ProviderConformance.Check) async {
        let conformance = ProviderConformance(BrokenProvider(fault), queries: Self.queries)
        let report = await conformance.report()
        #expect(report.failedChecks == [check], "\(report)")
        do {
            try await ProviderConformance(BrokenProvider(fault), queries: Self.queries).run()
            Issue.record("run() did not throw")
        } catch {
            #expect(error.failures.map(\.check).allSatisfy { $0 == check })
            #expect(
                error.description.hasPrefix(
                    #"provider "\#(fault == .emptyID ? "" : "broken")" failed conformance checks"#))
            #expect(error.description.contains("[\(check)]"))
        }
    }

    @Test func theErrorListsEveryFailureWithItsQuery() async throws {
        let error = await #expect(throws: ProviderConformanceError.self) {
            try await ProviderConformance(BrokenProvider(.rangeOutsideTitle), queries: ["ap", "ban"]).run()
        }
        let lines = try #require(error).description.split(separator: "\n").map(String.init)
        #expect(lines.first == #"provider "broken" failed conformance checks (11 failures):"#)
        // "ap": Apple, Apricot, Green Apple; "ban": Banana: one line per candidate shown at limits 1, 3 and 8.
        #expect(
            lines.dropFirst().filter {
                $0.hasPrefix(
                    #"- [matchedRanges] query "ap": "Apple": range 0..<100 is outside the title (5 UTF-8 bytes)"#)
            }.count == 3)
        #expect(
            lines.dropFirst().filter { $0.hasPrefix(#"- [matchedRanges] query "ban": "Banana": range 0..<100"#) }.count
                == 3)
    }

    @Test func aRangeThatCutsACharacterIsNamed() async {
        let report = await ProviderConformance(
            BrokenProvider(.rangeInsideCharacter), queries: ["ca"], options: .init(limits: [5])
        ).report()
        #expect(
            report.failures.map(\.description) == [
                #"[matchedRanges] query "ca": "Café": range 0..<4 does not start and end on character boundaries"#
            ])
    }

    @Test func aProviderWhoseAnswersChangeWhenRequestsOverlapFailsConcurrentUse() async {
        let options = ProviderConformance.Options(limits: [5], concurrentTasks: 4, checks: [.concurrentUse])
        let report = await ProviderConformance(SharedScratchProvider(), queries: ["ap"], options: options).report()
        #expect(report.failedChecks == [.concurrentUse], "\(report)")
        #expect(
            report.failures.first?.message.hasPrefix(
                "asked from 4 tasks at once, an answer differs from the serial one") == true)
    }

    @Test func aRemoteProviderThatIgnoresCancellationFailsWithinTheBound() async {
        let provider = IgnoresCancellationProvider()
        let options = ProviderConformance.Options(cancellationWait: .milliseconds(200))
        let report = await ProviderConformance(provider, queries: ["ap"], options: options).report()
        provider.parked.releaseAll()
        #expect(report.failedChecks == [.cancellation], "\(report)")
        #expect(
            report.failures.map(\.description) == [
                #"[cancellation] query "ap": cancelled before it was called, suggestions(for:) had neither returned nor thrown after 0.2 seconds"#
            ])
    }

    @Test func narrowingThatForgetsWhatAShorterTextFindsIsNamed() async {
        let options = ProviderConformance.Options(limits: [8], checks: [.typingSession])
        let report = await ProviderConformance(BrokenProvider(.narrowsBlindly), queries: ["an"], options: options)
            .report()
        #expect(
            report.failures.map(\.description) == [
                #"[typingSession] query "an": erased back to "a" with the previous keystroke's state, the answer differs from a fresh one: 5 candidates, then 1"#
            ])
    }

    @Test func moreThanLimitOnAnEmptyFieldFailsBothChecks() async {
        let report = await ProviderConformance(
            BrokenProvider(.tooManyOnEmptyField), queries: [], options: .init(limits: [3])
        ).report()
        #expect(
            report.failures.map(\.description) == [
                #"[emptyQuery] query "": limit 3: 7 candidates on an empty field"#,
                #"[limitPerTier] query "": limit 3: 7 candidates in tier unfiltered (at most 3 per tier)"#,
                #"[emptyQuery] query "   ": limit 3: 7 candidates on an empty field"#,
                #"[limitPerTier] query "   ": limit 3: 7 candidates in tier unfiltered (at most 3 per tier)"#,
            ])
    }

    @Test func checksCanBeLeftOut() async {
        let options = ProviderConformance.Options(checks: [.providerID, .matchedRanges])
        let report = await ProviderConformance(BrokenProvider(.ignoresLimit), queries: Self.queries, options: options)
            .report()
        #expect(report.passed)
        #expect(report.checked == [.providerID, .matchedRanges])
    }

    @Test func aLimitBelowOneIsTheKitsOwnError() async {
        let report = await ProviderConformance(GoodListProvider(), queries: ["a"], options: .init(limits: [0, 3]))
            .report()
        #expect(report.failures.map(\.description) == ["[limitPerTier] the kit's limits must be 1 or more, got [0, 3]"])
    }

    @Test func aProviderThatCrashesInDidSubmitEndsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            struct CrashesOnSubmit: SuggestionProvider {
                let id = "crash"
                func didSubmit(_ query: SearchQuery) { fatalError("didSubmit crashed") }
            }
            try? await ProviderConformance(CrashesOnSubmit(), queries: ["a"]).run()
        }
    }
}
