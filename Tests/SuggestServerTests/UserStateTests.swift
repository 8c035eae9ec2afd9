#if Server
import Foundation
import Suggest
import SuggestServer
import Testing
import SuggestTestSupport

/// A users folder, removed at the end.
struct UsersFolder: ~Copyable {
    let path: String

    init() throws {
        path = TestFolders.unique("user-state-")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Every file and folder under the folder, as paths relative to it, sorted.
    func contents() throws -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
    }

    deinit {
        chmod(path, 0o700)
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// One engine configuration with recents providers of these ids (nil: the default id, `recent`).
func recentsConfiguration(_ ids: [String?]) -> EngineConfiguration {
    EngineConfiguration(slots: ids.map { id in ProviderSlot(id.map { RecentsProvider(id: $0) } ?? RecentsProvider()) })
}

/// The searches `user` has in the recents provider `provider`.
func searches(_ users: UserEngines, _ user: String, provider: String = "recent") throws -> [String] {
    _ = try users.engine(for: user)
    return users.recents(of: user)?.first { $0.id == provider }?.searches.map(\.query.text) ?? []
}

struct UserStateTests {
    static let composed = "Ren\u{E9}e"  // é as one scalar (NFC)
    static let decomposed = "Rene\u{301}e"  // e and U+0301 (NFD)

    @Test func oneUserWhateverTheUnicodeFormOneFileAlsoAfterARestart() throws {
        let folder = try UsersFolder()
        let users = UserEngines(configuration: recentsConfiguration([nil]), options: .init(recentsFolder: folder.path))
        let first = try users.engine(for: Self.composed)
        #expect(try users.engine(for: Self.decomposed) === first)
        try users.engine(for: Self.decomposed).submit(SearchQuery(text: "decomposed search"))
        first.submit(SearchQuery(text: "composed search"))
        #expect(users.count == 1)
        #expect(users.users.map { Array($0.unicodeScalars) } == [Array(Self.composed.unicodeScalars)])
        #expect(users.saveAll().isEmpty)
        #expect(try folder.contents().filter { $0.hasSuffix(".json") } == ["recent/%52en%c3%a9e.json"])

        let restarted = UserEngines(configuration: recentsConfiguration([nil]), options: .init(recentsFolder: folder.path))
        #expect(Set(try searches(restarted, Self.decomposed)) == ["decomposed search", "composed search"])
        #expect(restarted.storePath(user: Self.decomposed, provider: "recent")
            == restarted.storePath(user: Self.composed, provider: "recent"))
    }

    /// In the earlier layout `work-alice` (first provider) and `alice` (provider `work`) both wrote `work-alice.json`.
    @Test func lookalikeUsersOfTwoProvidersNeverShareAFile() throws {
        let folder = try UsersFolder()
        let configuration = recentsConfiguration([nil, "work"])
        let users = UserEngines(configuration: configuration, options: .init(recentsFolder: folder.path))
        try users.engine(for: "work-alice").submit(SearchQuery(text: "by work-alice"))
        try users.engine(for: "alice").submit(SearchQuery(text: "by alice"))
        #expect(users.saveAll().isEmpty)
        #expect(
            try folder.contents().filter { $0.hasSuffix(".json") }
                == ["recent/alice.json", "recent/work-alice.json", "work/alice.json", "work/work-alice.json"])

        let restarted = UserEngines(configuration: configuration, options: .init(recentsFolder: folder.path))
        for provider in ["recent", "work"] {
            #expect(try searches(restarted, "work-alice", provider: provider) == ["by work-alice"])
            #expect(try searches(restarted, "alice", provider: provider) == ["by alice"])
        }
    }

