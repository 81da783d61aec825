import Foundation
import RaceKitFormats
import RaceKitImport
import RaceKitMetrics
import RaceKitModel
import RaceKitSQLite
import RaceKitStore
import RaceKitTestSupport
import Testing

@testable import RaceKitWorkflows

/// The device's timer and energy (issue 38, item 1): read from each format's
/// laps or session, stored beside RaceKit's own figures, kept by a recompute
/// (the store has no laps to read them again).
@Suite struct DeviceTotalsTests {
    /// A TCX run of two laps, each `seconds` long at 3 m/s, with the laps' totals.
    static func tcx(laps: [(seconds: Int, timer: Double, calories: Int?)]) -> String {
        var t = 1_772_348_400.0, lat = 48.0
        var body = ""
        for lap in laps {
            body +=
                "<Lap StartTime=\"\(TimestampParser.format(t, fractional: false))\"><TotalTimeSeconds>\(lap.timer)</TotalTimeSeconds>"
            body += "<DistanceMeters>\(lap.seconds * 3)</DistanceMeters>"
            if let c = lap.calories { body += "<Calories>\(c)</Calories>" }
            body += "<Track>"
            for _ in 0..<lap.seconds {
                body +=
                    "<Trackpoint><Time>\(TimestampParser.format(t, fractional: false))</Time><Position><LatitudeDegrees>\(lat)</LatitudeDegrees>"
                body += "<LongitudeDegrees>11.0</LongitudeDegrees></Position></Trackpoint>"
                t += 1; lat += 3 / 111_195.0
            }
            body += "</Track></Lap>"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
            <Activities><Activity Sport="Running"><Id>\(TimestampParser.format(1_772_348_400, fractional: false))</Id>\(body)</Activity></Activities>
            </TrainingCenterDatabase>
            """
    }

    /// 2026-03-01T07:00:00Z in FIT time (seconds since 1989-12-31).
    static let fitStart = Int64(1_772_348_400) - 631_065_600

    /// A FIT writer with the file_id of an activity written.
    static func activityFile() -> FITWriter {
        var w = FITWriter()
        w.define(local: 0, global: 0, fields: [.init(0, .enumeration)])
        w.write(local: 0, [.int(4)])
        return w
    }

    /// A FIT ride of `seconds` records with a session: timer and calories.
    static func fit(seconds: Int, timer: Double, calories: Int64, lapCalories: [Int64?] = []) -> [UInt8] {
        let start = Self.fitStart
        var w = Self.activityFile()
        w.define(
            local: 1, global: 20,
            fields: [.init(253, .uint32), .init(0, .sint32), .init(1, .sint32), .init(5, .uint32), .init(7, .uint16)])
        let perDegree = 2_147_483_648.0 / 180
        for i in 0..<Int64(seconds) {
            // 8 m/s due north from 48°N 11°E.
            let lat = Int64(((48 + Double(i) * 8 / 111_195.0) * perDegree).rounded())
            w.write(
                local: 1,
                [.int(start + i), .int(lat), .int(Int64((11 * perDegree).rounded())), .int(i * 800), .int(200)])
        }
        if !lapCalories.isEmpty {
            w.define(local: 3, global: 19, fields: [.init(253, .uint32), .init(8, .uint32), .init(11, .uint16)])
            let each = Int64(timer * 1000) / Int64(lapCalories.count)
            for c in lapCalories {
                w.write(local: 3, [.int(start + Int64(seconds)), .int(each), c.map { .int($0) } ?? .invalid])
            }
        }
        w.define(
            local: 2, global: 18,
            fields: [
                .init(253, .uint32), .init(2, .uint32), .init(5, .enumeration), .init(7, .uint32), .init(8, .uint32),
                .init(9, .uint32), .init(11, .uint16)
            ])
        w.write(
            local: 2,
            [
                .int(start + Int64(seconds)), .int(start), .int(2), .int(Int64(seconds) * 1000),
                .int(Int64(timer * 1000)), .int(Int64(seconds) * 800), .int(calories)
            ])
        return w.file()
    }

    @Test func theTimerAndEnergyOfEachFormatAreStoredAndKeptByARecompute() throws {
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = [
            ("laps.tcx", Array(Self.tcx(laps: [(600, 590.5, 80), (500, 500, 70)]).utf8)),
            ("no-calories.tcx", Array(Self.tcx(laps: [(300, 300, nil)]).utf8)),
            ("ride.fit", Self.fit(seconds: 900, timer: 870.25, calories: 321)),
            // Laps that lack calories (or have some of them): the session's total, not a part.
            ("session.fit", Self.fit(seconds: 600, timer: 600, calories: 432, lapCalories: [nil, 60])),
            // A TCX lap without a usable energy: the other lap's is a part, no total.
            ("partial.tcx", Array(Self.tcx(laps: [(200, 200, -5), (200, 200, 100)]).utf8))
        ]
        var paths: [String] = []
        for (name, bytes) in files {
            let url = dir.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            paths.append(url.path)
        }
        let store = try RunStore()
        var options = ImportOptions()
        options.allowDuplicates = true
        let results = try Importer(store: store, options: options).run(files: paths)
        #expect(results.allSatisfy { $0.status == .imported }, "\(results.map { ($0.file, $0.reason) })")
        func totals() throws -> [String: [Double?]] {
            Dictionary(
                uniqueKeysWithValues: try store.runs().map {
                    (
                        $0.sourceFile,
                        [$0.metrics[Metric.TimerSeconds.self], $0.metrics[Metric.EnergyKcal.self]]
                    )
                })
        }
        let imported = try totals()
        #expect(imported["laps.tcx"] == [1090.5, 150])
        #expect(imported["no-calories.tcx"] == [300, nil])
        #expect(imported["ride.fit"] == [870.25, 321])
        #expect(imported["session.fit"] == [600, 432])
        #expect(imported["partial.tcx"] == [400, nil])
        // Our own times beside them: the TCX points span 1,099 s.
        let tcxRun = try #require(try store.runs().first { $0.sourceFile == "laps.tcx" })
        #expect(tcxRun.elapsedSeconds == 1099)

        let outcome = try Recompute(store: store).run(athleteID: Athlete.defaultID, force: true, jobs: 1)
        #expect(outcome.checked == 5 && outcome.failed.isEmpty)
        #expect(try totals() == imported)

        // Shown where a coach looks: runs show's facts, runs list's power columns.
        let ride = try #require(try store.runs().first { $0.sourceFile == "ride.fit" })
        let show = try RunDetail.load(store, id: ride.id).text(splits: [], unit: .km)
        #expect(show.contains("\nTimer       14:30 (the device's)\n"))
        #expect(show.contains("\nPower       avg 200 · normalized 200 · max 200 W · variability 1.00\n"))
        #expect(show.contains("\nEnergy      321 kcal (the device's)\n"))
        let detail = try RunDetail.load(store, id: ride.id)
        let table = SplitTable.text(detail.analysis.splits(.km), unit: .km).split(separator: "\n")
        #expect(table.first?.hasSuffix("  cad    W") == true, "\(table)")
        #expect(table[2].hasSuffix("  200"))
        let tcxShow = try RunDetail.load(store, id: tcxRun.id).text(splits: [], unit: .km)
        #expect(
            !SplitTable.text(try RunDetail.load(store, id: tcxRun.id).analysis.splits(.km), unit: .km).contains(" W"))
        #expect(!tcxShow.contains("Power") && tcxShow.contains("Timer       18:11 (the device's)"))
        let list = try RunList(store, RunList.Options()).text(unit: .km)
        #expect(list.contains("  avg W  norm W  "))
        #expect(list.split(separator: "\n").contains { $0.contains("ride.fit") && $0.contains("    200     200  ") })
        var runsOnly = RunList.Options()
        runsOnly.sport = .running
        #expect(!(try RunList(store, runsOnly).text(unit: .km)).contains("avg W"))
    }

    @Test func lapTotalsOfAnExcerptTellNoTimer() throws {
        // A lap that claims an hour over 5 minutes of points: the laps describe more than the file holds.
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("excerpt.tcx")
        try Self.tcx(laps: [(300, 3600, 500)]).write(to: url, atomically: false, encoding: .utf8)
        let read = try ActivityFileReader.read(path: url.path)
        guard case .document(let doc) = read.outcome,
            case .activity(let activity) = TrackRepair.repair(doc.activities[0], format: .tcx)
        else {
            Issue.record("the excerpt did not read")
            return
        }
        #expect(activity.repairs.lapTotalsIgnored)
        #expect(
            activity.repairs.descriptions.contains(
                "lap totals describe a longer activity: trackpoints trusted, the laps' timer and energy not used"))
        let m = RunAnalyzer.analyse(activity, physiology: Physiology()).metrics
        #expect(m[Metric.TimerSeconds.self] == nil && m[Metric.EnergyKcal.self] == nil)
    }

    @Test func aWatchsFileWithPowerUpgradesTheExportOfItsTrack() throws {
        // The same ride twice: a GPX of its track (no power), then the watch's FIT (power, timer).
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var points: [String] = []
        var lat = 48.0
        for i in 0..<900 {
            let t = TimestampParser.format(1_772_348_400 + Double(i), fractional: false)
            points.append("<trkpt lat=\"\(lat)\" lon=\"11\"><time>\(t)</time></trkpt>")
            lat += 8 / 111_195.0
        }
        let gpx = dir.appendingPathComponent("ride.gpx")
        try """
        <?xml version="1.0"?><gpx version="1.1" creator="export" xmlns="http://www.topografix.com/GPX/1/1">\
        <trk><type>cycling</type><trkseg>\(points.joined())</trkseg></trk></gpx>
        """.write(to: gpx, atomically: false, encoding: .utf8)
        let fit = dir.appendingPathComponent("ride.fit")
        try Data(Self.fit(seconds: 900, timer: 899, calories: 300)).write(to: fit)
        let store = try RunStore()
        let first = try Importer(store: store, options: ImportOptions()).run(files: [gpx.path])
        #expect(first.map(\.status) == [.imported])
        let second = try Importer(store: store, options: ImportOptions()).run(files: [fit.path])
        #expect(second.map(\.status) == [.upgraded], "\(second.map { ($0.status, $0.reason) })")
        let run = try #require(try store.runs().first)
        #expect(try store.runs().count == 1)
        #expect(run.metrics[Metric.AvgPower.self] == 200 && run.metrics[Metric.TimerSeconds.self] == 899)
        // And the export again does not take the power away.
        let third = try Importer(store: store, options: ImportOptions()).run(files: [gpx.path])
        #expect(third.map(\.status) == [.duplicate])
    }

    @Test func aDeveloperFieldsNameStaysOnItsLineOfRunsShow() throws {
        let start = Self.fitStart
        var w = Self.activityFile()
        w.define(
            local: 1, global: 206,
            fields: [
                .init(0, .uint8), .init(1, .uint8), .init(2, .uint8), .init(3, .string, size: 24),
                .init(8, .string, size: 8)
            ])
        w.write(local: 1, [.int(0), .int(0), .int(0x02), .string("Line1\nLine2"), .string("W\nW")])
        w.define(local: 2, global: 20, fields: [.init(253, .uint32), .init(5, .uint32)], developer: [.init(0, size: 1)])
        for i in 0..<Int64(120) { w.write(local: 2, [.int(start + i), .int(i * 300)], developer: [[42]]) }
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("nasty.fit")
        try Data(w.file()).write(to: url)
        let store = try RunStore()
        #expect(
            try Importer(store: store, options: ImportOptions()).run(files: [url.path]).map(\.status) == [.imported])
        let run = try #require(try store.runs().first)
        let text = try RunDetail.load(store, id: run.id).text(splits: [], unit: .km)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Developer") })
        #expect(line.contains("Line1") && line.contains("Line2") && line.contains("avg 42.0 · max 42.0"), "\(line)")
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("Line2") || $0.hasPrefix("W") })
    }

    @Test func aPoolSwimWithoutTimedRecordsIsReadFromItsLengths() throws {
        // 25 m pool: 4 lengths of 30 s and 15 strokes, a 60 s rest (an idle length), 2 more; records untimed.
        let start = Self.fitStart
        var w = Self.activityFile()
        w.define(local: 1, global: 20, fields: [.init(5, .uint32)])
        for i in 1...6 { w.write(local: 1, [.int(Int64(i) * 2500)]) }
        w.define(
            local: 2, global: 101,
            fields: [
                .init(253, .uint32), .init(2, .uint32), .init(4, .uint32), .init(5, .uint16), .init(12, .enumeration)
            ])
        var t = start
        for k in 0..<7 {
            let idle = k == 4
            let seconds: Int64 = idle ? 60 : 30
            w.write(
                local: 2,
                [.int(t + seconds), .int(t), .int(seconds * 1000), idle ? .invalid : .int(15), .int(idle ? 0 : 1)])
            t += seconds
        }
        w.define(
            local: 3, global: 18,
            fields: [
                .init(253, .uint32), .init(2, .uint32), .init(5, .enumeration), .init(6, .enumeration),
                .init(7, .uint32),
                .init(8, .uint32), .init(9, .uint32), .init(44, .uint16)
            ])
        w.write(
            local: 3,
            [.int(t), .int(start), .int(5), .int(17), .int((t - start) * 1000), .int(180_000), .int(15000), .int(2500)])
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("pool.fit")
        try Data(w.file()).write(to: url)
        let store = try RunStore()
        let results = try Importer(store: store, options: ImportOptions()).run(files: [url.path])
        #expect(results.map(\.status) == [.imported], "\(results.map(\.reason))")
        #expect(results.first?.reason?.contains("the swim's track built from its 6 pool lengths") == true)
        let run = try #require(try store.runs().first)
        #expect(run.sport == .swimming && run.distanceMeters == 150)
        #expect(run.movingSeconds == 180)   // the rest is a pause
        let m = run.metrics
        #expect(m[Metric.PoolLength.self] == 25 && m[Metric.Lengths.self] == 6 && m[Metric.Strokes.self] == 90)
        #expect(m[Metric.AvgStrokeRate.self] == 30)   // 90 strokes in 180 s
        #expect(m[Metric.Swolf.self] == 45)   // 30 s + 15 strokes a length
        #expect(m[Metric.TimerSeconds.self] == 180)
    }
}
