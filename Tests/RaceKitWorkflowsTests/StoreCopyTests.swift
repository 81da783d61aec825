import Foundation
import GRDB
import RaceKitImport
import RaceKitTestSupport
import Testing

@testable import RaceKitPostgres
@testable import RaceKitSQLite
@testable import RaceKitStore
@testable import RaceKitStoreOpener
@testable import RaceKitWorkflows

/// `store copy` and the content digest: every table copied unchanged, the same
/// digest in both stores, a destination with data refused, and a digest that
/// sees one changed byte, field or link.
@Suite struct StoreCopyTests {
    static let pgURL: String? = ProcessInfo.processInfo.environment["RACEKIT_TEST_PG"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// A SQLite store file with three imported runs (with heart rate, so zones
    /// and load), a second athlete, user fields on one run and a race link.
    static func sourceStore() throws -> (path: String, store: SQLiteStore) {
        let dir = try workFolder()
        let path = dir.appendingPathComponent("src.sqlite").path
        let store = try SQLiteStore(path: path)
        var athlete = try #require(try store.athlete(id: Athlete.defaultID))
        athlete.maxHeartRate = 190
        athlete.restingHeartRate = 50
        try store.updateAthlete(athlete)
        var anna = Athlete(id: "anna", name: "Anna K", timeZone: "Europe/Berlin", zoneModel: .friel, createdAt: 1.5)
        anna.thresholdHeartRate = 171.25
        anna.sex = .female
        anna.sourceOrder = ["Anna’s Apple Watch", "Oura, ring"]
        try store.addAthlete(anna)
        var files: [String] = []
        for (i, start) in ["2026-03-01T07:00:00Z", "2026-03-03T07:00:00Z", "2026-03-05T07:00:00Z"].enumerated() {
            let url = dir.appendingPathComponent("run-\(i).gpx")
            try trackGPX(seconds: 1500 + 300 * i, speed: 3.1, start: start, heartRate: 150 + Double(i))
                .write(to: url, atomically: true, encoding: .utf8)
            files.append(url.path)
        }
        let results = try Importer(store: store, options: ImportOptions()).run(files: files)
        #expect(results.allSatisfy { $0.status == .imported })
        let first = try #require(try store.runs().first)
        var edit = RunEdit()
        edit.label = "race"
        edit.mode = .race
        edit.runType = .treadmill
        edit.perceivedEffort = 8
        edit.notes = "windy, \u{e9}t\u{e9}"
        _ = try store.edit(runID: first.id, edit)
        try store.saveRaceLink(
            RaceLink(
                setupKey: "/races/m.yaml", setupSlug: "m", setupFile: "Races/m.yaml", raceName: "M",
                raceDate: "2026-03-01", targetSeconds: 1500.25, runID: first.id, actualSeconds: 1499.5,
                reviewPath: nil))
        return (path, store)
    }

    /// A new database on the test server (removed with the server).
    static func freshDatabase(_ url: String) throws -> StoreLocation {
        let name = "racekit_w_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PGConnection(url).query("CREATE DATABASE \(name)")
        return .postgres(url: url[...url.lastIndex(of: "/")!] + name)
    }

    /// `body` fails with `StoreError.notEmpty` naming `name`.
    func expectNotEmpty(_ name: String, _ body: () throws -> Any, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: StoreError.self, sourceLocation: sourceLocation) { _ = try body() }
        #expect(error?.description == StoreError.notEmpty(path: name).description, sourceLocation: sourceLocation)
    }

    /// Everything a store holds, as the copy sees it.
    static func contents(_ store: any Store) throws -> ([Athlete], [StoredRun], [RaceLink]) {
        (try store.athletes(), try store.exportRuns(after: nil, limit: 1000), try store.allRaceLinks())
    }

    @Test func sqliteToSqliteCopiesEveryTableAndTheDigestsMatch() throws {
        let (path, source) = try Self.sourceStore()
        let target = try workFolder().appendingPathComponent("copy/dst.sqlite").path
        let result = try StoreCopy.run(from: .sqlite(path: path), to: .sqlite(path: target), pageSize: 2)
        #expect(result.created && result.runs == 3)
        #expect(result.source == result.copy)
        #expect(result.source.athletes == 2 && result.source.runs == 3 && result.source.raceLinks == 1)
        let copy = try SQLiteStore(path: target, access: .read)
        let (a, r, l) = try Self.contents(source)
        let (a2, r2, l2) = try Self.contents(copy)
        #expect(a == a2 && l == l2)
        #expect(r == r2)
        #expect(r.count == 3 && r.allSatisfy { $0.samples != nil && !$0.zones.isEmpty && !$0.bestEfforts.isEmpty })
        #expect(r2.contains { $0.record.label == "race" && $0.record.notes == "windy, \u{e9}t\u{e9}" })
        #expect(try StoreDigest.of(copy) == result.source)
        #expect(result.lines[1].hasPrefix("source digest: sha256:"))
    }

