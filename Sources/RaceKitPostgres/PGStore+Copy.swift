import RaceKitCore

/// Moving a whole store: runs read a page at a time exactly as stored, and a
/// copy written into an empty store in one transaction (`store copy`).
extension PGStore {
    /// Every link of the store, by setup key (bytewise).
    public func allRaceLinks() throws -> [RaceLink] {
        try read { c in
            try Self.links(c, "SELECT \(Self.linkColumns) FROM race_link ORDER BY setup_key COLLATE \"C\"", [])
        }
    }

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
            for athlete in try source.athletes() {
                let names = Self.athleteColumns.split(separator: ", ")
                let sets = names.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
                try c.query(
                    """
                    INSERT INTO athlete (\(Self.athleteColumns)) VALUES (\(Self.athletePlaceholders))
                    ON CONFLICT (id) DO UPDATE SET \(sets)
                    """, Self.athleteValues(athlete))
            }
            let copied = try source.forEachRunPage(pageSize: pageSize) { page in
                for run in page { try insert(c, run) }
            }
            for link in try source.allRaceLinks() { try Self.upsertLink(c, link) }
            try Self.insertMeasurements(c, source.allMeasurements())
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

// MARK: Daily measurements

extension PGStore {
    @discardableResult
    static func insertMeasurements(
        _ c: PGConnection, _ measurements: [DailyMeasurement], replacing: Bool = false
    ) throws -> Int {
        let sql = DailyMeasurement.SQL.insert(.postgres, replacing: replacing)
        var added = 0
        for m in measurements {
            added += try c.query(sql, m.storeValues.map(\.pgValue)).affected
        }
        return added
    }

    @discardableResult
    public func addMeasurements(_ measurements: [DailyMeasurement], replacing: Bool) throws -> Int {
        try DailyMeasurement.check(measurements)
        return try write { c in
            for athlete in Set(measurements.map(\.athleteID)) {
                let r = try c.query("SELECT EXISTS (SELECT 1 FROM athlete WHERE id = $1)", [.text(athlete)])
                guard r.bool(0, 0) == true else { throw StoreError.unknownAthlete(athlete) }
            }
            return try Self.insertMeasurements(c, measurements, replacing: replacing)
        }
    }

    public func newestMeasurementStart(athleteID: String) throws -> Double? {
        try read { c in
            let r = try c.query(DailyMeasurement.SQL.newest(.postgres), [.text(athleteID)])
            return r.count > 0 ? r.double(0, 0) : nil
        }
    }

    public func measurementSources(athleteID: String) throws -> [String: Int] {
        try read { c in
            let r = try c.query(DailyMeasurement.SQL.sources(.postgres), [.text(athleteID)])
            var out: [String: Int] = [:]
            for i in 0..<r.count { if let s = r.string(i, 0) { out[s] = r.int(i, 1) ?? 0 } }
            return out
        }
    }

    @discardableResult
    public func removeMeasurements(_ measurements: [DailyMeasurement]) throws -> Int {
        try write { c in
            let sql = DailyMeasurement.SQL.delete(.postgres)
            return try measurements.reduce(0) {
                $0 + (try c.query(sql, DailyMeasurement.SQL.key($1).map(\.pgValue)).affected)
            }
        }
    }

    public func measurements(athleteID: String, kind: String?, from: Double?, until: Double?) throws
        -> [DailyMeasurement]
    {
        let sql = DailyMeasurement.SQL.select(.postgres, kind: kind != nil, from: from != nil, until: until != nil)
        let values = DailyMeasurement.SQL.parameters(athleteID: athleteID, kind: kind, from: from, until: until)
        return try read { c in
            let r = try c.query(sql, values.map(\.pgValue))
            return try (0..<r.count).map { try DailyMeasurement(row: r.view($0)) }
        }
    }
}

// MARK: Import stamps

extension PGStore {
    public func runIDs(athleteID: String) throws -> Set<String> {
        try read { c in
            let r = try c.query("SELECT id FROM run WHERE athlete_id = $1", [.text(athleteID)])
            return Set((0..<r.count).compactMap { r.string($0, 0) })
        }
    }

    public func stamps(athleteID: String) throws -> [FileStamp] {
        try read { c in
            let r = try c.query(FileStamp.SQL.select(.postgres), [.text(athleteID)])
            // A cache: a damaged row is left out (its file is read again), never an error.
            return (0..<r.count).compactMap { try? FileStamp(row: r.view($0)) }
        }
    }

    public func recordStamps(_ stamps: [FileStamp]) throws {
        guard !stamps.isEmpty else { return }
        let sql = FileStamp.SQL.upsert(.postgres)
        try write { c in
            for s in stamps { try c.query(sql, s.storeValues.map(\.pgValue)) }
        }
    }
}
