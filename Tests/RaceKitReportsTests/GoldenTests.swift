import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitOutput
@testable import RaceKitReports
@testable import RaceKitSQLite
@testable import RaceKitStore
@testable import RaceKitWorkflows

/// A fixed six-week history ending in a 10 km race, with a week off, a run
/// without heart rate and one without load.
func goldenHistory() -> AthleteWeeks {
    let m = w46.monday
    var runs: [ReportRun] = []
    for week in 0..<6 where week != 2 {
        let base = m - 7 * (5 - week)
        let scale = 1 + Double(week) * 0.08
        runs.append(
            reportRun(
                day: base + 1, km: 8 * scale, minutes: 44 * scale, load: 55 * scale,
                zones: ["1": 600, "2": 1800, "3": 240],
                efforts: [
                    BestEffort(distanceMeters: 5000, elapsedSeconds: 1500 - Double(week) * 10, startOffsetSeconds: 300)
                ]))
        runs.append(reportRun(day: base + 3, km: 6, minutes: 35, load: week == 4 ? nil : 40, hr: week == 4 ? nil : 145))
        runs.append(
            reportRun(
                day: base + 6, km: 14 * scale, minutes: 80 * scale, load: 95 * scale,
                zones: ["2": 3600, "3": 900, "4": 300]))
    }
    runs.append(
        reportRun(
            day: m + 5, km: 10, minutes: 41.5, load: 88, hr: 172, label: "Race - City 10k",
            zones: ["4": 1200, "5": 1290],
            efforts: [
                BestEffort(distanceMeters: 5000, elapsedSeconds: 1230, startOffsetSeconds: 1260),
                BestEffort(distanceMeters: 10_000, elapsedSeconds: 2490, startOffsetSeconds: 0)
            ]))
    return WeeklyAggregator.weeks(
        athleteID: "golden", athleteName: "Golden Runner", timeZone: "Europe/Berlin",
        zoneNames: ["1", "2", "3", "4", "5"], runs: runs, through: w46, count: 8)
}

/// The golden files in `Golden/` beside this file.
let goldenFolder = Golden.folder(besides: #filePath)

@Suite struct GoldenTests {
    @Test func weeklyCSV() throws {
        try Golden.check(WeeklyCSV.render(goldenHistory()), "weekly.csv", in: goldenFolder)
    }
    @Test func weeklyMarkdown() throws {
        try Golden.check(
            WeeklyMarkdown.render(goldenHistory(), chartFile: "2026-W46.svg"), "2026-W46.md", in: goldenFolder)
    }
    @Test func weeklyChart() throws {
        try Golden.check(WeeklyChart.render(goldenHistory()), "2026-W46.svg", in: goldenFolder)
    }

    /// Recording writes the file and fails the check: it never passes.
    @Test func recordingAGoldenWritesItAndFails() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("old text\n".utf8).write(to: folder.appendingPathComponent("weekly.csv"))
        let error = #expect(throws: Golden.Mismatch.self) {
            try Golden.check("new text\n", "weekly.csv", in: folder, recording: true)
        }
        #expect(error?.description.contains("Recorded a new golden Golden/weekly.csv") == true)
        #expect(try String(contentsOf: folder.appendingPathComponent("weekly.csv"), encoding: .utf8) == "new text\n")
        // Recorded, the same text passes.
        try Golden.check("new text\n", "weekly.csv", in: folder, recording: false)
    }

    /// A missing golden is written and fails: a new test never passes unreviewed.
    @Test func aMissingGoldenIsRecordedAndFails() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-golden-\(UUID().uuidString)")
        let error = #expect(throws: Golden.Mismatch.self) {
            try Golden.check("first\n", "sub/new.md", in: folder, recording: false)
        }
        #expect(error?.description.contains("Golden/sub/new.md was missing") == true)
        #expect(try String(contentsOf: folder.appendingPathComponent("sub/new.md"), encoding: .utf8) == "first\n")
    }

    /// One changed byte fails, naming the line.
    @Test func aChangedByteFails() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("a,b\r\n1,2\r\n".utf8).write(to: folder.appendingPathComponent("t.csv"))
        try Golden.check("a,b\r\n1,2\r\n", "t.csv", in: folder, recording: false)
        let changed = #expect(throws: Golden.Mismatch.self) {
            try Golden.check("a,b\r\n1,3\r\n", "t.csv", in: folder, recording: false)
        }
        #expect(changed?.description.contains("line 2") == true, "\(changed.map(\.description) ?? "")")
        #expect(throws: Golden.Mismatch.self) { try Golden.check("a,b\n1,2\n", "t.csv", in: folder, recording: false) }
        #expect(throws: Golden.Mismatch.self) {
            try Golden.check("a,b\r\n1,2\r\n\n", "t.csv", in: folder, recording: false)
        }
    }

    @Test func renderingIsDeterministic() {
        #expect(WeeklyCSV.render(goldenHistory()) == WeeklyCSV.render(goldenHistory()))
        #expect(
            WeeklyMarkdown.render(goldenHistory(), chartFile: "c.svg")
                == WeeklyMarkdown.render(goldenHistory(), chartFile: "c.svg"))
    }
}

