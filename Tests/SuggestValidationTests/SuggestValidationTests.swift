import Foundation
import SuggestCore
import SuggestValidation
import Testing
import SuggestTestSupport

/// The validator's entry points, called directly (the `suggest validate` command and a package's own validator
/// executable are tested by running them, in SuggestCLITests).
struct SuggestValidationTests {
    /// A folder with one valid configuration (a static provider, no dictionary), removed by the caller.
    static func fixture() throws -> (folder: String, good: String) {
        let folder = TestFolders.unique("suggest-validation-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let good = folder + "/good.suggest.json"
        try #"{"version": 1, "providers": [{"type": "static", "items": [{"title": "Apple"}]}]}"#
            .write(toFile: good, atomically: true, encoding: .utf8)
        return (folder, good)
    }

    /// Each file is announced before it is read and released before its verdict is written; one bad file makes
    /// the status 1 and the others are still checked.
    @Test func eachFileIsAnnouncedThenReleasedAndABadOneFailsTheRun() throws {
        let (folder, good) = try Self.fixture()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missing = folder + "/missing.suggest.json"
        var calls: [String?] = []
        let status = SuggestValidation.validate(files: [missing, good], registry: .core) { calls.append($0) }
        #expect(status == 1)
        #expect(calls == [missing, nil, good, nil])
        #expect(SuggestValidation.validate(files: [good], registry: .core) == 0)
    }

    @Test func usageErrorsAre64() throws {
        let (folder, good) = try Self.fixture()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(SuggestValidation.run(registry: .core, arguments: []) == 64)
        #expect(SuggestValidation.run(registry: .core, arguments: ["--bogus", good]) == 64)
        #expect(SuggestValidation.run(registry: .core, arguments: ["validate", good]) == 0)
    }
}
