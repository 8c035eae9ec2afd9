/// Finds nested unbounded quantifiers — a group repeated with `*`, `+` or `{n,}` that itself contains such a
/// quantifier, like `(a+)+` or `(?:\w*\s)*` — the shape behind catastrophic backtracking. Used by the Swift `Regex`
/// engine, which has no match limit. A conservative check: it also refuses some harmless patterns
/// (`(?:\s+\w+)*`), never a pattern without nesting; possessive quantifiers (`++`, `*+`) and atomic groups
/// `(?>…)` are allowed.
enum NestedQuantifierCheck {
    /// The UTF-8 offset of the first group that repeats an unbounded quantifier, or nil.
    static func firstNestedQuantifier(in pattern: String) -> Int? {
        let bytes = Array(pattern.utf8)
        struct Frame {
            var start: Int
            var atomic: Bool
            var containsUnbounded = false
        }
        var stack: [Frame] = [Frame(start: 0, atomic: false)]
        var i = 0
        /// The length of an unbounded, non-possessive quantifier at `j` (0 if none).
        func unboundedQuantifier(at j: Int) -> (unbounded: Bool, length: Int, possessive: Bool) {
            guard j < bytes.count else { return (false, 0, false) }
            var length = 0
            var unbounded = false
            switch bytes[j] {
            case UInt8(ascii: "*"), UInt8(ascii: "+"):
                unbounded = true
                length = 1
            case UInt8(ascii: "?"):
                length = 1
            case UInt8(ascii: "{"):
                var k = j + 1
                var sawComma = false
                var afterComma = 0
                while k < bytes.count, bytes[k] != UInt8(ascii: "}") {
                    if bytes[k] == UInt8(ascii: ",") { sawComma = true } else if sawComma { afterComma += 1 }
                    k += 1
                }
                guard k < bytes.count else { return (false, 0, false) }
                unbounded = sawComma && afterComma == 0
                length = k - j + 1
            default:
                return (false, 0, false)
            }
            let next = j + length
            let possessive = next < bytes.count && bytes[next] == UInt8(ascii: "+")
            return (unbounded, length, possessive)
        }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\\"):
                i += 2
                let q = unboundedQuantifier(at: i)
                if q.unbounded && !q.possessive { stack[stack.count - 1].containsUnbounded = true }
                i += q.length
                continue
            case UInt8(ascii: "["):
                var k = i + 1
                if k < bytes.count, bytes[k] == UInt8(ascii: "^") { k += 1 }
                if k < bytes.count, bytes[k] == UInt8(ascii: "]") { k += 1 }
                while k < bytes.count, bytes[k] != UInt8(ascii: "]") {
                    k += bytes[k] == UInt8(ascii: "\\") ? 2 : 1
                }
                i = k + 1
                let q = unboundedQuantifier(at: i)
                if q.unbounded && !q.possessive { stack[stack.count - 1].containsUnbounded = true }
                i += q.length
                continue
            case UInt8(ascii: "("):
                let atomic =
                    i + 2 < bytes.count && bytes[i + 1] == UInt8(ascii: "?") && bytes[i + 2] == UInt8(ascii: ">")
                stack.append(Frame(start: i, atomic: atomic))
                i += 1
                continue
            case UInt8(ascii: ")"):
                guard stack.count > 1 else { return nil }  // Unbalanced: let the parser report it.
                let frame = stack.removeLast()
                i += 1
                let q = unboundedQuantifier(at: i)
                if q.unbounded && !q.possessive && frame.containsUnbounded && !frame.atomic { return frame.start }
                if (q.unbounded && !q.possessive) || (frame.containsUnbounded && !frame.atomic) {
                    stack[stack.count - 1].containsUnbounded = true
                }
                i += q.length
                continue
            default:
                i += 1
                let q = unboundedQuantifier(at: i)
                if q.unbounded && !q.possessive { stack[stack.count - 1].containsUnbounded = true }
                i += q.length
            }
        }
        return nil
    }
}
