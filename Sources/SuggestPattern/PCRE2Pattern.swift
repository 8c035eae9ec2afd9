#if PCRE2
    import CPCRE2
    import SuggestCore
    import Synchronization

    /// A pattern compiled by PCRE2 (libpcre2-8): UTF + UCP, JIT-compiled when the platform has a JIT,
    /// matched with a match context that carries the match and depth limits.
    ///
    /// `@unchecked Sendable`: the compiled code and the match context are created in `init`, never changed afterwards
    /// and only read by `pcre2_match`/`pcre2_jit_match`, which PCRE2 documents as safe to share between threads; the
    /// mutable part of matching (the match data) is used by one call at a time: the pattern keeps one match data that a
    /// call takes with an atomic flag, and a call that finds it taken (another thread is matching) creates its own.
    /// The code, the context and the kept match data are freed in `deinit`.
    final class PCRE2Pattern: CompiledPattern, @unchecked Sendable {
        let source: String
        private let code: OpaquePointer
        private let matchContext: OpaquePointer
        /// Whether JIT compilation succeeded (then `pcre2_jit_match` is used).
        let isJIT: Bool
        /// Capture group numbers of `value` and `kind`, 0 when absent.
        private let valueGroup: Int
        private let kindGroup: Int
        /// Capture groups + 1 (the ovector's pairs).
        private let ovectorPairs: UInt32
        /// Match data for one call at a time (saves a malloc per call); `matchDataInUse` says it is taken.
        private let matchData: OpaquePointer
        private let matchDataInUse = Atomic<Bool>(false)

        init(_ pattern: String, options patternOptions: PatternOptions = [], limits: PatternLimits) throws(PatternError) {
            source = pattern
            var errorCode: Int32 = 0
            var errorOffset = 0
            // NEVER_BACKSLASH_C: `\C` matches one byte even inside a UTF-8 character, so a match (and the text
            // moved into a token) could split a character and corrupt the person's text: refuse it at compile time.
            var options = UInt32(PCRE2_UTF) | UInt32(PCRE2_UCP) | UInt32(PCRE2_NEVER_BACKSLASH_C)
            if patternOptions.contains(.caseInsensitive) { options |= UInt32(PCRE2_CASELESS) }
            var patternCopy = pattern
            let compiled = patternCopy.withUTF8 { bytes -> OpaquePointer? in
                // An empty buffer may have a nil base address; PCRE2 accepts any pointer with length 0.
                let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                return pcre2_compile_8(base, bytes.count, options, &errorCode, &errorOffset, nil)
            }
            guard let compiled else {
                throw PatternError(.compile, Self.message(for: errorCode), offset: errorOffset)
            }
            code = compiled
            // `(*NO_JIT)` in the pattern makes the JIT compile a successful no-op: only JIT code that exists may be
            // run by `pcre2_jit_match` (which fails with "bad JIT option" otherwise); the interpreter runs the rest.
            var jitSize = 0
            isJIT = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
                && pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_JITSIZE), &jitSize) == 0 && jitSize > 0
            guard let context = pcre2_match_context_create_8(nil) else {
                pcre2_code_free_8(compiled)
                throw PatternError(.compile, "out of memory creating a PCRE2 match context")
            }
            pcre2_set_match_limit_8(context, limits.matchLimit)
            pcre2_set_depth_limit_8(context, limits.depthLimit)
            matchContext = context
            var captures: UInt32 = 0
            pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &captures)
            ovectorPairs = captures + 1
            valueGroup = Self.groupNumber("value", in: compiled)
            kindGroup = Self.groupNumber("kind", in: compiled)
            guard let data = pcre2_match_data_create_8(captures + 1, nil) else {
                pcre2_match_context_free_8(context)
                pcre2_code_free_8(compiled)
                throw PatternError(.compile, "out of memory creating PCRE2 match data")
            }
            matchData = data
        }

        deinit {
            pcre2_match_data_free_8(matchData)
            pcre2_match_context_free_8(matchContext)
            pcre2_code_free_8(code)
        }

        func appendMatches(
            in text: String,
            utf8Range range: Range<Int>,
            to matches: inout [PatternMatch]
        ) throws(PatternError) {
            let matchData: OpaquePointer
            if matchDataInUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                matchData = self.matchData
            } else {
                guard let own = pcre2_match_data_create_8(ovectorPairs, nil) else {
                    throw PatternError(.matchFailed, "out of memory creating PCRE2 match data")
                }
                matchData = own
            }
            defer {
                if matchData == self.matchData {
                    matchDataInUse.store(false, ordering: .releasing)
                } else {
                    pcre2_match_data_free_8(matchData)
                }
            }
            var text = text
            let failure: PatternError? = text.withUTF8 { buffer in
                guard let base = buffer.baseAddress else { return nil }
                return find(
                    in: base + range.lowerBound,
                    length: range.count,
                    offset: range.lowerBound,
                    matchData,
                    &matches
                )
            }
            if let failure { throw failure }
        }

        /// Whether the pattern matches anywhere in `text`; a match that fails (its limit reached, no memory) counts
        /// as a match, the safe side for a filter.
        func matchesAnywhere(_ text: String) -> Bool {
            guard let matchData = pcre2_match_data_create_8(ovectorPairs, nil) else { return true }
            defer { pcre2_match_data_free_8(matchData) }
            var text = text
            let rc = text.withUTF8 { bytes -> Int32 in
                let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                return pcre2_match_8(code, base, bytes.count, 0, UInt32(PCRE2_NO_UTF_CHECK), matchData, matchContext)
            }
            return rc != PCRE2_ERROR_NOMATCH
        }

        /// All matches in `subject[0..<length]`; offsets are reported shifted by `offset`.
        private func find(
            in subject: UnsafePointer<UInt8>,
            length: Int,
            offset: Int,
            _ matchData: OpaquePointer,
            _ matches: inout [PatternMatch]
        ) -> PatternError? {
            let ovector = pcre2_get_ovector_pointer_8(matchData)!
            var start = 0
            var options = UInt32(PCRE2_NO_UTF_CHECK)
            while start <= length {
                let rc: Int32
                if isJIT {
                    rc = pcre2_jit_match_8(code, subject, length, start, options, matchData, matchContext)
                } else {
                    rc = pcre2_match_8(code, subject, length, start, options, matchData, matchContext)
                }
                if rc == PCRE2_ERROR_NOMATCH {
                    if options & UInt32(PCRE2_NOTEMPTY_ATSTART) == 0 { break }
                    // The retry after an empty match failed: advance one code point and search on.
                    start += 1
                    while start < length && UTF8Scalars.isContinuation(subject[start]) { start += 1 }
                    options = UInt32(PCRE2_NO_UTF_CHECK)
                    continue
                }
                if rc < 0 { return error(for: rc) }
                let lower = ovector[0]
                let upper = ovector[1]
                matches.append(
                    PatternMatch(
                        range: (lower + offset)..<(upper + offset),
                        value: group(valueGroup, ovector, rc, offset),
                        kind: group(kindGroup, ovector, rc, offset)
                    )
                )
                start = upper
                options = UInt32(PCRE2_NO_UTF_CHECK)
                if lower == upper {
                    if upper == length { break }
                    options |= UInt32(PCRE2_NOTEMPTY_ATSTART) | UInt32(PCRE2_ANCHORED)
                }
            }
            return nil
        }

        @inline(__always)
        private func group(
            _ number: Int,
            _ ovector: UnsafeMutablePointer<Int>,
            _ rc: Int32,
            _ offset: Int
        ) -> Range<Int>? {
            guard number > 0, number < Int(rc) else { return nil }
            let lower = ovector[2 * number]
            let upper = ovector[2 * number + 1]
            // An unset group reads as PCRE2_UNSET (-1 as a signed size).
            guard lower >= 0, upper >= lower else { return nil }
            return (lower + offset)..<(upper + offset)
        }

        private func error(for rc: Int32) -> PatternError {
            switch rc {
            case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT, PCRE2_ERROR_JIT_STACKLIMIT:
                return PatternError(
                    .matchLimit,
                    "pattern \"\(source)\" gave up: \(Self.message(for: rc)) (catastrophic backtracking?)"
                )
            default:
                return PatternError(.matchFailed, "pattern \"\(source)\": \(Self.message(for: rc)) (PCRE2 error \(rc))")
            }
        }

        static func message(for code: Int32) -> String {
            var buffer = [UInt8](repeating: 0, count: 256)
            let length = buffer.withUnsafeMutableBufferPointer { pcre2_get_error_message_8(code, $0.baseAddress, 256) }
            guard length > 0 else { return "PCRE2 error \(code)" }
            return String(decoding: buffer[0..<Int(length)], as: UTF8.self)
        }

        static func groupNumber(_ name: String, in code: OpaquePointer) -> Int {
            var name = name
            let number = name.withUTF8 { bytes -> Int32 in
                // The name must be NUL-terminated.
                let terminated = Array(bytes) + [0]
                return terminated.withUnsafeBufferPointer { pcre2_substring_number_from_name_8(code, $0.baseAddress) }
            }
            return number > 0 ? Int(number) : 0
        }
    }
#endif
