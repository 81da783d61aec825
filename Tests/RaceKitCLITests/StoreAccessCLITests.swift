import Foundation
import RaceKitMetrics
import RaceKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Only `import` and `athlete add`/`set` create a store; every other command on
/// a missing store exits 66 and creates nothing; a store from a newer RaceKit is
/// refused (65); a store the user cannot write is read (and left as it was) and
/// refused to writers (73).
@Suite struct StoreAccessCLITests {
    static let creators: [String: [String]] = [
        "import": ["import", "run.gpx"], "athlete add": ["athlete", "add", "anna"],
        "athlete set": ["athlete", "set", "default", "--max-hr", "190"]
    ]
    /// Commands that do not open the store with the arguments
    /// `StoreOptionCLITests.invocations` gives them (`race script` reads it only
    /// when there is one; `store copy` takes its stores as arguments).
    static let storeless: Set<String> = [
        "predict", "race new", "race plan", "race script", "script validate", "script show", "script simulate",
        "script render", "store copy"
    ]

    static let sqlite3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    /// Root ignores file modes, so the read-only cases run the binary as
    /// `nobody`; that needs root, setpriv, and a binary `nobody` can run.
    static let canRunAsNobody: Bool = {
        guard getuid() == 0, let setpriv, everyFolderSearchable(above: CLI.binary) else { return false }
        let p = Process()
        p.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
        p.executableURL = URL(fileURLWithPath: setpriv)
        p.arguments = asNobody + [CLI.binary.path, "--version"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()

    /// Whether every folder above `url` lets others in: a clone in a `mktemp -d`
    /// folder (mode 700) runs `--version` as nobody, but the build's resource
    /// bundles there are out of reach and a review traps reading them.
    static func everyFolderSearchable(above url: URL) -> Bool {
        var folder = url.resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            var info = stat()
            guard stat(folder.path, &info) == 0, info.st_mode & S_IXOTH != 0 else { return false }
            folder = folder.deletingLastPathComponent()
        }
        return true
    }

    static func runAsNobody(_ cli: CLI, _ args: [String]) throws -> CLI.Result {
        let p = cli.process(args)
        p.executableURL = URL(fileURLWithPath: setpriv!)
        p.arguments = asNobody + [CLI.binary.path] + args
        return try CLI.start(p).wait()
    }

    static func exists(_ cli: CLI, _ name: String) -> Bool {
        FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent(name).path)
    }

    static func entries(_ cli: CLI, _ folder: String) -> [String] {
        let path = cli.workdir.appendingPathComponent(folder).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    static func chmod(_ cli: CLI, _ name: String, _ mode: Int) throws {
        try FileManager.default.setAttributes(
            [.posixPermissions: mode], ofItemAtPath: cli.workdir.appendingPathComponent(name).path)
    }

    @Test func aMissingStoreIsNeitherCreatedNorReadAsEmpty() throws {
        let (cli, runID) = try StoreOptionCLITests.prepared()
        for leaf in StoreOptionCLITests.leaves.sorted() where Self.creators[leaf] == nil {
            let rest = (StoreOptionCLITests.invocations[leaf] ?? []).map { $0 == "RUN" ? runID : $0 }
            let args = leaf.split(separator: " ").map(String.init) + rest + ["--store", "typo/x.sqlite"]
            let r = try cli.run(args)
            if Self.storeless.contains(leaf) {
                #expect(r.status != 66, "racekit \(args.joined(separator: " ")): \(r.stderr)")
            } else {
                #expect(r.status == 66, "racekit \(args.joined(separator: " ")): \(r.status) \(r.stderr)")
                #expect(
                    r.stderr.contains("typo/x.sqlite: no store there") && r.stderr.contains("--store")
                        && r.stderr.contains("RACEKIT_STORE"), "\(leaf): \(r.stderr)")
            }
            #expect(!Self.exists(cli, "typo"), "racekit \(args.joined(separator: " ")) created typo/")
        }
    }

