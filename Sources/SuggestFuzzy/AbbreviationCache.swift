import Synchronization

/// The keys that abbreviation patterns abbreviate, kept from a scan of a whole first-letter range for the next scan of
/// the same pattern, or of a longer one, by any typing session over the same index: abbreviating a pattern implies
/// abbreviating each of its prefixes (the alignment is greedy), so such a scan checks only these keys.
///
/// Patterns of at most 8 bytes whose survivors are known exactly (a scan not cut short, no smart-case pattern) are
/// kept; at most ``capacity`` patterns and ``positionCapacity`` positions (4 bytes each), the least recently used
/// dropped first. Shared by the copies of a ``FuzzyIndex`` (its sorted positions never change).
final class AbbreviationCache: Sendable {
    /// The most patterns kept.
    static let capacity = 1_024
    /// The most sorted positions kept over all patterns (4 MB).
    static let positionCapacity = 1 << 20

    private struct Entry {
        var survivors: [Int32]
        var lastUse: UInt64
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var positions = 0
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    private let enabled = Atomic<Bool>(true)

    /// Whether patterns are kept and looked up (tests switch it off to compare with scans of whole ranges).
    var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }

    /// A pattern of 1...8 bytes as one integer (its bytes little-endian; pattern bytes are never zero), or nil.
    static func key<C: Collection<UInt8>>(_ bytes: C) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 8 else { return nil }
        var key: UInt64 = 0
        var shift: UInt64 = 0
        for b in bytes {
            guard b != 0 else { return nil }
            key |= UInt64(b) << shift
            shift += 8
        }
        return key
    }

    /// The survivors of the longest kept pattern that `pattern` starts with (ending at a scalar boundary), or nil.
    func longestPrefix(of pattern: [UInt8]) -> [Int32]? {
        guard isEnabled else { return nil }
        var length = min(pattern.count, 8)
        return state.withLock { state in
            if state.entries.isEmpty { return nil }
            while length > 0 {
                // A prefix ends where the next byte starts a scalar.
                if length == pattern.count || pattern[length] & 0xC0 != 0x80,
                    let key = Self.key(pattern[0..<length]), var entry = state.entries[key]
                {
                    state.clock &+= 1
                    entry.lastUse = state.clock
                    let survivors = entry.survivors
                    state.entries[key] = entry
                    return survivors
                }
                length -= 1
            }
            return nil
        }
    }

    /// Keeps `survivors` (sorted positions) as the keys `pattern` abbreviates.
    func insert(_ pattern: [UInt8], survivors: [Int32]) {
        guard isEnabled, let key = Self.key(pattern), survivors.count <= Self.positionCapacity else { return }
        state.withLock { state in
            state.clock &+= 1
            if let old = state.entries.updateValue(Entry(survivors: survivors, lastUse: state.clock), forKey: key) {
                state.positions -= old.survivors.count
            }
            state.positions += survivors.count
            while state.entries.count > Self.capacity || state.positions > Self.positionCapacity {
                guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
                state.positions -= oldest.value.survivors.count
                state.entries[oldest.key] = nil
            }
        }
    }

    /// The number of patterns kept.
    var count: Int { state.withLock { $0.entries.count } }
}
