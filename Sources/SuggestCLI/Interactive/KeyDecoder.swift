/// A key the person pressed, as `suggest interactive` understands it.
enum Key: Hashable, Sendable {
    /// Typed text: one character, or a whole bracketed paste.
    case text(String)
    case up, down, pageUp, pageDown, home, end
    case tab, enter, backspace, escape
    /// Ctrl and a letter (`control("c")`), other than the ones above (Tab is Ctrl-I, Enter Ctrl-M).
    case control(Character)
}

/// Turns the bytes a terminal sends into ``Key``s: UTF-8 text (multi-byte characters included, even when a read
/// splits one), control characters, CSI (`ESC [`) and SS3 (`ESC O`) sequences for the arrows and the editing keys
/// (with or without modifiers), and bracketed paste (`ESC [200~` … `ESC [201~`). A sequence it does not know (a
/// function key, Alt with a letter, a mouse report) is dropped whole, never typed into the field; so are invalid
/// UTF-8 bytes.
///
/// A lone ESC is the Escape key only when nothing follows it: ``decode(_:)`` keeps an unfinished sequence for the
/// next read, and ``flush()`` (called when no byte came for a short while) settles it.
struct KeyDecoder {
    /// Bytes of an unfinished character or sequence, kept for the next read.
    private(set) var pending: [UInt8] = []
    /// Inside a bracketed paste: the text so far.
    private var paste: [UInt8]? = nil

