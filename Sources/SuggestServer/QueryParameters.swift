#if Server
import Foundation
import HTTPTypes
import Suggest

/// A request's query string, decoded strictly: `+` is a space, `%XX` must be valid UTF-8, a name given twice or not
/// in `allowed` is an error (with the nearest allowed name).
struct QueryParameters: Sendable {
    var values: [String: String] = [:]

    init(_ query: String?, allowed: [String]) throws(RequestProblem) {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0])
            let value = parts.count > 1 ? try Self.decode(parts[1]) : ""
            guard allowed.contains(name) else {
                var message = "unknown parameter \"\(name)\""
                if let nearest = NearestName.nearest(to: name, in: allowed) { message += " — did you mean \"\(nearest)\"?" }
                throw RequestProblem(.badRequest, message)
            }
            guard values[name] == nil else { throw RequestProblem(.badRequest, "parameter \"\(name)\" given twice") }
            values[name] = value
        }
    }

    subscript(name: String) -> String? { values[name] }

    static func decode(_ raw: Substring) throws(RequestProblem) -> String {
        let spaced = raw.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else {
            throw RequestProblem(.badRequest, "malformed percent-encoding in the query: \(raw.prefix(40))")
        }
        return decoded
    }
}
#endif
