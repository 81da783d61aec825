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

    // MARK: Physiology

    /// What the athlete's running history says (for estimates).
    public func history(athleteID: String) throws -> Physiology.History {
        let high: Double? = try wrap {
            try writer.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT max(max_hr) AS high FROM run WHERE athlete_id = ? AND sport = 'running'
                        """, arguments: [athleteID])?["high"]
            }
        }
        return Physiology.History(
            highestHeartRate: high, bestEfforts: try fastestEfforts(athleteID: athleteID, before: .infinity).byDistance)
    }

    // MARK: One run

    /// A stored run.
    public func run(id: String) throws -> RunRecord? {
        try wrap { try writer.read { try fetchRun($0, id: id) } }
    }

    /// Runs whose id starts with `prefix` (ids are long; a unique prefix is enough).
    public func runs(idPrefix prefix: String) throws -> [RunRecord] {
        try wrap {
            try writer.read { db in
                try fetchRuns(db, RunRecord.filter(RunRecord.Columns.id.like(prefix.uppercased() + "%")).limit(5))
            }
        }
    }

    /// A run's time in zones.
    public func zones(runID: String) throws -> [ZoneTime] {
        try wrap {
            try writer.read { db in
                try ZoneRecord.filter(ZoneRecord.Columns.runID == runID).order(ZoneRecord.Columns.zone).fetchAll(db).map
                {
                    ZoneTime(zone: $0.zone, name: $0.name, lowBpm: $0.lowBpm, highBpm: $0.highBpm, seconds: $0.seconds)
                }
            }
        }
    }

    /// A run's best efforts, shortest distance first.
    public func bestEfforts(runID: String) throws -> [BestEffort] {
        try wrap {
            try writer.read { db in
                try BestEffortRecord.filter(BestEffortRecord.Columns.runID == runID).order(
                    BestEffortRecord.Columns.distanceMeters
                ).fetchAll(db).map {
                    BestEffort(
                        distanceMeters: $0.distanceMeters, elapsedSeconds: $0.elapsedSeconds,
                        startOffsetSeconds: $0.startOffsetSeconds)
                }
            }
        }
    }

    /// Time in zones of all of an athlete's runs, by run id.
    public func zonesByRun(athleteID: String, since: Double?) throws -> [String: [ZoneTime]] {
        try wrap {
            try writer.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT z.run_id, z.zone, z.name, z.low_bpm, z.high_bpm, z.seconds FROM run_zone z
                        JOIN run r ON r.id = z.run_id WHERE r.athlete_id = ? AND r.started_at >= ?
                        ORDER BY z.run_id, z.zone
                        """, arguments: [athleteID, since ?? -Double.greatestFiniteMagnitude])
                var out: [String: [ZoneTime]] = [:]
                for row in rows {
                    out[row[0], default: []].append(
                        ZoneTime(zone: row[1], name: row[2], lowBpm: row[3], highBpm: row[4], seconds: row[5]))
                }
                return out
            }
        }
    }

    /// Best efforts of an athlete's runs started at `since` or later, by run id.
    public func bestEffortsByRun(athleteID: String, since: Double?) throws -> [String: [BestEffort]] {
        try wrap {
            try writer.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT e.run_id, e.distance_m, e.elapsed_s, e.start_offset_s FROM best_effort e
                        JOIN run r ON r.id = e.run_id WHERE r.athlete_id = ? AND r.started_at >= ?
                        ORDER BY e.run_id, e.distance_m
                        """, arguments: [athleteID, since ?? -Double.greatestFiniteMagnitude])
                var out: [String: [BestEffort]] = [:]
                for row in rows {
                    out[row[0], default: []].append(
                        BestEffort(distanceMeters: row[1], elapsedSeconds: row[2], startOffsetSeconds: row[3]))
                }
                return out
            }
        }
    }

    public func fastestEfforts(athleteID: String, before: Double) throws -> [Double: Double] {
        try wrap {
            try writer.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT e.distance_m, min(e.elapsed_s) FROM best_effort e JOIN run r ON r.id = e.run_id
                        WHERE r.athlete_id = ? AND r.sport = 'running' AND r.started_at < ? GROUP BY e.distance_m
                        """, arguments: [athleteID, before])
                let pairs = rows.map { (row: Row) -> (Double, Double) in (row[0], row[1]) }
                return Dictionary(pairs, uniquingKeysWith: min)
            }
        }
    }

    /// The cleaned activity of a stored run, for analysis.
    public func activity(of r: RunRecord) throws -> Activity {
        let (samples, segments): (SampleSeries, [Int]) = try wrap {
            guard let rec = try writer.read({ try SamplesRecord.fetchOne($0, key: r.id) }) else {
                throw StoreError.corruptSamples(runID: r.id, reason: "no samples stored")
            }
            do {
                let s = try SampleCodec.decode([UInt8](rec.data))
                let seg = try JSONDecoder().decode([Int].self, from: Data(rec.segments.utf8))
                return (s, seg)
            } catch {
                throw StoreError.corruptSamples(runID: r.id, reason: "\(error)")
            }
        }
        var activity = Activity(
            sport: r.sport, sportDeclared: r.sportDeclared, name: r.name,
            creator: r.creator, format: r.sourceFormat, samples: samples,
            segmentStarts: segments, distanceSource: r.distanceSource, distanceMeters: r.distanceMeters, laps: [],
            isIndoor: r.runType == .treadmill, repairs: RepairReport())
        activity.stored = r.metrics
        return activity
    }

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
    public func staleRuns(athleteID: String, currentProfile: String, force: Bool) throws -> [RunRecord] {
        try wrap {
            try writer.read { db in
                var request = RunRecord.filter(RunRecord.Columns.athleteID == athleteID)
                if !force {
                    request = request.filter(
                        RunRecord.Columns.analysisVersion < RunAnalyzer.version(registry)
                            || RunRecord.Columns.analysisProfile == nil
                            || RunRecord.Columns.analysisProfile != currentProfile)
                }
                return try fetchRuns(db, request.order(RunRecord.Columns.startedAt))
            }
        }
    }

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

    /// The fastest effort per standard distance (or the `limit` fastest over
    /// `distance`), over running runs (started at `since` or later, when given).
    public func personalRecords(athleteID: String?, distance: Double?, limit: Int, since: Double?) throws
        -> [PersonalRecord]
    {
        try wrap {
            try writer.read { db in
                let runColumns = self.runColumns.map { "r." + $0.spec.name }.joined(separator: ", ")
                var filters = ""
                var args: [any DatabaseValueConvertible] = []
                if let athleteID { filters += " AND r.athlete_id = ?"; args.append(athleteID) }
                if let since { filters += " AND r.started_at >= ?"; args.append(since) }
                let efforts = """
                    SELECT \(runColumns), e.distance_m AS effort_m, e.elapsed_s AS effort_s, e.start_offset_s AS effort_offset_s
                    FROM best_effort e JOIN run r ON r.id = e.run_id WHERE r.sport = 'running'\(filters)
                    """
                let sql: String
                if let distance {
                    sql = efforts + " AND abs(e.distance_m - ?) < 0.01 ORDER BY effort_s, r.started_at, r.id LIMIT ?"
                    args += [distance, limit]
                } else {
                    // The fastest effort per distance; on a tie the run that set it first.
                    // Ranked on the efforts alone, then the winners' runs read: ranking
                    // rows that carried their whole run sorted megabytes for a few rows.
                    sql = """
                        SELECT \(runColumns), w.effort_m, w.effort_s, w.effort_offset_s FROM (
                            SELECT e.run_id, e.distance_m AS effort_m, e.elapsed_s AS effort_s,
                                e.start_offset_s AS effort_offset_s,
                                row_number() OVER (PARTITION BY e.distance_m ORDER BY e.elapsed_s, r.started_at, r.id)
                                AS rank
                            FROM best_effort e JOIN run r ON r.id = e.run_id WHERE r.sport = 'running'\(filters)
                        ) w JOIN run r ON r.id = w.run_id WHERE w.rank = 1 ORDER BY w.effort_m
                        """
                }
                return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(args)).map { row in
                    PersonalRecord(
                        distanceMeters: row["effort_m"], elapsedSeconds: row["effort_s"],
                        startOffsetSeconds: row["effort_offset_s"], run: try decodeRun(row))
                }
            }
        }
    }
}
