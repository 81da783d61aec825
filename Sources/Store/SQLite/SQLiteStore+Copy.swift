import Foundation
import GRDB
import RaceKitMetrics
import RaceKitStore

/// Moving a whole store: runs read a page at a time exactly as stored, and a
/// copy written into an empty store in one transaction (`store copy`).
extension SQLiteStore {
    /// Copies `source` into this store, which must be empty, in one transaction.
    public func importContents(of source: any Store, pageSize: Int) throws -> Int {
        try wrap {
            try write { db in
                let held = try Int.fetchOne(
                    db,
                    sql: """
                        SELECT (SELECT count(*) FROM run) + (SELECT count(*) FROM race_link)
                        + (SELECT count(*) FROM athlete WHERE id <> 'default') + (SELECT count(*) FROM daily_measurement)
                        """)
                guard held == 0 else { throw StoreError.notEmpty(path: path) }
                let shared = GRDBConnection(db: db)
                for athlete in try source.athletes() { try Athlete.insert(shared, athlete, replacing: true) }
                let copied = try source.forEachRunPage(pageSize: pageSize) { page in
                    for run in page { try insert(db, run) }
                }
                for link in try source.allRaceLinks() { try RaceLink.upsert(shared, link) }
                try DailyMeasurement.insert(shared, source.allMeasurements())
                return copied
            }
        }
    }

    /// Writes one copied run with its samples, zones and best efforts as they were.
    func insert(_ db: Database, _ run: StoredRun) throws {
        let shared = GRDBConnection(db: db)
        let id = run.record.id
        try insertRun(shared, run.record)
        if let samples = run.samples {
            try writeSamples(shared, runID: id, samples, segments: run.segments ?? "[0]", replacing: false)
        }
        try writeDetails(shared, runID: id, run.zones, run.bestEfforts, replacing: false)
    }
}
