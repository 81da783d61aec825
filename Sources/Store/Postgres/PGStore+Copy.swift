import RaceKitMetrics
import RaceKitStore

/// Moving a whole store: runs read a page at a time exactly as stored, and a
/// copy written into an empty store in one transaction (`store copy`).
extension PGStore {
    /// Copies `source` into this store, which must be empty, in one transaction;
    /// the tables are locked against other writers (readers go on) until it ends.
    public func importContents(of source: any Store, pageSize: Int) throws -> Int {
        try write { c in
            try c.query("LOCK TABLE athlete, run, race_link, daily_measurement IN EXCLUSIVE MODE")
            let held = try c.query(
                """
                SELECT (SELECT count(*) FROM run) + (SELECT count(*) FROM race_link)
                + (SELECT count(*) FROM athlete WHERE id <> 'default') + (SELECT count(*) FROM daily_measurement)
                """)
            guard held.int(0, 0) == 0 else { throw StoreError.notEmpty(path: location) }
            let shared = PGSQLConnection(connection: c)
            for athlete in try source.athletes() { try Athlete.insert(shared, athlete, replacing: true) }
            let copied = try source.forEachRunPage(pageSize: pageSize) { page in
                for run in page { try insert(c, run) }
            }
            for link in try source.allRaceLinks() { try RaceLink.upsert(shared, link) }
            try DailyMeasurement.insert(shared, source.allMeasurements())
            return copied
        }
    }

    /// Writes one copied run with its samples, zones and best efforts as they were.
    func insert(_ c: PGConnection, _ run: StoredRun) throws {
        let shared = PGSQLConnection(connection: c)
        let id = run.record.id
        try insertRun(shared, run.record)
        if let samples = run.samples {
            try writeSamples(shared, runID: id, samples, segments: run.segments ?? "[0]", replacing: false)
        }
        try writeDetails(shared, runID: id, run.zones, run.bestEfforts, replacing: false)
    }
}
