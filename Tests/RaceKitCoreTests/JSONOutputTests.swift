import Foundation
import Testing

@testable import RaceKitCore

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

    @Test func roundingNeverGivesMinusZero() {
        #expect(TextFormat.rounded(-0.001, 2).sign == .plus)
        #expect(TextFormat.round(-0.0004, 3)?.sign == .plus)
        #expect(TextFormat.rounded(2.345, 1) == 2.3 && TextFormat.rounded(-2.35, 1) == -2.4)
        #expect(TextFormat.round(.nan, 1) == nil && TextFormat.round(nil, 1) == nil)
    }
}
