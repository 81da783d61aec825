import Foundation
import GRDB
import RaceKitCore

extension SQLiteStore {
    /// Replaces a run's zones and best efforts.
    static func writeDetails(_ db: Database, runID: String, analysis: RunAnalysis, fresh: Bool = false) throws {
        try writeDetails(
            db, runID: runID, zones: analysis.zones ?? [], bestEfforts: analysis.bestEfforts, fresh: fresh)
    }

    /// Replaces a run's zones and best efforts with these (`fresh`: a run just
    /// inserted, with none to delete).
    static func writeDetails(
        _ db: Database, runID: String, zones: [ZoneTime], bestEfforts: [BestEffort], fresh: Bool = false
    ) throws {
        if !fresh {
            try cached(db, "DELETE FROM run_zone WHERE run_id = ?").execute(arguments: [runID])
            try cached(db, "DELETE FROM best_effort WHERE run_id = ?").execute(arguments: [runID])
        }
        for z in zones {
            try ZoneRecord(
                runID: runID, zone: z.zone, name: z.name, lowBpm: z.lowBpm, highBpm: z.highBpm,
                seconds: z.seconds
            ).insert(db)
        }
        for e in bestEfforts {
            try BestEffortRecord(
                runID: runID, distanceMeters: e.distanceMeters, elapsedSeconds: e.elapsedSeconds,
                startOffsetSeconds: e.startOffsetSeconds
            ).insert(db)
        }
    }

    /// `StoredJSON.text`: string lists, integer lists, the physiology.
    static func json<T: Encodable>(_ value: T) -> String { StoredJSON.text(value) }

    /// Stores a new analysis of an existing run (and its sport, when inferred anew).
    public func saveAnalysis(runID: String, _ analysis: RunAnalysis, sport: Sport?) throws {
        try wrap {
            try write { db in
                guard var record = try fetchRun(db, id: runID) else { return }
                if let sport { record.sport = sport }
                record.apply(analysis)
                try updateRun(db, record)
                try Self.writeDetails(db, runID: runID, analysis: analysis)
            }
        }
    }

    /// Stores new zones and load for a run whose physiology changed (the rest of
    /// its analysis stands).
    public func savePhysiologyResults(_ results: [PhysiologyResults]) throws {
        try wrap {
            try write { db in
                for r in results {
                    try Self.cached(
                        db,
                        """
                        UPDATE run SET load = ?, load_source = ?, load_estimated = ?, zone_model = ?, analysis_profile = ?
                        WHERE id = ?
                        """
                    ).execute(
                        arguments: [
                            r.load?.value, r.load?.source.rawValue, r.load.map { Self.json($0.estimated) },
                            r.model?.rawValue, r.physiology.profileKey, r.runID
                        ])
                    try Self.cached(db, "DELETE FROM run_zone WHERE run_id = ?").execute(arguments: [r.runID])
                    for z in r.zones ?? [] {
                        try ZoneRecord(
                            runID: r.runID, zone: z.zone, name: z.name, lowBpm: z.lowBpm, highBpm: z.highBpm,
                            seconds: z.seconds
                        ).insert(db)
                    }
                }
            }
        }
    }

    public func saveMetrics(_ metrics: [any RunMetric.Type], _ values: [(runID: String, values: [Double?])]) throws {
        guard !metrics.isEmpty, !values.isEmpty else { return }
        let sql = "UPDATE run SET " + metrics.map { "\"\($0.column)\" = ?" }.joined(separator: ", ") + " WHERE id = ?"
        try wrap {
            try write { db in
                let statement = try Self.cached(db, sql)
                for (runID, row) in values {
                    precondition(row.count == metrics.count, "one value per metric")
                    try statement.execute(
                        arguments: StatementArguments(row.map { $0 as (any DatabaseValueConvertible)? } + [runID]))
                }
            }
        }
    }

    /// Runs analysed by an older version or with another physiology than the
    /// athlete's current one (all of them with `force`).
    /// Applies an edit; returns the updated run.
    public func edit(runID: String, _ e: RunEdit) throws -> RunRecord {
        try wrap {
            try write { db in
                guard var r = try fetchRun(db, id: runID) else { throw StoreError.unknownRun(runID) }
                r.apply(e)
                try updateRun(db, r)
                return r
            }
        }
    }

    /// Deletes a run with its samples, zones and best efforts.
    public func delete(runID: String) throws {
        try wrap {
            try write { db in
                guard try RunRecord.deleteOne(db, key: runID) else { throw StoreError.unknownRun(runID) }
            }
        }
    }
}
