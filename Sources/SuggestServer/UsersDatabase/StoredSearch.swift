#if Server
import Foundation
import Suggest
import SuggestRecents

/// The searches of a `suggest_user_recents.searches` row: a JSON array of the entries of a
/// `FOLDER/PROVIDER/USER.json` file (`text`, `tokens`, `scope`, `uses`, `score`, `firstUsed` and `lastUsed` in seconds
/// since 1970), written and checked by the same code as the file.
enum StoredSearch {
    /// A row's searches as JSON (an array, keys sorted).
    static func encode(_ searches: [RecentSearch]) -> String { RecentsFile.encodeEntries(searches) }

    /// A row's searches.
    /// - Throws: ``Problem`` naming the entry at fault (`searches[3]: …`).
    static func decode(_ json: String) throws(Problem) -> [RecentSearch] {
        do {
            return try RecentsFile.decodeEntries(json, label: "searches")
        } catch {
            switch error {
            case .corrupt(let reason): throw Problem(description: reason)
            case .newerVersion(let version): throw Problem(description: "format version \(version)")
            }
        }
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }
}
#endif
