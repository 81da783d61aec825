import Foundation
import Testing

@testable import RaceKitFormats
@testable import RaceKitModel

private func read(_ text: String) throws -> AppleHealthExport {
    try AppleHealthReader.read(MemoryByteStream(name: "export.xml", bytes: Array(text.utf8)))
}

private let body = """
    <HealthData locale="en_US">
     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2019-07-01 07:00:00 +0200" endDate="2019-07-01 07:00:00 +0200" value="120"/>
    </HealthData>

    """

/// The DTD rules: Apple's element-and-attribute subset accepted (malformed or not),
/// any entity and any external subset refused with the file and line.
@Suite struct AppleHealthDTDTests {
    @Test func acceptsAnInternalSubsetWithAnAttlistMissingItsClosingBracket() throws {
        let export = try read(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ATTLIST VisionPrescription
              type CDATA #REQUIRED
            <!ELEMENT RightEye EMPTY>
            ]>

            """ + body)
        #expect(export.heartRateCount == 1)
    }

    @Test func refusesAnEntityDeclarationWithItsLine() {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData ANY>
            <!ENTITY lol "lollollol">
            ]>

            """ + body
        #expect(throws: HealthExportError.entityDeclared(file: "export.xml", line: 4)) { try read(text) }
        let error = HealthExportError.entityDeclared(file: "export.xml", line: 4)
        #expect(error.description.hasPrefix("export.xml:4: the export's DTD declares an entity"))
        #expect(error.exitClass == .dataError)
    }

    @Test(arguments: ["<!ENTITY % p \"x\">", "<!entity x \"y\">", "<!ELEMENT a (%p;)>"])
    func refusesParameterEntitiesAndAnySpelling(_ declaration: String) {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n\(declaration)\n]>\n" + body
        #expect(throws: HealthExportError.entityDeclared(file: "export.xml", line: 3)) { try read(text) }
    }

    @Test(arguments: [
        "<!DOCTYPE HealthData SYSTEM \"http://example.com/evil.dtd\">",
        "<!DOCTYPE HealthData PUBLIC \"-//x//y\" \"file:///etc/passwd\" [ ]>"
    ])
    func refusesAnExternalSubset(_ doctype: String) {
        let text = "<?xml version=\"1.0\"?>\n\n\(doctype)\n" + body
        #expect(throws: HealthExportError.externalSubset(file: "export.xml", line: 3)) { try read(text) }
    }

    @Test func findsAnEntityFarPastTheFirstChunk() {
        let comments = String(repeating: "<!-- padding padding padding padding padding padding -->\n", count: 3000)
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n\(comments)<!ENTITY x \"y\">\n]>\n" + body
        #expect(throws: HealthExportError.entityDeclared(file: "export.xml", line: 3003)) { try read(text) }
    }

    @Test func aLongSubsetWithoutEntitiesIsAccepted() throws {
        let comments = String(repeating: "<!ATTLIST Record type CDATA #REQUIRED>\n", count: 5000)
        let export = try read("<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n\(comments)]>\n" + body)
        #expect(export.heartRateCount == 1)
    }

    @Test func keepsLineNumbersAfterBlankingTheSubset() {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData ANY>
            ]>
            <HealthData>
             <Record type="x" value="1">
            </HealthData>

            """
        do {
            _ = try read(text)
            Issue.record("a mismatched tag was accepted")
        } catch let error as FormatError {
            #expect(error.line == 7)
            #expect(error.file == "export.xml")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anUndeclaredEntityReferenceIsMalformed() {
        let text = "<?xml version=\"1.0\"?>\n<HealthData>&lol;</HealthData>\n"
        #expect(throws: FormatError.self) { try read(text) }
    }

    @Test func aSecondDoctypeAfterTheRootIsMalformed() {
        let text = "<?xml version=\"1.0\"?>\n<HealthData/>\n<!DOCTYPE HealthData [<!ENTITY x \"y\">]>\n"
        #expect(throws: FormatError.self) { try read(text) }
    }

    @Test func anUnterminatedSubsetIsRefused() {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT a EMPTY>\n"
        #expect(
            throws: HealthExportError.malformedDoctype(
                file: "export.xml", line: 2, message: "the declaration never ends")
        ) {
            try read(text)
        }
    }

    @Test func refusesAnotherRootElement() {
        let text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"/>\n"
        #expect(throws: HealthExportError.notAnExport(file: "export.xml", root: "gpx")) { try read(text) }
    }

    @Test func replacesControlCharactersWithASpace() throws {
        let text = "<?xml version=\"1.0\"?>\n<HealthData a=\"x\u{0B}y\u{0C}\u{01}\">\u{0B}</HealthData>\n"
        let export = try read(text)
        #expect(export.issues.replacedBytes == 4)
        var bytes: [UInt8] = Array("ab\u{0B}\tcdefghij\u{1F}k\n\r".utf8)
        let n = bytes.withUnsafeMutableBufferPointer { AppleHealthByteFilter.replaceIllegal($0.baseAddress!, $0.count) }
        #expect(n == 2)
        #expect(String(decoding: bytes, as: UTF8.self) == "ab \tcdefghij k\n\r")
    }

    static let dates: [(String, Int64?)] = [
        ("2019-07-01 07:00:00 +0200", 1_561_957_200),
        ("2019-07-01 07:00:00 -0330", 1_561_977_000),
        ("2019-07-01 07:00:00 +05:30", 1_561_944_600),
        ("  2019-07-01 05:00:00 Z ", 1_561_957_200),
        ("2020-02-29 00:00:00 +0000", 1_582_934_400),
        ("2019-02-29 07:00:00 +0200", nil),
        ("2019-07-01 24:00:00 +0200", nil),
        ("2019-07-01 07:00:60 +0200", nil),
        ("2019-13-01 07:00:00 +0200", nil),
        ("1900-07-01 07:00:00 +0200", nil),
        ("9999-07-01 07:00:00 +0200", nil),
        ("2019-07-01 07:00:00 +1900", nil),
        ("2019-07-01 07:00:00 +0260", nil),
        ("2019-07-01 07:00:00", nil),
        ("2019-07-01 07:00:00 +0200x", nil),
        ("2019-07-01T07:00:00+0200x", nil),
        ("2019-7-1 7:00:00 +0200", nil),
        ("", nil),
        ("２０１９-07-01 07:00:00 +0200", nil)
    ]

    @Test(arguments: dates)
    func parsesApplesDatesAndRefusesHostileOnes(_ text: String, _ expected: Int64?) {
        #expect(AppleHealthDate.parse(text) == expected)
    }
}