    /// An athlete's source order is in the digest when set; a store without
    /// one digests as before the column existed.
    @Test func theSourceOrderIsDigestedOnlyWhenSet() throws {
        let store = try SQLiteStore()
        let before = try StoreDigest.of(store)
        var athlete = try #require(try store.athlete(id: Athlete.defaultID))
        athlete.sourceOrder = ["Oura"]
        try store.updateAthlete(athlete)
        let ordered = try StoreDigest.of(store)
        athlete.sourceOrder = ["Oura", "manual"]
        try store.updateAthlete(athlete)
        let reordered = try StoreDigest.of(store)
        #expect(ordered != before && ordered != reordered)
        athlete.sourceOrder = nil
        try store.updateAthlete(athlete)
        #expect(try StoreDigest.of(store) == before)
    }

    @Test func pagesDoNotChangeTheDigest() throws {
        let (_, source) = try Self.sourceStore()
        #expect(try StoreDigest.of(source, pageSize: 1) == StoreDigest.of(source, pageSize: 100))
    }

    @Test func aDestinationWithDataIsRefusedAndLeftAsItWas() throws {
        let (path, _) = try Self.sourceStore()
        let dir = try workFolder()
        // Runs in it.
        let full = dir.appendingPathComponent("full.sqlite").path
        _ = try StoreCopy.run(from: .sqlite(path: path), to: .sqlite(path: full))
        let before = try StoreDigest.of(try SQLiteStore(path: full, access: .read))
        expectNotEmpty(full) {
            try StoreCopy.run(from: .sqlite(path: path), to: .sqlite(path: full))
        }
        #expect(try StoreDigest.of(try SQLiteStore(path: full, access: .read)) == before)
        // Only another athlete: refused too, by the backend in its transaction as well.
        let athlete = dir.appendingPathComponent("athlete.sqlite").path
        let other = try SQLiteStore(path: athlete)
        try other.addAthlete(Athlete(id: "bob", name: "Bob", createdAt: 0))
        expectNotEmpty(athlete) {
            try other.importContents(of: try SQLiteStore(path: path, access: .read), pageSize: 10)
        }
        #expect(try other.runCount() == 0)
        // The same file by another name.
        let sameFile = URL(fileURLWithPath: path).deletingLastPathComponent().path + "/./src.sqlite"
        #expect(throws: StoreCopyError.sameStore(path)) {
            try StoreCopy.run(from: .sqlite(path: path), to: .sqlite(path: sameFile))
        }
    }

    @Test func aFailedCopyLeavesNothingBehind() throws {
        let (_, source) = try Self.sourceStore()
        // The destination refuses the third run's best efforts: the copy fails midway.
        let target = try SQLiteStore()
        try target.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER no_third BEFORE INSERT ON best_effort
                    WHEN (SELECT count(DISTINCT run_id) FROM best_effort) >= 2
                        AND NEW.run_id NOT IN (SELECT run_id FROM best_effort)
                    BEGIN SELECT RAISE(ABORT, 'refused'); END
                    """)
        }
        #expect(throws: StoreError.self) { try target.importContents(of: source, pageSize: 1) }
        #expect(try target.runCount() == 0 && target.athletes().map(\.id) == ["default"])
        #expect(try target.allRaceLinks().isEmpty && target.athlete(id: "default")?.maxHeartRate == nil)
    }

    @Test func theDigestSeesOneSampleByteOneUserFieldAndOneLink() throws {
        let (_, store) = try Self.sourceStore()
        let original = try StoreDigest.of(store)
        let run = try #require(try store.runs().last)
        // One sample byte (the last: a value, not the header).
        let blob = try #require(try store.exportRuns(after: nil, limit: 10).first { $0.record.id == run.id }?.samples)
        var changed = blob
        changed[changed.count - 1] ^= 1
        try store.writer.write { db in
            try db.execute(
                sql: "UPDATE run_samples SET data = ? WHERE run_id = ?", arguments: [Data(changed), run.id])
        }
        let sampleByte = try StoreDigest.of(store)
        #expect(sampleByte != original && sampleByte.runs == original.runs)
        try store.writer.write { db in
            try db.execute(sql: "UPDATE run_samples SET data = ? WHERE run_id = ?", arguments: [Data(blob), run.id])
        }
        #expect(try StoreDigest.of(store) == original)
        // One user field.
        var edit = RunEdit()
        edit.perceivedEffort = 3
        _ = try store.edit(runID: run.id, edit)
        let field = try StoreDigest.of(store)
        #expect(field != original)
        // One link.
        var link = try #require(try store.allRaceLinks().first)
        link.targetSeconds += 1
        try store.saveRaceLink(link)
        let linked = try StoreDigest.of(store)
        #expect(linked != field && linked != original)
    }

    /// `store check` pages through the runs and names each damaged one; the
    /// digest still covers what is stored.
    @Test(arguments: pgURL == nil ? ["sqlite"] : ["sqlite", "postgres"])
    func verifyNamesEveryDamagedRun(_ backend: String) throws {
        let (path, _) = try Self.sourceStore()
        let location =
            backend == "sqlite"
            ? StoreLocation.sqlite(path: try workFolder().appendingPathComponent("v.sqlite").path)
            : try Self.freshDatabase(try #require(Self.pgURL))
        _ = try StoreCopy.run(from: .sqlite(path: path), to: location)
        let store = try location.open(access: .write)
        let before = try StoreDigest.of(store)
        let runs = try store.runs()
        let cut = "UPDATE run_samples SET data = substr(data, 1, 30) WHERE run_id = '\(runs[0].id)'"
        let drop = "DELETE FROM run_samples WHERE run_id = '\(runs[1].id)'"
        switch location {
        case .sqlite:
            try #require(store as? SQLiteStore).writer.write { db in
                try db.execute(sql: cut)
                try db.execute(sql: drop)
            }
        case .postgres(let url):
            try PGConnection(url).execute(
                script: cut.replacingOccurrences(of: "substr(data, 1, 30)", with: "substring(data from 1 for 30)")
                    + "; " + drop)
        }
        let (count, problems) = try store.verify()
        #expect(count == 3)
        #expect(
            problems.sorted()
                == ["run \(runs[0].id): sample blob is truncated", "run \(runs[1].id): no samples"].sorted())
        #expect(try StoreDigest.of(store) != before)
    }

    /// −0 and 0 are one value (SQLite keeps no sign on a zero); anything else
    /// differs by its bits.
    @Test func numbersAreHashedByTheirBits() {
        func bytes(_ v: Double) -> [UInt8] {
            var w = CanonicalWriter()
            w.number(v)
            return w.bytes
        }
        #expect(bytes(-0.0) == bytes(0))
        #expect(bytes(0.1) != bytes(0.1.nextUp))
        var a = CanonicalWriter(), b = CanonicalWriter()
        a.text("ab")
        a.text("c")
        b.text("a")
        b.text("bc")
        #expect(a.bytes != b.bytes)
    }

    /// SQLite to PostgreSQL and back: the same digest at every step, every table equal.
    @Test(.enabled(if: pgURL != nil, "skipped: PostgreSQL not installed (make test starts one)"))
    func sqliteToPostgresAndBackIsLossless() throws {
        let (path, source) = try Self.sourceStore()
        let url = try #require(Self.pgURL)
        let pg = try Self.freshDatabase(url)
        let there = try StoreCopy.run(from: .sqlite(path: path), to: pg, pageSize: 2)
        #expect(there.created && there.runs == 3)
        let back = try workFolder().appendingPathComponent("back.sqlite").path
        let again = try StoreCopy.run(from: pg, to: .sqlite(path: back), pageSize: 2)
        #expect(there.source == there.copy && again.source == there.source && again.copy == there.source)
        let (a, r, l) = try Self.contents(source)
        let (a2, r2, l2) = try Self.contents(try pg.open(access: .read))
        let (a3, r3, l3) = try Self.contents(try SQLiteStore(path: back, access: .read))
        #expect(a == a2 && a == a3 && l == l2 && l == l3)
        #expect(r == r2 && r == r3)
        // A copy that fails midway (the server refuses the third run) leaves nothing.
        let refusing = try Self.freshDatabase(url)
        let target = try refusing.open(access: .create)
        try PGConnection(refusing.description).execute(
            script: """
                CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN
                    IF (SELECT count(*) FROM run) >= 2 THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW;
                END $$ LANGUAGE plpgsql;
                CREATE TRIGGER no_third BEFORE INSERT ON run FOR EACH ROW EXECUTE FUNCTION refuse();
                """)
        #expect(throws: PGError.self) { try target.importContents(of: source, pageSize: 1) }
        #expect(try target.runCount() == 0 && target.athletes().map(\.id) == ["default"])
        #expect(try target.allRaceLinks().isEmpty && target.athlete(id: "default")?.maxHeartRate == nil)
        // The server's store now holds data: a second copy into it is refused.
        expectNotEmpty(pg.description) {
            try StoreCopy.run(from: .sqlite(path: path), to: pg)
        }
    }
}
