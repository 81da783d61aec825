import Foundation
import Testing

@testable import RaceKitMetrics
@testable import RaceKitOutput

@Suite struct JSONOutputTests {
    struct Sample: Encodable {
        var list: [Int]
        var empty: [String]
        var nested: [String: [Int]]
        @Null var unknown: Double?
        @Null var infinite: Double?
        var text: String
    }

    @Test func keysSortedNullsKeptEmptyContainersOnOneLine() throws {
        let s = Sample(list: [1], empty: [], nested: ["a": []], unknown: nil, infinite: .infinity, text: "[\n\n]")
        let out = try JSONOutput.string(s)
        #expect(
            out == """
                {
                  "empty" : [],
                  "infinite" : null,
                  "list" : [
                    1
                  ],
                  "nested" : {
                    "a" : []
                  },
                  "text" : "[\\n\\n]",
                  "unknown" : null
                }
                """)
        #expect(try JSONOutput.string([String: Int]()) == "{}")
    }

    /// Text from files goes out with DEL, the C1 controls, the line separators
    /// and the bidirectional controls escaped (`DisplayText` escapes the same on
    /// a terminal); every other character as it is, and the text reads back the same.
    @Test func controlAndBidiCharactersAreEscaped() throws {
        let text = "a\u{7F}b\u{85}c\u{9F}d\u{2028}e\u{202E}f\u{2066}g\u{2069}h °→′é 🏃 \u{A0}\u{200D}"
        let out = try JSONOutput.string(["name": text])
        #expect(
            out
                == "{\n  \"name\" : \"a\\u007fb\\u0085c\\u009fd\\u2028e\\u202ef\\u2066g\\u2069h °→′é 🏃 \u{A0}\u{200D}\"\n}"
        )
        let back = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: String]
        #expect(back?["name"] == text)
    }

    @Test func roundingNeverGivesMinusZero() {
        #expect(TextFormat.rounded(-0.001, 2).sign == .plus)
        #expect(TextFormat.round(-0.0004, 3)?.sign == .plus)
        #expect(TextFormat.rounded(2.345, 1) == 2.3 && TextFormat.rounded(-2.35, 1) == -2.4)
        #expect(TextFormat.round(.nan, 1) == nil && TextFormat.round(nil, 1) == nil)
    }

    struct Flat: FlatSortedEncodable {
        var a: Int
        @Null var b: String?
        var c: Double
        var d: Sex
        @Null var e: Double?
    }

    struct Unsorted: FlatSortedEncodable {
        var z: Int
        var a: Int
    }

    /// The one-pass writer gives exactly what the general path gives, and an
    /// unsorted or nested value falls back to it.
    @Test func flatObjectsWriteInOnePassTheSameText() throws {
        let values = [Flat(a: 1, b: nil, c: 2.5, d: .female, e: .nan), Flat(a: -3, b: "x\"y", c: 1e20, d: .male, e: 4)]
        let out = try JSONOutput.string(values)
        #expect(
            out == """
                [
                  {
                    "a" : 1,
                    "b" : null,
                    "c" : 2.5,
                    "d" : "female",
                    "e" : null
                  },
                  {
                    "a" : -3,
                    "b" : "x\\"y",
                    "c" : 1e+20,
                    "d" : "male",
                    "e" : 4
                  }
                ]
                """)
        #expect(throws: NotFlat.self) { _ = try flatObject(Unsorted(z: 1, a: 2), indent: 0) }
        #expect(try JSONOutput.string(Unsorted(z: 1, a: 2)) == "{\n  \"a\" : 2,\n  \"z\" : 1\n}")
    }
}
