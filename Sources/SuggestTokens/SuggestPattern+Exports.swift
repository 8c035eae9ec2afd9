// Token rules are compiled by SuggestPattern; its types (`PatternEngine`, `PatternError`, …) are part of this
// module's API, so importing SuggestTokens brings them in.
@_exported public import SuggestPattern

/// The protocol of a compiled pattern, as token rules knew it before pattern matching had a module of its own.
@available(*, deprecated, renamed: "CompiledPattern")
public typealias TokenPattern = CompiledPattern
