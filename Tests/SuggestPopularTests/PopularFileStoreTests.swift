import Foundation
import Suggest
import Testing

@testable import SuggestPopular

struct PopularFileStoreTests {
    @Test func aStoreRoundTripsCountsUsersAndDecay() throws {
        let folder = try temporaryFolder()
        let path = folder + "/popular.json"
        let clock = TestClock()
        let first = PopularProvider(store: PopularFileStore(path: path), options: .init(minUsers: 3), now: clock.now)
        for i in 0..<3 { first.record("Tacos", user: "u\(i)") }
        first.record("tacos", user: "u0")
        first.record("sushi", user: "u0")
        #expect(first.unsavedChangeCount == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // No user id is written, only hashes.
        #expect(!text.contains("u0"))
        #expect(text.hasPrefix(#"{"popular":1,"salt":""#))

        clock.advance(days: 14)
        let second = PopularProvider(store: PopularFileStore(path: path), options: .init(minUsers: 3), now: clock.now)
        #expect(second.queries.map(\.text) == first.queries.map(\.text))
        #expect(second.queries.first?.users == 3)
        let tacos = try #require(second.queries.first)
        #expect(abs(second.popularity(of: tacos, at: clock.date) - 1.5) < 1e-9)
        // The same salt: a person counted before is still recognised.
        #expect(second.record("tacos", user: "u1") == .repeatedByRecentUser)
        #expect(second.record("sushi", user: "u1") == .counted)
    }

    /// A search saved with a time in the future counts as made when the store is read: later counts weigh in full.
    @Test func aSearchDatedInTheFutureCountsAsMadeNow() throws {
        let folder = try temporaryFolder()
        let path = folder + "/popular.json"
        let clock = TestClock()
        let first = PopularProvider(store: PopularFileStore(path: path), options: .init(minUsers: 1), now: clock.now)
        first.record("tacos", user: "u0")
        clock.advance(days: -365)
        let second = PopularProvider(store: PopularFileStore(path: path), options: .init(minUsers: 1), now: clock.now)
        let loaded = try #require(second.queries.first)
        #expect(loaded.lastUsed == clock.date)
        for i in 1...4 { second.record("tacos", user: "u\(i)") }
        let tacos = try #require(second.queries.first)
        #expect(tacos.users == 5)
        #expect(abs(second.popularity(of: tacos, at: clock.date) - 5) < 1e-9, "\(tacos)")
    }

    @Test func aCorruptStoreIsALocatedErrorAndIsNeverOverwritten() throws {
        let folder = try temporaryFolder()
        let path = folder + "/popular.json"
        let corrupt = """
            {"popular":1,"salt":"00112233445566778899aabbccddeeff"}
            {"text":"fine","users":5,"score":5,"lastUsed":1795000000,"userHashes":[1,2,3]}
            {"text":"broken","users":"five","score":5,"lastUsed":1795000000}

            """
        try Data(corrupt.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try PopularFileStore(path: path).load()
        } throws: { error in
            "\(error)" == #"\#(path):3: "users" must be an integer of 1 or more, found string "five""#
        }
        let provider = PopularProvider(store: PopularFileStore(path: path), options: .init(minUsers: 1))
        #expect(provider.loadProblem?.contains("popular.json:3:") == true)
        provider.record("new", user: "a")
        #expect(throws: PopularStoreError.self) { try provider.synchronize() }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == corrupt)
        // Every keystroke notes why.
        var output = ProviderOutput()
        try provider.suggest(SuggestionRequest(query: PreparedQuery(SearchQuery(text: "n")), limit: 5), into: &output)
        #expect(output.notes.first?.contains("popular.json:3:") == true)
    }

    @Test(arguments: [
        ("{\"popular\":1,\"salt\":\"00112233445566778899aabbccddeeff\"}\n{\"text\":\"a\"", "2: column"),
        ("{\"popular\":2,\"salt\":\"00112233445566778899aabbccddeeff\"}\n", "1: file format version 2 is newer"),
        ("{\"popular\":1,\"salt\":\"xyz\"}\n", "1: \"salt\" must be 32 lowercase hex digits"),
        ("", "1: empty file"),
        (
            "{\"popular\":1,\"salt\":\"00112233445566778899aabbccddeeff\"}\n"
                + "{\"text\":\"a\",\"users\":1,\"score\":1,\"lastUsed\":0,\"extra\":1}\n",
            "2: unknown key \"extra\""
        ),
        (
            "{\"popular\":1,\"salt\":\"00112233445566778899aabbccddeeff\"}\n"
                + "{\"text\":\"a\",\"users\":1,\"score\":1,\"lastUsed\":0,\"userHashes\":[-1]}\n",
            "2: \"userHashes\"[0] must be an integer from 0 to 4294967295"
        ),
    ])
    func badFilesNameTheirLine(contents: String, expected: String) throws {
        let folder = try temporaryFolder()
        let path = folder + "/popular.json"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try PopularFileStore(path: path).load()
        } throws: { error in
            "\(error)".hasPrefix(path + ":" + expected)
        }
    }

    @Test func aMissingFileIsAnEmptyStore() throws {
        let folder = try temporaryFolder()
        #expect(try PopularFileStore(path: folder + "/none.json").load() == nil)
    }

    @Test func saltedHashesDependOnTheSalt() {
        let a = UserHash(k0: 1, k1: 2)
        let b = UserHash(k0: 3, k1: 4)
        #expect(a.hash("alice") == a.hash("alice"))
        #expect(a.hash("alice") != b.hash("alice"))
        #expect(UserHash(hex: a.hex)?.hash("alice") == a.hash("alice"))
        // SipHash-2-4 reference vector (key 00…0f, message 00…0e): e5 45 be 49 61 ca 29 a1, as a little-endian word.
        let key = UserHash(k0: 0x0706_0504_0302_0100, k1: 0x0f0e_0d0c_0b0a_0908)
        let message = (0..<15).map { UInt8($0) }
        #expect(message.withUnsafeBytes { key.siphash24($0) } == 0xa129_ca61_49be_45e5)
    }
}
