import Foundation
import Testing

/// Names from files that try to drive the terminal or a spreadsheet: an unpacked
/// Strava export whose activities.csv names one run with escape sequences (window
/// title, bell, clear screen), one with a spreadsheet formula and one with a CRLF
/// line break; a GPX creator holding a C1 CSI and a bidi override; a file name
/// holding an escape sequence that fails to import.
@Suite struct HostileTextCLITests {
    static let titleAndClear = "\u{1B}]0;pwned\u{07}\u{1B}[2JTempo"
    static let formula = "=cmd|' /C calc'!A0"
    static let crlfName = "one\r\ntwo, \"q\""
    static let creator = "Watch\u{9B}31m\u{202E}X"

    static func gpx(day: Int, creator: String = "Garmin Connect") -> String {
        """
        <?xml version="1.0"?><gpx version="1.1" creator="\(creator)" xmlns="http://www.topografix.com/GPX/1/1">
        <trk><name>Easy</name><type>running</type><trkseg>
        <trkpt lat="48.1" lon="11.5"><time>2026-03-\(day)T07:00:00Z</time></trkpt>
        <trkpt lat="48.11" lon="11.5"><time>2026-03-\(day)T07:05:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """
    }

    /// A store holding the three runs of the hostile export.
    static func prepare() throws -> CLI {
        let cli = try CLI()
        try cli.write("export/activities/10.gpx", gpx(day: 10))
        try cli.write("export/activities/11.gpx", gpx(day: 11, creator: "Watch&#x9B;31m&#x202E;X"))
        try cli.write("export/activities/12.gpx", gpx(day: 12))
        let index =
            "Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Filename\r\n"
            + "10,x,\"\(titleAndClear)\",Run,\u{1B}[31mred,activities/10.gpx\r\n"
            + "11,x,\"\(formula)\",Run,-12,activities/11.gpx\r\n"
            + "12,x,\"\(crlfName.replacingOccurrences(of: "\"", with: "\"\""))\",Run,,activities/12.gpx\r\n"
        try cli.write("export/activities.csv", index)
        let r = try cli.run(["--store", "s.sqlite", "import", "export"])
        #expect(r.status == 0, "\(r.stderr)")
        return cli
    }

    /// Bytes a terminal would act on: C0 controls but LF, DEL, C1 controls, bidi overrides.
    static func controls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { u in
            u != "\n" && (u.value < 0x20 || (0x7F...0x9F).contains(u.value) || (0x202A...0x202E).contains(u.value))
        }
    }

    @Test func tablesShowControlCharactersEscaped() throws {
        let cli = try Self.prepare()
        let list = try cli.run(["--store", "s.sqlite", "runs", "list"])
        #expect(list.status == 0)
        #expect(Self.controls(in: list.stdout).isEmpty, "\(list.stdout.debugDescription)")
        #expect(list.stdout.contains("\\u{1B}]0;pwned\\u{07}\\u{1B}[2JTempo"))
        #expect(list.stdout.contains("one\\r\\ntwo, \"q\""))
        // One line per run: the CRLF in a name does not start a row of its own.
        #expect(list.stdout.split(separator: "\n").count == 2 + 3 + 1)

        let csv = try cli.run(["--store", "s.sqlite", "runs", "list", "--format", "csv"]).stdout
        let id = try #require(rfc4180Records(csv)?.first { $0.contains("'" + Self.formula) }?.first)
        let show = try cli.run(["--store", "s.sqlite", "runs", "show", id])
        #expect(show.status == 0)
        #expect(Self.controls(in: show.stdout).isEmpty, "\(show.stdout.debugDescription)")
        #expect(show.stdout.contains("Watch\\u{9B}31m\\u{202E}X"))
    }

    @Test func csvIsRFC4180WithFormulasNeutralised() throws {
        let cli = try Self.prepare()
        let r = try cli.run(["--store", "s.sqlite", "runs", "list", "--format", "csv"])
        #expect(r.status == 0)
        let records = try #require(rfc4180Records(r.stdout), "not RFC 4180: \(r.stdout.debugDescription)")
        #expect(records.count == 4)
        #expect(records.allSatisfy { $0.count == records[0].count })
        let header = records[0]
        let label = try #require(header.firstIndex(of: "label")), notes = try #require(header.firstIndex(of: "notes"))
        let name = try #require(header.firstIndex(of: "name"))
        #expect(
            records.dropFirst().map { $0[label] } == [
                "\\u{1B}]0;pwned\\u{07}\\u{1B}[2JTempo", "'" + Self.formula, Self.crlfName
            ])
        #expect(records.dropFirst().map { $0[name] } == records.dropFirst().map { $0[label] })
        #expect(records.dropFirst().map { $0[notes] } == ["\\u{1B}[31mred", "'-12", ""])
        // Numbers are not neutralised, and carry their fixed digits.
        let distance = try #require(header.firstIndex(of: "distance_km"))
        #expect(records.dropFirst().allSatisfy { $0[distance] == "1.112" })
        #expect(!r.stdout.unicodeScalars.contains("\u{1B}"))
    }

    @Test func jsonKeepsTheTextAsItWas() throws {
        let cli = try Self.prepare()
        let r = try cli.run(["--store", "s.sqlite", "runs", "list", "--format", "json"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(runs.map { $0["label"] as? String } == [Self.titleAndClear, Self.formula, Self.crlfName])
        #expect(runs[1]["creator"] as? String == Self.creator)
        #expect(!r.stdout.unicodeScalars.contains("\u{1B}"))   // written as \u001b
    }

    @Test func messagesOnStderrShowControlCharactersEscaped() throws {
        let cli = try CLI()
        try cli.write("in/bad\u{1B}]0;pwned\u{07}.gpx", "<gpx><trk>")
        let r = try cli.run(["--store", "s.sqlite", "import", "in"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("bad\\u{1B}]0;pwned\\u{07}.gpx"), "\(r.stderr.debugDescription)")
        #expect(Self.controls(in: r.stderr + r.stdout).isEmpty, "\(r.stderr.debugDescription)")
    }
}

/// The records of `text` read strictly as RFC 4180: each record ends with CRLF
/// (the last one too), a quoted field ends at its closing quote followed by a
/// comma or CRLF, a quote inside it is doubled, an unquoted field holds no quote,
/// CR or LF. Nil for anything else.
func rfc4180Records(_ text: String) -> [[String]]? {
    let s = Array(text.unicodeScalars)
    var records: [[String]] = [], record: [String] = []
    var i = 0
    while i < s.count {
        var field = String.UnicodeScalarView()
        if s[i] == "\"" {
            i += 1
            while true {
                guard i < s.count else { return nil }
                if s[i] == "\"" {
                    guard i + 1 < s.count, s[i + 1] == "\"" else { break }
                    i += 1
                }
                field.append(s[i])
                i += 1
            }
            i += 1
        } else {
            while i < s.count, s[i] != ",", s[i] != "\r" {
                guard s[i] != "\"", s[i] != "\n" else { return nil }
                field.append(s[i])
                i += 1
            }
        }
        record.append(String(field))
        guard i < s.count else { return nil }
        if s[i] == "," {
            i += 1
            continue
        }
        guard s[i] == "\r", i + 1 < s.count, s[i + 1] == "\n" else { return nil }
        i += 2
        records.append(record)
        record = []
    }
    return record.isEmpty ? records : nil
}

@Suite struct RFC4180ReaderTests {
    @Test func readsStrictly() {
        #expect(rfc4180Records("a,b\r\n\"x\r\n\"\"y\"\"\",\r\n")! == [["a", "b"], ["x\r\n\"y\"", ""]])
        #expect(rfc4180Records("a,b\n") == nil)   // LF only
        #expect(rfc4180Records("a,b") == nil)   // no line end at the last record
        #expect(rfc4180Records("a\"b\r\n") == nil)
        #expect(rfc4180Records("\"a\"b\r\n") == nil)
        #expect(rfc4180Records("a,\r\n")! == [["a", ""]])
    }
}
