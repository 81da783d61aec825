import RaceKitMetrics

/// The daily measurements and the import stamps, written once for every
/// backend (`SQLStore`), with the statements of `DailyMeasurement.SQL` and
/// `FileStamp.SQL`.
extension DailyRepository where Self: SQLStore {
    @discardableResult
    public func addMeasurements(_ measurements: [DailyMeasurement], replacing: Bool) throws -> Int {
        try DailyMeasurement.check(measurements)
        return try database.writing { c in
            for athlete in Set(measurements.map(\.athleteID)) {
                let known = try c.value(
                    c.dialect.statement("SELECT count(*) FROM athlete WHERE id = ?"), [.text(athlete)], as: .integer)
                guard case .integer(let n) = known, n > 0 else { throw StoreError.unknownAthlete(athlete) }
            }
            return try DailyMeasurement.insert(c, measurements, replacing: replacing)
        }
    }

    public func newestMeasurementStart(athleteID: String) throws -> Double? {
        try database.reading { c in
            try c.value(DailyMeasurement.SQL.newest(c.dialect), [.text(athleteID)], as: .real)?.number
        }
    }

    public func measurementSources(athleteID: String) throws -> [String: Int] {
        try database.reading { c in
            var out: [String: Int] = [:]
            try c.forEachRow(DailyMeasurement.SQL.sources(c.dialect), [.text(athleteID)]) { row in
                guard case .text(let source) = row.value(0, .text) else { return }
                if case .integer(let n) = row.value(1, .integer) { out[source] = n } else { out[source] = 0 }
            }
            return out
        }
    }

    @discardableResult
    public func removeMeasurements(_ measurements: [DailyMeasurement]) throws -> Int {
        try database.writing { c in
            let sql = DailyMeasurement.SQL.delete(c.dialect)
            return try measurements.reduce(0) { $0 + (try c.execute(sql, DailyMeasurement.SQL.key($1))) }
        }
    }

    public func measurements(athleteID: String, kind: String?, from: Double?, until: Double?) throws
        -> [DailyMeasurement]
    {
        let arguments = DailyMeasurement.SQL.parameters(athleteID: athleteID, kind: kind, from: from, until: until)
        return try database.reading { c in
            let sql = DailyMeasurement.SQL.select(c.dialect, kind: kind != nil, from: from != nil, until: until != nil)
            return try c.rows(sql, arguments) { try DailyMeasurement(row: $0) }
        }
    }
}

extension DailyMeasurement {
    /// Inserts `measurements` (kept as stored, or with `replacing` given the
    /// new values); returns how many rows were added or changed.
    @discardableResult
    public static func insert(_ c: any SQLConnection, _ measurements: [DailyMeasurement], replacing: Bool = false)
        throws -> Int
    {
        let sql = SQL.insert(c.dialect, replacing: replacing)
        return try measurements.reduce(0) { $0 + (try c.execute(sql, $1.storeValues)) }
    }
}

extension StampRepository where Self: SQLStore {
    public func stamps(athleteID: String) throws -> [FileStamp] {
        try database.reading { c in
            var out: [FileStamp] = []
            // A cache: a damaged row is left out (its file is read again), never an error.
            try c.forEachRow(FileStamp.SQL.select(c.dialect), [.text(athleteID)]) { row in
                if let stamp = try? FileStamp(row: row) { out.append(stamp) }
            }
            return out
        }
    }

    public func recordStamps(_ stamps: [FileStamp]) throws {
        guard !stamps.isEmpty else { return }
        try database.writing { c in
            let sql = FileStamp.SQL.upsert(c.dialect)
            try c.execute(all: stamps.map { SQLStatement(sql, $0.storeValues) })
        }
    }
}
