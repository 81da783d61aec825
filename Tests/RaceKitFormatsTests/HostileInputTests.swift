import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats
@testable import RaceKitMetrics
@testable import RaceKitModel

@Suite struct HostileInputTests {
    func write(_ text: String, _ name: String) throws -> String {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func write(bytes: [UInt8], _ name: String) throws -> String {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func failure(_ path: String) -> FormatError? {
        do { _ = try ActivityFileReader.read(path: path); return nil } catch let e as FormatError { return e } catch {
            return nil
        }
    }

    @Test func aCommentBombIsRefusedBeforeTheParserHoldsIt() throws {
        let head = "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\"><trk><trkseg>"
        let bomb = head + String(repeating: "<!---->", count: 150_000) + "</trkseg></trk></gpx>"
        let error = try #require(failure(try write(bomb, "bomb.gpx")))
        #expect(error.message.contains("more than 100000 comments or processing instructions"))
        // Marker split across reads: 64 KB reads, so markers straddle boundaries; the
        // same count with processing instructions.
        let pis = head + String(repeating: "<?x?>", count: 150_000) + "</trkseg></trk></gpx>"
        #expect(try #require(failure(try write(pis, "pi.gpx"))).message.contains("comment bomb"))
        // A few comments are fine.
        let fine = head + String(repeating: "<!-- lap -->", count: 1000) + "</trkseg></trk></gpx>"
        #expect(failure(try write(fine, "fine.gpx")) == nil)
    }

    /// The SAX callbacks take over libxml2's 10 MB limit on one text node: a
    /// 12 MB name is refused, on one thread and read ahead.
    @Test func aHugeTextNodeIsRefused() throws {
        let text =
            "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\"><trk><name>"
            + String(repeating: "x", count: 12_000_000) + "</name><trkseg></trkseg></trk></gpx>"
        let path = try write(text, "huge.gpx")
        for mode in [ActivityFileReader.ReadAhead.never, .always] {
            do {
                _ = try ActivityFileReader.read(path: path, readAhead: mode)
                Issue.record("a 12 MB text node was read")
            } catch let error as FormatError {
                #expect(error.message.contains("huge text node"), "\(error.message)")
                #expect(error.line == 1)
            }
        }
    }

    /// A value the parser hands over in pieces (its text straddles the boundary
    /// of two chunks, or an entity splits it) is one value to the handler.
    @Test func aValueSplitAcrossChunksIsReadWhole() throws {
        let head = "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\"><trk><trkseg>"
        let padding = "<!--" + String(repeating: " ", count: XMLStream.chunkSize - head.utf8.count - 4 - 7 - 60) + "-->"
        let first = "<trkpt lat=\"48.5\" lon=\"11.5\"><ele>5&#48;0</ele><time>2026-03-01T07:00:00Z</time></trkpt>"
        let text =
            head + padding + first
            + "<trkpt lat=\"48.6\" lon=\"11.6\"><ele>500</ele><time>2026-03-01T07:00:10Z</time></trkpt>"
            + "</trkseg></trk></gpx>"
        let boundary = XMLStream.chunkSize - (head + padding).utf8.count
        #expect((30..<70).contains(boundary), "the first point's values straddle the first chunk's end")
        let path = try write(text, "split.gpx")
        for mode in [ActivityFileReader.ReadAhead.never, .always] {
            guard case .document(let d) = try ActivityFileReader.read(path: path, readAhead: mode).outcome,
                let a = d.activities.first
            else {
                Issue.record("no activity"); return
            }
            #expect(Array(a.samples.time) == [1_772_348_400, 1_772_348_410])
            #expect(Array(a.samples.elevation) == [500, 500])
        }
    }

    /// An error in the middle of a small file (read whole before the parser
    /// meets it) is that error, not "the file ends inside an open element".
    @Test func anErrorInTheMiddleIsNotCalledATruncation() throws {
        for (name, bad) in [("entity.gpx", "<ele>&foo;</ele>"), ("nul.gpx", "<ele>5\u{0}</ele>")] {
            let point = "<trkpt lat=\"1\" lon=\"1\">\(bad)</trkpt>"
            let text = minimalGPX.replacingOccurrences(of: "</trkseg>", with: point + "</trkseg>")
            for mode in [ActivityFileReader.ReadAhead.never, .always] {
                do {
                    _ = try ActivityFileReader.read(path: try write(text, name), readAhead: mode)
                    Issue.record("\(name) was read")
                } catch let error as FormatError {
                    #expect(!error.message.contains("truncated"), "\(name): \(error.message)")
                }
            }
        }
    }

    @Test func truncatedFileFailsWithItsLine() throws {
        let path = try write(String(minimalGPX.prefix(200)), "truncated.gpx")
        let error = try #require(failure(path))
        #expect(error.file == path)
        #expect(error.line == 3)
        #expect(error.message.contains("truncated"))
    }

    /// Attribute values with references (read through the reader) and without
    /// (read in place) give the same values; a namespace declaration is not an
    /// attribute, even one whose prefix is `lat`.
    @Test func attributesAreReadWithAndWithoutReferences() throws {
        let text = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="Run &amp; Ride" xmlns="http://www.topografix.com/GPX/1/1">
             <trk><trkseg>
              <trkpt lat="48&#46;5" lon="11.5" xmlns:lat="urn:not-a-number"><time>2026-03-01T07:00:00Z</time></trkpt>
              <trkpt lat="48.6" lon="11.6"><time>2026-03-01T07:00:10Z</time></trkpt>
             </trkseg></trk>
            </gpx>
            """
        let path = try write(text, "refs.gpx")
        for mode in [ActivityFileReader.ReadAhead.never, .always] {
            guard case .document(let d) = try ActivityFileReader.read(path: path, readAhead: mode).outcome else {
                Issue.record("empty"); return
            }
            #expect(d.creator == "Run & Ride")
            let a = try #require(d.activities.first)
            #expect(Array(a.samples.latitude) == [48.5, 48.6] && Array(a.samples.longitude) == [11.5, 11.6])
            #expect(a.issues.nonNumericValues == 0 && a.issues.missingPosition == 0)
        }
    }

    @Test func nonXMLFileSaysSo() throws {
        let error = try #require(failure(try write("hello, I am a JPEG", "photo.gpx")))
        #expect(error.description.contains("not XML"))
        #expect(error.line == 1)
    }

    @Test func wrongRootElementIsNamed() throws {
        let error = try #require(failure(try write("<?xml version=\"1.0\"?><kml><Document/></kml>", "map.gpx")))
        #expect(error == .notAnActivityFile(file: error.file, root: "kml"))
    }

    @Test(arguments: ["", "   \n\t\n"])
    func emptyFileIsEmpty(text: String) throws {
        guard case .empty = try ActivityFileReader.read(path: try write(text, "empty.gpx")).outcome else {
            Issue.record("expected .empty"); return
        }
    }

    @Test func byteOrderMarkIsAccepted() throws {
        let path = try write(bytes: [0xEF, 0xBB, 0xBF] + Array(minimalGPX.utf8), "bom.gpx")
        #expect(try onlyActivity(path).samples.count == 2)
    }

    @Test func whitespaceBeforeTheDeclarationIsRecoveredAndLinesStayTrue() throws {
        #expect(try onlyActivity(try write("\r\n\n  " + minimalGPX, "ws.gpx")).samples.count == 2)
        // With the two stripped lines, an error on the document's line 4 is reported as line 6.
        let broken = minimalGPX.replacingOccurrences(of: "<ele>501</ele>", with: "<ele>501")
        let error = try #require(failure(try write("\n\n" + broken, "ws-broken.gpx")))
        #expect(error.line == 6)
    }

    @Test func unclosedTagInTheMiddleFailsWithItsLine() throws {
        let broken = minimalGPX.replacingOccurrences(of: "<ele>501</ele>", with: "<ele>501")
        let error = try #require(failure(try write(broken, "unclosed.gpx")))
        #expect(error.line == 4)
        #expect(error.message.contains("mismatch"))
    }

    @Test func externalEntityIsNeverRead() throws {
        let secret = try write("TOP-SECRET-\(UUID().uuidString)", "secret.txt")
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [ <!ENTITY xxe SYSTEM "file://\(secret)"> ]>
            <gpx version="1.1" creator="x"><trk><name>&xxe;</name><trkseg>
            <trkpt lat="1" lon="1"><time>2026-03-01T07:00:00Z</time></trkpt>
            <trkpt lat="1.001" lon="1"><time>2026-03-01T07:00:05Z</time></trkpt></trkseg></trk></gpx>
            """
        let error = try #require(failure(try write(text, "xxe.gpx")))
        #expect(error == .doctypeRefused(file: error.file, line: 2))
    }

    /// The DOCTYPE is found wherever it sits in the first 64 KB, after other
    /// "!" constructs (comments, CDATA) and "<!" that are not it, and its line
    /// is the one reported.
    @Test func doctypeIsFoundAfterCommentsAndLookalikes() throws {
        let lead =
            "<?xml version=\"1.0\"?>\n<!-- Hi! <!DOCTYP not it -->\n<!--!-->\n"
            + String(repeating: "<!-- padding! -->\n", count: 2000)
        let text = lead + "<!DOCTYPE gpx>\n<gpx version=\"1.1\" creator=\"x\"></gpx>"
        let error = try #require(failure(try write(text, "late-doctype.gpx")))
        #expect(error == .doctypeRefused(file: error.file, line: 2004))
        let clean =
            lead
            + "<gpx version=\"1.1\" creator=\"x\"><trk><trkseg><trkpt lat=\"1\" lon=\"1\"><time>2026-03-01T07:00:00Z</time></trkpt></trkseg></trk></gpx>"
        #expect(failure(try write(clean, "no-doctype.gpx")) == nil)
    }

    @Test func entityExpansionBombIsRefusedQuickly() throws {
        var entities = ["<!ENTITY a0 \"lollollollollollollollollollol\">"]
        for i in 1...12 { entities.append("<!ENTITY a\(i) \"" + String(repeating: "&a\(i - 1);", count: 10) + "\">") }
        let text =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\n" + entities.joined(separator: "\n")
            + "\n]>\n<gpx version=\"1.1\" creator=\"x\"><trk><name>&a12;</name></trk></gpx>\n"
        let path = try write(text, "bomb.gpx")
        let clock = ContinuousClock()
        var error: FormatError?
        let elapsed = clock.measure { error = failure(path) }
        #expect(error != nil)
        #expect(elapsed < .seconds(2))   // a regression here means the bomb was expanded
    }

    @Test func entityBombHiddenPastTheFirstBlockIsStillRefused() throws {
        var entities = ["<!ENTITY a0 \"lollollollollollollollollollol\">"]
        for i in 1...12 { entities.append("<!ENTITY a\(i) \"" + String(repeating: "&a\(i - 1);", count: 10) + "\">") }
        let padding = "<!--" + String(repeating: "x", count: 70_000) + "-->\n"
        let text =
            "<?xml version=\"1.0\"?>\n" + padding + "<!DOCTYPE gpx [\n" + entities.joined(separator: "\n")
            + "\n]>\n<gpx version=\"1.1\" creator=\"x\"><trk><name>&a12;</name></trk></gpx>\n"
        #expect(failure(try write(text, "bomb2.gpx")) != nil)
    }

    @Test func gzipIsReadTransparently() throws {
        let path = try write(bytes: try gzip(minimalGPX), "run.gpx.gz")
        #expect(try onlyActivity(path).samples.count == 2)
        let plain = try ActivityFileReader.read(path: try write(minimalGPX, "run.gpx"))
        #expect(try ActivityFileReader.read(path: path).sha256 == plain.sha256)
    }

    @Test func zeroByteGzipIsEmpty() throws {
        guard case .empty = try ActivityFileReader.read(path: try write("", "zero.gpx.gz")).outcome else {
            Issue.record("expected .empty"); return
        }
    }

    @Test func corruptAndTruncatedGzipFailClearly() throws {
        var corrupt = try gzip(minimalGPX)
        for i in 20..<min(60, corrupt.count) { corrupt[i] ^= 0x5A }
        let e1 = try #require(failure(try write(bytes: corrupt, "corrupt.gpx.gz")))
        #expect(e1.description.contains("corrupt gzip data"))
        let truncated = Array(try gzip(minimalGPX).prefix(40))
        let e2 = try #require(failure(try write(bytes: truncated, "truncated.gpx.gz")))
        #expect(e2.description.contains("corrupt gzip data"))
    }

    @Test func missingFileCannotBeOpened() {
        let error = failure("/nonexistent/run.gpx")
        #expect(error?.description.contains("cannot open") == true)
    }
}

@Suite struct FuzzRegressionTests {
    /// Every input in Fixtures/fuzz (crash and hang inputs found by `make fuzz`, and
    /// hand-made extremes) goes through the import pipeline without crashing.
    @Test func fuzzInputsNeverCrashTheImportPipeline() throws {
        let dir = try fixture("fuzz")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(!files.isEmpty)
        for file in files {
            let path = (dir as NSString).appendingPathComponent(file)
            guard case .document(let d) = (try? ActivityFileReader.read(path: path))?.outcome else { continue }
            for raw in d.activities {
                if case .activity(let a) = TrackRepair.repair(
                    raw, format: d.format, documentHeartRate: d.documentHeartRate)
                {
                    let analysis = RunAnalyzer.analyse(
                        a,
                        physiology: Physiology(
                            maxHeartRate: 190, restingHeartRate: 50,
                            thresholdHeartRate: 170))
                    _ = analysis.splits(.km)
                    #expect(try SampleCodec.decode(SampleCodec.encode(a.samples)).count == a.samples.count)
                    #expect(a.samples.time.allSatisfy { $0.isFinite })
                }
            }
        }
    }
}

/// One input, one answer: what the parsers would read differently (a NUL, a
/// huge start tag, an element with too many attributes) is decided in the bytes
/// or the callbacks, the same plain, gzipped, in a zip, read ahead or not.
@Suite struct OneAnswerTests {
    static func gpx(_ body: String, tail: String = "") -> String {
        """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><type>running</type><trkseg>
        \(body)
        </trkseg></trk></gpx>
        """ + tail
    }

    /// `n` track points, one a line; with `padding`, that many spaces after each.
    static func points(_ n: Int, extra: String = "", padding: Int = 0) -> String {
        let separator = "\n" + String(repeating: " ", count: padding)
        return (0..<n).map { i in
            let t = String(format: "2026-03-01T07:%02d:%02dZ", i / 60 % 60, i % 60)
            return "<trkpt lat=\"48.\(10_000 + i)\" lon=\"11.5\"\(extra)><time>\(t)</time></trkpt>"
        }.joined(separator: separator)
    }

    /// What each way of reading `bytes` says: plain with and without reading
    /// ahead, with each parser, gzipped, and as a zip entry.
    static func answers(_ bytes: [UInt8]) throws -> [String: String] {
        let dir = try temporaryDirectory()
        let plain = dir.appendingPathComponent("a.gpx").path
        try Data(bytes).write(to: URL(fileURLWithPath: plain))
        let gz = dir.appendingPathComponent("a.gpx.gz").path
        let p = Process()
        p.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "gzip -nc \"$0\" > \"$1\"", plain, gz]
        try p.run()
        p.waitUntilExit()
        func say(_ read: () throws -> ReadResult) -> String {
            do {
                guard case .document(let d) = try read().outcome else { return "empty" }
                return "ok \(d.activities.map(\.samples.count))"
            } catch let e as FormatError {
                return "error: \(e.message)"
            } catch {
                return "error: \(error)"
            }
        }
        var out: [String: String] = [:]
        for (name, mode, parsing) in [
            ("plain", ActivityFileReader.ReadAhead.never, ActivityFileReader.Parsing.bySize),
            ("plain ahead", .always, .bySize), ("plain push", .never, .pushOnly),
            ("plain push ahead", .always, .pushOnly)
        ] {
            out[name] = say { try ActivityFileReader.read(path: plain, readAhead: mode, parsing: parsing) }
        }
        out["gzip"] = say { try ActivityFileReader.read(path: gz, readAhead: .never) }
        out["stream"] = say {
            try ActivityFileReader.read(stream: MemoryByteStream(name: "z.zip: a.gpx", bytes: bytes))
        }
        return out
    }

    static func agree(_ answers: [String: String]) -> String? {
        Set(answers.values).count == 1 ? answers.values.first : nil
    }

    /// A small document, parsed whole, and one past `XMLStream.wholeDocumentMaximumBytes`
    /// (8,000 points padded to 5.6 MB), parsed in chunks.
    @Test(arguments: [(200, 0), (8_000, 640)])
    func aNULEndsTheDocumentForEveryParser(_ n: Int, padding: Int) throws {
        let document = Self.gpx(Self.points(n, padding: padding))
        #expect((document.utf8.count > XMLStream.wholeDocumentMaximumBytes) == (padding > 0))
        // Padding after the root, then junk: read as the document before the NUL.
        let bytes = Array(document.utf8) + [0, 0, 0] + Array("junk <<<".utf8)
        let got = try Self.answers(bytes)
        #expect(Self.agree(got) == "ok [\(n)]", "\(got)")
        // A NUL inside the root ends it inside an open element, for every parser.
        var cut = Array(document.utf8)
        cut[cut.count / 2] = 0
        let inside = try Self.answers(cut)
        #expect(inside.values.allSatisfy { $0.hasPrefix("error: a NUL byte ends the document inside") }, "\(inside)")
    }

    @Test func aStartTagOver64KBIsRefusedByEveryParser() throws {
        let creator = String(repeating: "x", count: 70_000)
        let bytes = Array(
            Self.gpx(Self.points(3)).replacingOccurrences(of: "creator=\"t\"", with: "creator=\"\(creator)\"").utf8)
        let got = try Self.answers(bytes)
        #expect(
            Self.agree(got)?.contains("a start tag (an element's name and attributes) of more than 64 KB") == true,
            "\(got)")
        // A long text node is no start tag; a `>` inside a quoted value does not end the tag.
        let text = Self.gpx(Self.points(3)).replacingOccurrences(
            of: "<type>running</type>", with: "<type>running</type><desc>\(creator)</desc>")
        #expect(Self.agree(try Self.answers(Array(text.utf8))) == "ok [3]")
        let quoted = (0..<12_000).map { " x\($0)='>'" }.joined()
        let tricky = Self.gpx(Self.points(3)).replacingOccurrences(of: "creator=\"t\"", with: "creator=\"t\"\(quoted)")
        #expect(Self.agree(try Self.answers(Array(tricky.utf8)))?.contains("of more than 64 KB") == true)
    }

