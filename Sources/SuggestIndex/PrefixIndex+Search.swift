public import SuggestCore

extension PrefixIndex {
    /// One completion found by a search.
    public struct Hit: Hashable, Sendable {
        /// The entry id in ``PrefixIndex/dictionary``.
        public var entry: UInt32
        /// `.exact`, `.prefix` or `.wordPrefix`; for every-word matches `.wordsInOrder`, `.wordsAnyOrder`, or
        /// `.oneTypo` / `.twoTypos` when some words have typos.
        public var tier: MatchTier
        /// The typos of an every-word match with typos (0 otherwise).
        public var typos: UInt8 = 0
        /// An every-word match with typos whose words start the entry's words in another order than the query's
        /// (false otherwise: without typos, the tier tells). For explanations: it ranks as the in-order ones do.
        public var wordsOutOfOrder = false
        /// Where the match starts in the entry's canonical key (0 unless `.wordPrefix`).
        public var keyOffset: UInt16
        /// The entry's sorted position (for the search's own bookkeeping).
        var sortedPosition: UInt32 = .max

        public init(entry: UInt32, tier: MatchTier, keyOffset: UInt16 = 0) {
            self.entry = entry
            self.tier = tier
            self.keyOffset = keyOffset
        }
    }

    /// Reused memory for searches: keep one per thread (or per typing session) and pass it to every search; once
    /// it has grown, a search allocates nothing.
    public struct SearchBuffer: Sendable {
        /// The last search's completions: exact matches, then prefix matches, then word-prefix matches, each best
        /// first.
        public internal(set) var hits: [Hit]
        var query: [UInt8]
        var heap: [HeapItem]
        var spare: [HeapItem]
        /// The query's words (ranges in `query`) and one word at a time, for the every-word step.
        var words: [Range<Int>] = []
        var word: [UInt8] = []

        public init(capacity: Int = 32) {
            // Only a starting size: the arrays grow if a search needs more.
            let capacity = max(1, min(capacity, 1_024))
            hits = []
            hits.reserveCapacity(capacity)
            query = []
            query.reserveCapacity(256)
            heap = []
            heap.reserveCapacity(4 * capacity + 8)
            spare = []
            spare.reserveCapacity(capacity + 1)
        }
    }

    struct HeapItem {
        var rank: UInt32
        var position: UInt32
        var lo: UInt32
        var hi: UInt32

        @inline(__always)
        func isBefore(_ other: HeapItem) -> Bool {
            rank != other.rank ? rank < other.rank : position < other.position
        }
    }

    /// Finds the best completions of a prepared query (its words joined by single spaces; the last word is a
    /// prefix unless the text ended with a separator).
    /// With `everyWord` (and `infix`), a query of several words whose matches this way fill less than `limit`
    /// also finds entries where every word starts a word of the key, after those matches: in order
    /// (`MatchTier.wordsInOrder`), then in any order (`MatchTier.wordsAnyOrder`), then with typos in some words
    /// (`MatchTier.oneTypo`, `.twoTypos`; `Hit/typos`, `Hit/wordsOutOfOrder`; see
    /// `EveryWord/typos(query:words:key:starts:lengths:)`), most popular first among the entries that start a word
    /// with the query's rarest word (and, when nothing matched without typos, its second rarest), looked at in popularity order until 128 of them did not match (32 when
    /// the words as typed found something, 8 when they fill half of `limit` or more, 48 when only typo matches are
    /// possible) per run of keys; of a run, at most 16 entries are checked for typos, and 16 more that have every
    /// word but one as typed and the first letter of the one left: the work stays bounded, and typing in order,
    /// which mostly fills the list, pays for it rarely.
    ///
    /// With `exactBeyondLimit`, an exact match does not take a completion's place: up to `limit` other matches
    /// follow it (a provider whose exact match must earn its place among the completions, ranked by the engine,
    /// offers the completions it competes with).
    public func search(
        _ query: PreparedQuery,
        limit: Int,
        infix: Bool = true,
        everyWord: Bool = false,
        exactBeyondLimit: Bool = false,
        into buffer: inout SearchBuffer
    ) {
        buffer.hits.removeAll(keepingCapacity: true)
        guard !query.isEmpty else { return }
        IndexKey.query(query, into: &buffer.query)
        buffer.query.append(0x20)
        let scope = scopeFilter(for: query.query.scope)
        run(
            &buffer, lastWordIsPartial: query.lastWordIsPartial, limit: limit, scope: scope, infix: infix,
            everyWord: everyWord, exactBeyondLimit: exactBeyondLimit
        ) { _ in true }
    }

