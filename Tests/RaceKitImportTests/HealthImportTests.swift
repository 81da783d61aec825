import Foundation
import Testing

@testable import RaceKitFormats
@testable import RaceKitImport
@testable import RaceKitModel
@testable import RaceKitSQLite

/// A copy of the hand-written Apple Health export (RaceKitFormatsTests' fixture)
/// as `apple_health_export/` in a fresh folder.
private func exportFolder() throws -> URL {
    var source = URL(fileURLWithPath: #filePath)
    source.deleteLastPathComponent()
    source.deleteLastPathComponent()
    source.appendPathComponent("RaceKitFormatsTests/Fixtures/apple-health")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-health-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: source, to: dir.appendingPathComponent("apple_health_export"))
    return dir
}

@Suite struct HealthImportTests {
    @Test func collectsTheExportButNotItsRouteFiles() throws {
        let dir = try exportFolder()
        try "<gpx/>".write(to: dir.appendingPathComponent("other.gpx"), atomically: false, encoding: .utf8)
        let files = InputCollector.collect([dir.path]).files.map { $0.replacingOccurrences(of: dir.path, with: "") }
        #expect(files == ["/apple_health_export/export.xml", "/other.gpx"])
    }

    @Test func importsEveryWorkoutInItsOwnTransactionAndSkipsTheHostileOnes() throws {
        let dir = try exportFolder()
        let store = try RunStore()
        let results = try Importer(store: store, options: ImportOptions()).run(
            files: InputCollector.collect([dir.path]).files)
        #expect(results.count == 6)
        #expect(results.map(\.status) == [.imported, .imported, .imported, .imported, .skipped, .skipped])
        #expect(results.allSatisfy { $0.file.hasPrefix(dir.path + "/apple_health_export/export.xml#") })
        #expect(results[4].reason?.contains("furlong") == true)
        #expect(results[0].reason?.contains("1 character XML forbids replaced") == true)

        let runs = try store.runs()
        #expect(runs.map(\.sport) == [.running, .running, .running, .cycling])
        #expect(runs.allSatisfy { $0.sourceFormat == .health && $0.sourceFile == "export.xml" })
        let treadmill = try #require(runs.first { $0.runType == .treadmill })
        #expect(abs(treadmill.distanceMeters! - 4000) < 1)
        #expect(treadmill.avgHeartRate == 140)
        let paused = try #require(runs.first { $0.startedAt == 1_677_913_200 })
        #expect(abs(paused.distanceMeters! - 7000) < 0.01)
        #expect(paused.movingSeconds == 2100)
        #expect(paused.avgHeartRate == 150)
        let ride = try #require(runs.first { $0.sport == .cycling })
        // Every workout comes from export.xml: its name says what and when.
        #expect(runs.allSatisfy { ($0.name ?? "").contains(" 20") }, "\(runs.map(\.name))")
        #expect(treadmill.name?.hasPrefix("Running (indoor) 20") == true, "\(String(describing: treadmill.name))")
        #expect(ride.name?.hasPrefix("Cycling 20") == true, "\(String(describing: ride.name))")
        #expect(ride.distanceMeters == 25_000)
        #expect(ride.elapsedSeconds == 3600)
    }

    /// "export.xml may be plain or gzip": a gzipped export given directly failed as
    /// "not a GPX or TCX file", and so did a renamed one and one inside a zip.
    @Test func aGzippedExportReadsLikeThePlainOne() throws {
        let dir = try exportFolder()
        let plain = dir.appendingPathComponent("apple_health_export/export.xml")
        let bytes = Gzip.compress([UInt8](try Data(contentsOf: plain)))
        let gz = dir.appendingPathComponent("export.xml.gz"), renamed = dir.appendingPathComponent("health.xml.gz")
        try Data(bytes).write(to: gz)
        try Data(bytes).write(to: renamed)
        #expect(InputCollector.isHealthExport(gz.path) && InputCollector.isHealthExport(renamed.path))
        let expected = try Importer(store: try RunStore(), options: ImportOptions()).run(files: [plain.path])
        for path in [gz.path, renamed.path] {
            let results = try Importer(store: try RunStore(), options: ImportOptions()).run(files: [path])
            #expect(results.map(\.status) == expected.map(\.status), "\(path)")
            #expect(results.allSatisfy { $0.file.hasPrefix(path + "#") })
        }
    }

