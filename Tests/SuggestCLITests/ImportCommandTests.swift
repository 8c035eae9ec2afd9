#if Server
import Foundation
import Testing
import SuggestTestSupport

/// `suggest import --postgres URL DICTIONARY`: its errors need no database; the import itself runs when
/// `SUGGEST_TEST_POSTGRES_URL` names one (see .ci/postgres.sh).
@Suite struct ImportCommandTests {
    static var databaseURL: String? {
        ProcessInfo.processInfo.environment["SUGGEST_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func temporaryFolder() throws -> String {
        let path = TestFolders.unique("suggest-import-")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aBadDictionaryIsAnErrorNamingFileAndLineBeforeAnyConnection() throws {
        let folder = try temporaryFolder()
        try "apple\t1\npear\tmany\n".write(toFile: folder + "/bad.tsv", atomically: true, encoding: .utf8)
        // Nothing listens on port 9: the dictionary is read first, so its error is the one reported.
        let output = try CLIRunner.run(["import", "--postgres", "postgres://u@127.0.0.1:9/d", folder + "/bad.tsv"])
        #expect(output.status == 1)
        #expect(output.stderr == "error: \(folder)/bad.tsv:2: weight \"many\" is not a number\n")
    }

    @Test func badURLsAndTablesAreErrors() throws {
        let folder = try temporaryFolder()
        try "apple\t1\n".write(toFile: folder + "/ok.tsv", atomically: true, encoding: .utf8)
        let url = try CLIRunner.run(["import", "--postgres", "mysql://u:secret@h/d", folder + "/ok.tsv"])
        #expect(url.status == 1)
        #expect(url.stderr == "error: mysql://u:***@h/d: expected a postgres:// or postgresql:// URL\n")
        let table = try CLIRunner.run(["import", "--postgres", "postgres://u@h/d", folder + "/ok.tsv", "--table", "a;b"])
        #expect(table.status == 1)
        #expect(table.stderr.hasPrefix("error: \"a;b\" is not a table name"))
    }

    @Test func anUnreachableDatabaseIsAnError() throws {
        let folder = try temporaryFolder()
        try "apple\t1\n".write(toFile: folder + "/ok.tsv", atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["import", "--postgres", "postgres://u@127.0.0.1:9/d?sslmode=disable", folder + "/ok.tsv"])
        #expect(output.status == 1)
        #expect(output.stderr.hasPrefix("error: u@127.0.0.1:9/d: cannot connect: "), "\(output.stderr)")
    }

    @Test(.enabled(if: databaseURL != nil, "SUGGEST_TEST_POSTGRES_URL is not set: the import into PostgreSQL is not run"))
    func importsAndRefusesToOverwriteWithoutReplace() throws {
        let folder = try temporaryFolder()
        try "apple\t3\nApple pie\t2\tfood\n".write(toFile: folder + "/fruits.tsv", atomically: true, encoding: .utf8)
        let table = "t_cli_\(UInt32.random(in: 0...UInt32.max))"
        let url = try #require(Self.databaseURL)
        let first = try CLIRunner.run(["import", "--postgres", url, folder + "/fruits.tsv", "--table", table])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("table \(table): 2 rows in "), "\(first.stdout)")
        let again = try CLIRunner.run(["import", "--postgres", url, folder + "/fruits.tsv", "--table", table])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists") && again.stderr.contains("--replace"), "\(again.stderr)")
        // --replace swaps the rows in (the throwaway database keeps the table).
        try "".write(toFile: folder + "/empty.tsv", atomically: true, encoding: .utf8)
        let replaced = try CLIRunner.run(["import", "--postgres", url, folder + "/empty.tsv", "--table", table, "--replace"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replaced.stdout.contains("table \(table): 0 rows in "), "\(replaced.stdout)")
    }
}
#endif