    @Test func aLongProviderIdAndALongUserIdFitTheFileSystem() throws {
        let folder = try UsersFolder()
        let provider = String(repeating: "Provider ", count: 40)  // 360 bytes
        let user = String(repeating: "é", count: 50)  // 100 UTF-8 bytes, 300 escaped
        let configuration = recentsConfiguration([provider])
        let users = UserEngines(configuration: configuration, options: .init(recentsFolder: folder.path))
        try users.engine(for: user).submit(SearchQuery(text: "a long way"))
        #expect(users.recents(of: user)?.first?.saveProblem == nil)
        #expect(users.saveAll().isEmpty)
        let path = try #require(users.storePath(user: user, provider: provider))
        #expect(FileManager.default.fileExists(atPath: path))
        let relative = path.dropFirst(folder.path.count + 1).split(separator: "/")
        #expect(relative.count == 2)
        for name in relative {
            #expect(name.utf8.count <= 120, "\(name)")
            #expect(name.hasPrefix("sha256."), "\(name)")
        }
        let restarted = UserEngines(configuration: configuration, options: .init(recentsFolder: folder.path))
        #expect(try searches(restarted, user, provider: provider) == ["a long way"])
    }

    @Test(arguments: ["alice", "Alice", "a/b", "..", "x-41", "%41", "sha256.abc", "日本語", String(repeating: "z", count: 100)])
    func storeNamesAreSafeAndDistinct(_ user: String) {
        let name = UserEngines.storeName(for: user)
        #expect(!name.contains("/") && name != "." && name != ".." && !name.isEmpty)
        #expect(name.utf8.count <= 120)
        #expect(name == name.lowercased(), "a case-insensitive file system keeps \(name) apart from others")
        let others = ["alice", "Alice", "a/b", "..", "x-41", "%41", "sha256.abc", "日本語", String(repeating: "z", count: 100)]
        for other in others where other != user {
            #expect(UserEngines.storeName(for: other) != name, "\(other) and \(user)")
        }
    }

    /// Files of the earlier layout (`FOLDER/USER.json` for the first recents provider, `FOLDER/PROVIDER-USER.json`
    /// for others, hex for ids other than letters, digits, `-` and `_`) are moved into the new one on first use.
    @Test func filesOfTheEarlierLayoutAreMovedOnFirstUse() throws {
        let folder = try UsersFolder()
        func write(_ name: String, _ text: String) throws {
            let store = JSONFileRecentsStore(path: folder.path + "/" + name)
            let search = RecentSearch(query: SearchQuery(text: text), firstUsed: Date(), lastUsed: Date())
            _ = try store.commit([.record(search)]) { ($0 ?? []) + [search] }
        }
        try write("alice.json", "alice before the upgrade")
        try write("work-bob.json", "bob at work before the upgrade")
        // A user who came with the decomposed form had their file named after it.
        let hex = Self.decomposed.utf8.map { String(format: "%02x", $0) }.joined()
        try write("x-\(hex).json", "renée before the upgrade")
        // Carol has a file in each layout (a downgrade and an upgrade again): both are kept.
        try write("carol.json", "carol in the old layout")
        let configuration = recentsConfiguration([nil, "work"])
        let users = UserEngines(configuration: configuration, options: .init(recentsFolder: folder.path))
        try users.engine(for: "carol").submit(SearchQuery(text: "carol in the new layout"))
        _ = users.evict("carol")
        // The old file appears again next to the new one.
        try write("carol.json", "carol in the old layout")

        #expect(try searches(users, "alice") == ["alice before the upgrade"])
        #expect(try searches(users, "bob", provider: "work") == ["bob at work before the upgrade"])
        #expect(try searches(users, "bob", provider: "recent") == [])
        #expect(try searches(users, Self.composed) == ["renée before the upgrade"])
        #expect(Set(try searches(users, "carol")) == ["carol in the old layout", "carol in the new layout"])
        let left = try folder.contents().filter { !$0.contains("/") && $0 != "recent" && $0 != "work" }
        #expect(left.isEmpty, "files of the earlier layout left: \(left)")

        let restarted = UserEngines(configuration: configuration, options: .init(recentsFolder: folder.path))
        #expect(try searches(restarted, "alice") == ["alice before the upgrade"])
        #expect(try searches(restarted, "bob", provider: "work") == ["bob at work before the upgrade"])
        #expect(try searches(restarted, Self.decomposed) == ["renée before the upgrade"])
        #expect(Set(try searches(restarted, "carol")) == ["carol in the old layout", "carol in the new layout"])
    }

