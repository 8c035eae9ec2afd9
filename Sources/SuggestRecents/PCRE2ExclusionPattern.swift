#if PCRE2
    import CPCRE2

    /// An exclusion pattern compiled by PCRE2 (UTF + UCP, case-insensitive, JIT when the platform has one) with a
    /// match and depth limit: where the `PCRE2` trait is on, exclusions run on it, so that even a pattern the
    /// backtracking check lets through (`.*a.*a.*a`, polynomial) stops after a bounded amount of work.
    ///
    /// `@unchecked Sendable`: the compiled code and the match context are created in `init`, never changed, and only
    /// read by `pcre2_match`, which PCRE2 documents as safe to share between threads; each match creates its own
    /// match data. Both are freed in `deinit` (the model is the token rules' `PCRE2Pattern`).
    final class PCRE2ExclusionPattern: @unchecked Sendable {
        /// Backtracking steps one match may take; far more than an exclusion pattern needs on a 4 KB search.
        static let matchLimit: UInt32 = 100_000
        static let depthLimit: UInt32 = 2_000

        private let code: OpaquePointer
        private let matchContext: OpaquePointer

        /// nil when PCRE2 does not compile the pattern (Swift `Regex` syntax it does not know): Swift `Regex` runs it.
        init?(_ pattern: String) {
            var errorCode: Int32 = 0
            var errorOffset = 0
            let options =
                UInt32(PCRE2_UTF) | UInt32(PCRE2_UCP) | UInt32(PCRE2_CASELESS) | UInt32(PCRE2_NEVER_BACKSLASH_C)
            var copy = pattern
            let compiled = copy.withUTF8 { bytes -> OpaquePointer? in
                let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                return pcre2_compile_8(base, bytes.count, options, &errorCode, &errorOffset, nil)
            }
            guard let compiled else { return nil }
            guard let context = pcre2_match_context_create_8(nil) else {
                pcre2_code_free_8(compiled)
                return nil
            }
            _ = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE))
            pcre2_set_match_limit_8(context, Self.matchLimit)
            pcre2_set_depth_limit_8(context, Self.depthLimit)
            code = compiled
            matchContext = context
        }

        deinit {
            pcre2_match_context_free_8(matchContext)
            pcre2_code_free_8(code)
        }

        /// Whether `text` matches anywhere. A match that gives up at the limit counts as a match: the search is not
        /// remembered, the safe side for privacy.
        func matches(_ text: String) -> Bool {
            guard let matchData = pcre2_match_data_create_from_pattern_8(code, nil) else { return true }
            defer { pcre2_match_data_free_8(matchData) }
            var text = text
            let rc = text.withUTF8 { bytes -> Int32 in
                let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                return pcre2_match_8(code, base, bytes.count, 0, 0, matchData, matchContext)
            }
            return rc != PCRE2_ERROR_NOMATCH
        }
    }
#endif