    /// Finds the best completions of `key`, a canonical key (``IndexKey``: folded, words separated by one space),
    /// into `hits`: at most `limit` in all, exact matches first, then prefix matches, then (with `infix`)
    /// matches at an inner word start, each group most popular first.
    ///
    /// - Parameters:
    ///   - key: the canonical key of what was typed.
    ///   - lastWordIsPartial: whether the last word may still grow ("new yo" → "new york"); if false it must be
    ///     a whole word.
    ///   - limit: the most hits in all.
    ///   - scope: a scope index from ``scopeFilter(for:)``: entries of that scope and unscoped ones match; nil
    ///     matches every entry.
    ///   - infix: whether inner word starts match too.
    ///   - buffer: reused memory; its `hits` get the result.
    /// - Complexity: O(log n + k log k) for k = `limit`, whatever the number of completions (a scope filter may
    ///   visit more entries when few match it).
    public func search(
        _ key: [UInt8],
        lastWordIsPartial: Bool = true,
        limit: Int,
        scope: UInt16? = nil,
        infix: Bool = true,
        into buffer: inout SearchBuffer
    ) {
        buffer.hits.removeAll(keepingCapacity: true)
        buffer.query.removeAll(keepingCapacity: true)
        buffer.query.append(contentsOf: key)
        buffer.query.append(0x20)
        guard !key.isEmpty else { return }
        run(&buffer, lastWordIsPartial: lastWordIsPartial, limit: limit, scope: scope, infix: infix) { _ in true }
    }

