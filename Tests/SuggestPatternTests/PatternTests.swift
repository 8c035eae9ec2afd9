@testable import SuggestPattern
import Testing

struct PatternTests {
    static let engines = PatternEngine.available

    func matches(_ pattern: String, in text: String, engine: PatternEngine) throws -> [PatternMatch] {
        let compiled = try engine.compile(pattern)
        var found: [PatternMatch] = []
        try compiled.appendMatches(in: text, utf8Range: 0..<text.utf8.count, to: &found)
        return found
    }

    func substring(_ text: String, _ range: Range<Int>?) -> String? {
        range.map { String(text[PatternMatch.indices(of: $0, in: text)]) }
    }

    @Test(arguments: engines)
    func namedGroupsGiveValueAndKind(engine: PatternEngine) throws {
        let text = "is:open from:alice x"
        let found = try matches(#"(?<kind>is|from):(?<value>\S+)"#, in: text, engine: engine)
        #expect(found.count == 2)
        #expect(substring(text, found[0].kind) == "is")
        #expect(substring(text, found[0].value) == "open")
        #expect(substring(text, found[1].kind) == "from")
        #expect(substring(text, found[1].value) == "alice")
        #expect(substring(text, found[1].range) == "from:alice")
    }

    @Test(arguments: engines)
    func offsetsAreUTF8AndMapBackToStringIndices(engine: PatternEngine) throws {
        let text = "crème #brûlée 寿司 #東京 🌶️ #ß"
        let found = try matches(#"#(?<value>\w+)"#, in: text, engine: engine)
        #expect(found.map { substring(text, $0.value) } == ["brûlée", "東京", "ß"])
        // Byte offsets: "crème " is 7 bytes (è is 2).
        #expect(found[0].range.lowerBound == 7)
    }

    @Test(arguments: engines)
    func aRangeIsTheWholeSubject(engine: PatternEngine) throws {
        let text = "from:alice,from:bob"
        let compiled = try engine.compile(#"^from:(?<value>\S+)$"#)
        var found: [PatternMatch] = []
        try compiled.appendMatches(in: text, utf8Range: 11..<text.utf8.count, to: &found)
        #expect(found.count == 1)
        #expect(substring(text, found.first?.value) == "bob")
    }

    @Test(arguments: engines)
    func emptyMatchesAdvance(engine: PatternEngine) throws {
        let found = try matches("x*", in: "aé x", engine: engine)
        #expect(found.contains { $0.range == 4..<5 })
        #expect(found.count >= 4)
    }

    @Test(arguments: engines)
    func patternWithoutGroupsHasNoValue(engine: PatternEngine) throws {
        let found = try matches("#\\w+", in: "#quick", engine: engine)
        #expect(found == [PatternMatch(range: 0..<6)])
    }

    @Test(arguments: engines)
    func literalPrefixesDoNotHideMatches(engine: PatternEngine) throws {
        // The Swift engine skips texts without a pattern's leading literal; these must still match.
        let cases: [(String, String, Int)] = [
            ("colou?r", "my color", 1), ("(?i)from:x", "FROM:x", 1), ("from:|to:", "to:bob", 1),
            (#"\bab+c"#, "x ac abbc", 1), ("é+t", "ét", 1), (#"(?i:is):\w+"#, "IS:open", 1), ("from:", "to:", 0),
        ]
        for (pattern, text, count) in cases {
            #expect(try matches(pattern, in: text, engine: engine).count == count, "\(pattern) in \(text)")
        }
    }

    #if PCRE2
        @Test func pcre2CompileErrorsCarryMessageAndOffset() throws {
            #expect(throws: PatternError.self) { try PatternEngine.pcre2.compile("from:(\\S+ x") }
            do {
                _ = try PatternEngine.pcre2.compile("from:(\\S+ x")
            } catch {
                #expect(error.kind == .compile)
                #expect(error.message == "missing closing parenthesis")
                #expect(error.offset == 11)
                #expect(error.description == "missing closing parenthesis at offset 11")
            }
        }

        @Test func pcre2RefusesBackslashCWhichCouldSplitAUTF8Character() {
            do {
                _ = try PatternEngine.pcre2.compile(#"from:\C+"#)
                Issue.record("compiled \\C")
            } catch {
                #expect(error.kind == .compile)
                #expect(error.offset == 7)
                #expect(error.description == "using \\C is disabled by the application at offset 7")
            }
        }

        @Test func pcre2PatternsAreJITCompiled() throws {
        let compiled = try #require(try PatternEngine.pcre2.compile(#"\bfrom:(?<value>\S+)"#) as? PCRE2Pattern)
        #expect(compiled.isJIT)
    }

    /// `(*NO_JIT)` leaves the pattern to the interpreter, which matches it (still within the match limits).
    @Test func pcre2PatternsThatRefuseJITStillMatch() throws {
        let pattern = #"(*NO_JIT)#(?<value>\w+)"#
        let compiled = try #require(try PatternEngine.pcre2.compile(pattern) as? PCRE2Pattern)
        #expect(!compiled.isJIT)
        let found = try matches(pattern, in: "see #swift now", engine: .pcre2)
        #expect(found.count == 1)
        #expect(substring("see #swift now", found.first?.value) == "swift")
    }

    @Test func pcre2CatastrophicPatternStopsAtTheMatchLimit() throws {
            let compiled = try PatternEngine.pcre2.compile("(a+)+$")
            let text = String(repeating: "a", count: 5_000) + "!"
            var found: [PatternMatch] = []
            do {
                try compiled.appendMatches(in: text, utf8Range: 0..<text.utf8.count, to: &found)
                Issue.record("expected the match limit")
            } catch {
                #expect(error.kind == .matchLimit)
                #expect(error.description.contains("(a+)+$"))
            }
        }
    #else
        @Test func pcre2IsUnavailableWithoutTheTrait() {
            #expect(!PatternEngine.pcre2.isAvailable)
            #expect(throws: PatternError.self) { try PatternEngine.pcre2.compile("a") }
        }
    #endif

    @Test func swiftEngineRefusesNestedQuantifiers() throws {
        do {
            _ = try PatternEngine.swift.compile("x(a+)+$")
            Issue.record("expected a compile error")
        } catch {
            #expect(error.kind == .compile)
            #expect(error.offset == 1)
            #expect(error.description.contains("nested unbounded quantifier"))
        }
        // Bounded, possessive, atomic and unnested repetition is fine.
        for pattern in [#"\bfrom:(?<value>\S+)"#, "(ab)+", "(a+)?", "(a{2})*", "(?>a+)+", "(a++)+", "[(]a+[)]+"] {
            _ = try PatternEngine.swift.compile(pattern)
        }
    }

    /// Patterns that take seconds to minutes per keystroke on Swift `Regex` (overlapping alternations, unbounded
    /// quantifiers in bounded repeats) are refused at compile time, at the offset of the repeated group.
    @Test(arguments: [
        ("(a|aa)+$", 0, "alternation whose branches can match the same text"),
        ("^(a|a)*$", 1, "alternation whose branches can match the same text"),
        ("(.*a){20}", 0, "repeated 20 times contains an unbounded quantifier"),
        ("^(a+)+$", 1, "nested unbounded quantifier"),
        (#"x(?:\d|\w)+"#, 1, "alternation whose branches can match the same text"),
        ("(?<value>(?i)(?:a|A)+)", 13, "alternation whose branches can match the same text"),
        ("(?'v'a|aa)+", 0, "alternation whose branches can match the same text"),
        ("(a?){30}a{30}", 0, "repeated 30 times contains an optional part"),
        ("(?:a{1,10}){1,10}$", 0, "can split a text in more than 65536 ways"),
        ("x(?:a{0,5}){1,10}$", 1, "can split a text in more than 65536 ways"),
        ("(?:(?:a{1,3}){1,3}){1,10}$", 0, "can split a text in more than 65536 ways"),
        (#"(?:\u{61}{1,10}){1,10}$"#, 0, "can split a text in more than 65536 ways"),
    ])
    func swiftEngineRefusesPatternsThatCanBacktrackCatastrophically(pattern: String, offset: Int, reason: String) {
        do {
            _ = try PatternEngine.swift.compile(pattern)
            Issue.record("expected \(pattern) to be refused")
        } catch {
            #expect(error.kind == .compile)
            #expect(error.offset == offset, "\(error)")
            #expect(error.message.contains(reason), "\(error)")
            #expect(error.message.contains("\"pcre2\" engine"))
        }
    }

    @Test(arguments: [
        #"\bfrom:(?<value>\S+)"#, #"#(?<value>\w+)"#, #"^\d{12,19}$"#, "password", "@.+\\.",
        #"(?<kind>is|has):(?<value>\w+)"#, "(?:ab|ac)?x+", #"(?:\w|-)+"#, "(?:cat|dog)+", #"(\S+\s){1,2}"#,
        #"(?:\d{3}[- ]?){3}"#, "[a(|a)]+", #"\((a|aa)\)+"#, "(?:-?[0-9]){1,10}",
        // Bounded repeats whose parts end where a character they cannot match starts: one way to split a text.
        "(?:[a-z]{1,20} ){1,5}", #"(?:\d{1,3}\.){3}\d{1,3}"#, "(?:[a-z]{2,8}-){1,10}", "(?:a{1,3}b{1,3}){1,10}",
        "(?:a{1,10}+){1,10}", "(?>a{1,10}){1,10}",
    ])
    func swiftEngineAcceptsOrdinaryPatterns(pattern: String) throws {
        _ = try PatternEngine.swift.compile(pattern)
    }

    @Test func swiftCompileErrorsAreReported() {
        do {
            _ = try PatternEngine.swift.compile("from:(\\S+ x")
            Issue.record("expected a compile error")
        } catch {
            #expect(error.kind == .compile)
            #expect(error.message == "expected ')'")
            // Read from Swift's (non-public) error by reflection; checked on Swift 6.3.
            #expect(error.offset == 11)
            #expect(error.description == "expected ')' at offset 11")
        }
    }

    @Test func enginesHaveNames() {
        #expect(PatternEngine(name: "pcre2") == .pcre2)
        #expect(PatternEngine(name: "swift") == .swift)
        #expect(PatternEngine(name: "re2") == nil)
        #expect(PatternEngine.available.contains(.swift))
        #expect(PatternEngine.default.isAvailable)
    }
}
