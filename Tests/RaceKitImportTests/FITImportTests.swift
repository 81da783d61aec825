import Foundation
import Testing

@testable import RaceKitFormats
@testable import RaceKitImport
@testable import RaceKitModel
@testable import RaceKitSQLite

/// A 20-minute run at 3 m/s heading north from Munich, one point a second.
private func runPoints() -> [SamplePoint] {
    (0..<1200).map { i in
        var p = SamplePoint()
        p.time = 1_772_348_400 + Double(i)
        p.latitude = 48.1 + Double(i) * 3 / 111_195
        p.longitude = 11.5
        p.distance = Double(i) * 3
        p.heartRate = Double(130 + i % 20)
        p.cadence = 86
        return p
    }
}

private func gpx(_ points: [SamplePoint]) -> String {
    var out = """
        <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"
          xmlns:g="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><type>running</type><trkseg>

        """
    for p in points {
        out += "<trkpt lat=\"\(p.latitude)\" lon=\"\(p.longitude)\"><time>\(TimestampParser.format(p.time))</time>"
        out +=
            "<extensions><g:TrackPointExtension><g:hr>\(Int(p.heartRate))</g:hr></g:TrackPointExtension></extensions></trkpt>\n"
    }
    return out + "</trkseg></trk></gpx>\n"
}

@Suite struct FITImportTests {
    private func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-fit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aFITRunAndTheSameRunAsGPXAreOneRun() throws {
        let dir = try folder()
        let points = runPoints()
        try Data(FITWriter.activity(points)).write(to: dir.appendingPathComponent("a-run.fit"))
        try gpx(points).write(to: dir.appendingPathComponent("b-run.gpx"), atomically: false, encoding: .utf8)
        let store = try RunStore()
        let files = InputCollector.collect([dir.path]).files
        #expect(files.map { ($0 as NSString).lastPathComponent } == ["a-run.fit", "b-run.gpx"])
        // One worker: the FIT file (sorted first) is stored before the GPX is read.
        var options = ImportOptions()
        options.jobs = 1
        let results = try Importer(store: store, options: options).run(files: files)
        #expect(results.map(\.status) == [.imported, .duplicate])
        #expect(results[1].runIds == results[0].runIds)
        let runs = try store.runs()
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run.sourceFormat == .fit)
        #expect(abs((run.distanceMeters ?? 0) - 3597) < 1)
        #expect(run.elapsedSeconds == 1199)
    }

    @Test func readerNotesReachTheResultAndNonActivitiesAreSkipped() throws {
        let dir = try folder()
        let bytes = FITWriter.activity(runPoints())
        try Data(bytes.prefix(bytes.count - 2000)).write(to: dir.appendingPathComponent("cut.fit"))
        var w = FITWriter()
        w.define(local: 0, global: 0, fields: [.init(0, .enumeration)])
        w.write(local: 0, [.int(2)])
        try Data(w.file()).write(to: dir.appendingPathComponent("settings.fit"))
        try Data(Array(bytes.prefix(20))).write(to: dir.appendingPathComponent("stub.fit"))
        let store = try RunStore()
        let files = InputCollector.collect([dir.path]).files
        let results = try Importer(store: store, options: ImportOptions()).run(files: files)
        #expect(results.map(\.status) == [.imported, .skipped, .failed])
        #expect(results[0].reason?.hasPrefix("truncated at byte ") == true)
        #expect(results[0].reason?.contains("records imported") == true)
        #expect(results[1].reason == "a FIT settings file, not an activity (file_id type 2)")
        #expect(
            results[2].reason?.hasSuffix(
                "stub.fit: byte 14 (message 1): the file ends inside definition message 1 (truncated); no usable record before it"
            ) == true)
        #expect(try store.runs().count == 1)
    }
}
