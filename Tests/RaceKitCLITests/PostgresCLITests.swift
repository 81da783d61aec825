import Foundation
import RaceKitTestSupport
import Testing

/// The CLI against a PostgreSQL store on the throwaway server `make test` starts
/// (scripts/with-postgres.sh); skipped, saying so, where PostgreSQL is not installed.
enum PGServer {
    static let url: String? = ProcessInfo.processInfo.environment["RACEKIT_TEST_PG"].flatMap {
        $0.isEmpty ? nil : $0
    }
    static let skipped = Comment(rawValue: "skipped: PostgreSQL not installed (make test starts one)")

    /// A new database on the test server, through `psql`-free SQL: the CLI makes
    /// the schema itself; this only creates the empty database.
    static func freshDatabase(_ cli: CLI) throws -> String {
        let name = "racekit_c_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let p = Process()
        p.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["psql", url!, "-qAtc", "CREATE DATABASE \(name)"]
        let r = try CLI.start(p).wait()
        guard r.status == 0 else { throw CLIError.failed("createdb: \(r.stderr)") }
        return url![...url!.lastIndex(of: "/")!] + name
    }
}

enum CLIError: Error { case failed(String) }

/// A GPX run of `minutes` minutes starting at `start` (ISO date-time), heading north
/// at about 3 m/s; `creator` changes the bytes, not the activity.
func gpxRun(start: Date, minutes: Int, creator: String = "Garmin Connect") -> String {
    let iso = ISO8601DateFormatter()
    var points = ""
    for i in 0...minutes {
        let t = iso.string(from: start.addingTimeInterval(Double(i) * 60))
        points +=
            "<trkpt lat=\"\(48.1 + Double(i) * 0.0016)\" lon=\"11.5\"><ele>\(500 + i % 7)</ele><time>\(t)</time></trkpt>\n"
    }
    return """
        <?xml version="1.0"?><gpx version="1.1" creator="\(creator)" xmlns="http://www.topografix.com/GPX/1/1"><trk><type>running</type><trkseg>
        \(points)</trkseg></trk></gpx>
        """
}

@Suite(.enabled(if: PGServer.url != nil, PGServer.skipped), .serialized)
struct PostgresCLITests {
    /// Ids are random after their time part: compare outputs with them masked.
    static func masked(_ s: String) -> String {
        s.replacingOccurrences(of: #"\b[0-9A-HJKMNP-TV-Z]{26}\b"#, with: "<id>", options: .regularExpression)
    }

    func writeRuns(_ cli: CLI, folder: String, days: Range<Int>, creator: String = "Garmin Connect") throws {
        let base = Date(timeIntervalSince1970: 1_772_348_400)   // 2026-03-01 07:00 UTC
        for d in days {
            try cli.write(
                "\(folder)/run-\(d).gpx",
                gpxRun(start: base.addingTimeInterval(Double(d) * 86_400), minutes: 20 + d % 9, creator: creator))
        }
    }

    /// The same export into both stores: every command prints the same, ids aside.
    @Test func everyCommandSaysTheSameOnBothStores() throws {
        let cli = try CLI()
        try writeRuns(cli, folder: "export", days: 0..<12)
        let pg = try PGServer.freshDatabase(cli)
        var outputs: [[String]] = []
        for store in [pg, "s.sqlite"] {
            var out: [String] = []
            for args in [
                ["athlete", "set", "default", "--max-hr", "190", "--resting-hr", "50"], ["import", "export"],
                ["import", "export"], ["runs", "list"], ["runs", "list", "--format", "json"],
                ["runs", "list", "--sort", "pace", "--limit", "3"], ["runs", "bests"], ["athlete", "list"],
                ["predict", "--to", "10k", "--format", "json"]
            ] {
                let r = try cli.run(args + ["--store", store], env: ["RACEKIT_NOW": "2026-03-20T00:00:00Z"])
                out.append("\(args.joined(separator: " ")) -> \(r.status)\n\(r.stdout)")
            }
            outputs.append(out.map(Self.masked))
        }
        for (a, b) in zip(outputs[0], outputs[1]) { #expect(a == b) }
        #expect(outputs[0][1].contains("12 imported"), "\(outputs[0][1])")
    }

    /// Three importers at once on overlapping exports (the same files, and copies
    /// of the same activities in other bytes) store each activity once.
    @Test func threeImportersAtOnceStoreEachActivityOnce() throws {
        let cli = try CLI()
        try writeRuns(cli, folder: "a", days: 0..<20)
        try writeRuns(cli, folder: "b", days: 10..<30, creator: "Strava")
        try writeRuns(cli, folder: "c", days: 0..<30, creator: "Suunto")
        let pg = try PGServer.freshDatabase(cli)
        // The schema first, so that the three race on the runs, not on creating it.
        #expect(try cli.run(["athlete", "list", "--store", pg]).status == 66)
        #expect(try cli.run(["athlete", "add", "x", "--store", pg]).status == 0)
        let running = try ["a", "b", "c"].map { try CLI.start(cli.process(["import", $0, "--store", pg, "--quiet"])) }
        let results = running.map { $0.wait(seconds: 300) }
        for r in results { #expect(r.status == 0, "\(r.stderr)") }
        let list = try cli.run(["runs", "list", "--format", "json", "--store", pg])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let starts = runs.compactMap { $0["startedAt"] as? String }
        #expect(runs.count == 30 && Set(starts).count == 30, "\(runs.count) runs, \(Set(starts).count) starts")
    }

    /// A killed importer leaves nothing half-written: every stored run has its
    /// samples, and importing again completes the rest.
    @Test func aKilledImporterLeavesNothingHalfWritten() throws {
        let cli = try CLI()
        try writeRuns(cli, folder: "a", days: 0..<40)
        let pg = try PGServer.freshDatabase(cli)
        #expect(try cli.run(["athlete", "add", "x", "--store", pg]).status == 0)
        let importer = try CLI.start(cli.process(["import", "a", "--store", pg, "--quiet", "--jobs", "1"]))
        Thread.sleep(forTimeInterval: 0.4)
        kill(importer.process.processIdentifier, SIGKILL)
        _ = importer.wait()
        let check = try cli.run(["store", "check", "--store", pg])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let again = try cli.run(["import", "a", "--store", pg])
        #expect(again.status == 0)
        let list = try cli.run(["runs", "list", "--format", "json", "--store", pg])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any])
        #expect(runs.count == 40)
    }
}
