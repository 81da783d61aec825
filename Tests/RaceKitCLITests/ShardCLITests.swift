import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `report weekly --all-athletes --shard K/N` and `runs recompute --shard K/N`:
/// N workers, as separate processes, write and recompute exactly what one does;
/// on SQLite always, on PostgreSQL when the test server runs.
@Suite struct ShardCLITests {
    /// Ten athletes and the shard of 3 each belongs to, from an independent
    /// implementation of the hash (Python; see `ShardTests`).
    static let shardOf3 = [
        "anna": 1, "ben": 2, "carla": 1, "dev": 3, "emil": 1, "fatima": 2, "goran": 3, "hana": 1, "ivan": 1, "jonas": 2
    ]
    static let athletes = shardOf3.keys.sorted()
    /// Athlete `i` (in id order) has 1 + i % 3 runs.
    static func runCount(_ id: String) -> Int { 1 + athletes.firstIndex(of: id)! % 3 }
    static let week = ["--week", "2026-W46", "--weeks", "4"]

    /// The ten athletes, each with their runs in 2026-W45 and W46, in `store`.
    func populate(_ cli: CLI, store: String) throws {
        for (i, id) in Self.athletes.enumerated() {
            let add = try cli.run([
                "athlete", "add", id, "--time-zone", "Europe/Berlin", "--max-hr", "190", "--resting-hr", "50",
                "--store", store
            ])
            #expect(add.status == 0, "\(add.stderr)")
            for j in 0..<Self.runCount(id) {
                let start = "2026-11-\(String(format: "%02d", 5 + 3 * j))T0\(i % 10):\(10 + j):00Z"
                try cli.write("\(id)/run-\(j).tcx", steadyTCX(start: start, seconds: 600 + 60 * i, hr: 140 + i + j))
            }
            let imported = try cli.run(["import", "--athlete", id, id, "--store", store])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
    }

    /// Every file under `folder` (relative path: bytes), lock files aside: they are
    /// empty and say who may write, not what was written.
    static func tree(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walk = try #require(FileManager.default.enumerator(atPath: folder.path))
        for case let path as String in walk {
            let url = folder.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !(url.lastPathComponent.hasPrefix(".racekit-report") && url.lastPathComponent.hasSuffix(".lock"))
            else { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
    }

    /// One worker into A; three shards one after the other into B, and all at once
    /// into C: the same files, byte for byte; each athlete written by one shard,
    /// the one the hash names; the index by shard 1 only. The single worker's tree.
    func shardsWriteWhatOneWorkerWrites(store: String) throws -> [String: Data] {
        let cli = try CLI()
        try populate(cli, store: store)
        let report = ["report", "weekly", "--all-athletes", "--store", store, "--wait", "60"] + Self.week
        let one = try cli.run(report + ["--out", "A", "--quiet"])
        #expect(one.status == 0, "\(one.stderr)")
        var byShard: [Int: Set<String>] = [:]
        for k in 1...3 {
            let r = try cli.run(report + ["--out", "B", "--shard", "\(k)/3"])
            #expect(r.status == 0, "\(r.stderr)")
            let wrote = r.stdout.split(separator: "\n").map { $0.split(separator: "/") }
            byShard[k] = Set(wrote.filter { $0.count == 3 }.map { String($0[1]) })
            #expect(wrote.contains { $0.last == "index.md" } == (k == 1), "\(r.stdout)")
        }
        for (k, ids) in byShard { #expect(ids == Set(Self.shardOf3.filter { $0.value == k }.keys), "shard \(k)") }
        let running = try (1...3).map { k in
            try CLI.start(cli.process(report + ["--out", "C", "--quiet", "--shard", "\(k)/3"]))
        }
        for r in running.map({ $0.wait(seconds: 120) }) { #expect(r.status == 0, "\(r.stderr)") }

        let a = try Self.tree(cli.workdir.appendingPathComponent("A"))
        #expect(a.count == 1 + 3 * Self.athletes.count, "\(a.keys.sorted())")   // index + csv, md, svg each
        #expect(a["index.md"].map { String(decoding: $0, as: UTF8.self).contains("| jonas |") } == true)
        for folder in ["B", "C"] {
            let other = try Self.tree(cli.workdir.appendingPathComponent(folder))
            #expect(other.keys.sorted() == a.keys.sorted(), "\(folder)")
            for (path, bytes) in a { #expect(other[path] == bytes, "\(folder)/\(path) differs") }
        }
        return a
    }

    /// Every run made stale (a new max HR, not recomputed); three shards, then one
    /// worker: each shard recomputes exactly its athletes' runs, so the worker
    /// after them finds nothing left; and `--all` in three concurrent shards
    /// redoes every run once.
    func shardsRecomputeEachAthleteOnce(store: String) throws {
        let cli = try CLI()
        try populate(cli, store: store)
        for id in Self.athletes {
            let set = try cli.run(["athlete", "set", id, "--max-hr", "186", "--no-recompute", "--store", store])
            #expect(set.status == 0, "\(set.stderr)")
        }
        func expected(_ k: Int) -> Int { Self.shardOf3.filter { $0.value == k }.keys.map(Self.runCount).reduce(0, +) }
        for k in 1...3 {
            let r = try cli.run(["runs", "recompute", "--shard", "\(k)/3", "--store", store])
            #expect(r.status == 0 && r.stdout == "Recomputed \(expected(k)) of \(expected(k)) runs.\n", "\(r)")
        }
        let again = try cli.run(["runs", "recompute", "--store", store])
        #expect(again.stdout == "All runs are up to date.\n", "\(again)")

        let running = try (1...3).map { k in
            try CLI.start(cli.process(["runs", "recompute", "--all", "--shard", "\(k)/3", "--store", store]))
        }
        for (k, r) in zip(1...3, running.map { $0.wait(seconds: 120) }) {
            #expect(r.status == 0 && r.stdout == "Recomputed \(expected(k)) of \(expected(k)) runs.\n", "\(r)")
        }
        let recomputed: Int = (1...3).map(expected).reduce(0, +)
        let stored: Int = Self.athletes.map(Self.runCount).reduce(0, +)
        #expect(recomputed == stored)
    }

    @Test func shardsWriteWhatOneWorkerWritesOnSQLite() throws {
        _ = try shardsWriteWhatOneWorkerWrites(store: "s.sqlite")
    }

    @Test func shardsRecomputeEachAthleteOnceOnSQLite() throws {
        try shardsRecomputeEachAthleteOnce(store: "s.sqlite")
    }

    @Test(.enabled(if: PGServer.url != nil, PGServer.skipped))
    func shardsWriteWhatOneWorkerWritesOnPostgreSQL() throws {
        let pg = try shardsWriteWhatOneWorkerWrites(store: PGServer.freshDatabase(try CLI()))
        // The hash and the reports do not depend on the backend.
        let sqlite = try shardsWriteWhatOneWorkerWrites(store: "s.sqlite")
        #expect(pg.keys.sorted() == sqlite.keys.sorted())
        for (path, bytes) in sqlite { #expect(pg[path] == bytes, "\(path) differs between the backends") }
    }

    @Test(.enabled(if: PGServer.url != nil, PGServer.skipped))
    func shardsRecomputeEachAthleteOnceOnPostgreSQL() throws {
        try shardsRecomputeEachAthleteOnce(store: PGServer.freshDatabase(try CLI()))
    }

    /// Shards share the folder's lock with each other, not with a whole run.
    @Test func shardsRunBesideEachOtherButNotBesideAWholeRun() throws {
        let cli = try CLI()
        try populate(cli, store: "s.sqlite")
        let reports = cli.workdir.appendingPathComponent("Reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let fd = open(reports.appendingPathComponent(".racekit-report.lock").path, O_CREAT | O_RDWR, 0o644)
        defer { close(fd) }
        let shard = ["report", "weekly", "--all-athletes", "--store", "s.sqlite", "--shard", "2/3", "--wait", "0.2"]
        #expect(flock(fd, LOCK_SH) == 0)   // another shard at work
        let beside = try cli.launch(shard + Self.week)   // other processes than the lock's
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(flock(fd, LOCK_EX) == 0)   // a whole run at work
        let blocked = try cli.launch(shard + Self.week)
        #expect(blocked.status == 75 && blocked.stderr.contains("another report run holds"), "\(blocked.stderr)")
        flock(fd, LOCK_UN)
    }

    @Test func badShardsAreUsageErrorsNamingTheValue() throws {
        let cli = try CLI()
        for value in ["0/3", "4/3", "a/b", "1/0", "-1/2", "1/3/4", "1/10001", "99999999999999999999/3", ""] {
            for args in [["report", "weekly", "--all-athletes"], ["runs", "recompute"]] {
                let r = try cli.run(args + ["--shard", value, "--store", "s.sqlite"])
                #expect(r.status == 64, "\(args) \(value)")
                #expect(r.stderr.contains("'\(value)' is invalid for '--shard <K/N>'"), "\(r.stderr)")
            }
        }
        let alone = try cli.run(["report", "weekly", "--shard", "1/3", "--store", "s.sqlite"])
        #expect(alone.status == 64 && alone.stderr.contains("--shard 1/3 works with --all-athletes only"))
        let both = try cli.run(["runs", "recompute", "--athlete", "anna", "--shard", "1/3", "--store", "s.sqlite"])
        #expect(both.status == 64 && both.stderr.contains("give --athlete or --shard, not both"))
        #expect(!FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent("s.sqlite").path))
    }
}
