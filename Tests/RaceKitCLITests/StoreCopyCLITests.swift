import Foundation
import RaceKitTestSupport
import Testing

/// `racekit store copy` and the digest `store check` prints, through the built binary.
@Suite struct StoreCopyCLITests {
    /// A store `s.sqlite` with two runs (one with user fields), a second athlete
    /// and its profile.
    static func prepare() throws -> CLI {
        let cli = try CLI()
        try cli.write("a/run1.gpx", trackGPX(seconds: 1800, speed: 3.2, heartRate: 150))
        try cli.write("a/run2.gpx", trackGPX(seconds: 2400, speed: 3.0, start: "2026-03-12T07:00:00Z"))
        for args in [
            ["athlete", "set", "default", "--max-hr", "191"],
            ["athlete", "add", "anna", "--time-zone", "Europe/Berlin"],
            ["import", "a", "--quiet"]
        ] {
            let r = try cli.run(args + ["--store", "s.sqlite"])
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
        let list = try cli.run(["runs", "list", "--store", "s.sqlite", "--format", "csv"])
        let runID = String(list.stdout.split(separator: "\r\n").last?.split(separator: ",").first ?? "")
        let edit = try cli.run(
            [
                "runs", "edit", runID, "--label", "tempo", "--notes", "hot", "--rpe", "7", "--type", "treadmill",
                "--store", "s.sqlite"
            ])
        #expect(edit.status == 0, "\(edit.stderr)")
        return cli
    }

    /// The `digest: ...` line of `store check`.
    static func digest(_ cli: CLI, _ store: String) throws -> String {
        let r = try cli.run(["store", "check", "--store", store])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").first { $0.hasPrefix("digest: sha256:") }.map(String.init) ?? "none"
    }

    @Test func copyPrintsMatchingDigestsAndTheCopyListsTheSame() throws {
        let cli = try Self.prepare()
        let r = try cli.run(["store", "copy", "s.sqlite", "backup/c.sqlite"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "created store backup/c.sqlite\n")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "copied 2 runs from s.sqlite to backup/c.sqlite")
        let source = try Self.digest(cli, "s.sqlite")
        #expect(source.hasSuffix("(2 athletes, 2 runs, 0 race links)"), "\(source)")
        let digests: [String] = lines.dropFirst().map {
            $0.replacingOccurrences(of: #":\s+"#, with: ": ", options: .regularExpression)
        }
        let digest = String(source.dropFirst(8))
        #expect(digests == ["source digest: " + digest, "copy digest: " + digest])
        #expect(try Self.digest(cli, "backup/c.sqlite") == source)
        for args in [["runs", "list", "--format", "json"], ["athlete", "list"], ["athlete", "show", "anna"]] {
            let a = try cli.run(args + ["--store", "s.sqlite"]), b = try cli.run(args + ["--store", "backup/c.sqlite"])
            #expect(a.status == 0 && a.stdout == b.stdout, "\(args)")
        }
        #expect(try cli.run(["runs", "list", "--format", "json", "--store", "s.sqlite"]).stdout.contains("\"tempo\""))
    }

    @Test func refusesADestinationWithDataTheSameStoreAndAMissingSource() throws {
        let cli = try Self.prepare()
        #expect(try cli.run(["store", "copy", "s.sqlite", "c.sqlite"]).status == 0)
        let again = try cli.run(["store", "copy", "s.sqlite", "c.sqlite"])
        #expect(again.status == 73)
        #expect(again.stderr.contains("c.sqlite: the store is not empty"), "\(again.stderr)")
        #expect(again.stdout.isEmpty)
        let same = try cli.run(["store", "copy", "s.sqlite", "./s.sqlite"])
        #expect(same.status == 64 && same.stderr.contains("the same store"), "\(same.stderr)")
        let missing = try cli.run(["store", "copy", "none.sqlite", "d.sqlite"])
        #expect(
            missing.status == 66 && missing.stderr == "racekit: none.sqlite: no store there to copy\n",
            "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent("d.sqlite").path))
    }

    /// A destination URL's password never reaches the output.
    @Test func aServerPasswordIsNeverPrinted() throws {
        let cli = try Self.prepare()
        let r = try cli.run(["store", "copy", "s.sqlite", "postgresql://coach:s3cret@127.0.0.1:1/club"])
        #expect(r.status != 0)
        #expect(!(r.stdout + r.stderr).contains("s3cret"), "\(r.stderr)")
        #expect(r.stderr.contains("postgresql://coach:***@127.0.0.1:1/club"), "\(r.stderr)")
    }

    /// SQLite to PostgreSQL and back: one digest in all three stores, and every listing the same.
    @Test(.enabled(if: PGServer.url != nil, PGServer.skipped))
    func roundTripThroughPostgresIsLossless() throws {
        let cli = try Self.prepare()
        let pg = try PGServer.freshDatabase(cli)
        let there = try cli.run(["store", "copy", "s.sqlite", pg])
        #expect(there.status == 0, "\(there.stderr)")
        let back = try cli.run(["store", "copy", pg, "back.sqlite"])
        #expect(back.status == 0, "\(back.stderr)")
        let digest = try Self.digest(cli, "s.sqlite")
        #expect(try Self.digest(cli, pg) == digest && Self.digest(cli, "back.sqlite") == digest)
        for args in [["runs", "list", "--format", "json"], ["runs", "bests"], ["athlete", "show", "default"]] {
            let outputs = try ["s.sqlite", pg, "back.sqlite"].map { try cli.run(args + ["--store", $0]).stdout }
            #expect(outputs[0] == outputs[1] && outputs[0] == outputs[2], "\(args)")
        }
        #expect(try cli.run(["store", "copy", "s.sqlite", pg]).status == 73)
    }
}