    /// The search behind the public ones; `buffer.query` holds the key followed by one space. `accept` can hide
    /// entries (live updates).
    func run(
        _ buffer: inout SearchBuffer,
        lastWordIsPartial: Bool,
        limit: Int,
        scope: UInt16?,
        infix: Bool,
        everyWord: Bool = false,
        exactBeyondLimit: Bool = false,
        accept: (UInt32) -> Bool
    ) {
        buffer.hits.removeAll(keepingCapacity: true)
        let length = buffer.query.count - 1
        guard length > 0, limit > 0, count > 0 else { return }
        // Every hit is a distinct entry.
        var limit = min(limit, count)
        // Move the arrays out of the buffer (no copy) so the closures below can append to them.
        var hits = buffer.hits
        var heap = buffer.heap
        var spare = buffer.spare
        var words = buffer.words
        var word = buffer.word
        buffer.hits = []
        buffer.heap = []
        buffer.spare = []
        buffer.words = []
        buffer.word = []
        let q = buffer.query
        defer {
            buffer.hits = hits
            buffer.heap = heap
            buffer.spare = spare
            buffer.words = words
            buffer.word = word
        }
        let scopes = dictionary.scopeIndices
        @inline(__always) func inScope(_ entry: Int) -> Bool {
            guard let scope else { return true }
            let s = scopes[entry]
            return s == 0 || s == scope
        }

        // Exact and prefix matches over the sorted keys.
        let prefixKeys = PrefixRuns(index: self)
        // Within the bucket of the query's first two bytes (all of the keys without buckets).
        let (bucketStart, bucketEnd) = prefixSpan(q, length)
        let lo = lowerBound(prefixKeys, q, length, from: bucketStart, to: bucketEnd) { $0 != -1 }
        let exactEnd = lowerBound(prefixKeys, q, length, from: lo, to: bucketEnd) { $0 > 0 }
        // One hit per canonical key: an entry whose key a more popular visible entry shares is skipped. (The index's
        // arrays as locals, and the closure for the twins made only for a key that has some: calling a method of
        // `self` from these functions, or making a closure of them, copied the whole index for each entry.)
        let order = self.order
        let twins = self.twins
        let ranks = prefixRanks.values
        let keyBytes = self.keyBytes
        let keyOffsets = self.keyOffsets
        @inline(__always) func visible(_ position: Int) -> Bool {
            let entry = order[position]
            return inScope(Int(entry)) && accept(entry)
        }
        @inline(__always) func offered(_ position: Int) -> Bool {
            guard visible(position) else { return false }
            guard Self.hasTwin(twins, position) else { return true }
            return !Self.shadowedTwin(
                position, ranks: ranks, keyBytes: keyBytes, keyOffsets: keyOffsets, visible: visible)
        }
        let exactDone = topK(prefixRanks, (lo, exactEnd), nil, need: limit, heap: &heap) { position in
            guard offered(position) else { return false }
            var hit = Hit(entry: order[position], tier: .exact)
            hit.sortedPosition = UInt32(position)
            hits.append(hit)
            return true
        }
        if !exactDone {
            scan(
                prefixRanks, (lo, exactEnd), nil, need: limit, tier: .exact, offered: offered, hits: &hits,
                spare: &spare)
        }
        // The exact matches beside `limit` completions, not among them.
        if exactBeyondLimit { limit = min(limit + hits.count, count) }
        var prefixRange: (Int, Int)
        if lastWordIsPartial {
            prefixRange = (exactEnd, lowerBound(prefixKeys, q, length, from: exactEnd, to: bucketEnd) { $0 == 1 })
        } else {
            let a = lowerBound(prefixKeys, q, length + 1, from: exactEnd, to: bucketEnd) { $0 != -1 }
            prefixRange = (a, lowerBound(prefixKeys, q, length + 1, from: a, to: bucketEnd) { $0 == 1 })
        }
        if hits.count < limit {
            let need = limit - hits.count
            let done = topK(prefixRanks, prefixRange, nil, need: need, heap: &heap) { position in
                guard offered(position) else { return false }
                var hit = Hit(entry: order[position], tier: .prefix)
                hit.sortedPosition = UInt32(position)
                hits.append(hit)
                return true
            }
            if !done {
                scan(
                    prefixRanks, prefixRange, nil, need: limit, tier: .prefix, offered: offered, hits: &hits,
                    spare: &spare)
            }
        }
        guard infix, hits.count < limit, !infixPositions.isEmpty else { return }
        defer {
            if everyWord && hits.count < limit {
                everyWordMatches(
                    q, length, limit: limit, hits: &hits, heap: &heap, found: &spare, words: &words, word: &word,
                    offered: offered)
            }
        }

        // Matches at inner word starts. Entries sharing a key may differ in their inner word starts (camelCase humps
        // come from the original text: "aBc" has one at "c", "abc" none), so a twin is skipped only when one of
        // its key was offered already (runs pop in rank order: that one was the best). (The check reads `hits` in
        // the closure itself: a nested function capturing it would put it in a heap box, one malloc per search.)
        let infixKeys = InfixRuns(index: self)
        let first: (Int, Int)
        var second: (Int, Int)? = nil
        let (infixStart, infixEnd) = infixSpan(q, length)
        let ilo = lowerBound(infixKeys, q, length, from: infixStart, to: infixEnd) { $0 != -1 }
        if lastWordIsPartial {
            first = (ilo, lowerBound(infixKeys, q, length, from: ilo, to: infixEnd) { $0 == 1 })
        } else {
            let iexact = lowerBound(infixKeys, q, length, from: ilo, to: infixEnd) { $0 > 0 }
            first = (ilo, iexact)
            let a = lowerBound(infixKeys, q, length + 1, from: iexact, to: infixEnd) { $0 != -1 }
            second = (a, lowerBound(infixKeys, q, length + 1, from: a, to: infixEnd) { $0 == 1 })
        }
        let earlier = hits.count
        let infixDone = topK(infixRanks, first, second, need: limit - earlier, heap: &heap) { position in
            let sorted = Int(infixPositions[position])
            let entry = order[sorted]
            guard visible(sorted) else { return false }
            for h in hits
            where h.entry == entry
                || (Self.hasTwin(twins, sorted) && Self.sameKey(keyBytes, keyOffsets, Int(h.sortedPosition), sorted))
            {
                return false
            }
            var hit = Hit(entry: entry, tier: .wordPrefix, keyOffset: infixOffsets[position])
            hit.sortedPosition = UInt32(sorted)
            hits.append(hit)
            return true
        }
        if !infixDone {
            scan(
                infixRanks, first, second, need: limit, tier: .wordPrefix, offered: visible, hits: &hits,
                spare: &spare)
        }
    }

