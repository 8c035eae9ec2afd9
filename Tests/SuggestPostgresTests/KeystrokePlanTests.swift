#if Server
import SuggestCore
import Testing
@testable import SuggestPostgres

/// What a keystroke sends to the database, whatever was typed: bounded and normalized (no database needed).
struct KeystrokePlanTests {
    static func plan(_ text: String, options: PostgresProvider.Options = .init()) -> KeystrokePlan {
        KeystrokePlan(SuggestionRequest(query: PreparedQuery(SearchQuery(text: text)), limit: 10), options: options)
    }

    /// Every text parameter of a plan, in UTF-8 bytes.
    static func parameterBytes(_ plan: KeystrokePlan) -> [Int] {
        [plan.sentKey, plan.prefixPattern, plan.wordPattern ?? "", plan.typoKey].map(\.utf8.count)
    }

    @Test func anOrdinaryQueryIsSentAsItIs() {
        let plan = Self.plan("new yo")
        #expect(plan.sentKey == "new yo" && !plan.isCut)
        #expect(plan.prefixPattern == "new yo%")
        #expect(plan.wordPattern == "% new yo%")
        #expect(plan.typoKey == "new yo")
        #expect(plan.looksForTypos)
        #expect(Self.plan("new yo ").prefixPattern == "new yo %")
    }

    /// 1,024 apostrophes (a `q` that cost 570 ms of database time): 64 bytes at most, and no trigram search
    /// (the word-prefix and typo parts read the whole table for a key without letters or digits).
    @Test func aKeyOfApostrophesIsCutAndSearchesNoTrigrams() {
        let plan = Self.plan(String(repeating: "'", count: 1024))
        #expect(plan.key.utf8.count == 1024)
        #expect(plan.sentKey == String(repeating: "'", count: 64))
        #expect(plan.isCut)
        #expect(plan.wordPattern == nil)
        #expect(!plan.looksForTypos)
        #expect(Self.parameterBytes(plan).allSatisfy { $0 <= KeystrokePlan.maximumKeyBytes + 1 }, "\(Self.parameterBytes(plan))")
        // One apostrophe: not cut, and no trigram search either.
        let one = Self.plan("'")
        #expect(!one.isCut && one.wordPattern == nil && !one.looksForTypos)
    }

    /// 10 KB of random letters, digits, punctuation, spaces and other scripts: every parameter within the bound.
    @Test(arguments: [1, 2, 3, 4, 5])
    func aLongRandomQueryIsBounded(_ seed: UInt64) {
        var generator = SplitMix(seed: seed)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 '’…-_.,;:!?\"%\\/()[]{}éßøЖж中文😀")
        var text = ""
        while text.utf8.count < 10_000 { text.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
        let plan = Self.plan(text)
        #expect(Self.parameterBytes(plan).allSatisfy { $0 <= KeystrokePlan.maximumKeyBytes + 4 }, "\(Self.parameterBytes(plan))")
        #expect(plan.sentKey.utf8.count <= KeystrokePlan.maximumKeyBytes)
        #expect(plan.key.hasPrefix(plan.sentKey))
        #expect(!plan.looksForTypos)
        // The word-prefix pattern holds no run of what pg_trgm ignores, only single wildcards.
        #expect(!(plan.wordPattern ?? "").contains("%%%"))
    }

    /// Punctuation runs inside words: one `%` in the word-prefix pattern, one space in the typo key (pg_trgm
    /// ignores them: the similarity is the same).
    @Test func punctuationRunsBecomeOneWildcard() {
        let plan = Self.plan("rock''''n'roll")
        #expect(plan.sentKey == "rock''''n'roll")
        #expect(plan.wordPattern == "% rock%n%roll%")
        #expect(plan.typoKey == "rock n roll")
        #expect(plan.looksForTypos)
    }

    /// What a client is told about a connection problem names nothing of the database.
    @Test(arguments: [
        (#"password authentication failed for user "secret_user" (SQLSTATE 28P01)"#, "refused by the server (SQLSTATE 28P01)"),
        (#"database "secret_db" does not exist (SQLSTATE 3D000)"#, "refused by the server (SQLSTATE 3D000)"),
        ("connection refused", "connection refused"),
        ("connect to secret-host:5433 timed out", "timed out"),
        ("getaddrinfo: secret-host: Name or service not known", "connection failed"),
    ])
    func connectionProblemsAreToldInFixedWords(_ detail: String, _ told: String) {
        #expect(PostgresErrorText.publicReason(connectionProblem: detail) == told)
    }
}

/// A small deterministic generator.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
#endif
