import Foundation
import Testing

@testable import RaceKitFormats
@testable import RaceKitImport
@testable import RaceKitModel
@testable import RaceKitSQLite

/// A made-up text format, known to no RaceKit code but this file: a first line
/// `RKP1`, then one `seconds,latitude,longitude` line per point (seconds since
/// the epoch). Registering it is all an import needs to read it.
private struct PointsReader: ByteActivityReader {
    static let header = Array("RKP1\n".utf8)
    var format: SourceFormat { SourceFormat(rawValue: "rkp") }
    var name: String { "RKP" }
    var fileExtensions: [String] { [".rkp"] }
    var headerLength: Int { Self.header.count }
    var noActivityReason: String { "an RKP file without points" }

    func isHeader(_ bytes: UnsafeRawBufferPointer) -> Bool { bytes.elementsEqual(Self.header) }

    func read(_ stream: any ByteStream, limits: ReadLimits) throws -> ReadResult {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try stream.read(into: $0.baseAddress!, count: $0.count) }
            if n == 0 { break }
            bytes += chunk[..<n]
        }
        var digest = ContentDigest()
        digest.update(bytes)
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        guard lines.first == "RKP1" else {
            throw FormatError.malformedXML(file: stream.name, line: 1, message: "not an RKP file: no RKP1 line")
        }
        lines.removeFirst()
        var activity = RawActivity()
        activity.sport = "running"
        activity.name = "an RKP run"
        for (number, line) in lines.enumerated() {
            let fields = line.split(separator: ",").compactMap { Double($0) }
            guard fields.count == 3 else {
                throw FormatError.malformedXML(file: stream.name, line: number + 2, message: "expected 3 numbers")
            }
            guard activity.samples.count < limits.points else {
                throw FormatError.tooLarge(file: stream.name, limit: "more than \(limits.points) points")
            }
            var point = SamplePoint()
            (point.time, point.latitude, point.longitude) = (fields[0], fields[1], fields[2])
            activity.samples.append(point)
        }
        var document = ParsedDocument(format: format)
        if !activity.samples.isEmpty { document.activities = [activity] }
        return ReadResult(outcome: .document(document), sha256: digest.finish(), byteCount: bytes.count)
    }
}

/// The standard formats and the made-up one.
private let withPoints = ActivityReaders(ActivityReaders.standard.all + [PointsReader()])

/// An RKP run of 61 points, 5 s and 0.0001 degrees of latitude (11.1 m) apart,
/// starting at 07:00 UTC on `day` of March 2026.
private func rkp(day: Int) -> [UInt8] {
    let start = 1_773_990_000 + (day - 20) * 86_400   // 2026-03-20T07:00:00Z
    let points = (0...60).map { "\(start + 5 * $0),\(48.1 + 0.0001 * Double($0)),11.5" }
    return Array((["RKP1"] + points).joined(separator: "\n").utf8)
}

private func folder() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-reader-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

@Suite struct ActivityReaderTests {
    /// The registry is the one list: the extensions folders yield and the
    /// names messages give are those of GPX, TCX and FIT, in that order.
    @Test func theStandardReadersAreGPXTCXAndFIT() {
        let standard = ActivityReaders.standard
        #expect(standard.all.map(\.format) == [.gpx, .tcx, .fit])
        #expect(InputCollector.extensions == [".gpx", ".tcx", ".fit", ".gpx.gz", ".tcx.gz", ".fit.gz"])
        #expect(standard.names() == "GPX, TCX and FIT" && standard.nameList == "GPX, TCX, FIT")
        #expect(standard.extensionNames() == ".gpx, .tcx and .fit")
        #expect(standard.noActivityReason(for: .tcx) == "no activity with trackpoints")
        #expect(standard.noActivityReason(for: .gpx) == "no tracks, routes or waypoints: no activity")
        #expect(!standard.claims(fileName: "run.rkp") && withPoints.claims(fileName: "RUN.RKP.GZ"))
    }

