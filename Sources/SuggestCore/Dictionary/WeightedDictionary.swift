/// A weighted word list loaded from TSV (`text<TAB>weight[<TAB>scope]`): flat arrays, no object per entry.
///
/// Entries keep their file order. Texts are stored as one UTF-8 buffer with offsets; 14 bytes per entry beyond the
/// text (offset, weight, scope). Several providers naming the same file share one instance (``DictionaryCache``).
public struct WeightedDictionary: Sendable {
    /// Where it came from (a path, or a name for in-memory dictionaries).
    public let source: String
    /// All texts' UTF-8 bytes, back to back.
    public let textBytes: [UInt8]
    /// Entry i's text is `textBytes[textOffsets[i]..<textOffsets[i + 1]]`.
    public let textOffsets: [UInt32]
    public let weights: [Double]
    /// Index into ``scopeNames`` plus one; 0 means no scope.
    public let scopeIndices: [UInt16]
    public let scopeNames: [String]
    /// Lines skipped in lenient mode.
    public let skippedLines: Int
    /// The titles ``title(at:)`` made lately.
    private let titles: TitleCache

    public var count: Int { weights.count }
    public var isEmpty: Bool { weights.isEmpty }

    /// Entry `index`'s text.
    public func text(at index: Int) -> String {
        let range = Int(textOffsets[index])..<Int(textOffsets[index + 1])
        return textBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Entry `index`'s text as a suggestion's title: the same as ``text(at:)``, but a text longer than 15 UTF-8 bytes
    /// (which a `String` cannot hold inline) comes from a small cache of the titles made lately, shared by every
    /// provider and session of this dictionary, so that the titles typing shows again and again cost no allocation.
    public func title(at index: Int) -> String {
        let range = Int(textOffsets[index])..<Int(textOffsets[index + 1])
        if range.count <= 15 { return text(at: index) }
        if let kept = titles.title(of: index) { return kept }
        let made = text(at: index)
        titles.keep(made, of: index)
        return made
    }

    /// Entry `index`'s UTF-8 byte range in ``textBytes``.
    public func textRange(at index: Int) -> Range<Int> { Int(textOffsets[index])..<Int(textOffsets[index + 1]) }

    public func weight(at index: Int) -> Double { weights[index] }

    /// Entry `index`'s scope, if it has one.
    public func scope(at index: Int) -> String? {
        let s = Int(scopeIndices[index])
        return s == 0 ? nil : scopeNames[s - 1]
    }

    /// A dictionary from entries in memory (for tests and apps that build their word list in code).
    public init(source: String = "memory", entries: [(text: String, weight: Double, scope: String?)]) {
        var builder = Builder()
        for entry in entries { builder.append(entry.text, weight: entry.weight, scope: entry.scope) }
        self = builder.build(source: source, skippedLines: 0)
    }

    /// A dictionary from its flat arrays, as a saved index stores them (no copy: the arrays are shared).
    ///
    /// `textOffsets` has `weights.count + 1` ascending elements starting at 0 and ending at `textBytes.count`;
    /// `scopeIndices` has one element per entry, each 0 or at most `scopeNames.count`. The caller checks this
    /// (a loader validates a file before calling).
    public init(
        source: String,
        textBytes: [UInt8],
        textOffsets: [UInt32],
        weights: [Double],
        scopeIndices: [UInt16],
        scopeNames: [String],
        skippedLines: Int
    ) {
        self.source = source
        self.textBytes = textBytes
        self.textOffsets = textOffsets
        self.weights = weights
        self.scopeIndices = scopeIndices
        self.scopeNames = scopeNames
        self.skippedLines = skippedLines
        self.titles = TitleCache()
    }

    struct Builder {
        var textBytes: [UInt8] = []
        var textOffsets: [UInt32] = [0]
        var weights: [Double] = []
        var scopeIndices: [UInt16] = []
        var scopeNames: [String] = []
        var scopeLookup: [String: UInt16] = [:]

        /// Reserves room for about `entries` entries holding `bytes` bytes of text.
        mutating func reserveCapacity(bytes: Int, entries: Int) {
            textBytes.reserveCapacity(bytes)
            textOffsets.reserveCapacity(entries + 1)
            weights.reserveCapacity(entries)
            scopeIndices.reserveCapacity(entries)
        }

        /// Appends an entry without a scope.
        @inline(__always)
        mutating func appendEntry(text: UnsafeBufferPointer<UInt8>, weight: Double) {
            textBytes.append(contentsOf: text)
            textOffsets.append(UInt32(textBytes.count))
            weights.append(weight)
            scopeIndices.append(0)
        }

        /// Appends the entries of a builder that has no scopes.
        mutating func append(contentsOf other: Builder) {
            let base = UInt32(textBytes.count)
            textBytes.append(contentsOf: other.textBytes)
            textOffsets.reserveCapacity(textOffsets.count + other.weights.count)
            for offset in other.textOffsets.dropFirst() { textOffsets.append(base + offset) }
            weights.append(contentsOf: other.weights)
            scopeIndices.append(contentsOf: other.scopeIndices)
        }

        mutating func append(_ text: String, weight: Double, scope: String?) {
            textBytes.append(contentsOf: text.utf8)
            appendEntry(weight: weight, scope: scope)
        }

        mutating func appendEntry(weight: Double, scope: String?) {
            textOffsets.append(UInt32(textBytes.count))
            weights.append(weight)
            if let scope {
                if let index = scopeLookup[scope] {
                    scopeIndices.append(index)
                } else {
                    scopeNames.append(scope)
                    let index = UInt16(scopeNames.count)
                    scopeLookup[scope] = index
                    scopeIndices.append(index)
                }
            } else {
                scopeIndices.append(0)
            }
        }

        func build(source: String, skippedLines: Int) -> WeightedDictionary {
            WeightedDictionary(
                source: source,
                textBytes: textBytes,
                textOffsets: textOffsets,
                weights: weights,
                scopeIndices: scopeIndices,
                scopeNames: scopeNames,
                skippedLines: skippedLines
            )
        }
    }
}

/// The titles of a dictionary's entries made lately: a direct-mapped table of `slotCount` slots by entry, filled on
/// first use. A slot holds the last title made for an entry that maps to it.
final class TitleCache: Sendable {
    static let slotCount = 4096

    private struct Slot: Sendable {
        var entry: Int32 = -1
        var title = ""
    }

    private let slots = Locked<[Slot]>([])

    /// Entry `entry`'s title, if its slot holds it.
    func title(of entry: Int) -> String? {
        let i = entry & (Self.slotCount - 1)
        let key = Int32(truncatingIfNeeded: entry)
        return slots.withLock { slots in
            slots.isEmpty || slots[i].entry != key ? nil : slots[i].title
        }
    }

    /// Puts `title` in entry `entry`'s slot.
    func keep(_ title: String, of entry: Int) {
        let i = entry & (Self.slotCount - 1)
        slots.withLock { slots in
            if slots.isEmpty { slots = Array(repeating: Slot(), count: Self.slotCount) }
            slots[i] = Slot(entry: Int32(truncatingIfNeeded: entry), title: title)
        }
    }
}
