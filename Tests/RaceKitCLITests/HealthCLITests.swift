import Foundation
import RaceKitTestSupport
import Testing

/// `racekit-gen`, built beside `racekit`.
private let generator = CLI.binary.deletingLastPathComponent().appendingPathComponent("racekit-gen")
private let haveGenerator = FileManager.default.isExecutableFile(atPath: generator.path)

/// `racekit import` of an Apple Health export folder made by `racekit-gen health-export`
/// (30 workouts: 24 runs, 3 rides, 3 strength sessions; one run also as a Strava GPX).
@Suite(.enabled(if: haveGenerator, "racekit-gen is not built beside racekit")) struct HealthCLITests {
    private func generated(_ cli: CLI) throws -> URL {
        let dir = cli.workdir.appendingPathComponent("export")
        let gen = Process()
        gen.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
        gen.executableURL = generator
        gen.arguments = ["health-export", dir.path]
        gen.standardOutput = FileHandle.nullDevice
        try gen.run()
        gen.waitUntilExit()
        try #require(gen.terminationStatus == 0)
        return dir
    }

    private func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func importsAGeneratedExportFolderEndToEnd() throws {
        let cli = try CLI()
        let dir = try generated(cli)
        let imported = try cli.run(["--store", "s.sqlite", "import", "--format", "json", dir.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let results = try json(imported.stdout)
        // 30 workouts and the Strava GPX; the 18 route files are read, not imported.
        #expect(results.count == 31)
        #expect(!results.contains { ($0["file"] as? String)?.contains("workout-routes") == true })
        #expect(results.allSatisfy { Set($0.keys) == ["file", "status", "runIds", "reason"] })
        let statuses = results.map { $0["status"] as? String ?? "" }
        #expect(statuses.filter { $0 == "imported" }.count == 30)
        // The Strava copy of a run is found again in the export (the Apple one is richer).
        #expect(statuses.filter { $0 == "upgraded" || $0 == "duplicate" }.count == 1)

        let listed = try cli.run(["--store", "s.sqlite", "runs", "list", "--format", "json"])
        let runs = try json(listed.stdout)
        #expect(runs.count == 30)
        #expect(runs.filter { $0["sport"] as? String == "running" }.count == 24)
        #expect(runs.filter { $0["sport"] as? String == "cycling" }.count == 3)
        #expect(runs.filter { $0["sport"] as? String == "other" }.count == 3)

        // The treadmill runs: distance from the watch's records, as the workout declares it.
        let xml = try String(contentsOf: dir.appendingPathComponent("apple_health_export/export.xml"), encoding: .utf8)
        let treadmill = runs.filter { $0["runType"] as? String == "treadmill" }
        #expect(treadmill.count == 3)
        let firstIndoor = try #require(xml.range(of: "<MetadataEntry key=\"HKIndoorWorkout\" value=\"1\"/>"))
        let statistic = try #require(xml[firstIndoor.upperBound...].range(of: "DistanceWalkingRunning"))
        let sumText = xml[statistic.upperBound...].split(separator: "sum=\"")[1].prefix { $0 != "\"" }
        let declared = try #require(Double(sumText)) * 1000
        let first = try #require(treadmill.first)
        #expect(abs((first["distanceMeters"] as? Double ?? 0) - declared) < declared * 0.005)
        #expect((first["avgHeartRate"] as? Double ?? 0) > 120)

        // Runs with a route: heart rate from the records on (nearly) every point.
        for run in runs where run["sport"] as? String == "running" && run["runType"] as? String == "outdoor" {
            #expect((run["heartRateCoveragePercent"] as? Double ?? 0) >= 95, "\(run["startedAt"] ?? "")")
            let hr = run["avgHeartRate"] as? Double ?? 0
            #expect(hr > 120 && hr < 180)
        }

        // Again: nothing new.
        let again = try cli.run(["--store", "s.sqlite", "import", dir.path])
        #expect(again.status == 0)
        #expect(again.stdout.contains("Nothing new"))
    }

    @Test func anExportWithAnEntityExitsWithDataErrorNamingFileAndLine() throws {
        let cli = try CLI()
        try cli.write(
            "apple_health_export/export.xml",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData ANY>\n<!ENTITY x \"y\">\n]>\n<HealthData/>\n"
        )
        let result = try cli.run(["--store", "s.sqlite", "import", "apple_health_export"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("apple_health_export/export.xml:4: the export's DTD declares an entity"))
        let listed = try cli.run(["--store", "s.sqlite", "runs", "list", "--format", "json"])
        #expect(try json(listed.stdout).isEmpty)
    }

    /// A FIFO as a route file of the export (and as an activity file, as Strava's
    /// activities.csv beside it and as a setup's course) blocked forever: every one
    /// is skipped with its reason and the command ends.
    @Test func fifosAnywhereAreSkippedAndNothingHangs() throws {
        let cli = try CLI()
        let dir = try generated(cli)
        let routes = dir.appendingPathComponent("apple_health_export/workout-routes")
        let route = try #require(try FileManager.default.contentsOfDirectory(atPath: routes.path).sorted().first)
        try FileManager.default.removeItem(at: routes.appendingPathComponent(route))
        #expect(mkfifo(routes.appendingPathComponent(route).path, 0o644) == 0)
        let strava = cli.workdir.appendingPathComponent("strava/activities")
        try FileManager.default.createDirectory(at: strava, withIntermediateDirectories: true)
        #expect(mkfifo(strava.appendingPathComponent("pipe.gpx").path, 0o644) == 0)
        #expect(mkfifo(cli.workdir.appendingPathComponent("strava/activities.csv").path, 0o644) == 0)
        try cli.write("strava/activities/1.gpx", minimalRunGPX)
        let r = try cli.runBounded(["--store", "s.sqlite", "import", dir.path, "strava"], seconds: 60)
        #expect(!r.timedOut, "the import blocked on a FIFO")
        #expect(
            r.stdout.contains("skipped: strava/activities/pipe.gpx: a FIFO (named pipe), not a regular file"),
            "\(r.stdout)")
        #expect(
            r.stderr.contains("activities.csv: cannot open: a FIFO (named pipe)")
                || r.stdout.contains("activities.csv: cannot open: a FIFO (named pipe)"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("a FIFO (named pipe)"))
        #expect((try? runCount(cli, store: "s.sqlite")) ?? 0 >= 30)

        try cli.write("Races/c.yaml", "name: C\ndistance: 10k\ntarget_time: \"50:00\"\ncourse: c.gpx\n")
        #expect(mkfifo(cli.workdir.appendingPathComponent("Races/c.gpx").path, 0o644) == 0)
        let plan = try cli.runBounded(["race", "plan", "Races/c.yaml"], seconds: 60)
        #expect(!plan.timedOut, "race plan blocked on a FIFO course")
        #expect(plan.status == 65, "\(plan.stderr)")
        #expect(plan.stderr.contains("a FIFO (named pipe), not a regular file"), "\(plan.stderr)")
    }
}

/// A run of three points, enough to be stored.
let minimalRunGPX = """
    <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
    <trkpt lat="48.1" lon="11.5"><time>2026-03-02T07:00:00Z</time></trkpt>
    <trkpt lat="48.105" lon="11.5"><time>2026-03-02T07:02:30Z</time></trkpt>
    <trkpt lat="48.11" lon="11.5"><time>2026-03-02T07:05:00Z</time></trkpt>
    </trkseg></trk></gpx>
    """
