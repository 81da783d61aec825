import Foundation
import Testing

@testable import RaceKitOutput

/// RaceKit's own JSON writer (`JSONOutput`, `JSONTextEncoder`) and reader
/// (`JSONValue.parse`) against Foundation's: the writer gives the document
/// `JSONEncoder` gives (the texts may differ in layout), and the reader accepts
/// and refuses what `JSONSerialization` does, reading the same values.
@Suite struct JSONFoundationTests {
    enum Kind: String, Encodable { case easy, longRun = "long run" }

    struct Leaf: Encodable {
        var name: String
        var value: Double
        var count: Int
        var flag: Bool
        var optional: Int?
        var kind: Kind
    }

    struct Tree: Encodable {
        var leaves: [Leaf]
        var matrix: [[Double]]
        var byName: [String: Leaf]
        var empty: [Int]
        var emptyObject: [String: String]
        var missing: Leaf?
        var present: Leaf?
        var ints: [Int]
        var small: [Int8]
        var unsigned: [UInt64]
        var widths: Widths
        var floats: [Float]
        var texts: [String]
        @Null var unknown: Double?
        @Null var known: Double?
    }

    /// One of every integer width at its extremes (they once overflowed the writer's stack).
    struct Widths: Encodable {
        var i8 = [Int8.min, Int8.max], i16 = [Int16.min, Int16.max], i32 = [Int32.min, Int32.max]
        var i64 = [Int64.min, Int64.max], u8 = [UInt8.max], u16 = [UInt16.max], u32 = [UInt32.max]
        var u = [UInt.max], u64 = [UInt64.max]
    }

    /// Every control character, the characters JSON must escape, and text
    /// outside ASCII (accents, CJK, emoji with a joiner, line separators).
    /// (U+FEFF before the line separators: Foundation's JSONSerialization drops a
    /// U+FEFF that follows an escape, and the separators are written escaped.)
    static let texts: [String] = [
        "", "plain", "quote \" backslash \\ slash /", "tab\tnew\nline\rreturn",
        String((0..<0x20).map { Character(Unicode.Scalar($0)) }) + "\u{7F}",
        "Müller · Zürich – café", "東京マラソン", "🏃‍♀️ 42.195 km 🎉", "\u{FEFF}\u{FFFF}\u{2028}\u{2029}",
        "</script>", "a\u{0}b"
    ]

    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 0.5, 1.0 / 3, 2.5e-8, 1e-300, 5e-324, 2.2250738585072014e-308, 1e21, 1e22, 123_456_789.125,
        -98_765.4321, 1.7976931348623157e308, -1.7976931348623157e308, 4.35, 42_195, 9_007_199_254_740_993
    ]

    static func tree() -> Tree {
        let leaves = doubles.enumerated().map { k, d in
            Leaf(
                name: texts[k % texts.count], value: d, count: k * 1_000_003 - 7, flag: k % 2 == 0,
                optional: k % 3 == 0 ? nil : -k, kind: k % 2 == 0 ? .easy : .longRun)
        }
        return Tree(
            leaves: leaves, matrix: [doubles, [], [0.25]],
            byName: Dictionary(uniqueKeysWithValues: texts.enumerated().map { ($1, leaves[$0]) }), empty: [],
            emptyObject: [:], missing: nil, present: leaves[3],
            ints: [Int.min, Int.min + 1, -1, 0, 1, Int(Int32.max), Int.max], small: [Int8.min, 0, Int8.max],
            unsigned: [0, UInt64(Int64.max), UInt64.max], widths: Widths(),
            floats: [0, -0.0, 0.1, 1.5, -2.25e-8, 3.4e38, 16_777_217, .leastNonzeroMagnitude], texts: texts,
            unknown: nil, known: -0.0)
    }

    static func foundation<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    static func parsed(_ data: Data) throws -> NSObject {
        try #require(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? NSObject)
    }

    @Test func theWriterGivesFoundationsDocument() throws {
        let ours = try JSONOutput.string(Self.tree())
        let theirs = try Self.foundation(Self.tree())
        let a = try Self.parsed(Data(ours.utf8)), b = try Self.parsed(theirs)
        #expect(a.isEqual(b), "\(ours.prefix(400))")
        // Every double and integer reads back exactly (isEqual compares NSNumbers loosely).
        #expect(Self.numbers(a) == Self.numbers(b))
        #expect(Self.numbers(a).count > 100)
    }

    /// Integers of every width and Floats alone at the top of a document.
    @Test func everyIntegerWidthAndFloatIsWritten() throws {
        #expect(try JSONOutput.string([UInt64.max]) == "[\n  18446744073709551615\n]")
        #expect(try JSONOutput.string([Int8.min]) == "[\n  -128\n]")
        #expect(try JSONOutput.string(["f": Float(0.1)]) == "{\n  \"f\" : 0.1\n}")
        #expect(throws: EncodingError.self) { try JSONOutput.string([Float.nan]) }
        let w = Widths()
        #expect(try Self.parsed(Data(try JSONOutput.string(w).utf8)).isEqual(try Self.parsed(try Self.foundation(w))))
    }

    /// Scalars and containers at the top level, each compared alone.
    @Test(arguments: 0..<doubles.count)
    func eachDoubleIsTheSameNumber(_ k: Int) throws {
        let d = Self.doubles[k]
        let text = try JSONOutput.string([d])
        let ours = try Self.parsed(Data(text.utf8))
        let theirs = try Self.parsed(try Self.foundation([d]))
        #expect(Self.numbers(ours) == Self.numbers(theirs), "\(d): \(text)")
        // And the text reads back as the same Double, to the bit (the sign of zero too).
        let back = try JSONValue.parse(Array(text.utf8))
        // Negative zero is written 0, as JSONSerialization reads Foundation's "-0" (no "-0" in an output).
        #expect(back == .array([.number(d)]) && Self.bits(back) == [d == 0 ? 0.0.bitPattern : d.bitPattern], "\(d)")
    }

    @Test(arguments: texts)
    func eachStringIsTheSameString(_ s: String) throws {
        let ours = try JSONOutput.string(["k": s])
        #expect(try Self.parsed(Data(ours.utf8)).isEqual(try Self.parsed(try Self.foundation(["k": s]))))
        #expect(try JSONValue.parse(Array(ours.utf8)) == .object(Self.object(["k": .string(s)])))
        // Control characters never appear raw in the text.
        #expect(!ours.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    /// Every number of a parsed document as (bit pattern of its double, its integer value when exact).
    static func numbers(_ o: Any) -> [String] {
        switch o {
        case let n as NSNumber:
            return ["\(n.doubleValue.bitPattern)/\(n.stringValue)"]
        case let a as [Any]: return a.flatMap(numbers)
        case let d as [String: Any]: return d.keys.sorted().flatMap { numbers(d[$0]!) }
        default: return []
        }
    }

    static func bits(_ v: JSONValue) -> [UInt64] {
        switch v {
        case .number(let d): [d.bitPattern]
        case .array(let a): a.flatMap(bits)
        case .object(let o): o.keys.flatMap { bits(o.values[$0]!) }
        default: []
        }
    }

    static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONObject {
        var o = JSONObject()
        for (k, v) in members {
            o.keys.append(k)
            o.values[k] = v
        }
        return o
    }
}

