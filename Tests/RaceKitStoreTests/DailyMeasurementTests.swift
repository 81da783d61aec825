import Foundation
import GRDB
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitPostgres
@testable import RaceKitSQLite
@testable import RaceKitStore

/// The generic table of daily measurements on every backend: stored once
/// (a second import of the same rows adds nothing), read back by athlete,
/// kind and time, refused for an unknown athlete.
@Suite struct DailyMeasurementTests {
    static func night(_ athlete: String = Athlete.defaultID, source: String = "Apple Watch") -> [DailyMeasurement] {
        let t = 1_772_400_000.0
        return [
            DailyMeasurement(
                athleteID: athlete, kind: DailyKind.named("sleep_core")!, value: 3600, start: t, end: t + 3600,
                source: source, sourceFile: "export.xml", importedAt: 5),
            DailyMeasurement(
                athleteID: athlete, kind: DailyKind.named("sleep_deep")!, value: 1800, start: t + 3600,
                end: t + 5400, source: source, sourceFile: "export.xml", importedAt: 5),
            DailyMeasurement(
                athleteID: athlete, kind: DailyKind.named("hrv_sdnn")!, value: 48.5, start: t + 4000, source: source,
                sourceFile: "export.xml", importedAt: 5),
            DailyMeasurement(
                athleteID: athlete, kind: DailyKind.named("resting_hr")!, value: 47, start: t + 30_000,
                source: "manual", importedAt: 6)
        ]
    }

    @Test(arguments: Backend.all) func measurementsAreStoredOnceAndReadBack(_ backend: Backend) throws {
        let store = try backend.make()
        let rows = Self.night()
        #expect(try store.addMeasurements(rows) == 4)
        #expect(try store.addMeasurements(rows) == 0)
        // Another source's night is another measurement; the hand-entered
        // resting heart rate in it is the same one.
        #expect(try store.addMeasurements(Self.night(source: "Oura")) == 3)
        let all = try store.measurements(athleteID: Athlete.defaultID, kind: nil, from: nil, until: nil)
        #expect(all.count == 7)
        #expect(all.filter { $0.source == "Apple Watch" } == rows.filter { $0.source == "Apple Watch" })
        let hrv = try store.measurements(athleteID: Athlete.defaultID, kind: "hrv_sdnn", from: nil, until: nil)
        #expect(hrv.map(\.value) == [48.5, 48.5] && hrv.map(\.unit) == ["ms", "ms"])
        let t = 1_772_400_000.0
        let early = try store.measurements(athleteID: Athlete.defaultID, kind: nil, from: t + 1, until: t + 4000)
        #expect(early.map(\.kind) == ["sleep_deep", "sleep_deep", "hrv_sdnn", "hrv_sdnn"])
        #expect(all.first { $0.source == "manual" }?.sourceFile == nil)
        #expect(try store.measurements(athleteID: "nobody", kind: nil, from: nil, until: nil).isEmpty)
        let error = #expect(throws: StoreError.self) { try store.addMeasurements(Self.night("nobody")) }
        #expect(error?.description == StoreError.unknownAthlete("nobody").description)
        // A store holding measurements is not empty (a copy would overwrite them).
        #expect(try store.isEmpty() == false)
    }

    @Test(arguments: Backend.all) func badMeasurementsAreRefusedWholeNamingTheProblem(_ backend: Backend) throws {
        let store = try backend.make()
        var nan = Self.night()[2]
        nan.value = .nan
        var unit = Self.night()[2]
        unit.unit = "s"
        var backwards = Self.night()[0]
        backwards.end = backwards.start - 1
        var unknown = Self.night()[3]
        unknown.kind = "mood"
        var high = Self.night()[3]
        high.value = 400
        for (bad, says) in [
            (nan, "nan ms is outside"), (unit, "unit s, not ms"), (backwards, "before it starts"),
            (unknown, "no such kind"), (high, "400.0 bpm is outside 25.0...150.0")
        ] {
            let error = #expect(throws: Failure.self) { try store.addMeasurements(Self.night() + [bad]) }
            #expect(error?.description.contains(says) == true, "\(error?.description ?? "-")")
            #expect(error?.exitClass == .dataError)
        }
        #expect(try store.measurements(athleteID: Athlete.defaultID, kind: nil, from: nil, until: nil).isEmpty)
    }

    @Test func everyKindHasAUnitAndARange() {
        let keys = DailyKind.all.map(\.key)
        #expect(Set(keys).count == keys.count)
        #expect(DailyKind.all.allSatisfy { !$0.unit.isEmpty && $0.range.lowerBound < $0.range.upperBound })
        #expect(DailyKind.named("sleep_awake")?.dayValue == .spanTotal)
        #expect(DailyKind.named("nope") == nil)
    }