    /// The longest escape sequence kept waiting for its end; a longer one is dropped.
    static let maximumSequenceLength = 64
    static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// The keys in `bytes` (after what an earlier read left unfinished).
    mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var i = 0
        loop: while i < pending.count {
            if paste != nil {
                guard let end = Self.find(Self.pasteEnd, in: pending, from: i) else {
                    // Keep the tail that may be the start of the end marker.
                    let keep = min(pending.count - i, Self.pasteEnd.count - 1)
                    paste!.append(contentsOf: pending[i..<(pending.count - keep)])
                    i = pending.count - keep
                    break loop
                }
                paste!.append(contentsOf: pending[i..<end])
                let text = Self.pastedText(paste!)
                if !text.isEmpty { keys.append(.text(text)) }
                paste = nil
                i = end + Self.pasteEnd.count
                continue
            }
            let byte = pending[i]
            switch byte {
            case 0x1B:
                switch Self.sequence(in: pending, at: i) {
                case .incomplete:
                    break loop
                case .complete(let key, let length):
                    if key == .pasteStart {
                        paste = []
                    } else if let key = key.key {
                        keys.append(key)
                    }
                    i += length
                }
            case 0x09: keys.append(.tab); i += 1
            case 0x0D, 0x0A: keys.append(.enter); i += 1
            case 0x7F, 0x08: keys.append(.backspace); i += 1
            case 0x01...0x1A:
                keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
                i += 1
            case 0x00, 0x1C...0x1F: i += 1
            default:
                switch Self.character(in: pending, at: i) {
                case .incomplete: break loop
                case .invalid(let length): i += length
                case .character(let scalar, let length):
                    keys.append(.text(String(Character(scalar))))
                    i += length
                }
            }
        }
        pending.removeFirst(i)
        return keys
    }

    /// Settles what is still pending after a pause: a lone ESC is the Escape key; an unfinished sequence or
    /// character is dropped (an unfinished paste is kept: the rest of it is on its way).
    mutating func flush() -> [Key] {
        guard paste == nil else { return [] }
        defer { pending.removeAll() }
        return pending == [0x1B] ? [.escape] : []
    }

    // MARK: Escape sequences

    enum SequenceKey: Equatable {
        case known(Key)
        case pasteStart
        case ignored

        var key: Key? {
            if case .known(let key) = self { return key }
            return nil
        }
    }

    enum SequenceScan: Equatable {
        case incomplete
        case complete(SequenceKey, length: Int)
    }

    /// The escape sequence starting at `bytes[start]` (an ESC).
    static func sequence(in bytes: [UInt8], at start: Int) -> SequenceScan {
        let available = bytes.count - start
        guard available >= 2 else { return .incomplete }
        let introducer = bytes[start + 1]
        switch introducer {
        case UInt8(ascii: "["):
            // CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, then one final byte 0x40–0x7E.
            var j = start + 2
            while j < bytes.count, (0x20...0x3F).contains(bytes[j]) { j += 1 }
            guard j < bytes.count else {
                return j - start > maximumSequenceLength ? .complete(.ignored, length: j - start) : .incomplete
            }
            let final = bytes[j]
            let length = j - start + 1
            guard (0x40...0x7E).contains(final) else { return .complete(.ignored, length: length - 1) }
            let parameters = String(decoding: bytes[(start + 2)..<j], as: UTF8.self)
            return .complete(csi(parameters: parameters, final: final), length: length)
        case UInt8(ascii: "O"):
            // SS3: the arrows in application cursor mode (`ESC O A`), F1–F4.
            guard available >= 3 else { return .incomplete }
            let key: SequenceKey =
                switch bytes[start + 2] {
                case UInt8(ascii: "A"): .known(.up)
                case UInt8(ascii: "B"): .known(.down)
                case UInt8(ascii: "H"): .known(.home)
                case UInt8(ascii: "F"): .known(.end)
                case UInt8(ascii: "M"): .known(.enter)
                default: .ignored
                }
            return .complete(key, length: 3)
        case 0x1B:
            // ESC ESC: the first one was the Escape key, pressed twice or before a sequence.
            return .complete(.known(.escape), length: 1)
        default:
            // Alt with a key (ESC then the key's bytes): ignored, whole character included.
            if introducer < 0x80 { return .complete(.ignored, length: 2) }
            switch character(in: bytes, at: start + 1) {
            case .incomplete: return .incomplete
            case .invalid(let length), .character(_, let length): return .complete(.ignored, length: 1 + length)
            }
        }
    }

    /// A CSI sequence's key: `A`–`D`, `H`, `F` with optional modifiers (`1;5A`), `N~` for the editing keys, `Z`
    /// (Shift-Tab, ignored), `200~` (a paste starts).
    static func csi(parameters: String, final: UInt8) -> SequenceKey {
        switch final {
        case UInt8(ascii: "A"): return .known(.up)
        case UInt8(ascii: "B"): return .known(.down)
        case UInt8(ascii: "H"): return .known(.home)
        case UInt8(ascii: "F"): return .known(.end)
        case UInt8(ascii: "~"):
            switch parameters.split(separator: ";").first {
            case "200": return .pasteStart
            case "1", "7": return .known(.home)
            case "4", "8": return .known(.end)
            case "5": return .known(.pageUp)
            case "6": return .known(.pageDown)
            default: return .ignored
            }
        default: return .ignored
        }
    }

    // MARK: UTF-8

    enum CharacterScan: Equatable {
        case incomplete
        case invalid(length: Int)
        case character(Unicode.Scalar, length: Int)
    }

    /// The UTF-8 scalar starting at `bytes[start]`.
    static func character(in bytes: [UInt8], at start: Int) -> CharacterScan {
        let lead = bytes[start]
        let length: Int
        switch lead {
        case 0x00...0x7F: return .character(Unicode.Scalar(lead), length: 1)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .invalid(length: 1)
        }
        var j = start + 1
        while j < start + length {
            guard j < bytes.count else { return .incomplete }
            guard bytes[j] & 0xC0 == 0x80 else { return .invalid(length: j - start) }
            j += 1
        }
        var decoder = UTF8()
        var iterator = bytes[start..<(start + length)].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) {
            return .character(scalar, length: length)
        }
        return .invalid(length: length)
    }

    /// Pasted bytes as one line of text: invalid UTF-8 repaired, line breaks and tabs turned into spaces, other
    /// control characters dropped.
    static func pastedText(_ bytes: [UInt8]) -> String {
        var text = ""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: text.unicodeScalars.append(" ")
            case 0x00...0x1F, 0x7F: continue
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count - start >= needle.count else { return nil }
        for i in start...(bytes.count - needle.count) where bytes[i] == needle[0] {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
        }
        return nil
    }
}
