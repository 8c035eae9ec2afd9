import Foundation
import SuggestTestSupport

/// Paths of the committed fixtures.
enum Fixture {
    static func path(_ name: String) -> String {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!.path
    }

    static var directory: String { (path("fruits.tsv") as NSString).deletingLastPathComponent }

    /// A fresh temporary folder.
    static func temporaryDirectory() -> String {
        let path = TestFolders.unique("suggest-tests-")
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
