#if Server
import Foundation
import Suggest
@testable import SuggestServer
import SuggestWire
import Testing
import SuggestTestSupport

/// Least-recently-used eviction in O(1) (``LRUTable``), for sessions and users; no file for a user who only read.
struct EvictionTests {
    /// The table against a plain model (an array in order of use) over random operations.
    @Test func lruTableMatchesAModel() {
        var table = LRUTable<Int, Int>()
        var model: [(key: Int, value: Int)] = []  // least recently used first
        var generator = SplitMix(seed: 42)
        for step in 0..<20_000 {
            let key = Int(generator.next() % 64)
            switch generator.next() % 5 {
            case 0, 1:
                table.insert(key, step)
                model.removeAll { $0.key == key }
                model.append((key, step))
            case 2:
                let touched = table.touch(key)
                #expect(touched == model.contains { $0.key == key })
                if let index = model.firstIndex(where: { $0.key == key }) { model.append(model.remove(at: index)) }
            case 3:
                let removed = table.removeValue(forKey: key)
                #expect(removed == model.first { $0.key == key }?.value)
                model.removeAll { $0.key == key }
            default:
                let least = table.removeLeastRecent()
                #expect(least?.key == model.first?.key && least?.value == model.first?.value)
                if !model.isEmpty { model.removeFirst() }
            }
            #expect(table.count == model.count)
            #expect(table[key] == model.first { $0.key == key }?.value)
        }
        #expect(table.entries.map(\.key) == model.map(\.key))
    }

    /// A new session past the cap costs about what one below it costs: 10,000 new ids past a cap of 10,000 take at
    /// most 5 times as long as the first 10,000 (a scan for the least recently used one made it ~1,000 times).
    @Test func newSessionsPastTheCapCostTheSameAsBelowIt() throws {
        let engine = SuggestionEngine(slots: [])
        let table = SessionTable(maximum: 10_000, idleTimeout: .seconds(600))
        let owner = SessionOwner.user("u")
        func add(_ range: Range<Int>) -> Duration {
            let start = ContinuousClock.now
            for i in range {
                table.checkIn("s\(i)", owner: owner, processor: BatchProcessor(engine: engine), now: .now)
            }
            return ContinuousClock.now - start
        }
        let below = add(0..<10_000)
        let past = add(10_000..<20_000)
        #expect(table.count == 10_000)
        #expect(past < below * 5, "below the cap \(below), past it \(past)")
        // The least recently used went: the first 10,000.
        let fresh = table.checkOut("s0", owner: owner, engine: engine, now: .now)
        #expect(fresh.lastQuery.text.isEmpty)
    }

    /// The same for users (each new user's engine is built, which costs the same below and past the cap).
    @Test func newUsersPastTheCapCostTheSameAsBelowIt() throws {
        let users = UserEngines(configuration: EngineConfiguration(slots: []), options: .init(maximumUsers: 5_000))
        func add(_ range: Range<Int>) throws -> Duration {
            let start = ContinuousClock.now
            for i in range { _ = try users.engine(for: "user\(i)") }
            return ContinuousClock.now - start
        }
        let below = try add(0..<5_000)
        let past = try add(5_000..<10_000)
        #expect(users.count == 5_000)
        #expect(users.evictions == 5_000)
        #expect(past < below * 5, "below the cap \(below), past it \(past)")
        #expect(users.recents(of: "user0") == nil && users.recents(of: "user9999") != nil)
    }

    /// A user who only typed leaves no file, nor lock file, when evicted or at shutdown; one who submitted does.
    @Test func aUserWhoOnlyReadLeavesNoFile() throws {
        let folder = TestFolders.unique("eviction-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let configuration = EngineConfiguration(slots: [ProviderSlot(RecentsProvider())])
        let users = UserEngines(configuration: configuration, options: .init(maximumUsers: 2, recentsFolder: folder))
        _ = try users.engine(for: "reader").suggestions(for: SearchQuery(text: "py"))
        _ = try users.engine(for: "writer").submit(SearchQuery(text: "python"))
        _ = try users.engine(for: "third")  // evicts "reader"
        #expect(users.saveAll().isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/recent")
        #expect(!files.contains { $0.hasPrefix("reader") }, "\(files)")
        #expect(!files.contains { $0.hasPrefix("third") }, "\(files)")
        #expect(files.contains("writer.json"), "\(files)")
    }
}

/// A small deterministic generator for the model test.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
#endif