    /// How many entries of each of the anchor word's runs the every-word step checks in vain before it stops.
    static let everyWordPatience = 128
    /// The same when the words as typed found something already (the list is not full): fewer entries are looked at.
    static let everyWordPatienceAfterHits = 32
    /// The same when the words as typed fill half of the list or more (its matches could only fill the rest).
    static let everyWordPatienceHalfFull = 8
    /// The same for a run in which only matches with typos can be found (a word starts no key word as typed), and
    /// the most entries of a run checked for typos.
    static let typoPatience = 16
    /// How many entries of a run in which only matches with typos can be found (a word starts no key word) are
    /// looked at in vain, not counting the likely ones checked (``likelyTypoMatch(_:_:_:)``).
    static let typoWalkPatience = 48
    /// The most entries of a run checked for typos that have every query word but one as typed (beyond the
    /// `typoPatience` others).
    static let likelyTypoChecks = 16

    /// The counters of the every-word step's typo checks in one run of keys: typo matches, other entries checked,
    /// likely entries checked (``likelyTypoMatch(_:_:_:)``; they do not count against the walk's patience).
    struct TypoCounts {
        var matches = 0
        var checks = 0
        var likely = 0
    }

    /// Whether every word of `q` but at most one starts a word of `key` as typed, each a different key word (longer
    /// words choose first), and the one left (if any) has its first byte at the start of a key word none took: the
    /// entries where a typo match (which keeps a word's first character) is likely.
    static func likelyTypoMatch(_ q: [UInt8], _ words: [Range<Int>], _ key: ArraySlice<UInt8>) -> Bool {
        var used: UInt64 = 0
        var assigned: UInt64 = 0
        var missing = -1
        for _ in 0..<words.count {
            let pick = EveryWord.longestUnassigned(words, assigned)
            guard pick >= 0 else { break }
            assigned |= 1 << UInt64(pick)
            if let at = EveryWord.firstWord(startingWith: q[words[pick]], in: key, from: key.startIndex, skipping: used) {
                used |= 1 << UInt64(at.index)
            } else {
                guard missing < 0 else { return false }
                missing = pick
            }
        }
        guard missing >= 0 else { return true }
        let first = q[words[missing].lowerBound]
        var index = 0
        var p = key.startIndex
        while p < key.endIndex && index < 64 {
            if key[p] == first && used & (1 << UInt64(index)) == 0 { return true }
            while p < key.endIndex && key[p] != 0x20 { p += 1 }
            p += 1
            index += 1
        }
        return false
    }