@Suite struct WeeklyReportJobTests {
    func storeWithRuns() throws -> RunStore {
        let store = try RunStore()
        try store.addAthlete(Athlete(id: "anna", name: "Anna", timeZone: "Europe/Berlin", createdAt: 0))
        let m = Double(w46.monday) * 86_400
        let runs = try [0.0, 2, 5, 9, 13].enumerated().map { i, offset in
            try Self.run(start: m - 14 * 86_400 + offset * 86_400 + 6 * 3600, index: i)
        }
        _ = try store.insert(
            runs, athleteID: "anna", sourceFile: "x.tcx", format: .tcx, sha256: "s", allowDuplicates: true)
        return store
    }

    /// A 30-minute run at 3 m/s from `start` (epoch seconds).
    static func run(start: Double, index i: Int) throws -> NewRun {
        var raw = RawActivity()
        raw.sport = "running"
        for s in stride(from: 0, through: 1800, by: 5) {
            var p = SamplePoint()
            p.time = start + Double(s)
            p.distance = Double(s) * 3
            p.heartRate = 140 + Double(i)
            raw.samples.append(p)
        }
        raw.segmentStarts = [0]
        guard case .activity(let a) = TrackRepair.repair(raw, format: .tcx) else { throw CancellationError() }
        return NewRun(
            activity: a,
            analysis: RunAnalyzer.analyse(a, physiology: Physiology(maxHeartRate: 190, thresholdHeartRate: 170)),
            activityIndex: i)
    }

    /// A report through a past week reads the runs up to that week only: runs
    /// after it (the next Monday at 00:30 in Berlin, Sunday 23:30 in UTC, and
    /// weeks later) change no byte of it.
    @Test func aPastWeeksReportIsTheSameWhateverCameAfter() throws {
        let store = try storeWithRuns()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try WeeklyReportJob(store: store, options: options(dir)).run().map {
            try Data(contentsOf: URL(fileURLWithPath: $0.path))
        }
        let nextMonday = Double(w46.monday + 7) * 86_400
        let later = try [nextMonday - 1800, nextMonday + 2 * 86_400, nextMonday + 40 * 86_400].enumerated().map {
            try Self.run(start: $0.element, index: 10 + $0.offset)
        }
        _ = try store.insert(
            later, athleteID: "anna", sourceFile: "later.tcx", format: .tcx, sha256: "l", allowDuplicates: true)
        #expect(try store.runCount() == 8)
        let after = try WeeklyReportJob(store: store, options: options(dir)).run().map {
            try Data(contentsOf: URL(fileURLWithPath: $0.path))
        }
        #expect(before.count == 4 && before == after)
    }

    func options(_ dir: URL) -> WeeklyReportJob.Options {
        var o = WeeklyReportJob.Options()
        o.allAthletes = true
        o.outputDirectory = dir.path
        o.through = .week(w46)
        o.weeks = 4
        o.lockWaitSeconds = 0.3
        return o
    }

    @Test func writesTheLayoutAndRerunsAreByteIdentical() throws {
        let store = try storeWithRuns()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-report-\(UUID().uuidString)")
        let written = try WeeklyReportJob(store: store, options: options(dir)).run()
        #expect(
            written.map { ($0.path as NSString).lastPathComponent } == [
                "weekly.csv", "2026-W46.md", "2026-W46.svg", "index.md"
            ])
        let before = try written.map { try Data(contentsOf: URL(fileURLWithPath: $0.path)) }
        _ = try WeeklyReportJob(store: store, options: options(dir)).run()
        let after = try written.map { try Data(contentsOf: URL(fileURLWithPath: $0.path)) }
        #expect(before == after)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("anna").path)
        #expect(!leftovers.contains { $0.hasSuffix(".tmp") })
        let csv = try String(contentsOf: dir.appendingPathComponent("anna/weekly.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\r\n").count == 5)
        #expect(csv.contains("anna,2026-W45,2026-11-02,2,"))
    }

    @Test func aSecondRunWaitsForTheLockThenGivesUp() throws {
        let store = try storeWithRuns()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-report-\(UUID().uuidString)")
        try AtomicFile.createDirectory(dir.path)
        let held = try OutputLock(directory: dir.path, waitSeconds: 0)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: OutputError.self) { try WeeklyReportJob(store: store, options: options(dir)).run() }
        #expect(clock.now - start >= .milliseconds(250))
        withExtendedLifetime(held) {}
    }

    /// An athlete's folder that is a symbolic link (`Reports/anna -> /elsewhere`)
    /// is refused: nothing is written where it points.
    @Test func anAthletesFolderThatIsALinkIsRefused() throws {
        let store = try storeWithRuns()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try AtomicFile.createDirectory(dir.appendingPathComponent("elsewhere").path)
        try AtomicFile.createDirectory(dir.appendingPathComponent("out").path)
        symlink(dir.appendingPathComponent("elsewhere").path, dir.appendingPathComponent("out/anna").path)
        #expect {
            try WeeklyReportJob(store: store, options: options(dir.appendingPathComponent("out"))).run()
        } throws: { error in
            ExitClass(of: error) == .cannotCreate && "\(error)".contains("symbolic link")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("elsewhere").path) == [])
    }

    @Test func stampAddsTheTimeOnlyWhenAsked() throws {
        let store = try storeWithRuns()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-report-\(UUID().uuidString)")
        var o = options(dir)
        o.stamp = true
        o.now = 1_800_000_000
        _ = try WeeklyReportJob(store: store, options: o).run()
        let md = try String(contentsOf: dir.appendingPathComponent("anna/2026-W46.md"), encoding: .utf8)
        #expect(md.contains("Generated 2027-01-15T08:00:00Z."))
    }
}
