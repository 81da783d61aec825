import Foundation
import GRDB
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitSQLite
@testable import RaceKitStore

func makeRun(start: Double, distance: Double, index: Int = 0, points: Int = 3) -> NewRun {
    var raw = RawActivity()
    raw.sport = "running"
    // 10 s steps; longer runs at 4 m/s, so repairs keep their device distance.
    let step = distance > 1000 ? distance / Double(points - 1) / 4 : 10
    for i in 0..<points {
        var p = SamplePoint()
        p.time = start + Double(i) * step
        p.distance = distance * Double(i) / Double(points - 1)
        p.heartRate = 140 + Double(i)
        raw.samples.append(p)
    }
    raw.segmentStarts = [0]
    guard case .activity(let a) = TrackRepair.repair(raw, format: .tcx) else { fatalError("test run must repair") }
    return NewRun(activity: a, analysis: RunAnalyzer.analyse(a, physiology: Physiology()), activityIndex: index)
}

@Suite struct RunStoreTests {
    @Test(arguments: Backend.all) func hasADefaultAthlete(_ backend: Backend) throws {
        let store = try backend.make()
        #expect(try store.athletes().map(\.id) == ["default"])
    }

    @Test(arguments: Backend.all) func roundTripsARunAndItsSamples(_ backend: Backend) throws {
        let store = try backend.make()
        let run = makeRun(start: 1_772_348_400, distance: 1000)
        let outcomes = try store.insert(
            [run], athleteID: "default", sourceFile: "a.tcx", format: .tcx,
            sha256: "aa", allowDuplicates: false)
        guard case .inserted(let id) = outcomes[0] else { Issue.record("not inserted"); return }
        let stored = try #require(try store.runs().first)
        #expect(stored.id == id && stored.distanceMeters == 1000 && stored.elapsedSeconds == 20)
        #expect(stored.avgHeartRate == 140.5 && stored.maxHeartRate == 142)
        #expect(stored.sourceFormat == .tcx && stored.sourceSHA256 == "aa" && stored.runType == .treadmill)
        let samples = try #require(try store.samples(runID: id))
        #expect(Array(samples.time) == [1_772_348_400, 1_772_348_410, 1_772_348_420])
        #expect(Array(samples.distance) == [0, 500, 1000])
    }

    @Test func aRunWaitingForTheStoreKeepsOnlyItsPackedSamples() throws {
        let run = makeRun(start: 1000, distance: 10_000, points: 50)
        #expect(run.activity.samples.isEmpty && run.analysis.isFiguresOnly && run.analysis.moving.isEmpty)
        #expect(try SampleCodec.decode(run.encodedSamples).count == 50)
        #expect(run.summary.pointCount == 50 && run.summary.distanceMeters == 10_000)
    }

    /// A long run's blob (megabytes, bound in place) must come back byte for byte.
    @Test(arguments: Backend.all) func aLongRunsSamplesComeBackWhole(_ backend: Backend) throws {
        let store = try backend.make()
        let run = makeRun(start: 1_772_348_400, distance: 400_000, points: 200_000)
        #expect(run.encodedSamples.count > 1 << 20)
        let outcomes = try store.insert(
            [run], athleteID: "default", sourceFile: "long.tcx", format: .tcx,
            sha256: "ll", allowDuplicates: false)
        guard case .inserted(let id) = outcomes[0] else { Issue.record("not inserted"); return }
        let back = try #require(try store.samples(runID: id))
        #expect(SampleCodec.encode(back) == run.encodedSamples)
        #expect(try store.verify().problems.isEmpty)
    }