    /// A format registered in a test imports end to end: found in a folder by
    /// its extension (plain and gzip), told by its header when the name says
    /// nothing, read inside a zip, stored as its own format, and its reader's
    /// reason given for a file without points.
    @Test func aRegisteredFormatImportsEndToEnd() throws {
        let dir = try folder()
        try Data(rkp(day: 20)).write(to: dir.appendingPathComponent("a.rkp"))
        try Data(Gzip.compress(rkp(day: 21))).write(to: dir.appendingPathComponent("b.rkp.gz"))
        try Data("RKP1\n".utf8).write(to: dir.appendingPathComponent("c.rkp"))
        try Data("not points".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        let unnamed = try folder().appendingPathComponent("export-1234")
        try Data(rkp(day: 22)).write(to: unnamed)
        let zipPath = try folder().appendingPathComponent("export.zip").path
        let zip = try ZipWriter(path: zipPath)
        try zip.add("activities/d.rkp", rkp(day: 23))
        try zip.add("activities/e.rkp.gz", Gzip.compress(rkp(day: 24)))
        try zip.close()

        #expect(InputCollector.collect([dir.path]).files.isEmpty)
        let files = InputCollector.collect([dir.path, unnamed.path, zipPath], readers: withPoints).files
        #expect(
            files.map { ($0 as NSString).lastPathComponent } == [
                "a.rkp", "b.rkp.gz", "c.rkp", "export-1234", "export.zip"
            ])

        let store = try RunStore()
        var options = ImportOptions()
        options.readers = withPoints
        let results = try Importer(store: store, options: options).run(files: files)
        #expect(results.map(\.status) == [.imported, .imported, .skipped, .imported, .imported, .imported])
        #expect(results[2].reason == "an RKP file without points")
        #expect(results[4].file == "\(zipPath)!activities/d.rkp")
        let runs = try store.runs()
        #expect(runs.count == 5)
        #expect(runs.allSatisfy { $0.sourceFormat.rawValue == "rkp" && $0.name == "an RKP run" })
        for run in runs {
            #expect(run.elapsedSeconds == 300)
            #expect(abs((run.distanceMeters ?? 0) - 667) < 2, "\(run.distanceMeters ?? 0)")
        }
        #expect(Set(runs.map(\.sourceFile)) == ["a.rkp", "b.rkp.gz", "export-1234", "d.rkp", "e.rkp.gz"])

        // Importing again changes nothing: the reader's digest is the file's identity.
        let again = try Importer(store: store, options: options).run(files: files)
        #expect(again.map(\.status) == [.duplicate, .duplicate, .skipped, .duplicate, .duplicate, .duplicate])
    }

    /// Without the registration the same files are not activity files: the
    /// folder walk passes them by, and a file given by path is read as XML.
    @Test func anUnregisteredFormatIsNotRead() throws {
        let path = try folder().appendingPathComponent("a.rkp").path
        try Data(rkp(day: 20)).write(to: URL(fileURLWithPath: path))
        let result = try Importer(store: try RunStore(), options: ImportOptions()).run(files: [path])
        #expect(result.map(\.status) == [.failed])
        #expect(result.first?.reason?.contains("not XML") == true, "\(result.first?.reason ?? "")")
    }

    /// The reader gets the import's limits.
    @Test func aRegisteredReaderKeepsToThePointLimit() throws {
        let path = try folder().appendingPathComponent("a.rkp").path
        try Data(rkp(day: 20)).write(to: URL(fileURLWithPath: path))
        #expect(throws: FormatError.tooLarge(file: path, limit: "more than 60 points")) {
            try ActivityFileReader.read(path: path, readAhead: .never, pointLimit: 60, readers: withPoints)
        }
        let read = try ActivityFileReader.read(path: path, readAhead: .never, pointLimit: 61, readers: withPoints)
        guard case .document(let document) = read.outcome else {
            Issue.record("no document")
            return
        }
        #expect(document.format.rawValue == "rkp" && document.activities.first?.samples.count == 61)
    }
}
