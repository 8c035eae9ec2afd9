import Foundation
import SuggestCore
import SuggestIndex
import Testing

@testable import SuggestPrefix
import SuggestTestSupport

/// The `"index"` key: load a saved index when it matches the dictionary, else build and save it.
struct IndexFileTests {
    let folder: String

    init() throws {
        folder = TestFolders.unique("prefix-index-tests-")
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

    /// The configuration's errors as text, or nil when it loads.
    func errors(_ json: String, file: String? = nil) -> String? {
        do {
            if let file {
                try json.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
                _ = try EngineConfiguration(contentsOf: folder + "/" + file, registry: registry).makeEngine()
            } else {
                _ = try EngineConfiguration(json: json, baseDirectory: folder, registry: registry).makeEngine()
            }
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test func anIndexFileThatIsAnotherFileOfTheConfigurationIsAnErrorAndLeftAsItIs() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dictionary = try String(contentsOfFile: folder + "/words.tsv", encoding: .utf8)
        // The dictionary itself.
        let own = errors(#"{"version":1,"providers":[{"type":"prefix","dictionary":"words.tsv","index":"words.tsv"}]}"#)
        #expect(own?.contains("providers[0].index: \(folder)/words.tsv is also the dictionary of providers[0]") == true, "\(own ?? "")")
        // Another provider's dictionary, and another provider's store.
        let other = errors(
            #"{"version":1,"providers":[{"type":"prefix","dictionary":"words.tsv"},{"type":"prefix","id":"b","dictionary":"more.tsv","index":"words.tsv"},{"type":"recent","store":"state.bin"},{"type":"prefix","id":"c","dictionary":"words.tsv","index":"state.bin"}]}"#)
        #expect(other?.contains("providers[1].index: \(folder)/words.tsv is also the dictionary of providers[0]") == true, "\(other ?? "")")
        #expect(other?.contains("providers[2].store: \(folder)/state.bin is also the index of providers[3]") == true, "\(other ?? "")")
        #expect(other?.contains("providers[3].index: \(folder)/state.bin is also the store of providers[2]") == true, "\(other ?? "")")
        // The configuration file.
        let config = errors(
            #"{"version":1,"providers":[{"type":"prefix","dictionary":"words.tsv","index":"c.json"}]}"#, file: "c.json")
        #expect(config?.contains("is this configuration file") == true, "\(config ?? "")")
        // The configuration file as a dictionary: its JSON would be read as entries.
        let asDictionary = errors(#"{"version":1,"providers":[{"type":"prefix","dictionary":"d.json"}]}"#, file: "d.json")
        #expect(asDictionary?.contains("providers[0].dictionary: \(folder)/d.json is this configuration file; give the dictionary a TSV file of its own") == true, "\(asDictionary ?? "")")
        #expect(try String(contentsOfFile: folder + "/words.tsv", encoding: .utf8) == dictionary)
        #expect(!FileManager.default.fileExists(atPath: folder + "/state.bin"))
        // Two prefix providers of one dictionary may share an index file.
        #expect(errors(
            #"{"version":1,"providers":[{"type":"prefix","dictionary":"words.tsv","index":"w.idx"},{"type":"prefix","id":"b","dictionary":"words.tsv","index":"w.idx"}]}"#) == nil)
        // Some other file named as the index: an error that does not advise deleting it, and the file unchanged.
        try "my notes\n".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        let notes = errors(#"{"version":1,"providers":[{"type":"prefix","dictionary":"words.tsv","index":"notes.txt"}]}"#)
        #expect(notes?.contains("not a swift-suggest prefix index") == true, "\(notes ?? "")")
        #expect(notes?.contains("give \"index\" a file of its own") == true, "\(notes ?? "")")
        #expect(notes?.contains("delete") == false, "\(notes ?? "")")
        #expect(try String(contentsOfFile: folder + "/notes.txt", encoding: .utf8) == "my notes\n")
    }

    @Test func anEmptyDictionaryOrIndexPathIsAnErrorAtItsKey() {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (json, message) in [
            (#"{"type":"prefix","dictionary":""}"#, "providers[0].dictionary: expected a file path, found an empty string"),
            (#"{"type":"prefix","dictionary":{"path":""}}"#, "providers[0].dictionary.path: expected a file path, found an empty string"),
            (#"{"type":"prefix","dictionary":"words.tsv","index":""}"#, "providers[0].index: expected a file path, found an empty string"),
            // A folder that does not exist: the index could be neither read nor written (also when nothing is
            // written, as `suggest validate` loads a configuration).
            (#"{"type":"prefix","dictionary":"words.tsv","index":"none/w.idx"}"#, "providers[0].index: the folder \(folder)/none of \(folder)/none/w.idx does not exist"),
        ] {
            let error = errors(#"{"version":1,"providers":["# + json + "]}")
            #expect(error?.contains(message) == true, "\(error ?? "loaded")")
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
