#if Server
import Foundation
import Logging
import PostgresNIO
import SuggestPostgres
import Testing

/// The test database: `SUGGEST_TEST_POSTGRES_URL` (e.g. from `eval "$(bash .ci/postgres.sh start)"`). Without it
/// the users database tests are skipped with that reason (`make test-server` sets it, and
/// `SUGGEST_REQUIRE_POSTGRES=1`, whose check is in SuggestPostgresTests).
enum UsersTestDatabase {
    static let variable = "SUGGEST_TEST_POSTGRES_URL"
    static var url: String? {
        guard let url = ProcessInfo.processInfo.environment[variable], !url.isEmpty else { return nil }
        return url
    }
    static var isAvailable: Bool { url != nil }
    static let skipReason: Comment =
        "SUGGEST_TEST_POSTGRES_URL is not set: run `eval \"$(bash .ci/postgres.sh start)\"` (or `make test-server`) to run the users database tests"

    static func settings() throws -> PostgresConnectionSettings { try PostgresConnectionSettings(url: url!) }

    /// Runs `body` with a client of the test database of its own (not the code under test's).
    @discardableResult
    static func withClient<T: Sendable>(_ body: (PostgresClient) async throws -> T) async throws -> T {
        let client = PostgresClient(
            configuration: try settings().clientConfiguration(maximumConnections: 2),
            backgroundLogger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let runner = Task { await client.run() }
        defer { runner.cancel() }
        return try await body(client)
    }

    /// The searches stored for `user` and `provider` (nil: no row): each search's text and uses.
    static func stored(user: String, provider: String = "recent", client: PostgresClient) async throws
        -> [String: Int]?
    {
        let rows = try await client.query(
            "SELECT searches::text FROM suggest_user_recents WHERE user_id = \(user) AND provider = \(provider)")
        var found: [String: Int]? = nil
        for try await json in rows.decode(String.self) {
            let entries = (try JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: Any]] ?? []
            var uses: [String: Int] = [:]
            for entry in entries {
                let text = entry["text"] as? String ?? ""
                uses[text, default: 0] += entry["uses"] as? Int ?? 0
                #expect(uses[text] == entry["uses"] as? Int, "\(text) stored in two entries")
            }
            found = uses
        }
        return found
    }
}

#endif
