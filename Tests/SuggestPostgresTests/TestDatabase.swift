#if Server
import Foundation
import Synchronization
import Testing
@testable import SuggestPostgres

/// The test database: `SUGGEST_TEST_POSTGRES_URL` (e.g. from `eval "$(bash .ci/postgres.sh start)"`). Without it
/// the tests that need it are skipped with that reason; with `SUGGEST_REQUIRE_POSTGRES=1` its absence fails the
/// suite (CI sets both).
enum TestDatabase {
    static let variable = "SUGGEST_TEST_POSTGRES_URL"
    static var url: String? {
        guard let url = ProcessInfo.processInfo.environment[variable], !url.isEmpty else { return nil }
        return url
    }
    static var isAvailable: Bool { url != nil }
    static var isRequired: Bool { ProcessInfo.processInfo.environment["SUGGEST_REQUIRE_POSTGRES"] == "1" }
    static let skipReason: Comment =
        "SUGGEST_TEST_POSTGRES_URL is not set: run `eval \"$(bash .ci/postgres.sh start)\"` (or `make test-postgres`) to run the PostgreSQL tests"

    static func settings() throws -> PostgresConnectionSettings { try PostgresConnectionSettings(url: url!) }

    /// Runs `command` with `/bin/sh -c` and returns its exit status.
    static func shell(_ command: String) -> Int32 {
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }

    /// A table name of its own for one test.
    static func uniqueTable(_ stem: String) -> String {
        "t_\(stem)_\(UInt32.random(in: 0...UInt32.max))"
    }
}

#endif
