import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A folder of `count` distinct GPX runs of `points` points each (one a day).
func writeExport(_ cli: CLI, folder: String, count: Int, points: Int, firstDay: Int = 0) throws {
    let dir = cli.workdir.appendingPathComponent(folder)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let f = ISO8601DateFormatter()
    for i in 0..<count {
        let start = Date(timeIntervalSince1970: 1_767_250_800 + Double(firstDay + i) * 86_400)
        var text =
            "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><type>running</type><trkseg>\n"
        for s in 0..<points {
            text +=
                "<trkpt lat=\"\(48 + Double(s) * 3 / 111_195)\" lon=\"11\"><ele>500</ele><time>\(f.string(from: start.addingTimeInterval(Double(s))))</time></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        try text.write(
            to: dir.appendingPathComponent(String(format: "%04d.gpx", i)), atomically: false, encoding: .utf8)
    }
}

/// Through `runHere` with the store's absolute path: a test polling while a child
/// imports does not wait for other tests' commands (`WorkingFolder`).
func runCount(_ cli: CLI, store: String? = nil) throws -> Int {
    let given = store ?? ".racekit/racekit.sqlite"
    let path = given.hasPrefix("/") || given.hasPrefix("postgres") ? given : cli.at(given)
    let r = cli.runHere(["--store", path, "runs", "list", "--format", "csv"])
    return max(0, r.stdout.split(separator: "\r\n").count - 1)
}

/// Not `.serialized`: every test has its own work folder and store and passes its
/// settings to its children only, so the tests share nothing; running them beside
/// each other only slows the children, which no assertion here depends on (the
/// import killed mid-way is more likely mid-way, store waits allow 30 s).
@Suite struct SafetyCLITests {
    /// Output that cannot be written (a full disk) ends the command with exit 74
    /// and one line on stderr, never a trap and its backtrace.
    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full")))
    func outputToAFullDiskIsAnIOErrorNotACrash() throws {
        let cli = try CLI()
        for args in [
            ["predict", "--from", "10k=45:00", "--to", "half"],
            ["predict", "--from", "10k=45:00", "--to", "half", "--format", "json"]
        ] {
            let p = cli.process(args)
            p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
            let err = Pipe()
            p.standardError = err
            try p.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 74, "\(args): \(p.terminationStatus) \(stderr)")
            #expect(
                stderr.hasPrefix("racekit: cannot write the output: ") && !stderr.contains("Fatal error"), "\(stderr)")
        }
    }

    @Test func aKilledImportLeavesOnlyWholeRunsAndResumes() throws {
        let cli = try CLI()
        try writeExport(cli, folder: "export", count: 300, points: 1200)
        let p = Process()
        p.executableURL = CLI.binary
        p.arguments = ["import", "--quiet", "export"]
        p.currentDirectoryURL = cli.workdir
        p.environment = ProcessInfo.processInfo.environment.filter { $0.key != "RACEKIT_STORE" }
        try p.run()
        // Wait until some runs are committed, then kill without warning.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, p.isRunning, (try? runCount(cli)) ?? 0 < 10 { usleep(20_000) }
        let killedMidway = p.isRunning
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let committed = try runCount(cli)
        #expect(killedMidway, "the import finished before it could be killed; make the export larger")
        #expect(committed >= 10 && committed < 300)

        let check = try cli.run(["store", "check"])
        #expect(check.status == 0, "store check after SIGKILL: \(check.stderr)")
        #expect(check.stdout.contains("ok: \(committed) runs"))

        let resume = try cli.run(["import", "--format", "json", "export"])
        #expect(resume.status == 0)
        let results = try JSONSerialization.jsonObject(with: Data(resume.stdout.utf8)) as! [[String: Any]]
        let statuses = results.map { $0["status"] as! String }
        #expect(statuses.filter { $0 == "duplicate" }.count == committed)
        #expect(statuses.filter { $0 == "imported" }.count == 300 - committed)
        #expect(try runCount(cli) == 300)
        #expect(try cli.run(["store", "check"]).status == 0)
    }

    @Test func twoImportsAndAReportAtOnceLoseNothing() throws {
        let cli = try CLI()
        try writeExport(cli, folder: "a", count: 60, points: 600)
        try writeExport(cli, folder: "b", count: 60, points: 600, firstDay: 100)
        // The store exists before the race (reads no longer create it: the report
        // would exit 66 when it opened before either import had created it).
        #expect(try cli.run(["athlete", "add", "anna"]).status == 0)
        let commands = [
            ["import", "--jobs", "2", "a"], ["import", "--jobs", "2", "b"],
            ["report", "weekly", "--week", "2026-W10", "--weeks", "30", "--quiet"]
        ]
        let jobs = try commands.map { try CLI.start(cli.process($0)) }
        let results = jobs.map { $0.wait() }
        let stderr = results.map(\.stderr).joined()
        #expect(results.map(\.status) == [0, 0, 0], "stderr: \(stderr)")
        #expect(!stderr.contains("locked"))
        #expect(try runCount(cli) == 120)
        #expect(try cli.run(["store", "check"]).status == 0)
    }

    @Test func processesCreatingANewStoreAtOnceAllSucceed() throws {
        // Without the migration lock about one round in five fails with
        // "table athlete already exists"; ten rounds of four catch it. (A
        // command that creates the store: reads no longer do.)
        for _ in 0..<10 {
            let cli = try CLI()
            let procs = try (0..<4).map { i -> Process in
                let p = Process()
                p.executableURL = CLI.binary
                p.arguments = ["athlete", "add", "a\(i)"]
                p.currentDirectoryURL = cli.workdir
                p.environment = ProcessInfo.processInfo.environment.filter { $0.key != "RACEKIT_STORE" }
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                try p.run()
                return p
            }
            for p in procs { p.waitUntilExit() }
            #expect(procs.map(\.terminationStatus) == [0, 0, 0, 0])
        }
    }

    @Test func aFileOverThePointLimitIsRefusedClearly() throws {
        let cli = try CLI()
        try writeExport(cli, folder: "big", count: 2, points: 300)
        let r = try cli.run(["import", "big"], env: ["RACEKIT_MAX_POINTS": "250"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("too large: more than 250 points"))
        #expect(try runCount(cli) == 0)
    }
}