    @Test func twoHundredThousandAttributesEndFastAndAThousandAndOneAreRefused() throws {
        let many = (0..<200_000).map { " a\($0)=\"1\"" }.joined()
        let started = Date()
        let got = try Self.answers(Array(Self.gpx(Self.points(3, extra: many)).utf8))
        #expect(Date().timeIntervalSince(started) < 5 * 6)
        #expect(Self.agree(got)?.contains("of more than 64 KB") == true, "\(got)")
        let some = (0..<999).map { " a\($0)=\"1\"" }.joined()
        let refused = try Self.answers(Array(Self.gpx(Self.points(3, extra: some)).utf8))
        #expect(Self.agree(refused)?.contains("has 1001 attributes, more than 1000") == true, "\(refused)")
        let fine = (0..<998).map { " a\($0)=\"1\"" }.joined()
        #expect(Self.agree(try Self.answers(Array(Self.gpx(Self.points(3, extra: fine)).utf8))) == "ok [3]")
    }
}

/// A document-level heart-rate track (a-rival SpoQ) counts against the point
/// limit: 10 million entries no longer grow without bound.
@Suite struct DocumentHeartRateLimitTests {
    @Test func entriesPastThePointLimitAreRefused() throws {
        func file(_ entries: Int) throws -> String {
            let rates = (0..<entries).map { i in
                "<st:heartRate time=\"2026-03-11T08:\(String(format: "%02d:%02d", i / 60 % 60, i % 60))Z\" bpm=\"120\"/>"
            }.joined(separator: "\n")
            let text = """
                <?xml version="1.0"?>
                <gpx version="1.1" creator="a-rival SpoQ PC Software" xmlns:st="urn:uuid:D0EB2ED5-49B6-44e3-B13C-CF15BE7DD7DD" xmlns="http://www.topografix.com/GPX/1/1">
                <extensions><st:activity id="1"><st:heartRateTrack>
                \(rates)
                </st:heartRateTrack></st:activity></extensions>
                <trk><trkseg><trkpt lat="48.03" lon="16.06"><time>2026-03-11T08:00:00Z</time></trkpt>
                <trkpt lat="48.0301" lon="16.0601"><time>2026-03-11T08:00:02Z</time></trkpt></trkseg></trk></gpx>
                """
            let path = try temporaryDirectory().appendingPathComponent("spoq.gpx").path
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
        #expect {
            _ = try ActivityFileReader.read(path: try file(1_500), readAhead: .never, pointLimit: 1_000)
        } throws: { error in
            "\(error)".contains("more than 1000 points")
        }
        guard
            case .document(let d) = try ActivityFileReader.read(
                path: try file(900), readAhead: .never, pointLimit: 1_000
            ).outcome
        else {
            Issue.record("no document")
            return
        }
        #expect(d.documentHeartRate.count == 900)
    }
}

