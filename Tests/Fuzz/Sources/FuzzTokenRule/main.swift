// libFuzzer target: a token rule's pattern and a typed text (the input split at its first 0x00 byte), on PCRE2 and
// on Swift Regex; a pattern either is refused with a located error or runs on the text, which is typed letter by
// letter and submitted, without a crash or a hang.
import Foundation
import Suggest

func json(_ s: String) -> String {
    String(data: try! JSONSerialization.data(withJSONObject: [s], options: [.fragmentsAllowed]), encoding: .utf8)!
        .dropFirst().dropLast().description
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenRule(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let pattern = String(decoding: bytes[..<split], as: UTF8.self)
    let text = split < bytes.count ? String(decoding: bytes[(split + 1)...], as: UTF8.self) : "from:alice #tag"
    for engine in ["pcre2", "swift"] {
        let document = """
            {"version": 1, "providers": [{"type": "tokens", "engine": "\(engine)",
              "rules": [{"kind": "k", "pattern": \(json(pattern))}]}]}
            """
        let configuration: EngineConfiguration
        do {
            configuration = try EngineConfiguration(json: document, registry: .builtIn)
        } catch {
            if error.errors.isEmpty { fatalError("an error without a message") }
            continue
        }
        let engine = configuration.makeEngine()
        var session = TypingSession()
        var typed = ""
        for character in text.prefix(64) {
            typed.append(character)
            _ = engine.suggestions(for: SearchQuery(text: typed), session: &session)
        }
        engine.submit(SearchQuery(text: typed))
    }
    return 0
}
