import Foundation
import Testing

/// Runs the built `racekit` binary.
struct CLI {
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["RACEKIT_BIN"] { return URL(fileURLWithPath: path) }
        // The test bundle sits in the build products folder beside the executable.
        var dir = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("racekit")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/racekit")
    }

    let workdir: URL

    init() throws {
        workdir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
    }

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    func run(_ args: [String], env: [String: String] = [:]) throws -> Result {
        let p = process(args, env: env)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Both pipes at once: reading one to its end while the child fills the
        // other past the pipe buffer (64 KB) would deadlock.
        let stderrData = DataBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { stderrData.data = err.fileHandleForReading.readDataToEndOfFile() }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let e = stderrData.data
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// The binary with these arguments, in the work folder, without the caller's RACEKIT_STORE.
    func process(_ args: [String], env: [String: String] = [:]) -> Process {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = args
        p.currentDirectoryURL = workdir
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "RACEKIT_STORE")
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        return p
    }

    func write(_ name: String, _ text: String) throws {
        let url = workdir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}

/// Stderr as a reader thread collects it; read only after the group's wait,
/// which orders the write before the read.
final class DataBox: @unchecked Sendable { var data = Data() }

let goodGPX = """
<?xml version="1.0"?><gpx version="1.1" creator="Garmin Connect" xmlns="http://www.topografix.com/GPX/1/1"
 xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><name>Easy</name><type>running</type><trkseg>
<trkpt lat="48.1" lon="11.5"><time>2026-03-10T07:00:00Z</time><extensions><ns3:TrackPointExtension><ns3:hr>120</ns3:hr></ns3:TrackPointExtension></extensions></trkpt>
<trkpt lat="48.11" lon="11.5"><time>2026-03-10T07:05:00Z</time><extensions><ns3:TrackPointExtension><ns3:hr>130</ns3:hr></ns3:TrackPointExtension></extensions></trkpt>
</trkseg></trk></gpx>
"""

@Suite struct CLITests {
    @Test func importPrintsASummaryAndRerunSaysNothingChanged() throws {
        let cli = try CLI()
        try cli.write("export/run.gpx", goodGPX)
        let first = try cli.run(["import", "export"])
        #expect(first.status == 0)
        #expect(first.stdout.contains("1 files: 1 imported (1 runs), 0 duplicate, 0 skipped, 0 failed."))
        let second = try cli.run(["import", "export"])
        #expect(second.status == 0)
        #expect(second.stdout.contains("Nothing new"))
        #expect(FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent(".racekit/racekit.sqlite").path))
    }

    @Test func brokenFileExitsOneNamesFileAndLineAndOthersStillImport() throws {
        let cli = try CLI()
        try cli.write("export/good.gpx", goodGPX)
        try cli.write("export/bad.gpx", goodGPX.replacingOccurrences(of: "<name>Easy</name>", with: "<name>Easy</nome>"))
        let r = try cli.run(["import", "--format", "json", "export"])
        #expect(r.status == 1)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        #expect(json.count == 2)
        let bad = try #require(json.first { ($0["file"] as! String).hasSuffix("bad.gpx") })
        #expect(bad["status"] as? String == "failed")
        #expect((bad["reason"] as? String)?.contains("bad.gpx:2:") == true)
        #expect((bad["runIds"] as? [String]) == [])
        let good = try #require(json.first { ($0["file"] as! String).hasSuffix("good.gpx") })
        #expect(good["status"] as? String == "imported")
        #expect(good["reason"] is NSNull)
        #expect((good["runIds"] as? [String])?.count == 1)
        #expect(Set(good.keys) == ["file", "status", "runIds", "reason"])
    }

    @Test func textModeReportsFailuresOnStderr() throws {
        let cli = try CLI()
        try cli.write("bad.tcx", "<?xml version=\"1.0\"?>\n<TrainingCenterDatabase>\n<Activities>\n")
        let r = try cli.run(["import", "bad.tcx"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("failed: bad.tcx:"))
        #expect(r.stdout.contains("1 failed"))
    }

    @Test func quietPrintsNothingOnSuccess() throws {
        let cli = try CLI()
        try cli.write("run.gpx", goodGPX)
        let r = try cli.run(["import", "--quiet", "run.gpx"])
        #expect(r.status == 0 && r.stdout.isEmpty && r.stderr.isEmpty)
    }

    @Test func runsListShowsTheContractJSON() throws {
        let cli = try CLI()
        try cli.write("run.gpx", goodGPX)
        _ = try cli.run(["--store", "s.sqlite", "import", "run.gpx"])
        let r = try cli.run(["--store", "s.sqlite", "runs", "list", "--format", "json"])
        #expect(r.status == 0)
        let runs = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        let run = try #require(runs.first)
        for key in ["id", "athlete", "sport", "sourceFile", "sourceFormat", "creator", "startedAt", "endedAt", "elapsedSeconds",
                    "movingSeconds", "distanceMeters", "ascentMeters", "descentMeters", "avgPaceSecondsPerKm", "avgHeartRate",
                    "maxHeartRate", "heartRateCoveragePercent", "avgCadence", "load", "loadSource", "label", "mode",
                    "runType", "perceivedEffort", "notes"] {
            #expect(run[key] != nil, "missing key \(key)")
        }
        #expect(run["startedAt"] as? String == "2026-03-10T07:00:00Z")
        #expect(run["elapsedSeconds"] as? Double == 300)
        #expect(run["avgHeartRate"] as? Double == 120)
        #expect(run["creator"] as? String == "Garmin Connect")
        #expect(run["ascentMeters"] is NSNull)
        let csv = try cli.run(["runs", "list", "--format", "csv"], env: ["RACEKIT_STORE": "s.sqlite"])
        #expect(csv.stdout.hasPrefix("id,athlete,sport,"))
        #expect(csv.stdout.split(separator: "\n").count == 2)
    }

    @Test func usageErrorsExit64() throws {
        let cli = try CLI()
        #expect(try cli.run(["import"]).status == 64)
        #expect(try cli.run(["import", "--jobs", "0", "x.gpx"]).status == 64)
        #expect(try cli.run(["runs", "list", "--since", "March"]).status == 64)
        let unknown = try cli.run(["import", "--athlete", "ghost", "x.gpx"])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown athlete 'ghost'"))
    }

    @Test func missingInputExits66() throws {
        let cli = try CLI()
        let r = try cli.run(["import", "nothing-here/"])
        #expect(r.status == 66)
        #expect(r.stderr.contains("nothing-here/: no such file or directory"))
    }

    @Test func athletesCanBeAddedAndImportedFor() throws {
        let cli = try CLI()
        try cli.write("run.gpx", goodGPX)
        #expect(try cli.run(["athlete", "add", "anna", "--time-zone", "Europe/Berlin"]).status == 0)
        #expect(try cli.run(["athlete", "add", "Bad Id"]).status == 64)
        #expect(try cli.run(["import", "--athlete", "anna", "run.gpx"]).status == 0)
        let list = try cli.run(["runs", "list", "--athlete", "anna", "--format", "csv"])
        #expect(list.stdout.contains(",anna,running,"))
    }
}
