import Foundation
import RaceKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `racekit` binary.
struct CLI {
    /// A fixture that could not be made (one made once per test process, whose
    /// failure every test using it reports).
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

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

    /// The work folder, removed with everything in it when the last copy of
    /// this value goes (a suite leaves nothing behind).
    let scratch: ScratchFolder
    var workdir: URL { scratch.url }

    init() throws {
        _ = Self.noStoreFromTheEnvironment
        scratch = try ScratchFolder("rk-cli")
    }

    /// A RACEKIT_STORE of the caller's is not the tests' (a launched binary is
    /// started without it): in-process runs read this process's environment.
    private static let noStoreFromTheEnvironment: Void = {
        if getenv("RACEKIT_STORE") != nil { unsetenv("RACEKIT_STORE") }
    }()

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    /// Runs a command line in the work folder and collects its output: in this
    /// process (`runHere`, the thread's own working folder) unless `env` asks
    /// for an environment of its own or `RACEKIT_TEST_LAUNCH=1` is set, then in
    /// a launched binary (`launch`), whose output and status are the same.
    func run(_ args: [String], env: [String: String] = [:]) throws -> Result {
        guard env.isEmpty, !Self.launchEveryCommand else { return try launch(args, env: env) }
        return runHere(args, in: workdir, seconds: Self.inProcessBound)
    }

    /// Runs the binary with these arguments in the work folder and collects its
    /// output: for tests of the process itself (its environment, exit, signals).
    func launch(_ args: [String], env: [String: String] = [:]) throws -> Result {
        try Self.start(process(args, env: env)).wait()
    }

    /// `RACEKIT_TEST_LAUNCH=1`: every `run` launches the binary (to check that
    /// the in-process runs say what the binary says).
    static let launchEveryCommand = ProcessInfo.processInfo.environment["RACEKIT_TEST_LAUNCH"] == "1"

    /// How long an in-process `run` may take before it is reported as killed.
    static let inProcessBound: Double = Sanitizer.name != nil ? 900 : 300

    /// A started child process whose stdout and stderr are being read.
    struct Running {
        let process: Process
        fileprivate let readers: DispatchGroup
        fileprivate let stdout: DataBox, stderr: DataBox

        /// Waits for both pipes to close and the process to exit. After `seconds`
        /// (when given) the process is killed and the status is `CLI.killedStatus`.
        func wait(seconds: Double? = nil) -> Result {
            var killed = false
            if let seconds, readers.wait(timeout: .now() + seconds) == .timedOut {
                killed = true
                kill(process.processIdentifier, SIGKILL)
            }
            readers.wait()
            process.waitUntilExit()
            return Result(
                status: killed ? CLI.killedStatus : process.terminationStatus,
                stdout: String(decoding: stdout.data, as: UTF8.self),
                stderr: String(decoding: stderr.data, as: UTF8.self))
        }
    }

    /// Starts `p` (any executable) with its stdout and stderr on pipes, each read
    /// to its end on a thread of its own as the child writes: reading one pipe to
    /// its end while the child fills the other past the pipe buffer (64 KB) would
    /// deadlock. Threads, not a dispatch queue: a blocking read must not wait for
    /// a free worker of a pool sized to the cores.
    static func start(_ p: Process) throws -> Running {
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let readers = DispatchGroup()
        let stdout = DataBox(), stderr = DataBox()
        for (pipe, box) in [(out, stdout), (err, stderr)] {
            let handle = pipe.fileHandleForReading
            readers.enter()
            Thread {
                box.data = handle.readDataToEndOfFile()
                readers.leave()
            }.start()
        }
        return Running(process: p, readers: readers, stdout: stdout, stderr: stderr)
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
        try text.write(to: url, atomically: false, encoding: .utf8)
    }
}

/// A pipe's bytes as its reader thread collects them. Unchecked Sendable: the
/// reader thread writes `data` once and then leaves the group; the owner reads
/// it only after the group's wait, which orders the write before the read.
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
        #expect(first.stdout.contains("1 file: 1 imported (1 run), 0 duplicate, 0 skipped, 0 failed."))
        let second = try cli.run(["import", "export"])
        #expect(second.status == 0)
        #expect(second.stdout.contains("Nothing new"))
        #expect(
            FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent(".racekit/racekit.sqlite").path))
    }

    @Test func brokenFileExitsOneNamesFileAndLineAndOthersStillImport() throws {
        let cli = try CLI()
        try cli.write("export/good.gpx", goodGPX)
        try cli.write(
            "export/bad.gpx", goodGPX.replacingOccurrences(of: "<name>Easy</name>", with: "<name>Easy</nome>"))
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
        for key in [
            "id", "athlete", "sport", "sourceFile", "sourceFormat", "creator", "startedAt", "endedAt", "elapsedSeconds",
            "movingSeconds", "distanceMeters", "ascentMeters", "descentMeters", "avgPaceSecondsPerKm", "avgHeartRate",
            "maxHeartRate", "heartRateCoveragePercent", "avgCadence", "load", "loadSource", "label", "mode",
            "runType", "perceivedEffort", "notes"
        ] {
            #expect(run[key] != nil, "missing key \(key)")
        }
        #expect(run["startedAt"] as? String == "2026-03-10T07:00:00Z")
        #expect(run["elapsedSeconds"] as? Double == 300)
        #expect(run["avgHeartRate"] as? Double == 120)
        #expect(run["creator"] as? String == "Garmin Connect")
        #expect(run["ascentMeters"] is NSNull)
        let csv = try cli.run(["runs", "list", "--format", "csv"], env: ["RACEKIT_STORE": "s.sqlite"])
        #expect(csv.stdout.hasPrefix("id,athlete,sport,"))
        #expect(csv.stdout.split(separator: "\r\n").count == 2)
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

/// The helper every CLI test runs the binary through.
@Suite struct CLIHelperTests {
    /// A child that writes 300 KB to stderr and then 300 KB to stdout (both far past
    /// the 64 KB pipe buffer) completes with all of both: a helper reading stdout to
    /// its end first would leave the child blocked on stderr. Shell builtins only, so
    /// killing the shell after the time limit closes both pipes and the test fails
    /// instead of hanging.
    @Test func aChildFillingBothPipesCompletes() throws {
        let p = Process()
        p.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [
            "-c",
            """
            k=$(printf '%1024s' '')
            i=0; while [ $i -lt 300 ]; do printf '%s' "$k" >&2; i=$((i + 1)); done
            i=0; while [ $i -lt 300 ]; do printf '%s' "$k"; i=$((i + 1)); done
            """
        ]
        let r = try CLI.start(p).wait(seconds: 60)
        #expect(!r.timedOut, "the child was still writing after 60 s: the pipes are not read at once")
        #expect(r.status == 0)
        #expect(r.stderr.utf8.count == 300 * 1024 && r.stdout.utf8.count == 300 * 1024)
    }
}
