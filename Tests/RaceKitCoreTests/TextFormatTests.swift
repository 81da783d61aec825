import Testing

@testable import RaceKitCore

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

    @Test func csvFieldsAndXMLTextAreQuoted() {
        #expect(TextFormat.csvField("plain") == "plain")
        #expect(TextFormat.csvField("a,\"b\"") == "\"a,\"\"b\"\"\"")
        #expect(TextFormat.xmlEscape("<a & \"b\">") == "&lt;a &amp; &quot;b&quot;&gt;")
    }
}