/// The reader against JSONSerialization: the same documents accepted, the same refused.
@Suite struct JSONReaderFoundationTests {
    static let valid: [String] = [
        "{}", "[]", "null", "true", "false", "0", "-0", "-0.0", "1e3", "1E+3", "1e-3", "-12.5e-1", "123456789012",
        "9223372036854775807", "-9223372036854775808", "18446744073709551615", "1.7976931348623157e308",
        "5e-324", "0.1", "\"\"", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "\"\\u00e9\\u6771\\ud83c\\udfc3\"",
        "\"Müller 東京 🏃\"", " \t\r\n[ 1 , 2 ]\n", "[[[[[]]]]]", "{\"a\":{\"b\":[1,{\"c\":null}]}}",
        "[1,\"x\",true,null,{},[]]", "{\"k\":1,\"k\":2}", "{\"\":0}", "[-1.5E-10]", "\"\\u0000\"", "\"\\u001f\""
    ]

    static let invalid: [String] = [
        "", " ", "{", "}", "[", "]", "[,1]", "{,}", "{\"a\"}", "{\"a\" 1}", "{a:1}",
        "{'a':1}", "['x']", "01", "-", "+1", ".5", "1.", "1.e3", "1e", "1e+", "0x10", "NaN", "Infinity",
        "-Infinity", "tru", "nul", "True", "[1 2]", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"tab\there\"",
        "\"line\nbreak\"", "[1]]", "{} {}", "1 2", "[\"a\"\u{0}]", "//c\n1", "/*c*/1", "1e400", "-1e400"
    ]

    /// Trailing commas: not JSON (RFC 8259), refused by the reader; Foundation
    /// on Linux accepts them (not asserted, it may change).
    static let trailingCommas = ["[1,]", "{\"a\":1,}", "[[],]", "{\"a\":[1,],\"b\":2}"]

    @Test(arguments: trailingCommas)
    func refusesTrailingCommasAsRFC8259Does(_ text: String) {
        #expect(!Self.oursAccepts(text), "JSONValue accepts \(text.debugDescription)")
    }

    static func foundationAccepts(_ text: String) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil
    }

    static func oursAccepts(_ text: String) -> Bool { (try? JSONValue.parse(Array(text.utf8))) != nil }

    @Test(arguments: valid)
    func acceptsWhatFoundationAccepts(_ text: String) throws {
        #expect(Self.foundationAccepts(text), "Foundation refuses \(text.debugDescription)")
        let ours = try JSONValue.parse(Array(text.utf8))
        let theirs = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? NSObject)
        #expect(Self.foundationObject(ours).isEqual(theirs), "\(text.debugDescription): \(ours)")
    }

    @Test(arguments: invalid)
    func refusesWhatFoundationRefuses(_ text: String) {
        #expect(!Self.foundationAccepts(text), "Foundation accepts \(text.debugDescription)")
        #expect(!Self.oursAccepts(text), "JSONValue accepts \(text.debugDescription)")
    }

    /// Deeply nested: both refuse past 512 levels and accept 512.
    @Test func nestingLimitIsFoundations() {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(Self.oursAccepts(ok) == Self.foundationAccepts(ok))
        #expect(Self.oursAccepts(deep) == Self.foundationAccepts(deep))
    }

    /// Invalid UTF-8 inside a string is refused by both.
    @Test func invalidUTF8IsRefused() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
            let foundation = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
            #expect(!foundation && (try? JSONValue.parse(bytes)) == nil, "\(bytes)")
        }
    }

    static func foundationObject(_ v: JSONValue) -> NSObject {
        switch v {
        case .null: return NSNull()
        case .bool(let b): return NSNumber(value: b)
        case .number(let d): return NSNumber(value: d)
        case .string(let s): return NSString(string: s)
        case .array(let a): return NSArray(array: a.map(foundationObject))
        case .object(let o):
            return NSDictionary(
                dictionary: Dictionary(uniqueKeysWithValues: o.keys.map { ($0, foundationObject(o[$0]!)) }))
        }
    }
}
