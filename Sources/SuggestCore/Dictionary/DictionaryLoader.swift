import Foundation

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
                message: error == .folder ? "is a folder, not a dictionary file" : error.description
            )
        }
        return try parse(bytes, source: path, lenient: lenient)
    }

    /// Parses TSV bytes.
    public static func parse(
        _ bytes: [UInt8],
        source: String,
        lenient: Bool = false
    ) throws(DictionaryError) -> WeightedDictionary {
        var builder = WeightedDictionary.Builder()
        builder.textBytes.reserveCapacity(bytes.count)
        var skipped = 0
        // The lines as every text file is read (a byte order mark skipped, `\r\n` accepted).
        for line in TextLines(bytes) {
            let lineNumber = line.number
            let start = line.range.lowerBound
            let lineEnd = line.range.upperBound
            // Blank (whitespace only) and comment lines.
            var firstNonSpace = start
            while firstNonSpace < lineEnd && (bytes[firstNonSpace] == 0x20 || bytes[firstNonSpace] == 0x09) {
                firstNonSpace += 1
            }
            if firstNonSpace == lineEnd || bytes[firstNonSpace] == UInt8(ascii: "#") { continue }

            if let problem = parseLine(bytes, start, lineEnd, into: &builder) {
                if lenient {
                    skipped += 1
                    continue
                }
                throw DictionaryError(file: source, line: lineNumber, message: problem)
            }
        }
        return builder.build(source: source, skippedLines: skipped)
    }

    /// Appends one entry, or returns what is wrong with the line.
    static func parseLine(_ bytes: [UInt8], _ start: Int, _ end: Int, into builder: inout WeightedDictionary.Builder)
        -> String?
    {
        var tabs: [Int] = []
        var k = start
        while k < end {
            if bytes[k] == 0x09 {
                tabs.append(k)
                if tabs.count > 2 { return "too many columns (expected text<TAB>weight[<TAB>scope])" }
            }
            k += 1
        }
        let textEnd = tabs.first ?? end
        let text = bytes[start..<textEnd]
        if text.allSatisfy({ $0 == 0x20 }) { return "no text before the weight" }
        if let bad = JSONParser.firstInvalidUTF8(Array(text)) {
            return "invalid UTF-8 at column byte \(bad + 1)"
        }
        var weight = 1.0
        if tabs.count >= 1 {
            let weightEnd = tabs.count >= 2 ? tabs[1] : end
            let field = String(decoding: bytes[(tabs[0] + 1)..<weightEnd], as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            guard let value = Double(field) else {
                return field.isEmpty ? "missing weight after the tab" : "weight \"\(field)\" is not a number"
            }
            guard value.isFinite else { return "weight \"\(field)\" is not a finite number" }
            guard value >= 0 else { return "weight \(field) is negative (weights are 0 or more)" }
            weight = value
        }
        var scope: String? = nil
        if tabs.count == 2 {
            let field = bytes[(tabs[1] + 1)..<end]
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