    @Test(arguments: ["import", "athlete add", "athlete set"])
    func writersCreateAMissingStoreAndSaySo(_ leaf: String) throws {
        let cli = try CLI()
        try cli.write("run.gpx", trackGPX(seconds: 600, speed: 3))
        let args = Self.creators[leaf]! + ["--store", "new/x.sqlite"]
        let first = try cli.run(args)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("created store new/x.sqlite"), "\(first.stderr)")
        #expect(Self.exists(cli, "new/x.sqlite"))
        let again = try cli.run(leaf == "athlete add" ? ["athlete", "add", "bert", "--store", "new/x.sqlite"] : args)
        #expect(again.status == 0 && !again.stderr.contains("created store"), "\(again.stderr)")
    }

    @Test func importQuietCreatesTheStoreSilently() throws {
        let cli = try CLI()
        try cli.write("run.gpx", trackGPX(seconds: 600, speed: 3))
        let r = try cli.run(["import", "run.gpx", "--quiet", "--store", "new/x.sqlite"])
        #expect(r.status == 0 && r.stderr.isEmpty && r.stdout.isEmpty, "\(r.stderr)")
        #expect(Self.exists(cli, "new/x.sqlite"))
    }

    /// A cron job pointed at the wrong store fails and leaves the reports alone.
    @Test func aReportJobOnAWrongStoreKeepsTheReports() throws {
        let cli = try CLI()
        try cli.write("run.gpx", trackGPX(seconds: 1800, speed: 3.2))
        #expect(try cli.run(["import", "run.gpx"]).status == 0)
        let args = ["report", "weekly", "--all-athletes", "--week", "2026-W11", "--out", "reports"]
        #expect(try cli.run(args).status == 0)
        let index = cli.workdir.appendingPathComponent("reports/index.md")
        let before = try String(contentsOf: index, encoding: .utf8)
        #expect(before.contains("Default athlete"))
        let wrong = try cli.run(args + ["--store", "wrong/racekit.sqlite"])
        #expect(wrong.status == 66 && wrong.stdout.isEmpty, "\(wrong.stderr)")
        #expect(try String(contentsOf: index, encoding: .utf8) == before)
        #expect(!Self.exists(cli, "wrong"))
    }

    @Test(.enabled(if: sqlite3 != nil, "needs the sqlite3 command to mark the store as newer"))
    func aStoreFromANewerRaceKitIsRefused() throws {
        let cli = try CLI()
        try cli.write("run.gpx", trackGPX(seconds: 600, speed: 3))
        #expect(try cli.run(["import", "run.gpx", "--store", "store.sqlite"]).status == 0)
        try Self.sql(cli, "store.sqlite", "INSERT INTO grdb_migrations VALUES ('v7-foo')")
        let message =
            "racekit: store.sqlite was written by a newer RaceKit (schema v7-foo; this racekit knows up to \(latestMigration)): upgrade racekit\n"
        for args in [["runs", "list"], ["import", "run.gpx"], ["athlete", "set", "default", "--max-hr", "190"]] {
            let r = try cli.run(args + ["--store", "store.sqlite"])
            #expect(r.status == 65 && r.stderr == message, "\(args): \(r.status) \(r.stderr)")
        }
    }

    static func sql(_ cli: CLI, _ store: String, _ statement: String) throws {
        let p = Process()
        p.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
        p.executableURL = URL(fileURLWithPath: sqlite3!)
        p.arguments = [cli.workdir.appendingPathComponent(store).path, statement]
        let r = try CLI.start(p).wait()
        #expect(r.status == 0, "sqlite3: \(r.stderr)")
    }

    /// A store with one run in `data/`, and the run's id.
    static func storeInData() throws -> (CLI, String) {
        let cli = try CLI()
        try cli.write("run.gpx", trackGPX(seconds: 1800, speed: 3.2))
        #expect(try cli.run(["import", "run.gpx", "--store", "data/s.sqlite"]).status == 0)
        let list = try cli.run(["runs", "list", "--store", "data/s.sqlite", "--format", "csv"])
        return (cli, String(list.stdout.split(separator: "\r\n").last?.split(separator: ",").first ?? ""))
    }

    @Test(
        .enabled(
            if: canRunAsNobody,
            "needs root, setpriv and a racekit binary user nobody can run: root ignores file modes"))
    func aStoreTheUserCannotWriteIsReadAndLeftAsItWas() throws {
        let (cli, runID) = try Self.storeInData()
        try cli.write("out/.keep", "")
        try Self.chmod(cli, "out", 0o777)
        let before = Self.entries(cli, "data")
        #expect(before == ["s.sqlite"])
        try Self.chmod(cli, "data/s.sqlite", 0o444)
        // A read-only file in a folder nobody may write, then in one anybody may.
        for folderMode in [0o555, 0o777] {
            try Self.chmod(cli, "data", folderMode)
            let reads = [
                ["runs", "list", "--format", "csv"], ["runs", "show", runID], ["athlete", "list"],
                ["store", "check"], ["report", "weekly", "--out", "out/reports"], ["predict", "--to", "10k"]
            ]
            for args in reads {
                let r = try Self.runAsNobody(cli, args + ["--store", "data/s.sqlite"])
                #expect(r.status == 0, "\(args) (folder \(String(folderMode, radix: 8))): \(r.status) \(r.stderr)")
            }
            let edit = try Self.runAsNobody(cli, ["runs", "edit", runID, "--label", "x", "--store", "data/s.sqlite"])
            #expect(edit.status == 73, "\(edit.stderr)")
            #expect(edit.stderr.contains("data/s.sqlite: the store is read-only"), "\(edit.stderr)")
            #expect(Self.entries(cli, "data") == before, "folder \(String(folderMode, radix: 8))")
        }
    }

    /// `race review` on a store the user cannot write exited 73: the review
    /// is its output, the race link a by-product, so it reviews, prints and
    /// writes its files, warns that the link is not saved, and exits 0;
    /// `--unlink`, whose only job is the write, still exits 73.
    @Test(
        .enabled(
            if: canRunAsNobody,
            "needs root, setpriv and a racekit binary user nobody can run: root ignores file modes"))
    func aReviewOfAStoreTheUserCannotWriteIsPrintedWithAWarning() throws {
        let cli = try CLI()
        try cli.write("race.gpx", trackGPX(seconds: 3000, speed: 3.4, heartRate: 160))
        try cli.write("Races/ten.yaml", RaceReviewCLITests.setup)
        #expect(try cli.run(["import", "race.gpx", "--store", "data/s.sqlite"]).status == 0)
        try cli.write("out/.keep", "")
        try Self.chmod(cli, "out", 0o777)
        let before = Self.entries(cli, "data")
        try Self.chmod(cli, "data/s.sqlite", 0o444)
        for folderMode in [0o555, 0o777] {
            try Self.chmod(cli, "data", folderMode)
            let r = try Self.runAsNobody(
                cli, ["race", "review", "Races/ten.yaml", "--store", "data/s.sqlite", "--out", "out/reviews"])
            let mode = String(folderMode, radix: 8)
            #expect(r.status == 0, "folder \(mode): \(r.status) \(r.stderr)")
            #expect(r.stdout.contains("Finished in 50:00, exactly on the 50:00 target."), "\(r.stdout)")
            #expect(
                r.stderr.contains(
                    "warning: data/s.sqlite: the store is read-only, so this review is not linked to its run"),
                "\(r.stderr)")
            #expect(Self.exists(cli, "out/reviews/ten-review.md") && Self.exists(cli, "out/reviews/ten-review.svg"))
            #expect(Self.entries(cli, "data") == before, "folder \(mode)")
            let unlink = try Self.runAsNobody(
                cli, ["race", "review", "Races/ten.yaml", "--unlink", "--store", "data/s.sqlite"])
            #expect(
                unlink.status == 73 && unlink.stderr.contains("data/s.sqlite: the store is read-only"),
                "\(unlink.stderr)")
        }
        // Writable again: the review links its run, without a warning.
        try Self.chmod(cli, "data", 0o755)
        try Self.chmod(cli, "data/s.sqlite", 0o644)
        let linked = try cli.run(["race", "review", "Races/ten.yaml", "--store", "data/s.sqlite"])
        #expect(linked.status == 0 && !linked.stderr.contains("warning"), "\(linked.stderr)")
    }

    @Test(
        .enabled(
            if: canRunAsNobody && sqlite3 != nil,
            "needs root, setpriv, a racekit binary user nobody can run, and the sqlite3 command"))
    func anOlderStoreTheUserCannotWriteIsRefused() throws {
        let (cli, _) = try Self.storeInData()
        try Self.sql(cli, "data/s.sqlite", "DELETE FROM grdb_migrations WHERE identifier = 'v5-gap-race-link'")
        try Self.chmod(cli, "data", 0o555)
        let r = try Self.runAsNobody(cli, ["runs", "list", "--store", "data/s.sqlite"])
        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.stderr.contains("must first be upgraded from schema v4-drop-low-hr to \(latestMigration)"))
    }
}

/// The newest migration this build knows: the column of the last metric (each
/// metric after 0.4.0's run table adds its own).
let latestMigration = "metric-" + MetricRegistry.standard.metrics.last!.column
