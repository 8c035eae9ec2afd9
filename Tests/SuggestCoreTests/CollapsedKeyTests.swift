@testable import SuggestCore
import Testing

/// The key recent searches are deduplicated by and vocabulary words looked up by.
struct CollapsedKeyTests {
    @Test(arguments: [
        ("  New   York ", "new york"),
        ("Café", "cafe"),
        ("ＦＵＬＬ width", "full width"),
        ("a\tb", "a b"),
        ("", ""),
        ("   ", ""),
        ("new-york", "new-york"),
    ])
    func foldsTrimsAndCollapsesSpaces(text: String, key: String) {
        #expect(String(decoding: TextNormalizer.collapsedKey(text), as: UTF8.self) == key)
    }
}
