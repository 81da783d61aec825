import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats
@testable import RaceKitMetrics
@testable import RaceKitModel

/// The shapes of the hostile pass that made memory grow with the file or reads
/// never end: each reader refuses past a limit that does not grow with the file,
/// and only regular files are read.
@Suite struct BoundedReaderTests {
    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func failure(_ path: String) -> (any Error)? {
        do { _ = try ActivityFileReader.read(path: path); return nil } catch { return error }
    }

    /// 20,000 activities each reserved the whole file's points (830 MB for a 5 MB
    /// file); past `maxParts` activities, laps and tracks the file is refused.
    @Test func tcxPartsAreCountedAndRefusedPastTheLimit() throws {
        let activity =
            "<Activity Sport=\"Running\"><Id>2026-03-01T07:00:00Z</Id><Lap StartTime=\"2026-03-01T07:00:00Z\"><Track><Trackpoint><Time>2026-03-01T07:00:00Z</Time></Trackpoint></Track></Lap></Activity>"
        func tcx(_ n: Int) -> [UInt8] {
            Array(
                ("<?xml version=\"1.0\"?><TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\"><Activities>"
                    + String(repeating: activity, count: n) + "</Activities></TrainingCenterDatabase>").utf8)
        }
        let fine = try ActivityFileReader.read(path: try write(tcx(1000), "fine.tcx"))
        guard case .document(let document) = fine.outcome else { Issue.record("no document"); return }
        #expect(document.activities.count == 1000)
        // Only the first activity reserves the file's expected points.
        #expect(document.activities.dropFirst().allSatisfy { $0.samples.time.capacity < 64 })
        // Three parts each (activity, lap, track): 34,000 activities are past 100,000 parts.
        let error = try #require(failure(try write(tcx(34_000), "many.tcx")) as? FormatError)
        #expect(error.message.contains("more than 100000 activities, laps, tracks, segments and routes"), "\(error)")
    }

    @Test func gpxSegmentsAreCountedToo() throws {
        let text =
            "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\"><trk>"
            + String(repeating: "<trkseg/>", count: 100_001) + "</trk></gpx>"
        let error = try #require(failure(try write(Array(text.utf8), "segments.gpx")) as? FormatError)
        #expect(error.message.contains("more than 100000 activities, laps"))
    }

    /// A plain `.gpx.gz` of tiny elements unpacking 1,000 to 1 ran for minutes; it
    /// now has the ratio limit an archive entry has.
    @Test
    func aPlainGzipBombIsRefusedByItsRatio() throws {
        let big = gzipBombGPX(megabytes: 24)
        let path = try write(Gzip.compress(big, level: 9), "bomb.gpx.gz")
        let error = try #require(failure(path) as? FormatError)
        #expect(error.file == path)
        #expect(error.message.contains("gzip data unpacks to more than 200 times its packed size"), "\(error)")
        // The FIT path reads gzip through another stream: the same limit.
        let fit = try write(Gzip.compress(big, level: 9), "bomb.fit.gz")
        let stream = try FileByteStream(path: fit)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        #expect(throws: FormatError.self) {
            while try buffer.withUnsafeMutableBytes({ try stream.read(into: $0.baseAddress!, count: $0.count) }) > 0 {}
        }
        // A gzip file that compresses like a real export reads as before.
        let real = try write(Gzip.compress(Array(minimalGPX.utf8)), "real.gpx.gz")
        #expect(failure(real) == nil)
    }

    @Test func fifosDevicesAndLinksToThemAreNotRead() throws {
        let dir = try temporaryDirectory()
        let fifo = dir.appendingPathComponent("pipe.gpx").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let error = try #require(failure(fifo) as? FormatError)
        #expect(error.description.contains("a FIFO (named pipe), not a regular file: not read"))
        let link = dir.appendingPathComponent("zero.gpx").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        #expect(RegularFile.refusal(link) == "a symbolic link to a character device, not a regular file: not read")
        #expect(throws: FormatError.self) { try FileByteStream(path: link) }
        let file = try write(Array(minimalGPX.utf8), "ok.gpx")
        let toFile = dir.appendingPathComponent("link.gpx").path
        try FileManager.default.createSymbolicLink(atPath: toFile, withDestinationPath: file)
        #expect(RegularFile.refusal(toFile) == nil)
        #expect(failure(toFile) == nil)
    }

    /// A setup's `course:` may point anywhere: a file that is not XML is described,
    /// never quoted.
    @Test func aFileThatIsNotXMLIsNeverQuoted() throws {
        let secret = "root:$6$secret-hash:19000:0:99999:7:::"
        let error = try #require(failure(try write(Array(secret.utf8), "shadow.gpx")) as? FormatError)
        #expect(error.description.contains("not XML: the file holds text"))
        #expect(!error.description.contains("root"))
        #expect(!error.description.contains("secret"))
        let zip = try #require(failure(try write([0x50, 0x4B, 3, 4, 0, 0], "a.gpx")) as? FormatError)
        #expect(zip.description.contains("a zip archive"))
    }

    /// 2 million sessions took 1.7 GB; a session past `maxSessions` is refused.
    @Test func fitSessionsAreBounded() throws {
        func file(sessions: Int) -> [UInt8] {
            var w = FITWriter()
            w.define(local: 0, global: 0, fields: [.init(0, .enumeration)])
            w.write(local: 0, [.int(4)])
            w.define(local: 1, global: 20, fields: [.init(253, .uint32), .init(5, .uint32)])
            for t in 0..<sessions * 2 { w.write(local: 1, [.int(fitStart + Int64(t)), .int(Int64(t) * 300)]) }
            w.define(local: 2, global: 18, fields: [.init(253, .uint32), .init(2, .uint32), .init(5, .enumeration)])
            for k in 0..<sessions {
                let start = fitStart + Int64(k) * 2
                w.write(local: 2, [.int(start + 1), .int(start), .int(1)])
            }
            return w.file()
        }
        let fine = try readFIT(file(sessions: 1000)).document
        #expect(fine.activities.count == 1000)
        // Each record went to the session it falls in (binary search over the starts).
        #expect(fine.activities.allSatisfy { $0.samples.count == 2 })
        #expect(fine.activities[999].samples.time[0] == 1_772_348_400 + 1998)
        #expect(throws: FITError.tooManyParts(file: "test.fit", what: "sessions", limit: 1000)) {
            try readFIT(file(sessions: 1001))
        }
    }

    /// A flood of workout events: only pauses and resumes are kept, at most
    /// `HealthWorkoutEvent.maxPerWorkout` per workout.
    @Test func appleHealthKeepsOnlyPauseEventsAndAtMostSoMany() throws {
        let laps = String(
            repeating: "<WorkoutEvent type=\"HKWorkoutEventTypeLap\" date=\"2024-01-01 07:10:00 +0000\"/>\n",
            count: 5000)
        let pauses = String(
            repeating: "<WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"2024-01-01 07:10:00 +0000\"/>\n",
            count: 12_000)
        let xml = """
            <?xml version="1.0"?>
            <HealthData locale="en_US">
            <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="W" startDate="2024-01-01 07:00:00 +0000" endDate="2024-01-01 07:30:00 +0000">
            \(laps)\(pauses)</Workout>
            </HealthData>
            """
        let export = try AppleHealthReader.read(MemoryByteStream(name: "export.xml", bytes: Array(xml.utf8)))
        let events = try #require(export.workouts.first).events
        #expect(events.count == HealthWorkoutEvent.maxPerWorkout)
        #expect(events.allSatisfy { $0.type == "Pause" })
    }
}