    /// A store written before migration v3 (blob in the middle of the samples
    /// row) is rebuilt with the blob last and keeps every run's samples.
    @Test func migrationV3MovesTheBlobLastAndKeepsTheSamples() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-v3-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("racekit.sqlite").path
        let runs = [
            makeRun(start: 1000, distance: 5000, points: 40), makeRun(start: 90_000, distance: 8000, points: 70)
        ]
        var ids: [String] = []
        do {
            let store = try RunStore(path: path)
            for (k, run) in runs.enumerated() {
                let outcome = try store.insert(
                    [run], athleteID: "default", sourceFile: "\(k).tcx", format: .tcx,
                    sha256: "s\(k)", allowDuplicates: false)
                guard case .inserted(let id) = outcome[0] else { Issue.record("not inserted"); return }
                ids.append(id)
            }
        }
        // Put the table back as v2 had it and forget that v3 ran.
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE old_samples (run_id TEXT PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
                                                  data BLOB NOT NULL, segments TEXT NOT NULL DEFAULT '[0]');
                        INSERT INTO old_samples (run_id, data, segments) SELECT run_id, data, segments FROM run_samples;
                        DROP TABLE run_samples;
                        ALTER TABLE old_samples RENAME TO run_samples;
                        DELETE FROM grdb_migrations WHERE identifier = 'v3-samples-blob-last';
                        """)
                #expect(
                    try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('run_samples')") == [
                        "run_id", "data", "segments"
                    ])
            }
        }
        let store = try RunStore(path: path)
        let columns = try store.writer.read {
            try String.fetchAll($0, sql: "SELECT name FROM pragma_table_info('run_samples')")
        }
        #expect(columns == ["run_id", "segments", "data"])
        for (id, run) in zip(ids, runs) {
            let back = try #require(try store.samples(runID: id))
            #expect(SampleCodec.encode(back) == run.encodedSamples)
        }
        #expect(try store.verify().problems.isEmpty)
        // Deleting a run still deletes its samples (the foreign key survived).
        try store.writer.write { db in
            try db.execute(sql: "DELETE FROM run WHERE id = ?", arguments: [ids[0]])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM run_samples") == 1)
        }
    }

    /// A store holding one 1 km run, and its id.
    static func storeWithOneRun() throws -> (RunStore, String) {
        let (store, id) = try Backend.sqlite.storeWithOneRun()
        return (try #require(store as? RunStore), id)
    }

    @Test func damagedLoadInputsAreReportedNotReadAsNone() throws {
        let (store, id) = try Self.storeWithOneRun()
        try store.writer.write { db in
            try db.execute(sql: "UPDATE run SET load_estimated = ? WHERE id = ?", arguments: ["[\"maxHR\"]", id])
        }
        #expect(try store.run(id: id)?.estimatedLoadInputs() == ["maxHR"])
        try store.writer.write { db in
            try db.execute(sql: "UPDATE run SET load_estimated = '{broken' WHERE id = ?", arguments: [id])
        }
        let record = try #require(try store.run(id: id))
        #expect(throws: StoreError.self) { try record.estimatedLoadInputs() }
    }

    @Test func anUnknownStoredEnumValueIsAStoreErrorNotATrap() throws {
        let (store, id) = try Self.storeWithOneRun()
        try store.writer.write { db in
            try db.execute(sql: "UPDATE run SET sport = 'paragliding' WHERE id = ?", arguments: [id])
        }
        do {
            _ = try store.runs()
            Issue.record("an unknown sport was read")
        } catch let e as StoreError {
            #expect(e.description.contains("sport") && e.description.contains("paragliding"), "\(e)")
        }
    }

    @Test(arguments: Backend.all) func sameBytesAreADuplicateOfTheStoredRun(_ backend: Backend) throws {
        let store = try backend.make()
        let run = makeRun(start: 1_772_348_400, distance: 1000)
        let first = try store.insert(
            [run], athleteID: "default", sourceFile: "a.tcx", format: .tcx, sha256: "aa", allowDuplicates: false)
        let again = try store.insert(
            [run], athleteID: "default", sourceFile: "a.tcx", format: .tcx, sha256: "aa", allowDuplicates: true)
        guard case .inserted(let id) = first[0] else { Issue.record("not inserted"); return }
        #expect(again == [.duplicate(existingRunID: id, sameBytes: true)])
        #expect(try store.runCount() == 1)
    }

    @Test(arguments: Backend.all) func sameActivityFromAnotherFileIsADuplicateUnlessAllowed(_ backend: Backend) throws {
        let store = try backend.make()
        _ = try store.insert(
            [makeRun(start: 1000, distance: 10_000)], athleteID: "default", sourceFile: "a.gpx",
            format: .gpx, sha256: "aa", allowDuplicates: false)
        let dup = try store.insert(
            [makeRun(start: 1030, distance: 10_150)], athleteID: "default", sourceFile: "a.tcx",
            format: .tcx, sha256: "bb", allowDuplicates: false)
        guard case .duplicate(_, false, nil) = dup[0] else { Issue.record("expected a cross-format duplicate"); return }
        // 61 s apart: another activity.
        let other = try store.insert(
            [makeRun(start: 1061, distance: 10_000)],
            athleteID: "default", sourceFile: "b.tcx", format: .tcx, sha256: "cc", allowDuplicates: false)
        #expect(other.allSatisfy { if case .inserted = $0 { true } else { false } })
        // Same start, 3% longer and ending 77 s later: the stored one is a cut-off
        // copy of it (a watch that died, a truncated file), not another activity.
        let longer = try store.insert(
            [makeRun(start: 1000, distance: 10_310)], athleteID: "default", sourceFile: "c.tcx", format: .tcx,
            sha256: "dd", allowDuplicates: false)
        #expect(longer.allSatisfy { if case .inserted = $0 { false } else { true } })
        let allowed = try store.insert(
            [makeRun(start: 1030, distance: 10_150)], athleteID: "default", sourceFile: "a.tcx",
            format: .tcx, sha256: "bb", allowDuplicates: true)
        guard case .inserted = allowed[0] else { Issue.record("--allow-duplicates must store it"); return }
        #expect(try store.runCount() == 3)
    }

    @Test(arguments: Backend.all) func aFailingFileLeavesNothingBehind(_ backend: Backend) throws {
        let store = try backend.make()
        #expect(throws: StoreError.self) {
            try store.insert(
                [makeRun(start: 1000, distance: 10)], athleteID: "nobody", sourceFile: "a.tcx",
                format: .tcx, sha256: "aa", allowDuplicates: false)
        }
        #expect(try store.runCount() == 0)
    }

    @Test func storesOnTheFileSystemWithWAL() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-store-\(UUID().uuidString)")
        let path = dir.appendingPathComponent("nested/racekit.sqlite").path
        do {
            let store = try RunStore(path: path)
            _ = try store.insert(
                [makeRun(start: 1000, distance: 10)], athleteID: "default", sourceFile: "a.tcx",
                format: .tcx, sha256: "aa", allowDuplicates: false)
            #expect(try store.integrityCheck() == "ok")
        }
        let reopened = try RunStore(path: path)
        #expect(try reopened.runCount() == 1)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test(arguments: Backend.all) func addsAthletesOnce(_ backend: Backend) throws {
        let store = try backend.make()
        try store.addAthlete(Athlete(id: "anna", name: "Anna", timeZone: "Europe/Berlin", createdAt: 0))
        #expect(throws: StoreError.self) { try store.addAthlete(Athlete(id: "anna", name: "A", createdAt: 0)) }
        #expect(try store.athlete(id: "anna")?.timeZone == "Europe/Berlin")
    }

    /// The wellness source order reads back as set, names with commas, quotes
    /// and non-ASCII included; cleared, it reads back as nil.
    @Test(arguments: Backend.all) func anAthletesSourceOrderReadsBackAsSet(_ backend: Backend) throws {
        let store = try backend.make()
        var anna = Athlete(id: "anna", name: "Anna", createdAt: 0)
        anna.sourceOrder = ["Anna’s Apple Watch", "Oura, the \"ring\"", "manual"]
        try store.addAthlete(anna)
        #expect(try store.athlete(id: "anna")?.sourceOrder == anna.sourceOrder)
        anna.sourceOrder = ["Polar"]
        try store.updateAthlete(anna)
        #expect(try store.athletes().first { $0.id == "anna" }?.sourceOrder == ["Polar"])
        anna.sourceOrder = nil
        try store.updateAthlete(anna)
        #expect(try store.athlete(id: "anna")?.sourceOrder == nil)
        #expect(try store.athlete(id: "default")?.sourceOrder == nil)
    }

    /// A stored source order that is no list of names is refused with the
    /// athlete named, never a crash.
    @Test func aDamagedSourceOrderIsAnErrorNotACrash() throws {
        let store = try SQLiteStore()
        for bad in ["not json", "[1, 2]", "{\"a\": 1}", "[\"a\", null]", "7"] {
            try store.writer.write { db in
                try db.execute(sql: "UPDATE athlete SET source_order = ? WHERE id = 'default'", arguments: [bad])
            }
            let error = #expect(throws: StoreError.self, "\(bad)") { try store.athlete(id: "default") }
            #expect(
                error?.description.contains("athlete default: the stored source_order is damaged") == true, "\(error!)")
        }
    }
}

/// The repositories written once (`SQLStore`): what a backend's own code did
/// and a shared statement must still do.
@Suite struct SharedRepositoryTests {
    /// A run id prefix is matched literally, whatever its case: LIKE's
    /// wildcards and the escape character in it match nothing else.
    @Test(arguments: Backend.all) func anIdPrefixIsMatchedLiterally(_ backend: Backend) throws {
        let (store, id) = try backend.storeWithOneRun()
        #expect(try store.runs(idPrefix: String(id.prefix(6)).lowercased()).map(\.id) == [id])
        for hostile in ["_", "%", "!", "!%", String(id.prefix(5)) + "_", "'", "?"] {
            #expect(try store.runs(idPrefix: hostile).isEmpty, "\(hostile)")
        }
    }

    /// Text where an athlete's number belongs is an error naming the athlete
    /// and the column, never read as "not set" (an update would erase it).
    @Test func textInAnAthletesNumberIsAnErrorNotAMissingValue() throws {
        let store = try SQLiteStore()
        try store.writer.write { db in try db.execute(sql: "UPDATE athlete SET max_hr = 'abc' WHERE id = 'default'") }
        let error = #expect(throws: StoreError.self) { try store.athlete(id: "default") }
        #expect(error?.description.contains("athlete default, column max_hr") == true, "\(error!)")
    }

    /// A run's samples are bound in place; the text beside them whole, a NUL in it included.
    @Test func theTextBesideABlobIsStoredWhole() throws {
        let store = try SQLiteStore()
        let outcome = try store.insert(
            [makeRun(start: 1_772_348_400, distance: 1000)], athleteID: "default", sourceFile: "a.tcx",
            format: .tcx, sha256: "aa", allowDuplicates: false)
        guard case .inserted(let id) = outcome.first else {
            Issue.record("not inserted: \(outcome)")
            return
        }
        let segments = "[0]\u{0}tail"
        try store.writer.write { db in
            try store.writeSamples(GRDBConnection(db: db), runID: id, [1, 2, 3], segments: segments, replacing: true)
        }
        // Its bytes, as GRDB reads a text up to a NUL.
        let stored = try store.writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT CAST(segments AS BLOB) AS text, data FROM run_samples WHERE run_id = ?",
                arguments: [id])
        }
        #expect(stored?["text"] == Data(segments.utf8))
        #expect(stored?["data"] == Data([1, 2, 3]))
    }
}

@Suite struct DuplicateRuleTests {
    @Test(arguments: Backend.all) func startingAndEndingTogetherIsOneActivityWhateverTheDistances(_ backend: Backend)
        throws
    {
        // A watch's device distance and a GPS track's differ by more than 2% on real
        // runs (4,489 against 4,395 m in the corpus); same start and end: one run.
        let store = try backend.make()
        _ = try store.insert(
            [makeRun(start: 1000, distance: 10_000)], athleteID: "default", sourceFile: "a.fit", format: .fit,
            sha256: "aa", allowDuplicates: false)
        let gps = try store.insert(
            [makeRun(start: 1010, distance: 10_210)], athleteID: "default", sourceFile: "a.gpx", format: .gpx,
            sha256: "bb", allowDuplicates: false)
        #expect(gps.allSatisfy { if case .inserted = $0 { false } else { true } })
        #expect(try store.runCount() == 1)
    }

    @Test(arguments: Backend.all) func theWholeRunReplacesItsCutOffCopy(_ backend: Backend) throws {
        let store = try backend.make()
        let cut = try store.insert(
            [makeRun(start: 1000, distance: 5_000, points: 50)], athleteID: "default", sourceFile: "half.fit",
            format: .fit, sha256: "aa", allowDuplicates: false)
        let whole = try store.insert(
            [makeRun(start: 1000, distance: 10_000, points: 100)], athleteID: "default", sourceFile: "run.fit",
            format: .fit, sha256: "bb", allowDuplicates: false)
        guard case .inserted(let id) = cut[0], case .upgraded(let upgraded) = whole[0] else {
            Issue.record("expected the whole run to upgrade its cut-off copy: \(whole)")
            return
        }
        #expect(upgraded == id)
        #expect(try store.runCount() == 1)
        #expect(try store.run(id: id)?.distanceMeters == 10_000)
    }
}

/// Several files in one transaction (`insert(files:importedAt:)`, the import's
/// group commit): a file that fails stores nothing of itself, the others are kept.
@Suite struct FileBatchTests {
    static func file(_ name: String, _ runs: [NewRun], athlete: String = "default") -> FileInsert {
        FileInsert(runs: runs, athleteID: athlete, sourceFile: name, format: .tcx, sha256: name, allowDuplicates: false)
    }

    @Test(arguments: Backend.all) func aFileForAnUnknownAthleteFailsAloneInItsBatch(_ backend: Backend) throws {
        let store = try backend.make()
        let results = try store.insert(
            files: [
                Self.file("a.tcx", [makeRun(start: 1_772_348_400, distance: 1000)]),
                Self.file("b.tcx", [makeRun(start: 1_772_448_400, distance: 2000)], athlete: "nobody"),
                Self.file("c.tcx", [makeRun(start: 1_772_548_400, distance: 3000)])
            ], importedAt: 1_772_600_000)
        #expect(results.count == 3)
        #expect(throws: (any Error).self) { try results[1].get() }
        if case .failure(let error) = results[1] { #expect("\(error)".contains("nobody")) }
        let a = try results[0].get(), c = try results[2].get()
        guard case .inserted(let idA) = a.first, case .inserted(let idC) = c.first else {
            Issue.record("not inserted: \(a) \(c)")
            return
        }
        #expect(try store.runs().map(\.id).sorted() == [idA, idC].sorted())
        #expect(try store.runs().map(\.sourceFile).sorted() == ["a.tcx", "c.tcx"])
    }

    /// The second run of a file fails (a trigger refuses its zones): the file's
    /// first run, already written in the same transaction, is rolled back with it.
    @Test func aFileFailingHalfwayLeavesNothingOfItselfAndTheOthersStay() throws {
        let store = try SQLiteStore()
        try store.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuse_b2 BEFORE INSERT ON best_effort
                    WHEN (SELECT source_file FROM run WHERE id = NEW.run_id) = 'b.tcx'
                      AND (SELECT count(*) FROM run WHERE source_file = 'b.tcx') = 2
                    BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                    """)
        }
        let b = [makeRun(start: 1_772_448_400, distance: 2000), makeRun(start: 1_772_458_400, distance: 2000, index: 1)]
        #expect(!b[1].analysis.bestEfforts.isEmpty, "the trigger needs a best effort to refuse")
        let results = try store.insert(
            files: [
                Self.file("a.tcx", [makeRun(start: 1_772_348_400, distance: 1000)]),
                Self.file("b.tcx", b),
                Self.file("c.tcx", [makeRun(start: 1_772_548_400, distance: 3000)])
            ], importedAt: 1_772_600_000)
        #expect(throws: (any Error).self) { try results[1].get() }
        #expect((try? results[0].get()) != nil && (try? results[2].get()) != nil)
        #expect(try store.runs().map(\.sourceFile).sorted() == ["a.tcx", "c.tcx"])
        let samples = try store.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM run_samples") }
        #expect(samples == 2)
    }
}
