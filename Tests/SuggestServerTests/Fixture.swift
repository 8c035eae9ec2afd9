#if Server
import Foundation
import Suggest
import SuggestTestSupport

/// A temporary folder with a dictionary and a configuration (recents + prefix).
struct Fixture: ~Copyable {
    let folder: String
    var configurationPath: String { folder + "/app.suggest.json" }

    init(recentsStore: Bool = false, extraProviders: String = "") throws {
        folder = TestFolders.unique("suggest-serve-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "python\t900\npytest\t300\npandas\t200\nnew york\t100\n"
            .write(toFile: folder + "/words.tsv", atomically: true, encoding: .utf8)
        let recent = recentsStore ? #"{"type": "recent", "store": "recents.json"}"# : #"{"type": "recent"}"#
        let json = """
            {"version": 1, "providers": [\(recent), {"type": "prefix", "dictionary": "words.tsv"}\(extraProviders)]}
            """
        try json.write(toFile: configurationPath, atomically: true, encoding: .utf8)
    }

    func configuration(registry: ProviderRegistry = .builtIn) throws -> EngineConfiguration {
        try EngineConfiguration(contentsOf: configurationPath, registry: registry)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}

/// A JSON answer as a dictionary (Foundation's parser, independent of the project's writer).
func object(_ text: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
}

/// The texts of an answer's suggestions.
func texts(_ text: String) -> [String] {
    (object(text)["suggestions"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
}
#endif
