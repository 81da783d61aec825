import GRDB
import RaceKitCore

/// Runs in and out of the run table through the declared columns
/// (`RunColumns.of(registry)`): the select list, the row reader, the INSERT
/// and UPDATE all come from that one list.
extension SQLiteStore {
    /// `SELECT <run columns> FROM run` plus `rest` (WHERE, ORDER BY ...).
    func runSelect(_ rest: String, prefix: String = "") -> String {
        "SELECT \(runColumns.map { prefix + $0.spec.name }.joined(separator: ", ")) FROM run \(rest)"
    }

    func decodeRun(_ row: Row, offset: Int = 0) throws -> RunRecord {
        try RunRecord(row: GRDBStoreRow(row: row), offset: offset, columns: runColumns, registry: registry)
    }

    /// The runs `sql` selects (it starts with `runSelect`).
    func fetchRuns(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> [RunRecord] {
        let cursor = try Row.fetchCursor(Self.cached(db, sql), arguments: arguments)
        var out: [RunRecord] = []
        while let row = try cursor.next() { out.append(try decodeRun(row)) }
        return out
    }

    /// The runs of a query-interface request (its filters and order; the
    /// columns are the declared ones).
    func fetchRuns(_ db: Database, _ request: QueryInterfaceRequest<RunRecord>) throws -> [RunRecord] {
        let cursor = try Row.fetchCursor(db, request.select(runColumns.map { Column($0.spec.name) }))
        var out: [RunRecord] = []
        while let row = try cursor.next() { out.append(try decodeRun(row)) }
        return out
    }

    func fetchRun(_ db: Database, id: String) throws -> RunRecord? {
        try fetchRuns(db, runSelect("WHERE id = ?"), [id]).first
    }

    func insertRun(_ db: Database, _ r: RunRecord) throws {
        let r = r.with(registry)
        let names = runColumns.map(\.spec.name)
        let sql =
            "INSERT INTO run (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
        try Self.cached(db, sql).execute(arguments: StatementArguments(r.storeValues(runColumns).map(\.databaseValue)))
    }

    func updateRun(_ db: Database, _ r: RunRecord) throws {
        let r = r.with(registry)
        let sets = runColumns.dropFirst().map { "\($0.spec.name) = ?" }.joined(separator: ", ")
        var values = Array(r.storeValues(runColumns).dropFirst().map(\.databaseValue))
        values.append(r.id.databaseValue)
        try Self.cached(db, "UPDATE run SET \(sets) WHERE id = ?").execute(arguments: StatementArguments(values))
    }
}

// MARK: Daily measurements

extension SQLiteStore {
    static func insertMeasurements(
        _ db: Database, _ measurements: [DailyMeasurement], replacing: Bool = false
    ) throws -> Int {
        let statement = try cached(db, DailyMeasurement.SQL.insert(.sqlite, replacing: replacing))
        var added = 0
        for m in measurements {
            try statement.execute(arguments: StatementArguments(m.storeValues.map(\.databaseValue)))
            added += db.changesCount
        }
        return added
    }

    @discardableResult
    public func addMeasurements(_ measurements: [DailyMeasurement], replacing: Bool) throws -> Int {
        try DailyMeasurement.check(measurements)
        return try wrap {
            try write { db in
                for athlete in Set(measurements.map(\.athleteID)) {
                    guard
                        try Bool.fetchOne(
                            db, sql: "SELECT EXISTS (SELECT 1 FROM athlete WHERE id = ?)", arguments: [athlete]) == true
                    else { throw StoreError.unknownAthlete(athlete) }
                }
                return try Self.insertMeasurements(db, measurements, replacing: replacing)
            }
        }
    }

    public func newestMeasurementStart(athleteID: String) throws -> Double? {
        try wrap {
            try writer.read { db in
                try Double.fetchOne(db, sql: DailyMeasurement.SQL.newest(.sqlite), arguments: [athleteID])
            }
        }
    }

    public func measurementSources(athleteID: String) throws -> [String: Int] {
        try wrap {
            try writer.read { db in
                var out: [String: Int] = [:]
                for row in try Row.fetchAll(db, sql: DailyMeasurement.SQL.sources(.sqlite), arguments: [athleteID]) {
                    if let s: String = row[0] { out[s] = row[1] ?? 0 }
                }
                return out
            }
        }
    }

    @discardableResult
    public func removeMeasurements(_ measurements: [DailyMeasurement]) throws -> Int {
        try wrap {
            try write { db in
                let statement = try Self.cached(db, DailyMeasurement.SQL.delete(.sqlite))
                var removed = 0
                for m in measurements {
                    try statement.execute(
                        arguments: StatementArguments(DailyMeasurement.SQL.key(m).map(\.databaseValue)))
                    removed += db.changesCount
                }
                return removed
            }
        }
    }

    public func measurements(athleteID: String, kind: String?, from: Double?, until: Double?) throws
        -> [DailyMeasurement]
    {
        let sql = DailyMeasurement.SQL.select(.sqlite, kind: kind != nil, from: from != nil, until: until != nil)
        let arguments = DailyMeasurement.SQL.parameters(athleteID: athleteID, kind: kind, from: from, until: until)
        return try wrap {
            try writer.read { db in
                let cursor = try Row.fetchCursor(
                    db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
                var out: [DailyMeasurement] = []
                while let row = try cursor.next() { out.append(try DailyMeasurement(row: GRDBStoreRow(row: row))) }
                return out
            }
        }
    }
}

// MARK: Import stamps

extension SQLiteStore {
    public func runIDs(athleteID: String) throws -> Set<String> {
        try wrap {
            try writer.read { db in
                Set(
                    try String.fetchAll(
                        Self.cached(db, "SELECT id FROM run WHERE athlete_id = ?"), arguments: [athleteID]))
            }
        }
    }

    public func stamps(athleteID: String) throws -> [FileStamp] {
        try wrap {
            try writer.read { db in
                let cursor = try Row.fetchCursor(db, sql: FileStamp.SQL.select(.sqlite), arguments: [athleteID])
                var out: [FileStamp] = []
                // A cache: a damaged row is left out (its file is read again), never an error.
                while let row = try cursor.next() {
                    if let stamp = try? FileStamp(row: GRDBStoreRow(row: row)) { out.append(stamp) }
                }
                return out
            }
        }
    }

    public func recordStamps(_ stamps: [FileStamp]) throws {
        guard !stamps.isEmpty else { return }
        try wrap {
            try write { db in
                let statement = try Self.cached(db, FileStamp.SQL.upsert(.sqlite))
                for s in stamps {
                    try statement.execute(arguments: StatementArguments(s.storeValues.map(\.databaseValue)))
                }
            }
        }
    }
}
