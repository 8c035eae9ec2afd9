/// A configuration problem, with the place it is at: the file, the JSON path (`providers[1].capacity`) or, for a
/// syntax error, the line and column.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The configuration file, as given.
    public var file: String?
    /// 1-based line and column, for syntax errors.
    public var line: Int?
    public var column: Int?
    /// The JSON path of the value at fault (`providers[1].rules[0].pattern`); empty for the whole document.
    public var path: String
    /// What is wrong, and what would be right.
    public var message: String
    /// The key, when the error is a required key that is missing from the object at ``path``.
    var missingKey: String? = nil

    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, path: String = "", message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// An error at `path` (a JSON path string).
    public static func at(_ path: String, _ message: String) -> ConfigurationError {
        ConfigurationError(path: path, message: message)
    }

    public var description: String {
        var parts: [String] = []
        if let file {
            if let line, let column { parts.append("\(file):\(line):\(column)") } else { parts.append(file) }
        } else if let line, let column {
            parts.append("\(line):\(column)")
        }
        if !path.isEmpty { parts.append(path) }
        parts.append(message)
        return parts.joined(separator: ": ")
    }

    /// The error with `prefix` put before its path (`providers[2]` + `rules[0]` → `providers[2].rules[0]`).
    public func prefixingPath(_ prefix: String) -> ConfigurationError {
        var copy = self
        copy.path = JSONPath.join(prefix, path)
        return copy
    }
}

/// Every error found in one configuration, in document order.
public struct ConfigurationErrors: Error, Hashable, Sendable, CustomStringConvertible {
    public var errors: [ConfigurationError]

    public init(_ errors: [ConfigurationError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

enum JSONPath {
    static func join(_ prefix: String, _ path: String) -> String {
        if prefix.isEmpty { return path }
        if path.isEmpty { return prefix }
        return path.hasPrefix("[") ? prefix + path : prefix + "." + path
    }

    static func string(_ codingPath: [any CodingKey]) -> String {
        var out = ""
        for key in codingPath {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return out
    }
}

/// Suggests the nearest valid name for a misspelt one.
public enum NearestName: Sendable {
    /// The candidate closest to `name` by edit distance (transpositions count as one edit), if it is close enough
    /// to be a likely misspelling.
    public static func nearest(to name: String, in candidates: some Sequence<String>) -> String? {
        nearest(to: name, in: candidates) { $0.unicodeScalars.count }
    }

    /// The file name closest to `name`, as ``nearest(to:in:)``, but with the edits a misspelling may have counted on
    /// the candidate's name without its extension: a shared `.json` does not make `nope.json` a misspelling of
    /// `bom.json`.
    public static func nearestFile(to name: String, in candidates: some Sequence<String>) -> String? {
        nearest(to: name, in: candidates) { candidate in
            let scalars = candidate.unicodeScalars
            let stem = scalars.lastIndex(of: ".").map { scalars[..<$0] } ?? scalars[...]
            return stem.isEmpty ? scalars.count : stem.count
        }
    }

    static func nearest(
        to name: String, in candidates: some Sequence<String>, length: (String) -> Int
    ) -> String? {
        let a = Array(name.lowercased().unicodeScalars)
        var best: (String, Int)? = nil
        for candidate in candidates {
            let d = EditDistance.distance(a, Array(candidate.lowercased().unicodeScalars))
            if d <= max(1, min(3, length(candidate) / 3 + 1)), d < (best?.1 ?? Int.max) {
                best = (candidate, d)
            }
        }
        return best?.0
    }
}
