import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats

/// Reading ahead on a second thread must change nothing but the speed: the same
/// document, the same error (message and line), for every kind of input. These
/// tests read with the push parser (a small file would otherwise be parsed whole,
/// into one batch); the pull parser is held to the push parser's documents here too.
@Suite struct ReadAheadTests {
    /// What a read gave, as text (NaN-safe, every field of the document).
    static func outcome(
        _ path: String, _ mode: ActivityFileReader.ReadAhead, pointLimit: Int = ActivityFileReader.maxPoints,
        parsing: ActivityFileReader.Parsing = .pushOnly
    ) -> String {
        do {
            let r = try ActivityFileReader.read(
                path: path, readAhead: mode, pointLimit: pointLimit, parsing: parsing)
            return "\(r.sha256) \(r.byteCount) \(r.outcome)"
        } catch {
            return "error: \(error)"
        }
    }

    static func allFixtures() throws -> [String] {
        let dir = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)
        var paths: [String] = []
        while let url = walker?.nextObject() as? URL {
            if !url.hasDirectoryPath { paths.append(url.path) }
        }
        return paths.sorted()
    }

    @Test func everyFixtureReadsTheSame() throws {
        let paths = try Self.allFixtures()
        #expect(paths.count >= 20)
        for path in paths {
            #expect(Self.outcome(path, .always) == Self.outcome(path, .never), "\(path)")
        }
    }

    /// A small file is parsed whole by libxml2's pull parser: every fixture it
    /// reads gives the push parser's document, digest and size, byte for byte;
    /// every fixture one refuses, the other refuses too, naming the same file.
    /// (The two word some errors differently: a cut file ends with "Premature end
    /// of data in tag" to one, "Extra content at the end of the document" to the other.)
    @Test func thePullParserReadsEveryFixtureAsThePushParserDoes() throws {
        var documents = 0, refusals = 0
        for path in try Self.allFixtures() {
            let push = Self.outcome(path, .never)
            let pull = Self.outcome(path, .never, parsing: .bySize)
            if push.hasPrefix("error: ") {
                refusals += 1
                #expect(pull.hasPrefix("error: ") && pull.contains(path), "\(path): \(pull.prefix(300))")
            } else {
                documents += 1
                #expect(pull == push, "\(path)")
            }
        }
        #expect(documents >= 20 && refusals >= 2, "\(documents) documents, \(refusals) refusals")
    }

    /// A file denser in nodes than any activity file (`<a/>` by the hundred
    /// thousand: 20 bytes of node per byte) is not parsed whole: the whole parse
    /// stops before its first node, and the file is read with the push parser,
    /// to the same document.
    @Test func aFileTooDenseIsReadWithThePushParser() throws {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent("dense.gpx").path
        let point = #"<trk><trkseg><trkpt lat="48.1" lon="11.5"><time>2024-05-01T06:00:00Z</time></trkpt>"#
        let text =
            #"<?xml version="1.0"?><gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1" creator="t">"#
            + point + String(repeating: "<a/>", count: 200_000) + "</trkseg></trk></gpx>"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let stream = try XMLStream(input: InputSource(path: path), mode: .whole)
        #expect(throws: XMLStream.TooDenseToParseWhole.self) { _ = try stream.next() }
        let pull = Self.outcome(path, .never, parsing: .bySize)
        #expect(!pull.hasPrefix("error: ") && pull == Self.outcome(path, .never), "\(pull.prefix(300))")
    }

    /// Cut files and files broken in the middle: both parsers refuse each one, and
    /// agree on whether the file ends inside an open element (the pull parser
    /// knows the end from its first read there, the push parser when told).
    @Test func bothParsersTellACutFileFromABrokenOne() throws {
        let dir = try temporaryDirectory()
        var cuts = 0
        for name in ["garmin-forerunner.tcx", "strava-gpxtpx.gpx", "suunto-gpxdata.gpx"] {
            let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
            let bytes = [UInt8](try Data(contentsOf: url))
            let close = name.hasSuffix(".tcx") ? "</Trackpoint>" : "</trkpt>"
            let text = String(decoding: bytes, as: UTF8.self)
            var variants: [(String, [UInt8], Bool)] = (1..<24).map { k in
                ("cut\(k)-\(name)", Array(bytes[..<(bytes.count * k / 24)]), true)
            }
            for wrong in ["</Trackpoinx>", "<a></b>", "<<", "&bogus;"] {
                let broken = text.replacingOccurrences(of: close, with: close + wrong, options: [], range: nil)
                variants.append(("broken-\(variants.count)-\(name)", Array(broken.utf8), false))
            }
            // The last end tag wrong: complete, so no cut.
            let root = name.hasSuffix(".tcx") ? "</TrainingCenterDatabase>" : "</gpx>"
            variants.append(
                ("last-\(name)", Array(text.replacingOccurrences(of: root, with: root.dropLast() + "x>").utf8), false))
            for (file, content, cut) in variants {
                let path = dir.appendingPathComponent(file).path
                try Data(content).write(to: URL(fileURLWithPath: path))
                let push = Self.outcome(path, .never)
                let pull = Self.outcome(path, .never, parsing: .bySize)
                #expect(
                    push.hasPrefix("error: ") && pull.hasPrefix("error: "),
                    "\(file): \(push.prefix(200)) | \(pull.prefix(200))")
                let ends = "the file ends inside an open element"
                #expect(push.contains(ends) == pull.contains(ends), "\(file): \(push) | \(pull)")
                if cut {
                    cuts += push.contains(ends) ? 1 : 0
                } else {
                    #expect(!pull.contains(ends), "\(file): \(pull)")
                }
            }
        }
        #expect(cuts >= 50, "\(cuts) cut files said so")   // 56 of 69: a cut before the root's start tag opens nothing
    }

    /// The digest is SHA-256 of the document's bytes as they are on disk (before
    /// the repairs at its start), whoever hashes it: the parser as it reads, or
    /// the handler thread while it waits (read ahead); checked against sha256sum.
    @Test func theDigestIsTheSHA256OfTheFileEitherWay() throws {
        let plain = try Self.allFixtures().filter { !$0.hasSuffix(".gz") }
        #expect(plain.count >= 20)
        for path in plain {
            let p = Process()
            p.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
            p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
            p.arguments = [path]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            let expected = String(text.prefix(64))
            for mode in [ActivityFileReader.ReadAhead.never, .always] {
                let read = try? ActivityFileReader.read(path: path, readAhead: mode)
                if let read { #expect(read.sha256 == expected, "\(path) \(mode)") }
            }
        }
    }

    /// The real watch exports of ../shared/corpus (beside the repository); skipped,
    /// and shown as skipped, when the folder is absent.
    @Test(.enabled(if: sharedCorpus != nil, "needs ../shared/corpus/public beside the repository"))
    func everyCorpusFileReadsTheSame() throws {
        let dir = try #require(sharedCorpus)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(names.count >= 20)
        for name in names.sorted() {
            let path = dir.appendingPathComponent(name).path
            #expect(Self.outcome(path, .always) == Self.outcome(path, .never), "\(name)")
        }
    }

    /// A GPX of `points` 1 Hz points with Garmin extensions under a prefix and
    /// a second extension block in the default namespace of another vendor.
    static func bigGPX(points: Int, truncateAt cut: Int? = nil) -> String {
        var s = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
             <trk><name>Long</name><type>running</type><trkseg>

            """
        for i in 0..<points {
            let lat = 48.1 + Double(i) * 0.00003, lon = 11.5 + Double(i % 97) * 0.00001
            let time = Date(timeIntervalSince1970: 1_772_348_400 + Double(i)).formatted(.iso8601)
            s += "  <trkpt lat=\"\(lat)\" lon=\"\(lon)\"><ele>\(500 + i % 13)</ele><time>\(time)</time>"
            s += "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(120 + i % 40)</gpxtpx:hr>"
            s += "<gpxtpx:cad>\(80 + i % 5)</gpxtpx:cad></gpxtpx:TrackPointExtension>"
            if i % 3 == 0 {
                s +=
                    "<TrackPointExtension xmlns=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\"><speed>3.\(i % 10)</speed></TrackPointExtension>"
            }
            s += "</extensions></trkpt>\n"
        }
        s += " </trkseg></trk>\n</gpx>\n"
        if let cut { return String(s.prefix(cut)) }
        return s
    }

    /// Thousands of nodes: many batches handed over, values and attributes on
    /// every one, namespaces resolved on the reading thread.
    @Test func aLongDocumentReadsTheSame() throws {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent("long.gpx").path
        try Self.bigGPX(points: 6000).write(toFile: path, atomically: false, encoding: .utf8)
        let ahead = Self.outcome(path, .always)
        #expect(ahead == Self.outcome(path, .never))
        guard case .document(let d) = try ActivityFileReader.read(path: path, readAhead: .always).outcome else {
            Issue.record("empty"); return
        }
        let samples = d.activities[0].samples
        #expect(samples.count == 6000)
        #expect(samples.heartRate[5999] == Double(120 + 5999 % 40) && samples.cadence[17] == 82)
        #expect(samples.speed[3] == 3.3 && samples.speed[4].isNaN)
    }

    /// An error after many batches: the same message and line as without read-ahead.
    @Test func anErrorFarIntoTheFileIsReportedTheSame() throws {
        let dir = try temporaryDirectory()
        let full = Self.bigGPX(points: 3000)
        for (k, cut) in [full.count - 40, full.count / 2, 300].enumerated() {
            let path = dir.appendingPathComponent("cut\(k).gpx").path
            try Self.bigGPX(points: 3000, truncateAt: cut).write(toFile: path, atomically: false, encoding: .utf8)
            let ahead = Self.outcome(path, .always)
            #expect(ahead.hasPrefix("error: "), "\(ahead.prefix(80))")
            #expect(ahead == Self.outcome(path, .never))
        }
    }

    /// The handler side stopping early (too many points) stops the reading thread
    /// mid-file; repeated, to give a race a chance to show (and TSan to see it).
    @Test func stoppingEarlyStopsTheReadingThread() throws {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent("long.gpx").path
        try Self.bigGPX(points: 4000).write(toFile: path, atomically: false, encoding: .utf8)
        let expected = Self.outcome(path, .never, pointLimit: 700)
        #expect(expected.contains("more than 700 points"))
        for _ in 0..<40 {
            #expect(Self.outcome(path, .always, pointLimit: 700) == expected)
        }
    }

    /// A plain file over `wholeDocumentMaximumBytes` read ahead gets libxml2's
    /// pull parser on a thread of its own (`.ahead`): the same document, digest
    /// and size as the push parser on one thread; a point limit met early stops
    /// the thread (repeated, for TSan), with the same message and line; a cut
    /// file is refused by both, both saying it ends inside an open element.
    @Test func aLargeFileReadAheadByThePullParserReadsTheSame() throws {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent("large.gpx").path
        let text = Self.bigGPX(points: 20_000)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(text.utf8.count > XMLStream.wholeDocumentMaximumBytes)
        let stream = try XMLStream(input: InputSource(path: path), mode: .ahead)
        #expect(stream.readsAheadItself)
        let push = Self.outcome(path, .never)
        #expect(!push.hasPrefix("error: "))
        #expect(Self.outcome(path, .largeFiles, parsing: .bySize) == push)
        #expect(Self.outcome(path, .always, parsing: .bySize) == push)
        let limited = Self.outcome(path, .never, pointLimit: 700)
        #expect(limited.contains("more than 700 points"))
        for _ in 0..<20 {
            #expect(Self.outcome(path, .largeFiles, pointLimit: 700, parsing: .bySize) == limited)
        }
        let ends = "the file ends inside an open element"
        for cut in [text.utf8.count - 30, text.utf8.count * 2 / 3, text.utf8.count - 4_500_000] {
            let cutPath = dir.appendingPathComponent("cut-\(cut).gpx").path
            try Data(text.utf8.prefix(cut)).write(to: URL(fileURLWithPath: cutPath))
            let pushed = Self.outcome(cutPath, .never)
            let pulled = Self.outcome(cutPath, .largeFiles, parsing: .bySize)
            #expect(pushed.contains(ends) && pulled.contains(ends), "\(cut): \(pushed) | \(pulled)")
        }
    }

    /// An error early in a large file: the pull parser stops at it, as the push
    /// parser does, with the same message and line (it went on to the end of
    /// the file, and a 63 MB file broken at line 103 was refused at line 416,770
    /// for a text node of 10 MB that the broken tag made). Nesting deeper than
    /// 256 levels is refused by every parser, with the same message and line
    /// (libxml2's push parser did not check it).
    @Test func bothParsersStopAtTheFirstErrorAndRefuseDeepNesting() throws {
        let dir = try temporaryDirectory()
        let full = Self.bigGPX(points: 40_000)
        let lines = full.split(separator: "\n", omittingEmptySubsequences: false)
        let breakAt = 103
        let deep = String(repeating: "<x>", count: 300) + String(repeating: "</x>", count: 300)
        for (name, insert) in [("mismatch", "<foo></bar>"), ("value", "<trkpt lat=>"), ("deep", deep)] {
            for large in [true, false] {
                let kept = large ? lines : Array(lines.prefix(3000)) + [" </trkseg></trk>", "</gpx>"]
                let text = (kept[..<breakAt] + [Substring(insert)] + kept[breakAt...]).joined(separator: "\n")
                #expect((text.utf8.count > XMLStream.wholeDocumentMaximumBytes) == large)
                let path = dir.appendingPathComponent("\(name)-\(large).gpx").path
                try text.write(toFile: path, atomically: false, encoding: .utf8)
                let push = Self.outcome(path, .never)
                let pull = Self.outcome(path, large ? .largeFiles : .never, parsing: .bySize)
                #expect(push.hasPrefix("error: ") && push.contains(".gpx:\(breakAt + 1):"), "\(name): \(push)")
                #expect(pull == push, "\(name) \(large)")
                // The pull parser read little past the error (libxml2 reads ahead a
                // few kilobytes; a handed-over batch is a few hundred).
                let stream = try XMLStream(input: InputSource(path: path), mode: large ? .ahead : .whole)
                #expect(throws: (any Error).self) { while try stream.next() {} }
                #expect(stream.bytesRead < 1 << 20, "\(name) \(large): \(stream.bytesRead) bytes read")
            }
        }
    }

    /// Elements with as many attributes as allowed (`XMLStream.maxAttributes`),
    /// more than a batch holds in all, keep every one of them, in every point.
    @Test func elementsWithAThousandAttributesReadTheSame() throws {
        let junk = (0..<(XMLStream.maxAttributes - 2)).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
        var text =
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        for i in 0..<6 {
            text += "<trkpt \(junk) lat=\"48.\(i)\" lon=\"11.\(i)\"><time>2026-03-01T07:00:0\(i)Z</time></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        let path = try temporaryDirectory().appendingPathComponent("attributes.gpx").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(Self.outcome(path, .always) == Self.outcome(path, .never))
        guard case .document(let d) = try ActivityFileReader.read(path: path, readAhead: .always).outcome else {
            Issue.record("empty"); return
        }
        #expect(Array(d.activities[0].samples.latitude) == [48.0, 48.1, 48.2, 48.3, 48.4, 48.5])
    }

    /// Only documents of a megabyte or more get a thread of their own; a gzip
    /// file counts as eight times its size.
    @Test func largeFilesModeReadsAheadFromAMegabyte() throws {
        let limit = ActivityFileReader.readAheadMinimumBytes
        #expect(limit == 1 << 20)
        #expect(!ActivityFileReader.readsAhead(.largeFiles, documentBytes: limit - 1))
        #expect(ActivityFileReader.readsAhead(.largeFiles, documentBytes: limit))
        #expect(!ActivityFileReader.readsAhead(.never, documentBytes: 1 << 30))
        #expect(ActivityFileReader.readsAhead(.always, documentBytes: 0))
        let dir = try temporaryDirectory()
        let small = dir.appendingPathComponent("small.gpx").path
        try Self.bigGPX(points: 100).write(toFile: small, atomically: false, encoding: .utf8)
        let packed = try gzip(Self.bigGPX(points: 100))
        let compressed = dir.appendingPathComponent("small.gpx.gz").path
        try Data(packed).write(to: URL(fileURLWithPath: compressed))
        let plainSize = try FileManager.default.attributesOfItem(atPath: small)[.size] as! UInt64
        #expect(try XMLStream(path: small).expectedBytes == Int(plainSize))
        #expect(try XMLStream(path: compressed).expectedBytes == 8 * packed.count)
    }
}
