import Foundation
import GRDB
import RaceKitCore

/// Moving a whole store: runs read a page at a time exactly as stored, and a
/// copy written into an empty store in one transaction (`store copy`).
extension SQLiteStore {
    /// Up to `limit` runs after `id`, by id (bytewise), with their samples blob
    /// and segments as stored, zones and best efforts.
    public func exportRuns(after id: String?, limit: Int) throws -> [StoredRun] {
        try wrap {
            try writer.read { db in
                let after = id.map { _ in "WHERE r.id > ?" } ?? ""
                let runs = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT \(runColumns.map { "r." + $0.spec.name }.joined(separator: ", ")),
                        s.segments, s.data FROM run r LEFT JOIN run_samples s ON s.run_id = r.id
                        \(after) ORDER BY r.id LIMIT ?
                        """, arguments: StatementArguments((id.map { [$0] } ?? []) + [max(0, limit)]))
                guard let last = runs.last else { return [] }
                let n = runColumns.count
                let range = (id.map { _ in "run_id > ? AND " } ?? "") + "run_id <= ?"
                let bounds = StatementArguments((id.map { [$0] } ?? []) + [last[0] as String])
                var zones: [String: [ZoneTime]] = [:]
                for z in try ZoneRecord.fetchAll(db, sql: "SELECT * FROM run_zone WHERE \(range)", arguments: bounds) {
                    zones[z.runID, default: []].append(
                        ZoneTime(zone: z.zone, name: z.name, lowBpm: z.lowBpm, highBpm: z.highBpm, seconds: z.seconds))
                }
                var efforts: [String: [BestEffort]] = [:]
                let effortSQL = "SELECT * FROM best_effort WHERE \(range)"
                for e in try BestEffortRecord.fetchAll(db, sql: effortSQL, arguments: bounds) {
                    efforts[e.runID, default: []].append(
                        BestEffort(
                            distanceMeters: e.distanceMeters, elapsedSeconds: e.elapsedSeconds,
                            startOffsetSeconds: e.startOffsetSeconds))
                }
                return try runs.map { row in
                    let record = try decodeRun(row)
                    let data: Data? = row[n + 1]
                    return StoredRun(
                        record: record, samples: data.map { [UInt8]($0) }, segments: row[n],
                        zones: (zones[record.id] ?? []).sorted { $0.zone < $1.zone },
                        bestEfforts: (efforts[record.id] ?? []).sorted { $0.distanceMeters < $1.distanceMeters })
                }
            }
        }
    }

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
        let id = run.record.id
        try insertRun(db, run.record)
        if let samples = run.samples {
            try Self.insertSamples(db, runID: id, blob: samples, segments: run.segments ?? "[0]")
        }
        try Self.writeDetails(db, runID: id, zones: run.zones, bestEfforts: run.bestEfforts)
    }
}
