import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// A problem in a dictionary file, at `file:line`.
public struct DictionaryError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based; nil for problems with the whole file (missing, unreadable).
    public var line: Int?
    public var message: String

    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// Reads TSV dictionaries: `text<TAB>weight[<TAB>scope]` per line; `#` starts a comment line; blank lines are
/// ignored; a line with only text has weight 1; `\r\n` line ends are accepted.
public enum DictionaryLoader: Sendable {
    /// The most distinct scopes a dictionary may have.
    public static let maximumScopes = Int(UInt16.max) - 1

    /// Loads the file at `path`.
    /// - Parameters:
    ///   - path: the TSV file.
    ///   - lenient: skip bad lines (and count them in ``WeightedDictionary/skippedLines``) instead of failing.
    /// - Throws: ``DictionaryError`` naming `file:line`.
    public static func load(path: String, lenient: Bool = false) throws(DictionaryError) -> WeightedDictionary {
        let bytes: [UInt8]
        do {
            bytes = try TextFile.read(path)
        } catch {
            throw DictionaryError(
                file: path,
                message: error == .folder ? "is a folder, not a dictionary file" : TextFile.describe(error, at: path)
            )
        }
        return try parse(bytes, source: path, lenient: lenient)
    }

    /// Parses TSV bytes.
    ///
    /// One pass over the bytes with no allocation per line: lines and tabs are found in the buffer, an ASCII text
    /// needs no UTF-8 check, and a weight of plain digits is read directly. A line that does not take the fast path
    /// goes through `parseLine`, which also words every error.
    /// - Complexity: O(n) in the number of bytes.
    public static func parse(
        _ bytes: [UInt8],
        source: String,
        lenient: Bool = false
    ) throws(DictionaryError) -> WeightedDictionary {
        if let halves = parseHalves(bytes) { return halves.build(source: source, skippedLines: 0) }
        var builder = WeightedDictionary.Builder()
        builder.reserveCapacity(bytes: bytes.count, entries: bytes.count / 12 + 16)
        let start = bytes.starts(with: JSONParser.byteOrderMark) ? 3 : 0
        let result = bytes.withUnsafeBufferPointer { buffer in
            parseLines(buffer, start..<buffer.count, lenient: lenient, into: &builder)
        }
        if let failure = result.failure {
            throw DictionaryError(file: source, line: failure.line, message: failure.message)
        }
        return builder.build(source: source, skippedLines: result.skipped)
    }