    /// The every-word step (see ``search(_:limit:infix:everyWord:exactBeyondLimit:into:)``): appends to `hits` entries that are not
    /// there yet whose key has every word of `q[0..<length]` (two or more) at the start of a word of its own.
    func everyWordMatches(
        _ q: [UInt8],
        _ length: Int,
        limit: Int,
        hits: inout [Hit],
        heap: inout [HeapItem],
        found: inout [HeapItem],
        words: inout [Range<Int>],
        word: inout [UInt8],
        offered: (Int) -> Bool
    ) {
        words.removeAll(keepingCapacity: true)
        var start = 0
        for i in 0...length where i == length || q[i] == 0x20 {
            if i > start { words.append(start..<i) }
            start = i + 1
        }
        guard words.count >= 2, words.count <= 64 else { return }
        // The anchors: the words that start the fewest key words (the first one's runs are walked; the others are
        // checked). A word that starts none may be misspelt: only typo matches are then possible, found through
        // another word, and only when that word is long enough to take a typo.
        let prefixKeys = PrefixRuns(index: self)
        let infixKeys = InfixRuns(index: self)
        typealias Anchor = (size: Int, prefix: (Int, Int), infix: (Int, Int), length: Int)
        var anchor: Anchor = (Int.max, (0, 0), (0, 0), 0)
        var second: Anchor = (Int.max, (0, 0), (0, 0), 0)
        // The two words that start the fewest inner key words: a key that has every word has all but one of them at
        // an inner word, so these two runs together hold every match, usually far fewer keys than the anchor's
        // ("g e": 105 keys for "e.g", whose "e" alone starts 6,959 keys, "e.g" the 130th by popularity).
        var inner: (first: (size: Int, run: (Int, Int)), second: (size: Int, run: (Int, Int))) =
            ((Int.max, (0, 0)), (Int.max, (0, 0)))
        var exactPossible = true
        for range in words {
            word.removeAll(keepingCapacity: true)
            word.append(contentsOf: q[range])
            let (ps, pe) = prefixSpan(word, word.count)
            let plo = lowerBound(prefixKeys, word, word.count, from: ps, to: pe) { $0 != -1 }
            let phi = lowerBound(prefixKeys, word, word.count, from: plo, to: pe) { $0 == 1 }
            let (iss, ie) = infixSpan(word, word.count)
            let ilo = lowerBound(infixKeys, word, word.count, from: iss, to: ie) { $0 != -1 }
            let ihi = lowerBound(infixKeys, word, word.count, from: ilo, to: ie) { $0 == 1 }
            let size = (phi - plo) + (ihi - ilo)
            if size == 0 {
                guard EveryWord.typoBudget(forLength: range.count) > 0 else { return }
                exactPossible = false
                continue
            }
            let innerSize = ihi - ilo
            if innerSize < inner.first.size {
                inner.second = inner.first
                inner.first = (innerSize, (ilo, ihi))
            } else if innerSize < inner.second.size {
                inner.second = (innerSize, (ilo, ihi))
            }
            if size < anchor.size {
                second = anchor
                anchor = (size, (plo, phi), (ilo, ihi), range.count)
            } else if size < second.size {
                second = (size, (plo, phi), (ilo, ihi), range.count)
            }
        }
        guard anchor.size < Int.max else { return }
        let need = limit - hits.count
        found.removeAll(keepingCapacity: true)
        let ranks = prefixRanks.values
        // Entries checked for typos in a run: at most `Self.typoPatience`, the most popular that did not match
        // without typos (`counts.checks` below).
        // Typos only when the words as typed found nothing (what an entry starts with is being typed, not misspelt).
        let typos = hits.isEmpty
        guard exactPossible || typos else { return }
        // Read by `check` as a constant (a `var` a nested function captures gets a heap box).
        let exact = exactPossible
        // A candidate: offered, not a hit already, not found already, every word in its key. `lo` holds the order:
        // 0 in order, 1 in any order, 1 + typos with typos (`hi` 1 when those are in another word order). A typo
        // match is kept but not counted as found: the entries looked at, and the matches without typos, are the same
        // as without them. Its counters are
        // `counts` (typo matches, entries checked for typos), reached through a pointer so that they are not
        // boxed on the heap.
        // The index's arrays as locals: a method of `self` called from the closures below copied the whole index
        // (a retain and a release of each of its arrays) for every entry looked at.
        let order = self.order
        let keyBytes = self.keyBytes
        let keyOffsets = self.keyOffsets
        let twins = self.twins
        func check(_ sorted: Int, _ counts: UnsafeMutablePointer<TypoCounts>) -> Bool {
            guard offered(sorted) else { return false }
            let entry = order[sorted]
            let twin = Self.hasTwin(twins, sorted)
            for h in hits
            where h.entry == entry
                || (twin && Self.sameKey(keyBytes, keyOffsets, Int(h.sortedPosition), sorted))
            {
                return false
            }
            for f in found
            where Int(f.position) == sorted || (twin && Self.sameKey(keyBytes, keyOffsets, Int(f.position), sorted)) {
                return false
            }
            let key = keyBytes[Int(keyOffsets[sorted])..<Int(keyOffsets[sorted + 1])]
            if exact, let tier = EveryWord.tier(query: q, words: words, key: key) {
                found.append(
                    HeapItem(rank: ranks[sorted], position: UInt32(sorted), lo: tier == .wordsInOrder ? 0 : 1, hi: 0))
                return true
            }
            guard typos && counts.pointee.matches < need else { return false }
            // An entry that has every word but one as typed, and the first letter of the one left, is where a typo
            // match most likely is ("cloud google compue" → google-cloud-compute): up to `Self.likelyTypoChecks`
            // such entries are checked, any other entry only among the first `Self.typoPatience` checked.
            if Self.likelyTypoMatch(q, words, key) {
                guard counts.pointee.likely < Self.likelyTypoChecks else { return false }
                counts.pointee.likely += 1
            } else {
                guard counts.pointee.checks < Self.typoPatience else { return false }
                counts.pointee.checks += 1
            }
            if let match = EveryWord.typoMatch(query: q, words: words, key: key) {
                found.append(
                    HeapItem(
                        rank: ranks[sorted], position: UInt32(sorted), lo: UInt32(1 + match.typos),
                        hi: match.inOrder ? 0 : 1))
                counts.pointee.matches += 1
                // Where no match without typos is possible, a typo match counts: the walk stops at `need`.
                return !exact
            }
            return false
        }
        // Entries are looked at most popular first, at most `Self.everyWordPatience` that do not match per run
        // (`Self.typoWalkPatience` when only typo matches are possible).
        let patience =
            !exact ? Self.typoWalkPatience
            : hits.isEmpty ? Self.everyWordPatience
            : hits.count * 2 < limit ? Self.everyWordPatienceAfterHits : Self.everyWordPatienceHalfFull
        // Every match is in the anchor's runs, and (when every word starts some key word) in the two inner runs:
        // the smaller of the two is walked. The anchor's runs are walked after the inner ones when the list may
        // still take typo matches, which need not start an inner word as typed.
        let innerFirst = exact && inner.second.size < Int.max && inner.first.size + inner.second.size < anchor.size
        var counts = TypoCounts()
        withUnsafeMutablePointer(to: &counts) { counts in
            if innerFirst {
                // Runs of prefixes are nested or disjoint: a run inside the other adds nothing.
                let (a, b) = (inner.first.run, inner.second.run)
                let runs: ((Int, Int), (Int, Int)?) =
                    a.0 <= b.0 && b.1 <= a.1 ? (a, nil) : b.0 <= a.0 && a.1 <= b.1 ? (b, nil) : (a, b)
                _ = topK(infixRanks, runs.0, runs.1, need: need, patience: patience, spared: counts, heap: &heap) {
                    check(Int(infixPositions[$0]), counts)
                }
            }
            guard !innerFirst || (typos && found.count < need) else { return }
            counts.pointee.checks = 0
            counts.pointee.likely = 0
            _ = topK(prefixRanks, anchor.prefix, nil, need: need, patience: patience, spared: counts, heap: &heap) {
                check($0, counts)
            }
            counts.pointee.checks = 0
            counts.pointee.likely = 0
            _ = topK(infixRanks, anchor.infix, nil, need: need, patience: patience, spared: counts, heap: &heap) {
                check(Int(infixPositions[$0]), counts)
            }
            // Nothing without typos: the first anchor may be the misspelt word (when long enough to take a typo);
            // look through the second one too. (When a word starts no key word, the first anchor is typed right
            // unless the query has two typos: the second one is looked through only when nothing was found.)
            if typos && found.count < (exact ? need : 1) && counts.pointee.matches == found.count
                && second.size < Int.max
                && EveryWord.typoBudget(forLength: anchor.length) > 0
            {
                counts.pointee = TypoCounts()
                let patience = exact ? Self.typoPatience : Self.typoWalkPatience
                _ = topK(prefixRanks, second.prefix, nil, need: need, patience: patience, spared: counts, heap: &heap) {
                    check($0, counts)
                }
                counts.pointee.checks = 0
                counts.pointee.likely = 0
                _ = topK(infixRanks, second.infix, nil, need: need, patience: patience, spared: counts, heap: &heap) {
                    check(Int(infixPositions[$0]), counts)
                }
            }
        }
        // In order first, then by popularity.
        for i in 1..<max(1, found.count) {
            let item = found[i]
            var j = i
            while j > 0 && (found[j - 1].lo, found[j - 1].rank) > (item.lo, item.rank) {
                found[j] = found[j - 1]
                j -= 1
            }
            found[j] = item
        }
        for item in found.prefix(need) {
            let count = item.lo > 1 ? Int(item.lo) - 1 : 0
            let tier: MatchTier = item.lo == 0 ? .wordsInOrder : count > 0 ? .typos(count) : .wordsAnyOrder
            var hit = Hit(entry: order[Int(item.position)], tier: tier)
            hit.typos = UInt8(count)
            hit.wordsOutOfOrder = count > 0 && item.hi == 1
            hit.sortedPosition = item.position
            hits.append(hit)
        }
    }

