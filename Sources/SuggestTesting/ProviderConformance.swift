public import SuggestCore

/// A conformance suite for a `SuggestionProvider`: run it in one line from a Swift Testing or an XCTest test.
///
/// ```swift
/// @Test func contactsConform() async throws {
///     try await ProviderConformance(ContactsProvider(store: .sample), queries: ["al", "lunch with ali"]).run()
/// }
/// ```
///
/// ``run()`` throws one ``ProviderConformanceError`` that lists every failed check with its query;
/// ``report()`` returns the same findings as a ``ProviderConformance/Report`` without throwing. The kit imports
/// neither Testing nor XCTest, so it works from both.
///
/// The checks (``ProviderConformance/Check``), on every query you give and on an empty and a blank one:
/// - **providerID**: `SuggestionProvider/id` is not empty (nor only spaces).
/// - **answers**: the provider answers without throwing.
/// - **emptyQuery**: on an empty (or blank) field it offers nothing, or only `MatchTier/unfiltered` candidates
///   (what an empty field shows: recent searches, a default list), at most `limit` of them, without matched ranges.
/// - **limitPerTier**: for each of ``Options/limits``, at most `limit` candidates in each tier.
/// - **matchedRanges**: every matched range is non-empty, inside the title and on character boundaries.
/// - **scores**: popularity is finite and 0 or more; typos are 0 or more.
/// - **deterministicOrder**: the same request twice gives the same list (title, completion, tier, ranges, in the
///   same order). Popularity is not compared: it may drift with a clock (a frecency).
/// - **concurrentUse**: ``Options/concurrentTasks`` tasks asking at once get the answers serial calls got.
/// - **typingSession**: each query typed a character at a time, then erased back to its first character, with
///   each keystroke's `ProviderOutput/state` passed to the next as `SuggestionRequest/previousState` (as the
///   engine does), gets at every keystroke what a fresh request gets: a provider that narrows its previous
///   answer must not lose or keep anything a fresh search would not.
/// - **cancellation** (asynchronous providers only): a cancelled `SuggestionProvider/suggestions(for:)` returns
///   or throws within ``Options/cancellationWait``, whether cancelled before it is called or after. This is
///   a bound on a hang, not a measure of speed: a provider that stops at its next `await` passes with room to spare.
/// - **submitAndSelect**: `SuggestionProvider/didSelect(_:for:)` (with the first candidate of each query) and
///   `SuggestionProvider/didSubmit(_:)` run, and the provider still answers afterwards. A crash there ends the
///   test process, which fails the test run. These run last, since they may change what the provider knows (give
///   a recents provider an in-memory store); turn them off with ``Options/checks``.
///
/// Requests are made as the engine makes them: the query prepared by `PreparedQuery`, no previous state,
/// `SuggestionProvider/suggest(_:into:)` for a synchronous provider and `SuggestionProvider/suggestions(for:)`
/// for an asynchronous one.
public struct ProviderConformance: Sendable {
    /// What to check and how hard.
    public struct Options: Sendable {
        /// The limits each query is asked with (1 or more each). Default: 1, 3 and 8.
        public var limits: [Int]
        /// How many tasks ask at once in the ``Check/concurrentUse`` check. Default 8.
        public var concurrentTasks: Int
        /// How long a cancelled asynchronous request may take to return or throw before it counts as a hang.
        /// Default 10 seconds.
        public var cancellationWait: Duration
        /// The checks to run. Default: all of them.
        public var checks: Set<Check>

        public init(
            limits: [Int] = [1, 3, 8],
            concurrentTasks: Int = 8,
            cancellationWait: Duration = .seconds(10),
            checks: Set<Check> = Set(Check.allCases)
        ) {
            self.limits = limits
            self.concurrentTasks = concurrentTasks
            self.cancellationWait = cancellationWait
            self.checks = checks
        }
    }

    let provider: any SuggestionProvider
    let queries: [SearchQuery]
    let options: Options

    /// A suite for `provider`, asking it `queries` (text that should find something; tokens and scope are kept).
    /// An empty and a blank query are always added.
    public init(_ provider: some SuggestionProvider, queries: [SearchQuery], options: Options = Options()) {
        self.provider = provider
        self.queries = queries
        self.options = options
    }

    /// Runs every check and throws if any failed.
    /// - Throws: one ``ProviderConformanceError`` whose description lists every failure with its check and query.
    public func run() async throws(ProviderConformanceError) {
        let report = await report()
        if !report.failures.isEmpty { throw ProviderConformanceError(report: report) }
    }

    /// Runs every check and returns what was found, failures and all.
    public func report() async -> Report {
        var run = Run(provider: provider, options: options)
        await run.all(queries: queries)
        return Report(providerID: provider.id, checked: run.checked, skipped: run.skipped, failures: run.failures)
    }
}

extension ProviderConformance {
    /// One kind of check (see ``ProviderConformance`` for what each one asks).
    public enum Check: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case providerID
        case answers
        case emptyQuery
        case limitPerTier
        case matchedRanges
        case scores
        case deterministicOrder
        case concurrentUse
        case typingSession
        case cancellation
        case submitAndSelect

        public var description: String { rawValue }
    }

    /// A failed check: which, for which query (nil when it is about the provider as a whole), and what was wrong.
    public struct Failure: Hashable, Sendable, CustomStringConvertible {
        public var check: Check
        public var query: SearchQuery?
        public var message: String

        public init(check: Check, query: SearchQuery?, message: String) {
            self.check = check
            self.query = query
            self.message = message
        }

        public var description: String {
            guard let query else { return "[\(check)] \(message)" }
            return "[\(check)] query \(ProviderConformance.quoted(query)): \(message)"
        }
    }

    /// What a run found.
    public struct Report: Sendable, CustomStringConvertible {
        /// The provider's id.
        public var providerID: String
        /// The checks that ran, in order.
        public var checked: [Check]
        /// Checks that did not apply, with the reason (``Check/cancellation`` for a synchronous provider).
        public var skipped: [Check: String]
        /// Every failure, in the order found.
        public var failures: [Failure]

        /// True when nothing failed.
        public var passed: Bool { failures.isEmpty }
        /// The checks that failed at least once.
        public var failedChecks: Set<Check> { Set(failures.map(\.check)) }

        public var description: String {
            let name = "provider \"\(providerID)\""
            guard !failures.isEmpty else {
                return "\(name) passed \(checked.count) conformance checks"
                    + (skipped.isEmpty
                        ? "" : " (skipped: \(skipped.keys.map(\.rawValue).sorted().joined(separator: ", ")))")
            }
            let count = failures.count == 1 ? "1 failure" : "\(failures.count) failures"
            return "\(name) failed conformance checks (\(count)):\n"
                + failures.map { "- \($0)" }.joined(separator: "\n")
        }
    }

    static func quoted(_ query: SearchQuery) -> String {
        var text = "\"\(query.text)\""
        if !query.tokens.isEmpty { text += " tokens \(query.tokens.map(\.description))" }
        if let scope = query.scope { text += " scope \(scope)" }
        return text
    }
}

/// Thrown by ``ProviderConformance/run()``: every failed check, each with its query.
public struct ProviderConformanceError: Error, CustomStringConvertible {
    /// The whole report (``ProviderConformance/Report/failures`` is not empty).
    public let report: ProviderConformance.Report

    public init(report: ProviderConformance.Report) { self.report = report }

    public var failures: [ProviderConformance.Failure] { report.failures }
    public var description: String { report.description }
}
