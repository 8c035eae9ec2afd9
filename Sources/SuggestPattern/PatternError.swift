/// Why a pattern could not be compiled or matched: PCRE2's or Swift `Regex`'s message, and where it
/// applies, the UTF-8 byte offset in the pattern (`missing closing parenthesis at offset 11`).
///
/// A closed set of failures, so the pattern APIs use typed throws (`throws(PatternError)`); new kinds of failure
/// are added as new ``Kind`` values, not as new error types.
public struct PatternError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        enum Code: Hashable, Sendable {
            case compile
            case matchLimit
            case matchFailed
            case unavailableEngine
        }

        let code: Code

        /// The pattern does not compile (a syntax error, or a construct the engine refuses).
        public static let compile = Kind(code: .compile)
        /// Matching gave up at the configured match or depth limit (a catastrophic pattern); the keystroke goes on.
        public static let matchLimit = Kind(code: .matchLimit)
        /// Matching failed for another reason (PCRE2's error code is in the message).
        public static let matchFailed = Kind(code: .matchFailed)
        /// The requested engine is not part of this build (the `PCRE2` trait is off).
        public static let unavailableEngine = Kind(code: .unavailableEngine)

        public var description: String {
            switch code {
            case .compile: "compile"
            case .matchLimit: "match limit"
            case .matchFailed: "match failed"
            case .unavailableEngine: "unavailable engine"
            }
        }
    }

    public let kind: Kind
    /// The engine's message ("missing closing parenthesis").
    public let message: String
    /// The UTF-8 byte offset in the pattern the message refers to, when there is one.
    public let offset: Int?

    init(_ kind: Kind, _ message: String, offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    /// The message, then ` at offset N` when there is an offset.
    public var description: String {
        if let offset { return "\(message) at offset \(offset)" }
        return message
    }
}