    /// Pops the best positions of up to two runs in rank order, calling `emit` until it has accepted `need`.
    /// - Returns: false when it gave up because the filter (a rare scope, many hidden entries) rejected far more
    ///   than it accepted: popping every entry costs two range queries each, so the caller then ``scan``s.
    @inline(__always)
    func topK(
        _ ranks: RangeMinimum,
        _ first: (Int, Int),
        _ second: (Int, Int)?,
        need: Int,
        patience: Int? = nil,
        spared: UnsafeMutablePointer<TypoCounts>? = nil,
        heap: inout [HeapItem],
        emit: (Int) -> Bool
    ) -> Bool {
        guard need > 0 else { return true }
        heap.removeAll(keepingCapacity: true)
        @inline(__always) func push(_ lo: Int, _ hi: Int) {
            guard lo < hi else { return }
            let p = ranks.argmin(lo, hi)
            Self.heapPush(
                &heap,
                HeapItem(rank: ranks.values[p], position: UInt32(p), lo: UInt32(lo), hi: UInt32(hi))
            )
        }
        push(first.0, first.1)
        if let second { push(second.0, second.1) }
        var accepted = 0
        var rejected = 0
        let patience = patience ?? 64 + 8 * need
        while accepted < need, let top = Self.heapPop(&heap) {
            let p = Int(top.position)
            if emit(p) {
                accepted += 1
            } else {
                rejected += 1
                // Entries checked as likely typo matches do not count against the patience.
                if rejected - (spared?.pointee.likely ?? 0) > patience { return false }
            }
            push(Int(top.lo), p)
            push(p + 1, Int(top.hi))
        }
        return true
    }

