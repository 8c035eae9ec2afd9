public import Foundation
import SuggestCore

extension LatencyReport {
    /// The report as JSON (keys sorted, indented, `\n` at the end): what `suggest bench --json` prints.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, a whole number or a finite number: encoding cannot fail.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        var out = Self.joiningNumberArrays(Array(data))
        out.append(0x0A)
        return Data(out)
    }

    /// `bytes` with every array of numbers on one line (`[0, 3, 12]`): a histogram of 70 bins stays one line.
    static func joiningNumberArrays(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            out.append(byte)
            i += 1
            guard byte == UInt8(ascii: "[") else { continue }
            // An array whose elements are only numbers: copy it without its line breaks and indentation.
            var j = i
            var numbers = false
            while j < bytes.count, bytes[j] != UInt8(ascii: "]") {
                let b = bytes[j]
                let isNumber = (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
                    || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") || b == UInt8(ascii: "+")
                let isSpace = b == 0x20 || b == 0x0A || b == 0x0D || b == UInt8(ascii: ",")
                guard isNumber || isSpace else { break }
                numbers = numbers || isNumber
                j += 1
            }
            guard j < bytes.count, bytes[j] == UInt8(ascii: "]"), numbers else { continue }
            var first = true
            for part in bytes[i..<j].split(whereSeparator: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: ",") }) {
                if !first { out.append(contentsOf: [UInt8(ascii: ","), 0x20]) }
                first = false
                out.append(contentsOf: part)
            }
            out.append(UInt8(ascii: "]"))
            i = j + 1
        }
        return out
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
