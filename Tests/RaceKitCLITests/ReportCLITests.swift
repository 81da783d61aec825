import Foundation
import RaceKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ReportCLITests {
    func cliWithRuns() throws -> CLI {
        let cli = try CLI()
        _ = try cli.run([
            "athlete", "set", "default", "--time-zone", "Europe/Berlin", "--max-hr", "190", "--resting-hr", "50"
        ])
        // Sunday 2026-11-15 23:10 in Berlin (22:10 UTC) must land in 2026-W46.
        try cli.write("a.tcx", steadyTCX(start: "2026-11-15T22:10:00Z"))
        try cli.write("b.tcx", steadyTCX(start: "2026-11-10T06:00:00Z", seconds: 900))
        #expect(try cli.run(["import", "."]).status == 0)
        return cli
    }

    @Test func writesReportsQuietlyAndRerunsAreIdentical() throws {
        let cli = try cliWithRuns()
        let r = try cli.run(["report", "weekly", "--week", "2026-W46", "--weeks", "3", "--quiet"])
        #expect(r.status == 0 && r.stdout.isEmpty && r.stderr.isEmpty)
        let dir = cli.workdir.appendingPathComponent("Reports/default")
        let csv = try String(contentsOf: dir.appendingPathComponent("weekly.csv"), encoding: .utf8)
        let rows = csv.split(separator: "\r\n")
        #expect(rows.count == 4)
        #expect(rows[3].hasPrefix("default,2026-W46,2026-11-09,2,"))   // both runs, the late Sunday one included
        #expect(rows[1].hasPrefix("default,2026-W44,2026-10-26,0,0.000,"))
        let first = try Data(contentsOf: dir.appendingPathComponent("2026-W46.md"))
        _ = try cli.run(["report", "weekly", "--week", "2026-W46", "--weeks", "3", "--quiet"])
        #expect(try Data(contentsOf: dir.appendingPathComponent("2026-W46.md")) == first)
    }

    /// A record set long before the report's weeks still counts: the 5k of
    /// 31 weeks earlier (5,000 m at 3.6 m/s: 23:09) is the one to beat, whatever
    /// window of runs the report reads zones and efforts for.
    @Test func recordsFromBeforeTheReportedWeeksStillCount() throws {
        let cli = try CLI()
        try cli.write("old.gpx", trackGPX(seconds: 1500, speed: 3.6, start: "2026-04-14T07:00:00Z"))
        try cli.write("slow.gpx", trackGPX(seconds: 1800, speed: 3.0, start: "2026-11-10T07:00:00Z"))
        #expect(try cli.run(["import", "."]).status == 0)
        let report = cli.workdir.appendingPathComponent("Reports/default/2026-W46.md")
        #expect(try cli.run(["report", "weekly", "--week", "2026-W46", "--weeks", "3", "--quiet"]).status == 0)
        let slow = try String(contentsOf: report, encoding: .utf8)
        #expect(!slow.contains("Personal records"), "a 27:47 5k is no record after a 23:09 one")
        // At 4 m/s against 3.6 m/s: 400 m 1:40 (was 1:51), 800 m 3:20 (3:42),
        // 1 km 4:10 (4:38), a mile 6:42 (7:27), 3 km 12:30 (13:53), 5 km 20:50 (23:09).
        try cli.write("fast.gpx", trackGPX(seconds: 1500, speed: 4.0, start: "2026-11-12T07:00:00Z"))
        #expect(try cli.run(["import", "fast.gpx"]).status == 0)
        #expect(try cli.run(["report", "weekly", "--week", "2026-W46", "--weeks", "3", "--quiet"]).status == 0)
        let fast = try String(contentsOf: report, encoding: .utf8)
        let line =
            "Personal records: 400m 1:40 (was 1:51), 800m 3:20 (was 3:42), 1k 4:10 (was 4:38), 1mi 6:42 (was 7:27), 3k 12:30 (was 13:53), 5k 20:50 (was 23:09)."
        #expect(fast.contains(line), "\(fast)")
    }

    @Test func lastCompleteWeekFollowsNowInTheAthletesZone() throws {
        let cli = try cliWithRuns()
        // Monday 2026-11-16 00:30 in Berlin: the last complete week is W46.
        let r = try cli.run(["report", "weekly", "--format", "csv"], env: ["RACEKIT_NOW": "2026-11-15T23:30:00Z"])
        #expect(r.status == 0 && r.stdout.contains("Reports/default/weekly.csv"))
        let csv = try String(
            contentsOf: cli.workdir.appendingPathComponent("Reports/default/weekly.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\r\n").last?.hasPrefix("default,2026-W46,") == true)
        #expect(csv.split(separator: "\r\n").count == 13)
        #expect(
            !FileManager.default.fileExists(
                atPath: cli.workdir.appendingPathComponent("Reports/default/2026-W46.md").path))
    }

    @Test func twoOverlappingRunsNeverInterleave() throws {
        let cli = try cliWithRuns()
        let args = ["report", "weekly", "--all-athletes", "--week", "2026-W46", "--quiet", "--wait", "30"]
        let results = try [0, 1].map { _ -> Process in
            let p = Process()
            p.executableURL = CLI.binary
            p.arguments = args
            p.currentDirectoryURL = cli.workdir
            p.environment = ProcessInfo.processInfo.environment.filter { $0.key != "RACEKIT_STORE" }
            try p.run()
            return p
        }
        for p in results { p.waitUntilExit() }
        #expect(results.map(\.terminationStatus) == [0, 0])
        let md = try String(
            contentsOf: cli.workdir.appendingPathComponent("Reports/default/2026-W46.md"), encoding: .utf8)
        #expect(md.hasPrefix("# Default athlete · 2026-W46") && md.hasSuffix("\n"))
        #expect(FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent("Reports/index.md").path))
    }

    @Test func exits75WhenAnotherRunHoldsTheLock() throws {
        let cli = try cliWithRuns()
        let reports = cli.workdir.appendingPathComponent("Reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let fd = open(reports.appendingPathComponent(".racekit-report.lock").path, O_CREAT | O_RDWR, 0o644)
        #expect(flock(fd, LOCK_EX) == 0)
        defer { flock(fd, LOCK_UN); close(fd) }
        let r = try cli.launch(["report", "weekly", "--week", "2026-W46", "--wait", "0.2"])   // another process
        #expect(r.status == 75)
        #expect(r.stderr.contains("another report run holds"))
    }

    @Test func usageErrorsExit64() throws {
        let cli = try CLI()
        #expect(try cli.run(["athlete", "add", "anna"]).status == 0)
        #expect(try cli.run(["report", "weekly", "--week", "2026-W60"]).status == 64)
        // A week that has not begun: refused, nothing written (it would be all zeros).
        let future = try cli.run(
            ["report", "weekly", "--week", "2026-W49"], env: ["RACEKIT_NOW": "2026-11-25T12:00:00Z"])
        #expect(future.status == 64)
        #expect(
            future.stderr.contains("the report week 2026-W49 is in the future (this is 2026-W48)"), "\(future.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent("Reports").path))
        let current = try cli.run(
            ["report", "weekly", "--week", "2026-W48", "--quiet"], env: ["RACEKIT_NOW": "2026-11-25T12:00:00Z"])
        #expect(current.status == 0, "\(current.stderr)")
        #expect(try cli.run(["report", "weekly", "--athlete", "a", "--all-athletes"]).status == 64)
        #expect(try cli.run(["report", "weekly", "--format", "pdf"]).status == 64)
        #expect(try cli.run(["report", "weekly", "--athlete", "ghost"]).status == 64)
    }

    @Test func unwritableOutputExits73() throws {
        let cli = try CLI()
        try cli.write("file", "not a folder")
        #expect(try cli.run(["athlete", "add", "anna"]).status == 0)
        let r = try cli.run(["report", "weekly", "--out", "file/reports"])
        #expect(r.status == 73)
    }
}
