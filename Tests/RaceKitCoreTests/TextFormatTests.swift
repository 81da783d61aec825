import Testing

@testable import RaceKitOutput

@Suite struct TextFormatTests {
    @Test func markdownTablesAlignAndEscapePipes() {
        let table = TextFormat.markdownTable(
            header: ["km", "cue"], rows: [["5.00", "gel | water"], ["10.00", ""]],
            rightAligned: [0])
        #expect(
            table == """
                | km | cue |
                | ---: | --- |
                | 5.00 | gel \\| water |
                | 10.00 |  |
                """)
        #expect(TextFormat.markdownTable(header: ["a"], rows: []) == "| a |\n| --- |")
    }

    @Test func xmlTextIsEscaped() {
        #expect(TextFormat.xmlEscape("<a & \"b\">") == "&lt;a &amp; &quot;b&quot;&gt;")
        // Control characters are not allowed in XML 1.0: shown escaped.
        #expect(TextFormat.xmlEscape("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
    }

    @Test func markdownCellsCarryNoControlCharacters() {
        let table = TextFormat.markdownTable(header: ["name"], rows: [["a\r\nb|\u{1B}]0;x\u{07}"]])
        #expect(table == "| name |\n| --- |\n| a\\r\\nb\\|\\u{1B}]0;x\\u{07} |")
    }
}
