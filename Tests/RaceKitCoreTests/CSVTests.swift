import Testing

@testable import RaceKitOutput

@Suite struct CSVTests {
    @Test func everyRecordEndsWithCRLFTheHeaderAndTheLastToo() {
        #expect(CSV.record([.text("a"), .integer(1)]) == "a,1\r\n")
        #expect(CSV.document(header: ["a", "b"], rows: []) == "a,b\r\n")
        #expect(
            CSV.document(header: ["a", "b"], rows: [[.text("x"), .bool(true)], [.text("y"), .bool(false)]])
                == "a,b\r\nx,true\r\ny,false\r\n")
    }

    /// Swift's "\r\n" is one Character, neither "\r" nor "\n": the check must be on scalars.
    @Test func aFieldWithCRLFIsQuoted() {
        let crlf = "one\r\ntwo"
        #expect(!crlf.contains(where: { $0 == "\n" || $0 == "\r" }))   // why a Character check missed it
        #expect(CSV.text(crlf) == "\"one\r\ntwo\"")
    }

    @Test func commasQuotesAndLoneLineBreaksAreQuoted() {
        #expect(CSV.text("plain text") == "plain text")
        #expect(CSV.text("") == "")
        #expect(CSV.text("a,b") == "\"a,b\"")
        #expect(CSV.text("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSV.text("a\rb") == "\"a\rb\"")
        #expect(CSV.text("a\nb") == "\"a\nb\"")
        // A quote with a combining mark is one Character: its quote is doubled all the same.
        #expect(CSV.text("x\"\u{301}y") == "\"x\"\"\u{301}y\"")
        #expect(CSV.text("Müller 🏃") == "Müller 🏃")
    }

    @Test(arguments: ["=", "+", "-", "@", "\t", "\r"])
    func textStartingLikeAFormulaGetsAQuotePrefix(start: String) {
        let field = CSV.text(start + "1+2")
        let expected = "'" + start + "1+2"
        #expect(field == (start == "\r" ? "\"" + expected + "\"" : expected))
    }

    @Test func formulaNeutralisingThenQuoting() {
        #expect(CSV.text("=cmd|' /C calc'!A0") == "'=cmd|' /C calc'!A0")
        #expect(CSV.text("=HYPERLINK(\"http://x\",\"y\")") == "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"")
        #expect(CSV.text("-12") == "'-12")
        // Only the first character counts.
        #expect(CSV.text("a=b") == "a=b")
        #expect(CSV.text("2026-03-10") == "2026-03-10")
        #expect(CSV.text(" =1") == " =1")
    }

    @Test func numbersAreNeverNeutralised() {
        #expect(CSV.number(-12, digits: 0) == "-12")
        #expect(CSV.field(.number(-12.5, digits: 1)) == "-12.5")
        #expect(CSV.field(.integer(-3)) == "-3")
        #expect(CSV.record([.number(-12, digits: 0), .text("-12")]) == "-12,'-12\r\n")
    }

    @Test func numbersHaveFixedDigitsAPointAndNoGrouping() {
        #expect(CSV.number(12, digits: 3) == "12.000")
        #expect(CSV.number(1_234_567.891, digits: 2) == "1234567.89")
        #expect(CSV.number(0.25, digits: 0) == "0")
        #expect(CSV.number(2.5, digits: 0) == "3")
        #expect(CSV.number(-2.5, digits: 0) == "-3")
        #expect(CSV.number(42.195, digits: 3) == "42.195")
    }

    @Test func negativeZeroIsNeverPrinted() {
        #expect(CSV.number(-0.0, digits: 1) == "0.0")
        #expect(CSV.number(-0.04, digits: 1) == "0.0")
        #expect(CSV.number(-0.4, digits: 0) == "0")
    }

    @Test func unknownAndNonFiniteNumbersAreEmpty() {
        #expect(CSV.number(nil, digits: 1) == "")
        #expect(CSV.number(.nan, digits: 1) == "")
        #expect(CSV.number(.infinity, digits: 1) == "")
        #expect(CSV.number(-.infinity, digits: 0) == "")
        #expect(CSV.field(.integer(nil)) == "")
        #expect(CSV.record([.number(nil, digits: 1), .number(.nan, digits: 2), .integer(nil)]) == ",,\r\n")
    }

    @Test func controlCharactersInTextAreEscapedButTabCRAndLF() {
        #expect(CSV.text("\u{1B}]0;title\u{07}") == "\\u{1B}]0;title\\u{07}")
        #expect(CSV.text("a\u{7F}\u{9B}\u{202E}b") == "a\\u{7F}\\u{9B}\\u{202E}b")
        #expect(CSV.text("a\tb") == "a\tb")
        #expect(CSV.text("a\r\nb\u{1B}") == "\"a\r\nb\\u{1B}\"")
    }
}