    /// A large file's two halves (split at a line end) parsed on two cores and joined; nil when the file is small or
    /// when either half has a bad line or a scope (the caller then parses the whole file on one thread, which words
    /// errors with their line numbers and numbers scopes in file order).
    static func parseHalves(_ bytes: [UInt8]) -> WeightedDictionary.Builder? {
        guard bytes.count >= 1 << 20 else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> WeightedDictionary.Builder? in
            let start = buffer.starts(with: JSONParser.byteOrderMark) ? 3 : 0
            let split = firstNewline(buffer, from: buffer.count / 2) + 1
            guard split < buffer.count else { return nil }
            var first = WeightedDictionary.Builder()
            var second = WeightedDictionary.Builder()
            var firstIsClean = false
            var secondIsClean = false
            Parallel.run {
                first.reserveCapacity(bytes: split - start, entries: (split - start) / 12 + 16)
                let result = parseLines(buffer, start..<split, lenient: false, into: &first)
                firstIsClean = result.failure == nil && first.scopeNames.isEmpty
            } and: {
                second.reserveCapacity(bytes: buffer.count - split, entries: (buffer.count - split) / 12 + 16)
                let result = parseLines(buffer, split..<buffer.count, lenient: false, into: &second)
                secondIsClean = result.failure == nil && second.scopeNames.isEmpty
            }
            guard firstIsClean && secondIsClean else { return nil }
            first.append(contentsOf: second)
            return first
        }
    }

    /// Parses the lines in `range` (which starts at a line start) into `builder`: the first bad line, its number
    /// counted from the range's start, and the number of bad lines skipped when `lenient`.
    static func parseLines(
        _ buffer: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        lenient: Bool,
        into builder: inout WeightedDictionary.Builder
    ) -> (failure: (line: Int, message: String)?, skipped: Int) {
        // The lines as every text file is read (`TextLines`: `\r\n` accepted).
        var lineStart = range.lowerBound
        let count = range.upperBound
        var lineNumber = 0
        var skipped = 0
        while lineStart < count {
            lineNumber += 1
            var newline = Self.firstNewline(buffer, from: lineStart)
            if newline > count { newline = count }
            var lineEnd = newline
            if lineEnd > lineStart && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let start = lineStart
            lineStart = newline + 1
            // Blank (whitespace only) and comment lines.
            var firstNonSpace = start
            while firstNonSpace < lineEnd && (buffer[firstNonSpace] == 0x20 || buffer[firstNonSpace] == 0x09) {
                firstNonSpace += 1
            }
            if firstNonSpace == lineEnd || buffer[firstNonSpace] == UInt8(ascii: "#") { continue }

            if Self.appendSimpleLine(buffer, start, lineEnd, into: &builder) { continue }
            if let problem = parseLine(buffer, start, lineEnd, into: &builder) {
                if lenient {
                    skipped += 1
                    continue
                }
                return ((lineNumber, problem), skipped)
            }
        }
        return (nil, skipped)
    }

    /// The index of the first `\n` at or after `from`, or `buffer.count`.
    @inline(__always)
    static func firstNewline(_ buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        guard let base = buffer.baseAddress, from < buffer.count else { return buffer.count }
        guard let found = memchr(base + from, 0x0A, buffer.count - from) else { return buffer.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Appends the line `start..<end` when it is of the common, unambiguous kind — ASCII text with something other
    /// than spaces, then optionally a tab and a weight of 1 to 15 plain digits, and no scope — and returns true;
    /// returns false, having appended nothing, for every other line (`parseLine` then reads it).
    /// The entries appended are exactly those `parseLine` would append.
    @inline(__always)
    static func appendSimpleLine(
        _ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
        into builder: inout WeightedDictionary.Builder
    ) -> Bool {
        var k = start
        var high: UInt8 = 0
        var onlySpaces = true
        while k < end {
            let b = buffer[k]
            if b == 0x09 { break }
            high |= b
            if b != 0x20 { onlySpaces = false }
            k += 1
        }
        guard high < 0x80, !onlySpaces else { return false }
        let textEnd = k
        var weight = 1.0
        if textEnd < end {
            let digitsStart = textEnd + 1
            let digitCount = end - digitsStart
            guard digitCount >= 1 && digitCount <= 15 else { return false }
            var value: UInt64 = 0
            for i in digitsStart..<end {
                let digit = buffer[i] &- 0x30
                guard digit < 10 else { return false }
                value = value &* 10 &+ UInt64(digit)
            }
            // At most 15 digits: below 2^53, so the conversion is exact (what `Double("…")` gives).
            weight = Double(value)
        }
        builder.appendEntry(text: UnsafeBufferPointer(rebasing: buffer[start..<textEnd]), weight: weight)
        return true
    }

    /// Appends one entry, or returns what is wrong with the line.
    static func parseLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into builder: inout WeightedDictionary.Builder
    ) -> String? {
        var tabCount = 0
        var firstTab = end
        var secondTab = end
        var k = start
        while k < end {
            if bytes[k] == 0x09 {
                tabCount += 1
                if tabCount == 1 { firstTab = k } else if tabCount == 2 { secondTab = k }
                if tabCount > 2 { return "too many columns (expected text<TAB>weight[<TAB>scope])" }
            }
            k += 1
        }
        let textEnd = firstTab
        let text = UnsafeBufferPointer(rebasing: bytes[start..<textEnd])
        if text.allSatisfy({ $0 == 0x20 }) { return "no text before the weight" }
        if text.contains(where: { $0 >= 0x80 }), let bad = JSONParser.firstInvalidUTF8(Array(text)) {
            return "invalid UTF-8 at column byte \(bad + 1)"
        }
        var weight = 1.0
        if tabCount >= 1 {
            let weightEnd = secondTab
            let field = String(
                decoding: UnsafeBufferPointer(rebasing: bytes[(firstTab + 1)..<weightEnd]), as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            guard let value = Double(field) else {
                return field.isEmpty ? "missing weight after the tab" : "weight \"\(field)\" is not a number"
            }
            guard value.isFinite else { return "weight \"\(field)\" is not a finite number" }
            guard value >= 0 else { return "weight \(field) is negative (weights are 0 or more)" }
            weight = value
        }
        var scope: String? = nil
        if tabCount == 2 {
            let field = UnsafeBufferPointer(rebasing: bytes[(secondTab + 1)..<end])
            if JSONParser.firstInvalidUTF8(Array(field)) != nil { return "invalid UTF-8 in the scope" }
            let name = String(decoding: field, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if name.isEmpty { return "empty scope after the second tab" }
            if builder.scopeLookup[name] == nil && builder.scopeNames.count >= maximumScopes {
                return "more than \(maximumScopes) distinct scopes"
            }
            scope = name
        }
        builder.textBytes.append(contentsOf: text)
        builder.appendEntry(weight: weight, scope: scope)
        return nil
    }
}
