public import Foundation
import SuggestCore

extension LatencyReport {
    /// The report as JSON (keys sorted, indented, `\n` at the end): what `suggest bench --json` prints.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, a whole number or a finite number: encoding cannot fail.
        var data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        data.append(0x0A)
        return data
    }

    /// Reads a report that `suggest bench --json` wrote.
    /// - Throws: ``BenchError`` naming the file and, for JSON that is not such a report, the line and column or the
    ///   JSON path (`engine.latency.p99: expected a number`).
    public init(baselineFile path: String) throws(BenchError) {
        let bytes: [UInt8]
        do {
            bytes = try TextFile.read(path)
        } catch {
            throw .baseline(path, error.description)
        }
        try self.init(json: bytes, file: path)
    }

    /// Reads a report from JSON bytes; `file` names it in errors.
    public init(json bytes: [UInt8], file: String) throws(BenchError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(TextFile.withoutByteOrderMark(bytes))
        } catch {
            throw .baseline(file, "not JSON: \(error.description)")
        }
        guard case .object = value else {
            throw .baseline(file, "expected a `suggest bench --json` report (an object), found \(value.kindDescription)")
        }
        guard let schema = value["schema"]?.stringValue else {
            throw .baseline(file, "not a `suggest bench --json` report (no \"schema\" key)")
        }
        guard schema == Self.currentSchema else {
            throw .baseline(
                file, "schema \"\(schema)\" is not the one this suggest reads (\"\(Self.currentSchema)\"); "
                    + "make the baseline again with this version")
        }
        do {
            self = try JSONValueDecoder().decode(LatencyReport.self, from: value)
        } catch {
            throw .baseline(file, error.description)
        }
    }
}
