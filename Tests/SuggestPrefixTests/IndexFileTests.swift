import Foundation
import SuggestCore
import SuggestIndex
import Testing

@testable import SuggestPrefix

/// The `"index"` key: load a saved index when it matches the dictionary, else build and save it.
struct IndexFileTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "prefix-index-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "apple\t5\napricot\t3\nbanana\t4\n".write(toFile: folder + "/words.tsv", atomically: true, encoding: .utf8)
    }

    var registry: ProviderRegistry {
        var registry = ProviderRegistry.core
        registry.register(PrefixProvider.self)
        return registry
    }

    func makeEngine() throws -> SuggestionEngine {
        let json = #"{"version":1,"providers":[{"type":"prefix","dictionary":"words.tsv","index":"words.idx"}]}"#
        return try EngineConfiguration(json: json, baseDirectory: folder, registry: registry).makeEngine()
    }

    func titles(_ engine: SuggestionEngine, _ text: String) -> [String] {
        engine.suggestions(for: text).suggestions.map(\.title)
    }

    @Test func buildsSavesAndLoadsTheIndex() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try makeEngine()
        #expect(FileManager.default.fileExists(atPath: folder + "/words.idx"))
        #expect(titles(first, "ap") == ["apple", "apricot"])
        let saved = try PrefixIndex(contentsOfFile: folder + "/words.idx")
        #expect(saved.count == 3)
        let modified = try FileManager.default.attributesOfItem(atPath: folder + "/words.idx")[.modificationDate] as? Date
        // A second configuration loads the file instead of rebuilding (the file is not rewritten).
        let second = try makeEngine()
        #expect(titles(second, "ap") == ["apple", "apricot"])
        let after = try FileManager.default.attributesOfItem(atPath: folder + "/words.idx")[.modificationDate] as? Date
        #expect(modified == after)
    }

    @Test func rebuildsAStaleIndex() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try makeEngine()
        try "apple\t5\napricot\t9\n".write(toFile: folder + "/words.tsv", atomically: true, encoding: .utf8)
        let engine = try makeEngine()
        #expect(titles(engine, "ap") == ["apricot", "apple"])
        #expect(try PrefixIndex(contentsOfFile: folder + "/words.idx").count == 2)
    }

    @Test func corruptOrTruncatedIndexIsAConfigurationError() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try makeEngine()
        let path = folder + "/words.idx"
        var bytes = [UInt8](FileManager.default.contents(atPath: path)!)
        bytes[bytes.count - 3] ^= 0xFF
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(throws: ConfigurationErrors.self) { try makeEngine() }
        do {
            _ = try makeEngine()
        } catch {
            #expect(String(describing: error).contains("providers[0].index"), "\(error)")
            #expect(String(describing: error).contains("checksum mismatch"), "\(error)")
        }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes.prefix(100))))
        do {
            _ = try makeEngine()
            Issue.record("a truncated index was accepted")
        } catch {
            #expect(String(describing: error).contains("truncated"), "\(error)")
        }
    }

    @Test func wrongVersionIsRebuilt() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try makeEngine()
        let path = folder + "/words.idx"
        var bytes = [UInt8](FileManager.default.contents(atPath: path)!)
        bytes[8] = 0x7F
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let engine = try makeEngine()
        #expect(titles(engine, "b") == ["banana"])
        #expect(try PrefixIndex(contentsOfFile: path).count == 3)
    }

    @Test func aDictionaryThatIsAFIFOIsRefusedWithoutWaitingAndNothingIsSaved() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.removeItem(atPath: folder + "/words.tsv")
        #expect(mkfifo(folder + "/words.tsv", 0o600) == 0)
        do {
            _ = try makeEngine()
            Issue.record("a FIFO dictionary was accepted")
        } catch {
            #expect("\(error)".contains("providers[0].dictionary"), "\(error)")
            #expect("\(error)".contains("words.tsv"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/words.idx"))
    }
}