/// A UTF-16 document, with or without a byte-order mark, either byte order, is
/// read as the same document in UTF-8 (a BOM made it look binary), by every way
/// of reading it; a cut or broken one says so.
@Suite struct UTF16DocumentTests {
    static let text = """
        <?xml version="1.0" encoding="UTF-16"?>
        <gpx version="1.1" creator="Zürich ✓ 𝄞" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Läufer 𝄞</name><type>running</type><trkseg>
        \(OneAnswerTests.points(300))
        </trkseg></trk></gpx>
        """

    static func utf16(_ s: String, bigEndian: Bool, bom: Bool) -> [UInt8] {
        var out: [UInt8] = bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for u in s.utf16 { out += bigEndian ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)] }
        return out
    }

    @Test(arguments: [(false, true), (true, true), (false, false), (true, false)])
    func readsAsItsUTF8(_ bigEndian: Bool, _ bom: Bool) throws {
        let got = try OneAnswerTests.answers(Self.utf16(Self.text, bigEndian: bigEndian, bom: bom))
        #expect(OneAnswerTests.agree(got) == "ok [300]", "\(got)")
        let path = try temporaryDirectory().appendingPathComponent("u.gpx").path
        try Data(Self.utf16(Self.text, bigEndian: bigEndian, bom: bom)).write(to: URL(fileURLWithPath: path))
        guard case .document(let d) = try ActivityFileReader.read(path: path, readAhead: .never).outcome else {
            Issue.record("no document")
            return
        }
        #expect(d.activities.first?.name == "Läufer 𝄞" && d.creator == "Zürich ✓ 𝄞")
    }

    @Test func utf32IsRefusedSayingSo() throws {
        let text = "<?xml version=\"1.0\"?><gpx/>"
        for (bom, bigEndian) in [([UInt8](), false), ([0xFF, 0xFE, 0, 0], false), ([0, 0, 0xFE, 0xFF], true)] {
            var bytes = bom
            for u in text.unicodeScalars {
                let v = u.value
                let le = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), 0, 0]
                bytes += bigEndian ? le.reversed() : le
            }
            let got = try OneAnswerTests.answers(bytes)
            #expect(
                OneAnswerTests.agree(got)?.contains("UTF-32 text (by its first bytes) is not read") == true, "\(got)")
        }
    }

    @Test func aCutOrBrokenUTF16DocumentSaysSo() throws {
        var cut = Self.utf16(Self.text, bigEndian: false, bom: true)
        cut.removeLast()
        #expect(try OneAnswerTests.answers(cut).values.allSatisfy { $0.hasPrefix("error") })
        var lone = Self.utf16(Self.text, bigEndian: false, bom: true)
        lone[400] = 0x00
        lone[401] = 0xD8   // a high surrogate with no low one after it
        let got = try OneAnswerTests.answers(lone)
        #expect(got.values.allSatisfy { $0.contains("not valid UTF-16") }, "\(got)")
    }
}
