/// Which regular-expression engine compiles a pattern: token rules choose one per configuration.
public struct PatternEngine: Hashable, Sendable, CustomStringConvertible {
    enum Code: Hashable, Sendable {
        case pcre2
        case swift
    }

    let code: Code

    /// PCRE2 (libpcre2-8), UTF + UCP, JIT-compiled, with match and depth limits. Needs the `PCRE2` trait.
    public static let pcre2 = PatternEngine(code: .pcre2)
    /// Swift `Regex`, Unicode-scalar semantics and simple word boundaries. Swift `Regex` has no match limit, so
    /// patterns whose repeated groups can backtrack catastrophically (`(a+)+`, `(a|aa)+`, `(.*a){20}`) are refused
    /// when they are compiled.
    public static let swift = PatternEngine(code: .swift)

    /// ``pcre2`` when this build has it (the `PCRE2` trait, on by default), else ``swift``.
    public static var `default`: PatternEngine {
        #if PCRE2
            return .pcre2
        #else
            return .swift
        #endif
    }

    /// Whether this build includes the engine.
    public var isAvailable: Bool {
        switch code {
        case .swift: return true
        case .pcre2:
            #if PCRE2
                return true
            #else
                return false
            #endif
        }
    }

    /// The engines this build includes.
    public static var available: [PatternEngine] { [.pcre2, .swift].filter(\.isAvailable) }

    /// The engine's configuration name: `"pcre2"` or `"swift"`.
    public var name: String {
        switch code {
        case .pcre2: "pcre2"
        case .swift: "swift"
        }
    }

    /// The engine named `name` (`"pcre2"`, `"swift"`), if there is one.
    public init?(name: String) {
        switch name {
        case "pcre2": self = .pcre2
        case "swift": self = .swift
        default: return nil
        }
    }

    init(code: Code) { self.code = code }

    public var description: String { name }

    /// Compiles `pattern` with this engine.
    /// - Parameters:
    ///   - pattern: the regular expression.
    ///   - options: how the pattern matches (case-insensitively, say).
    ///   - limits: how much work one match may do before it gives up (PCRE2 only).
    /// - Throws: ``PatternError`` with the engine's message and the offset in the pattern.
    public func compile(
        _ pattern: String,
        options: PatternOptions = [],
        limits: PatternLimits = PatternLimits()
    ) throws(PatternError) -> any CompiledPattern {
        switch code {
        case .swift:
            return try SwiftRegexPattern(pattern, options: options)
        case .pcre2:
            #if PCRE2
                return try PCRE2Pattern(pattern, options: options, limits: limits)
            #else
                throw PatternError(
                    .unavailableEngine,
                    "the \"pcre2\" engine is not in this build (the package trait PCRE2 is off); use \"swift\""
                )
            #endif
        }
    }

    /// The names of the groups `pattern` declares (`(?<value>…)`), read from its text without compiling it.
    package static func groupNames(declaredIn pattern: String) -> Set<String> {
        SwiftRegexPattern.declaredGroupNames(in: pattern)
    }
}