    /// A store written by 0.4.0 (its schema at v6) is upgraded in place: the
    /// athlete table rebuilt with its declared default, every value the same.
    @Test func aStoreAtV6IsUpgradedWithEveryValueKept() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-v6-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("old.sqlite").path
        do {
            var config = Configuration()
            config.foreignKeysEnabled = true
            let queue = try DatabaseQueue(path: path, configuration: config)
            try Migrations.historical.migrate(queue)
            try queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO athlete (id, name, max_hr, resting_hr, threshold_hr, threshold_pace_s_per_km, sex,
                            time_zone, zone_model, created_at)
                        VALUES ('anna', 'Anna', 191.5, 48, 172, 245.5, 'female', 'Europe/Berlin', 'friel', 12.5)
                        """)
            }
        }
        let before = try SQLiteStore(path: path, access: .read)
        let athletes = try before.athletes()
        #expect(try before.writer.read(Migrations.state) == .current)
        let anna = try #require(athletes.first { $0.id == "anna" })
        #expect(anna.maxHeartRate == 191.5 && anna.restingHeartRate == 48 && anna.thresholdHeartRate == 172)
        #expect(anna.thresholdPaceSecondsPerKm == 245.5 && anna.sex == .female && anna.timeZone == "Europe/Berlin")
        #expect(anna.zoneModel == .friel && anna.createdAt == 12.5)
        let defaultSQL = try before.writer.read { db in
            try db.columns(in: "athlete").first { $0.name == "zone_model" }?.defaultValueSQL
        }
        #expect(defaultSQL == "'auto'")
        // Runs still reference the rebuilt table: a run for anna is stored, and
        // deleting anna deletes it (the foreign key holds).
        let store = try SQLiteStore(path: path)
        _ = try store.insert(
            [makeRun(start: 1_772_348_400, distance: 1000)], athleteID: "anna", sourceFile: "a.tcx", format: .tcx,
            sha256: "aa", allowDuplicates: false)
        #expect(try store.runCount(athleteID: "anna") == 1)
        try store.writer.write { db in try db.execute(sql: "DELETE FROM athlete WHERE id = 'anna'") }
        #expect(try store.runCount(athleteID: "anna") == 0)
    }
}

/// A PostgreSQL store as 0.4.0 left it (pg1 alone) is upgraded in place.
@Suite(.enabled(if: Backend.serverURL != nil, "PostgreSQL not installed")) struct PGUpgradeTests {
    @Test func aStoreAtPG1IsUpgradedWithEveryValueKept() throws {
        let url = try Backend.freshDatabase()
        do {
            let c = try PGConnection(url)
            try c.query(PGSchema.ledger)
            let (id, sql) = try #require(PGSchema.historical.first)
            try c.execute(script: sql)
            try c.query(
                SQLDialect.postgres.statement(TableSpec.insert(into: "racekit_migrations", columns: ["identifier"])),
                [.text(id)])
            try c.execute(
                script: """
                    INSERT INTO athlete (id, name, max_hr, resting_hr, threshold_hr, threshold_pace_s_per_km, sex,
                        time_zone, zone_model, created_at)
                    VALUES ('anna', 'Anna', 191.5, 48, 172, 245.5, 'female', 'Europe/Berlin', 'friel', 12.5);
                    INSERT INTO race_link (setup_key, setup_slug, setup_file, race_name, race_date, target_s)
                    VALUES ('slug:berlin', 'berlin', 'berlin.yaml', 'Berlin', '2026-09-27', 11700)
                    """)
            #expect(try PGSchema.state(c) == .older(applied: id))
        }
        let store = try PGStore(conninfo: url, access: .write)
        let anna = try #require(try store.athlete(id: "anna"))
        #expect(anna.name == "Anna" && anna.maxHeartRate == 191.5 && anna.restingHeartRate == 48)
        #expect(anna.thresholdHeartRate == 172 && anna.thresholdPaceSecondsPerKm == 245.5 && anna.sex == .female)
        #expect(anna.timeZone == "Europe/Berlin" && anna.zoneModel == .friel && anna.createdAt == 12.5)
        #expect(try store.athlete(id: "default")?.name == "Default athlete")
        let link = try #require(try store.allRaceLinks().first)
        #expect(link.setupKey == "slug:berlin" && link.raceName == "Berlin" && link.raceDate == "2026-09-27")
        #expect(link.targetSeconds == 11700 && link.runID == nil)
        #expect(try PGSchema.state(try PGConnection(url)) == .current)
        // The upgraded tables take new rows: a run for anna, and a measurement.
        _ = try store.insert(
            [makeRun(start: 1_772_348_400, distance: 1000)], athleteID: "anna", sourceFile: "a.tcx", format: .tcx,
            sha256: "aa", allowDuplicates: false)
        #expect(try store.runCount(athleteID: "anna") == 1)
    }
}

/// Import stamps on every backend: upserted by athlete and path, read back.
@Suite struct FileStampStoreTests {
    @Test(arguments: Backend.all) func stampsAreReplacedByPathAndReadBack(_ backend: Backend) throws {
        let store = try backend.make()
        let a = FileStamp(
            athleteID: Athlete.defaultID, path: "/data/a.fit", size: 1234,
            modifiedNanoseconds: 1_772_400_000_123_456_789,
            inode: 99, changedNanoseconds: 7, reader: "racekit 0.4.0, analysis 6", status: "imported", reason: nil,
            runIDs: ["01ABC"], recordedAt: 5)
        var b = a
        b.path = "/data/b.gpx"
        b.status = "skipped"
        b.reason = "a route, not an activity"
        b.runIDs = "[]"
        try store.recordStamps([a, b])
        #expect(try store.stamps(athleteID: Athlete.defaultID).sorted { $0.path < $1.path } == [a, b])
        var changed = a
        changed.size = 4321
        changed.modifiedNanoseconds += 1
        try store.recordStamps([changed])
        #expect(try store.stamps(athleteID: Athlete.defaultID).sorted { $0.path < $1.path } == [changed, b])
        #expect(try store.stamps(athleteID: "nobody").isEmpty)
        #expect(changed.runIDList == ["01ABC"] && b.runIDList.isEmpty)
        #expect(a.matches(size: 1234, modifiedNanoseconds: 1_772_400_000_123_456_789, inode: 99, changedNanoseconds: 7))
        #expect(
            !a.matches(size: 1234, modifiedNanoseconds: 1_772_400_000_123_456_789, inode: 98, changedNanoseconds: 7))
        #expect(
            !a.matches(size: 1234, modifiedNanoseconds: 1_772_400_000_123_456_789, inode: 99, changedNanoseconds: 8))
    }
}
