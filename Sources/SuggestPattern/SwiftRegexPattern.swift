import SuggestCore

/// A pattern compiled by Swift `Regex`: Unicode-scalar semantics (like PCRE2's UTF + UCP) and simple
/// word boundaries (`\b` between a word and a non-word character, as in PCRE2).
///
/// Swift `Regex` has no match or depth limit, so a catastrophic pattern would hang the keystroke: patterns whose
/// repeated groups can backtrack catastrophically (`(a+)+`, `(a|aa)+`, `(.*a){20}`) are refused at compile time by
/// `BacktrackingCheck`.
///
/// `@unchecked Sendable`: `Regex<AnyRegexOutput>` is not `Sendable` only because its output type (the match
/// record) is not; the compiled program it holds is immutable once lowered, and `init` lowers it (one match on
/// an empty string) before the value is shared, so concurrent matches only read it. Matches are created per call.
final class SwiftRegexPattern: CompiledPattern, @unchecked Sendable {
    let source: String
    let regex: Regex<AnyRegexOutput>
    let hasValue: Bool
    let hasKind: Bool
    /// A literal every match starts with (`from:` in `\bfrom:(?<value>\S+)`); a text without it is not searched.
    let requiredPrefix: [UInt8]

    init(_ pattern: String, options: PatternOptions = []) throws(PatternError) {
        if let risk = BacktrackingCheck.firstRisk(in: pattern) {
            throw PatternError(
                .compile,
                "\(risk.reason); the Swift Regex engine has no match limit: rewrite it (\"(a+)+\" as \"a+\", "
                    + "\"(a|aa)+\" as \"a+\") or use the \"pcre2\" engine",
                offset: risk.offset
            )
        }
        let compiled: Regex<AnyRegexOutput>
        do {
            compiled = try Regex(pattern)
        } catch {
            throw PatternError(.compile, Self.message(of: error), offset: Self.offset(of: error, in: pattern))
        }
        source = pattern
        regex = compiled.matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple)
            .ignoresCase(options.contains(.caseInsensitive))
        hasValue = compiled.contains(captureNamed: "value")
        hasKind = compiled.contains(captureNamed: "kind")
        requiredPrefix = Self.literalPrefix(of: pattern)
        // Lower the program now, before the pattern is shared between threads.
        _ = "".firstMatch(of: regex)
    }

    func appendMatches(
        in text: String,
        utf8Range range: Range<Int>,
        to matches: inout [PatternMatch]
    ) throws(PatternError) {
        if !requiredPrefix.isEmpty && !Self.contains(requiredPrefix, in: text, range) { return }
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let upper = utf8.index(lower, offsetBy: range.count)
        let subject = Substring(text[lower..<upper])
        for match in subject.matches(of: regex) {
            matches.append(
                PatternMatch(
                    range: offsets(match.range, in: subject, base: range.lowerBound),
                    value: hasValue
                        ? match.output["value"]?.range.map { offsets($0, in: subject, base: range.lowerBound) } : nil,
                    kind: hasKind
                        ? match.output["kind"]?.range.map { offsets($0, in: subject, base: range.lowerBound) } : nil
                )
            )
        }
    }

    @inline(__always)
    private func offsets(_ range: Range<Substring.Index>, in subject: Substring, base: Int) -> Range<Int> {
        let utf8 = subject.utf8
        let lower = utf8.distance(from: utf8.startIndex, to: range.lowerBound)
        let upper = lower + utf8.distance(from: range.lowerBound, to: range.upperBound)
        return (base + lower)..<(base + upper)
    }

    /// The literal text every match of `pattern` starts with, or empty when that is not certain: leading `^` and
    /// `\b` are skipped; any inline option group (`(?i)`), top-level alternation or escape ends the search.
    static func literalPrefix(of pattern: String) -> [UInt8] {
        let bytes = Array(pattern.utf8)
        // Inline options (case-insensitivity) anywhere: no prefilter. `(?<`, `(?P<`, `(?:`, `(?=`… are fine.
        var k = 0
        var depth = 0
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "\\") {
                k += 2
                continue
            }
            if b == UInt8(ascii: "(") {
                depth += 1
                if k + 2 < bytes.count, bytes[k + 1] == UInt8(ascii: "?") {
                    let c = bytes[k + 2]
                    let isLetter = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                    if c == UInt8(ascii: "-")
                        || (isLetter
                            && !(c == UInt8(ascii: "P") && k + 3 < bytes.count && bytes[k + 3] == UInt8(ascii: "<")))
                    {
                        return []
                    }
                }
            } else if b == UInt8(ascii: ")") {
                depth -= 1
            } else if b == UInt8(ascii: "|") && depth == 0 {
                return []
            }
            k += 1
        }
        var i = 0
        while true {
            if i < bytes.count, bytes[i] == UInt8(ascii: "^") {
                i += 1
            } else if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "b") {
                i += 2
            } else {
                break
            }
        }
        let special = Set("\\^$.|?*+()[]{}".utf8)
        var literal: [UInt8] = []
        while i < bytes.count, !special.contains(bytes[i]) {
            literal.append(bytes[i])
            i += 1
        }
        // A quantifier after the literal makes its last character optional or repeated: leave it out.
        if i < bytes.count,
            [UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "{"), UInt8(ascii: "+")].contains(bytes[i])
        {
            // Drop the whole last scalar.
            while let last = literal.popLast(), UTF8Scalars.isContinuation(last) {}
        }
        return literal
    }

    static func contains(_ needle: [UInt8], in text: String, _ range: Range<Int>) -> Bool {
        var text = text
        return text.withUTF8 { buffer in
            guard needle.count <= range.count else { return false }
            let first = needle[0]
            var i = range.lowerBound
            let last = range.upperBound - needle.count
            while i <= last {
                if buffer[i] == first {
                    var j = 1
                    while j < needle.count && buffer[i + j] == needle[j] { j += 1 }
                    if j == needle.count { return true }
                }
                i += 1
            }
            return false
        }
    }

    /// The names of `(?<name>…)` and `(?P<name>…)` groups, read from the pattern text.
    static func declaredGroupNames(in pattern: String) -> Set<String> {
        var names: Set<String> = []
        let scalars = Array(pattern.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\\" {
                i += 2
                continue
            }
            if scalars[i] == "(", i + 2 < scalars.count, scalars[i + 1] == "?" {
                var j = i + 2
                if j < scalars.count, scalars[j] == "P" { j += 1 }
                if j < scalars.count, scalars[j] == "<" || scalars[j] == "'" {
                    let close: Unicode.Scalar = scalars[j] == "<" ? ">" : "'"
                    var name = ""
                    j += 1
                    while j < scalars.count, scalars[j] != close {
                        name.unicodeScalars.append(scalars[j])
                        j += 1
                    }
                    if !name.isEmpty, name != "=", name != "!" { names.insert(name) }
                }
            }
            i += 1
        }
        return names
    }

    /// Swift's parse message without the location prefix it may carry.
    static func message(of error: any Error) -> String {
        "\(error)"
    }

    /// The UTF-8 offset of the parse error, when Swift's error carries a location (found by reflection; the error
    /// type is not public API, so this is best effort and nil when the shape changes).
    static func offset(of error: any Error, in pattern: String) -> Int? {
        func offset(_ value: Any) -> Int? {
            guard let range = value as? Range<String.Index>, range.lowerBound <= pattern.endIndex else { return nil }
            return pattern.utf8.distance(from: pattern.utf8.startIndex, to: range.lowerBound)
        }
        for child in Mirror(reflecting: error).children where child.label == "location" {
            if let found = offset(child.value) { return found }
            // `Source.Location { range: Range<String.Index> }` (Swift 6.x).
            for inner in Mirror(reflecting: child.value).children where inner.label == "range" {
                if let found = offset(inner.value) { return found }
            }
        }
        return nil
    }
}
