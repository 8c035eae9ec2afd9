@testable import SuggestCore
import Testing

/// Edit distance with transpositions: whole strings (nearest-key hints) and prefixes (typo matching in PostgreSQL).
struct EditDistanceTests {
    func distance(_ a: String, _ b: String) -> Int {
        EditDistance.distance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    func prefix(_ query: String, _ text: String, _ maximum: Int = 2) -> Int? {
        EditDistance.prefix(Array(query.unicodeScalars), of: Array(text.unicodeScalars), maximum: maximum)?.distance
    }

    @Test func wholeStrings() {
        #expect(distance("", "") == 0)
        #expect(distance("", "abc") == 3)
        #expect(distance("abc", "") == 3)
        #expect(distance("limt", "limit") == 1)
        #expect(distance("pyhton", "python") == 1)  // a transposition counts once
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("ca", "abc") == 3)  // optimal string alignment: no edit of a swapped pair
        #expect(distance("café", "cafe") == 1)
    }

    @Test func prefixes() {
        #expect(prefix("tenserflow", "tensorflow-io") == 1)
        #expect(prefix("pyhton", "python") == 1)
        #expect(prefix("numpyy", "numpy") == 1)
        #expect(prefix("reqeusts", "requests") == 1)
        #expect(prefix("requests", "requests-oauthlib") == 0)
        #expect(prefix("abcdef", "uvwxyz") == nil)
        #expect(prefix("", "anything") == 0)
        #expect(EditDistance.prefix(Array("pyt".unicodeScalars), of: Array("python".unicodeScalars), maximum: 0)!
            == (0, 3))
    }

    @Test func theNearestKeyHintUsesIt() {
        #expect(NearestName.nearest(to: "limt", in: ["limit", "version"]) == "limit")
        #expect(NearestName.nearest(to: "zzzzzz", in: ["limit", "version"]) == nil)
    }

    @Test func aFileNameIsNearOnlyWhenItsNameWithoutTheExtensionIs() {
        #expect(NearestName.nearestFile(to: "wrods.tsv", in: ["bom.json", "words.tsv"]) == "words.tsv")
        #expect(NearestName.nearestFile(to: "confg.json", in: ["config.json"]) == "config.json")
        // The shared extension is most of the likeness: no hint.
        #expect(NearestName.nearestFile(to: "nope.json", in: ["bom.json"]) == nil)
        #expect(NearestName.nearest(to: "nope.json", in: ["bom.json"]) == "bom.json")
    }
}