    /// The rare path of a filtered search: one pass over the runs, keeping the best accepted positions, appended
    /// to `hits` (skipping entries already there) until `hits` has `need` elements in all.
    @inline(never)
    func scan(
        _ ranks: RangeMinimum,
        _ first: (Int, Int),
        _ second: (Int, Int)?,
        need: Int,
        tier: MatchTier,
        offered: (Int) -> Bool,
        hits: inout [Hit],
        spare: inout [HeapItem]
    ) {
        let infix = tier == .wordPrefix
        // The hits still missing (an entry is kept once, however many of its inner words qualify).
        let keep = need - hits.count
        spare.removeAll(keepingCapacity: true)
        func sortedPosition(_ p: Int) -> Int { infix ? Int(infixPositions[p]) : p }
        func entry(at p: Int) -> UInt32 { order[sortedPosition(p)] }
        func visit(_ run: (Int, Int)) {
            var p = run.0
            while p < run.1 {
                let rank = ranks.values[p]
                if spare.count < keep || rank < spare[spare.count - 1].rank {
                    let e = entry(at: p)
                    let sp = sortedPosition(p)
                    if offered(sp) && !hits.contains(where: { $0.entry == e })
                        && !(infix && hasTwin(sp) && Self.sharesKey(sp, hits, spare, self, sortedPosition))
                    {
                        let item = HeapItem(rank: rank, position: UInt32(p), lo: 0, hi: 0)
                        var i = spare.count
                        spare.append(item)
                        while i > 0 && item.isBefore(spare[i - 1]) {
                            spare[i] = spare[i - 1]
                            i -= 1
                        }
                        spare[i] = item
                        if spare.count > keep { spare.removeLast() }
                    }
                }
                p += 1
            }
        }
        visit(first)
        if let second { visit(second) }
        for item in spare where hits.count < need {
            let p = Int(item.position)
            let e = entry(at: p)
            if hits.contains(where: { $0.entry == e }) { continue }
            var hit = Hit(entry: e, tier: tier, keyOffset: infix ? infixOffsets[p] : 0)
            hit.sortedPosition = UInt32(sortedPosition(p))
            hits.append(hit)
        }
    }

