import RaceKitCore

/// Moving a whole store: runs read a page at a time exactly as stored, and a
/// copy written into an empty store in one transaction (`store copy`).
extension PGStore {
    /// Up to `limit` runs after `id` in the database's order of ids (its
    /// primary key's, so each page is an index range), with their samples and
    /// segments as stored, zones and best efforts.
    public func exportRuns(after id: String?, limit: Int) throws -> [StoredRun] {
        try read { c in
            var values: [PGValue] = id.map { [.text($0)] } ?? []
            let after = id == nil ? "" : "WHERE r.id > $1"
            values.append(.int(Int64(max(0, limit))))
            let r = try c.query(
                """
                SELECT \(runColumnList(prefix: "r.")), s.segments, s.data
                FROM run r LEFT JOIN run_samples s ON s.run_id = r.id \(after) ORDER BY r.id LIMIT $\(values.count)
                """, values)
            guard r.count > 0, let last = r.string(r.count - 1, 0) else { return [] }
            var bounds: [PGValue] = id.map { [.text($0)] } ?? []
            bounds.append(.text(last))
            let range = (id == nil ? "" : "run_id > $1 AND ") + "run_id <= $\(bounds.count)"
            let zones = try Self.pageZones(c, range, bounds)
            let efforts = try Self.pageEfforts(c, range, bounds)
            let n = runColumns.count
            return try (0..<r.count).map { i in
                let record = try run(r, i)
                return StoredRun(
                    record: record, samples: r.bytes(i, n + 1), segments: r.string(i, n),
                    zones: zones[record.id] ?? [], bestEfforts: efforts[record.id] ?? [])
            }
        }
    }

    static func pageZones(_ c: PGConnection, _ range: String, _ bounds: [PGValue]) throws -> [String: [ZoneTime]] {
        let r = try c.query(
            "SELECT run_id, zone, name, low_bpm, high_bpm, seconds FROM run_zone WHERE \(range) ORDER BY run_id, zone",
            bounds)
        var out: [String: [ZoneTime]] = [:]
        for i in 0..<r.count {
            guard let id = r.string(i, 0), let zone = r.int(i, 1), let name = r.string(i, 2),
                let low = r.double(i, 3), let seconds = r.double(i, 5)
            else { throw StoreError.database("run_zone row: a required column is missing or of another type") }
            out[id, default: []].append(
                ZoneTime(zone: zone, name: name, lowBpm: low, highBpm: r.double(i, 4), seconds: seconds))
        }
        return out
    }

    static func pageEfforts(_ c: PGConnection, _ range: String, _ bounds: [PGValue]) throws -> [String: [BestEffort]] {
        let r = try c.query(
            """
            SELECT run_id, distance_m, elapsed_s, start_offset_s FROM best_effort WHERE \(range)
            ORDER BY run_id, distance_m
            """, bounds)
        var out: [String: [BestEffort]] = [:]
        for i in 0..<r.count {
            guard let id = r.string(i, 0), let d = r.double(i, 1), let t = r.double(i, 2), let o = r.double(i, 3)
            else { throw StoreError.database("best_effort row: a required column is missing or of another type") }
            out[id, default: []].append(BestEffort(distanceMeters: d, elapsedSeconds: t, startOffsetSeconds: o))
        }
        return out
    }

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
        let id = run.record.id
        try c.query("INSERT INTO run (\(runColumnList)) VALUES (\(runPlaceholders))", runValues(run.record))
        if let samples = run.samples {
            try c.query(
                "INSERT INTO run_samples (run_id, segments, data) VALUES ($1, $2, $3)",
                [.text(id), .text(run.segments ?? "[0]"), .bytes(samples)])
        }
        try Self.writeZones(c, runID: id, run.zones)
        try Self.writeEfforts(c, runID: id, run.bestEfforts)
    }
}