    @Test func importingTheSameExportAgainStoresNothing() throws {
        let dir = try exportFolder()
        let store = try RunStore()
        let importer = Importer(store: store, options: ImportOptions())
        let files = InputCollector.collect([dir.path]).files
        _ = try importer.run(files: files)
        let again = try importer.run(files: files)
        #expect(again.filter { $0.status == .duplicate }.count == 4)
        #expect(again.allSatisfy { $0.status != .imported })
        #expect(try store.runCount() == 4)
    }

    @Test func findsTheSameRunFromAGPXElsewhere() throws {
        let dir = try exportFolder()
        // The inline route of the first workout, as another app exports it.
        var gpx =
            "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"Strava\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
        gpx += "<trk><type>running</type><trkseg>"
        for m in 0...30 {
            let time = TimestampParser.format(1_561_957_200 + Double(m) * 60)
            gpx += "<trkpt lat=\"\(48.1 + 0.0018 * Double(m))\" lon=\"11.5\"><time>\(time)</time></trkpt>"
        }
        gpx += "</trkseg></trk></gpx>"
        try gpx.write(to: dir.appendingPathComponent("strava.gpx"), atomically: false, encoding: .utf8)
        let store = try RunStore()
        // One worker: the export (sorted first) is read and its workouts stored
        // before the GPX is read.
        var options = ImportOptions()
        options.jobs = 1
        let results = try Importer(store: store, options: options).run(
            files: InputCollector.collect([dir.path]).files)
        let strava = try #require(results.first { $0.file.hasSuffix("strava.gpx") })
        // The same run: not stored twice; the Apple copy with heart rate is kept.
        #expect(results[0].status == .imported)
        #expect(strava.status == .duplicate)
        #expect(strava.runIds == results[0].runIds)
        #expect(try store.runCount() == 4)
        let kept = try #require(try store.run(id: strava.runIds[0]))
        #expect(kept.sourceFormat == .health)
        #expect(kept.avgHeartRate != nil)
    }

    @Test func anExportWithAnEntityIsRefusedWholeAndNothingIsStored() throws {
        let dir = try exportFolder()
        let path = dir.appendingPathComponent("apple_health_export/export.xml").path
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "<!ELEMENT RightEye EMPTY>", with: "<!ENTITY a \"aaaaaaaa\">")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let store = try RunStore()
        let run = try Importer(store: store, options: ImportOptions()).importAll(files: [path])
        #expect(run.refusedExport)
        #expect(run.results.count == 1)
        #expect(run.results[0].status == .failed)
        #expect(run.results[0].reason?.hasPrefix("\(path):38: the export's DTD declares an entity") == true)
        #expect(try store.runCount() == 0)
    }

    @Test func readsAnExportFromAnyByteStreamWithTheRoutesTheCallerGives() throws {
        let dir = try exportFolder()
        let path = dir.appendingPathComponent("apple_health_export/export.xml").path
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let asked = Locked<[String]>([])
        let store = try RunStore()
        let health = Importer(store: store, options: ImportOptions()).importHealthExport(
            MemoryByteStream(name: "export.zip: apple_health_export/export.xml", bytes: bytes),
            routes: { reference in
                asked.withLock { $0.append(reference) }
                return nil
            })
        #expect(asked.withLock { $0 } == ["/workout-routes/route_2023-03-04_8.00am.gpx"])
        #expect(health.results.filter { $0.status == .imported }.count == 4)
        #expect(health.results[0].file == "export.zip: apple_health_export/export.xml#133")
        #expect(
            health.results[1].reason?.contains("route file /workout-routes/route_2023-03-04_8.00am.gpx not found")
                == true)
    }
}
