import Suggest
import SuggestTesting
import XCTest

/// The kit from XCTest: `run()` in an `async throws` test method.
final class ProviderConformanceXCTests: XCTestCase {
    func testAGoodProviderPasses() async throws {
        try await ProviderConformance(GoodListProvider(), queries: ["a", "green ap"]).run()
    }

    func testABrokenProviderThrowsOneErrorListingItsFailures() async {
        do {
            try await ProviderConformance(BrokenProvider(.ignoresLimit), queries: ["a"], options: .init(limits: [1]))
                .run()
            XCTFail("run() did not throw")
        } catch {
            XCTAssertEqual(error.failures.map(\.check), [.limitPerTier])
            XCTAssertEqual(
                error.description,
                """
                provider "broken" failed conformance checks (1 failure):
                - [limitPerTier] query "a": limit 1: 4 candidates in tier prefix (at most 1 per tier)
                """
            )
        }
    }
}