    /// For the infix scan (entries sharing a key may differ in their inner word starts): whether the key at sorted
    /// position `sp` is the key of a hit or of a position kept in `spare` already.
    static func sharesKey(
        _ sp: Int, _ hits: [Hit], _ spare: [HeapItem], _ index: PrefixIndex, _ sortedPosition: (Int) -> Int
    ) -> Bool {
        for h in hits where index.sameKey(Int(h.sortedPosition), sp) { return true }
        for item in spare where index.sameKey(sortedPosition(Int(item.position)), sp) { return true }
        return false
    }

    // MARK: Binary search over sorted keys

    /// The first index in `from..<to` whose key's comparison with `q[0..<length]` satisfies `isAfter` (the
    /// predicate must be false then true along the sorted order). Comparison results: -1 key < q (and q is not a
    /// prefix of it), 0 equal, 2 q is a proper prefix of the key, 1 key > q otherwise.
    @inline(__always)
    func lowerBound<R: KeyRuns>(
        _ runs: R,
        _ q: [UInt8],
        _ length: Int,
        from: Int,
        to: Int,
        isAfter: (Int) -> Bool
    ) -> Int {
        var lo = from
        var hi = to
        keyBytes.withUnsafeBufferPointer { k in
            q.withUnsafeBufferPointer { qb in
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    let (s, e) = runs.bounds(mid)
                    if isAfter(Self.compareKey(k, s, e, qb, length)) { hi = mid } else { lo = mid + 1 }
                }
            }
        }
        return lo
    }

    @inline(__always)
    static func compareKey(
        _ k: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, _ q: UnsafeBufferPointer<UInt8>, _ length: Int
    ) -> Int {
        let keyLength = e - s
        let common = min(keyLength, length)
        var i = 0
        while i < common {
            let a = k[s + i]
            let b = q[i]
            if a != b { return a < b ? -1 : 1 }
            i += 1
        }
        if keyLength == length { return 0 }
        return keyLength < length ? -1 : 2
    }

    // MARK: Heap

    @inline(__always)
    static func heapPush(_ heap: inout [HeapItem], _ item: HeapItem) {
        heap.append(item)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            if !heap[i].isBefore(heap[parent]) { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    @inline(__always)
    static func heapPop(_ heap: inout [HeapItem]) -> HeapItem? {
        guard let last = heap.popLast() else { return nil }
        if heap.isEmpty { return last }
        let top = heap[0]
        heap[0] = last
        var i = 0
        let n = heap.count
        while true {
            let l = 2 * i + 1
            if l >= n { break }
            var c = l
            if l + 1 < n && heap[l + 1].isBefore(heap[l]) { c = l + 1 }
            if !heap[c].isBefore(heap[i]) { break }
            heap.swapAt(i, c)
            i = c
        }
        return top
    }
}

/// Sorted runs of keys that a binary search walks: whole keys, or key suffixes from an inner word start.
protocol KeyRuns {
    func bounds(_ i: Int) -> (Int, Int)
}

struct PrefixRuns: KeyRuns {
    let keyOffsets: [UInt32]
    init(index: PrefixIndex) { keyOffsets = index.keyOffsets }
    @inline(__always)
    func bounds(_ i: Int) -> (Int, Int) { (Int(keyOffsets[i]), Int(keyOffsets[i + 1])) }
}

struct InfixRuns: KeyRuns {
    let keyOffsets: [UInt32]
    let positions: [UInt32]
    let offsets: [UInt16]
    init(index: PrefixIndex) {
        keyOffsets = index.keyOffsets
        positions = index.infixPositions
        offsets = index.infixOffsets
    }
    @inline(__always)
    func bounds(_ i: Int) -> (Int, Int) {
        let p = Int(positions[i])
        return (Int(keyOffsets[p]) + Int(offsets[i]), Int(keyOffsets[p + 1]))
    }
}
