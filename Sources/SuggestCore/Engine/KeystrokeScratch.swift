/// The memory one typing session's keystrokes reuse: the providers' candidate arrays, the merge's keys and table,
/// the rank order, and the arrays of the result the previous keystroke returned. A keystroke empties what it takes
/// and keeps the capacity, so that once the arrays have grown, merging, ranking and shaping allocate nothing; an
/// array the caller still holds (a result it keeps) is not reused but copied on write, as any array is.
struct KeystrokeScratch: Sendable {
    /// One shown entry: its section in the result's numbering and its merged entry.
    struct Shown: Sendable {
        var section: Int32
        var entry: Int32
    }

    /// Each slot's candidate array from the previous keystroke, emptied before a provider gets it again.
    var outputs: [[SuggestionCandidate]] = []
    /// The previous keystroke's prepared query's arrays, for the next one to prepare its query in.
    var queryBytes: [UInt8] = []
    var queryWords: [Range<Int>] = []
    /// Each slot's report (step 3).
    var reports: [SuggestionResult.Diagnostics.ProviderReport?] = []
    var table = MergeTable()
    /// Different completions per tier before the last provider (see ``SuggestionEngine/filledBefore(slot:_:scratch:)``).
    var tierCounts: [Int] = []
    var merged: [SuggestionEngine.Merged] = []
    var offers: [SuggestionEngine.Offer] = []
    var order: [Int32] = []
    var sortSpare: [Int32] = []
    /// Places used per section (step 6).
    var used: [Int] = []
    var display: [Shown] = []
    /// The last Tab completion made as a new string: a keystroke whose completion is spelt the same returns it
    /// instead of making another (completions of more than 15 bytes are allocated).
    var lastCompletion: String? = nil
    /// The sections of the previous result and of the one before it, and the suggestion arrays taken out of them.
    /// A keystroke reuses the arrays of the result before the previous one: a caller holds the result it shows
    /// until the next one comes (the previous), rarely an older one, so those arrays are unshared by then.
    var sections: [SuggestionResult.Section] = []
    var olderSections: [SuggestionResult.Section] = []
    var spareSuggestions: [[Suggestion]] = []
    /// The provider reports of the previous result and of the one before it.
    var reportList: [SuggestionResult.Diagnostics.ProviderReport] = []
    var olderReportList: [SuggestionResult.Diagnostics.ProviderReport] = []
    /// The slots of the suggestion being built, best first, and the provider-id lists made so far for such lists.
    var providerSlots: [Int] = []
    var providerLists: [(slots: [Int], ids: [String])] = []
    /// Tab-completion's folding of one completion.
    var foldedBytes: [UInt8] = []
    var foldedOffsets: [Int32]? = []

    /// How many distinct provider lists are kept for reuse.
    static let providerListLimit = 32

    /// Each slot's emptied candidate array, `count` of them.
    mutating func takeOutputs(count: Int) -> [[SuggestionCandidate]] {
        var taken: [[SuggestionCandidate]] = []
        swap(&taken, &outputs)
        if taken.count != count { taken = Array(repeating: [], count: count) }
        for i in taken.indices { taken[i].removeAll(keepingCapacity: true) }
        return taken
    }

    /// Each slot's report slot, all nil.
    mutating func takeReports(count: Int) -> [SuggestionResult.Diagnostics.ProviderReport?] {
        var taken: [SuggestionResult.Diagnostics.ProviderReport?] = []
        swap(&taken, &reports)
        taken.removeAll(keepingCapacity: true)
        taken.append(contentsOf: repeatElement(nil, count: count))
        return taken
    }

    /// The section array of the result before the previous one, emptied; its suggestion arrays go to
    /// ``spareSuggestions``, emptied. Give the new result's array back with ``keepSections(_:)``.
    mutating func takeSections() -> [SuggestionResult.Section] {
        var taken: [SuggestionResult.Section] = []
        swap(&taken, &olderSections)
        while var section = taken.popLast() {
            var suggestions: [Suggestion] = []
            swap(&suggestions, &section.suggestions)
            suggestions.removeAll(keepingCapacity: true)
            spareSuggestions.append(suggestions)
        }
        return taken
    }

    /// Keeps a new result's section array: the previous result's becomes the older one.
    mutating func keepSections(_ new: [SuggestionResult.Section]) {
        olderSections = sections
        sections = new
    }

    /// The reports of the slots that have one, in slot order, in the array of the result before the previous one.
    mutating func reportList(
        _ reports: [SuggestionResult.Diagnostics.ProviderReport?]
    ) -> [SuggestionResult.Diagnostics.ProviderReport] {
        var list: [SuggestionResult.Diagnostics.ProviderReport] = []
        swap(&list, &olderReportList)
        list.removeAll(keepingCapacity: true)
        for report in reports { if let report { list.append(report) } }
        olderReportList = reportList
        reportList = list
        return list
    }

    /// The ids of ``providerSlots``' providers: an array made before for the same slots, or a new one.
    mutating func providerIDs(_ slots: [ProviderSlot]) -> [String] {
        for list in providerLists where list.slots == providerSlots { return list.ids }
        let ids = providerSlots.map { slots[$0].provider.id }
        if providerLists.count < Self.providerListLimit { providerLists.append((providerSlots, ids)) }
        return ids
    }

    /// The UTF-8 offset in `text` where its folded form's first `folded` bytes end, moved back so that it does not
    /// end inside a folded expansion or a scalar (as ``NormalizedText/originalOffsets`` maps it).
    mutating func originalOffset(ofFolded folded: Int, in text: String) -> Int {
        var copy = text
        return copy.withUTF8 { buffer in
            if TextNormalizer.isASCII(buffer) { return folded }
            foldedBytes.removeAll(keepingCapacity: true)
            foldedOffsets!.removeAll(keepingCapacity: true)
            TextNormalizer.foldScalars(buffer, from: 0, into: &foldedBytes, offsets: &foldedOffsets)
            foldedOffsets!.append(Int32(buffer.count))
            let offsets = foldedOffsets!
            var end = folded
            while end < foldedBytes.count && end > 0 && offsets[end] == offsets[end - 1] { end -= 1 }
            return Int(offsets[end])
        }
    }
}

/// Times each completion was selected, by its merge key (``MergeTable``'s bytes): looked up during the merge
/// without building a key.
struct SelectionCounts: Sendable {
    private var buckets: [UInt64: [(key: [UInt8], count: Int)]] = [:]

    var isEmpty: Bool { buckets.isEmpty }

    /// Counts one more selection of `completion`.
    mutating func record(_ completion: Suggestion.Completion) {
        var key: [UInt8] = []
        MergeTable.appendKey(completion, to: &key)
        let hash = MergeTable.hash(key, key.indices)
        var bucket = buckets[hash, default: []]
        if let at = bucket.firstIndex(where: { $0.key == key }) {
            bucket[at].count += 1
        } else {
            bucket.append((key, 1))
        }
        buckets[hash] = bucket
    }

    /// How many times the completion with these key bytes (and their ``MergeTable`` hash) was selected.
    func count(_ key: ArraySlice<UInt8>, hash: UInt64) -> Int {
        guard let bucket = buckets[hash] else { return 0 }
        for entry in bucket where entry.key.elementsEqual(key) { return entry.count }
        return 0
    }
}

extension KeystrokeScratch {
    /// Keeps the candidate and report arrays of a finished keystroke for the next one (they are reused in
    /// place once `work` is gone).
    mutating func recycle(_ work: SuggestionEngine.Work) {
        outputs = work.outputs
        reports = work.reports
        queryBytes = work.prepared.normalized
        queryWords = work.prepared.words
    }
}
