import SuggestBench
import Testing

struct TypingScriptTests {
    @Test func placeholder() {}
}