    /// A file of the earlier layout whose journal has a bad line, for a user who already has a file in the new one:
    /// the searches read before the bad line are added, the journal is kept beside the old file, and the move is not
    /// tried again (it would fail the same way every time the engine is built).
    @Test func aFileOfTheEarlierLayoutWithAnUnreadableJournalIsAddedOnce() throws {
        let folder = try UsersFolder()
        let configuration = recentsConfiguration([nil])
        let users = UserEngines(configuration: configuration, options: .init(recentsFolder: folder.path))
        try users.engine(for: "dave").submit(SearchQuery(text: "dave in the new layout"))
        _ = users.evict("dave")
        let old = folder.path + "/dave.json"
        let search = RecentSearch(query: SearchQuery(text: "dave in the old layout"), firstUsed: Date(), lastUsed: Date())
        _ = try JSONFileRecentsStore(path: old).commit([.record(search)]) { ($0 ?? []) + [search] }
        let base = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: old))) as? [String: Any]
        let id = try #require(base?["journal"] as? String)
        func use(_ text: String) -> String {
            #"{"entry":{"firstUsed":1795000000,"lastUsed":1795000000,"score":1,"text":"\#(text)","uses":1},"op":"use"}"#
        }
        let journal = [#"{"base":"\#(id)","v":1}"#, use("dave in the old journal"), "not json", use("after the bad line")]
        try Data((journal.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: old + ".journal"))

        let expected: Set = ["dave in the new layout", "dave in the old layout", "dave in the old journal"]
        #expect(Set(try searches(users, "dave")) == expected)
        let files = try folder.contents().filter { !$0.contains("/") && $0 != "recent" }
        #expect(files.count == 1 && files[0].hasPrefix("dave.json.journal.corrupt-"), "\(files)")
        _ = users.evict("dave")
        #expect(Set(try searches(users, "dave")) == expected)
        let restarted = UserEngines(configuration: configuration, options: .init(recentsFolder: folder.path))
        #expect(Set(try searches(restarted, "dave")) == expected)
    }

    /// An evicted user whose recents cannot be written is held with them, gets them back on return, and is saved
    /// once the folder can be written again.
    @Test func anEvictedUserWhoseRecentsCannotBeSavedKeepsThem() throws {
        let folder = try UsersFolder()
        let repair = try UnwritableUsersFolder.make(folder.path)
        let users = UserEngines(
            configuration: recentsConfiguration([nil]), options: .init(maximumUsers: 1, recentsFolder: folder.path))
        try users.engine(for: "alice").submit(SearchQuery(text: "kept in memory"))
        #expect(users.recents(of: "alice")?.first?.saveProblem != nil)
        _ = try users.engine(for: "bob")  // evicts alice, whose save fails
        #expect(users.unsavedUsers == 1)
        #expect(try searches(users, "alice") == ["kept in memory"])  // her own engine back, not an empty one
        #expect(!users.saveAll().isEmpty)
        try repair()
        #expect(users.saveAll().isEmpty)
        #expect(users.unsavedUsers == 0 && users.usersLost == 0)
        let restarted = UserEngines(configuration: recentsConfiguration([nil]), options: .init(recentsFolder: folder.path))
        #expect(try searches(restarted, "alice") == ["kept in memory"])
    }
}

/// Makes a users folder that cannot be written: mode 0500, or — when the tests run as root, whom permissions do not
/// stop — a regular file where the `recent` provider's folder goes. Returns what makes it writable again.
enum UnwritableUsersFolder {
    static func make(_ folder: String, provider: String = "recent") throws -> () throws -> Void {
        if geteuid() != 0 {
            chmod(folder, 0o500)
            return { chmod(folder, 0o700) }
        }
        let blocker = folder + "/" + provider
        try "not a folder".write(toFile: blocker, atomically: false, encoding: .utf8)
        return { try FileManager.default.removeItem(atPath: blocker) }
    }
}
#endif
