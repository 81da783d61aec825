import Foundation
import RaceKitMetrics
import RaceKitModel

/// The reads of the runs and their details, written once for every backend
/// (`SQLStore`): runs through the declared columns (`RunColumns.of(registry)`),
/// zones and best efforts through their tables' declarations.
extension RunRepository where Self: SQLStore {
    /// `SELECT <run columns> FROM run` plus `rest` (WHERE, ORDER BY ...).
    func declaredRunSelect(_ rest: String) -> String {
        "SELECT \(runColumns.map(\.spec.name).joined(separator: ", ")) FROM run \(rest)"
    }

    /// The runs of `sql` (a `runSelect`, `?` placeholders).
    func runs(_ c: any SQLConnection, _ sql: String, _ arguments: [StoreValue] = []) throws -> [RunRecord] {
        let columns = runColumns
        return try c.rows(c.dialect.statement(sql), arguments) {
            try RunRecord(row: $0, columns: columns, registry: registry)
        }
    }

    /// Stored runs in the filter's order (oldest first by default), sorted and
    /// limited by the database.
    public func runs(matching filter: RunFilter) throws -> [RunRecord] {
        try database.reading { c in
            var sql = declaredRunSelect("WHERE 1 = 1")
            var arguments: [StoreValue] = []
            func add(_ clause: String, _ v: StoreValue) {
                sql += " AND \(clause) ?"
                arguments.append(v)
            }
            if let a = filter.athleteID { add("athlete_id =", .text(a)) }
            if let s = filter.sport { add("sport =", .text(s.rawValue)) }
            if let s = filter.since { add("started_at >=", .real(s)) }
            if let u = filter.until { add("started_at <=", .real(u)) }
            for m in filter.having { sql += " AND \"\(m.column)\" IS NOT NULL" }
            sql += " ORDER BY " + RunOrdering.terms(filter.order, reversed: filter.reversed, c.dialect)
            if let l = filter.limit {
                sql += " LIMIT ?"
                arguments.append(.integer(max(0, l)))
            }
            return try runs(c, sql, arguments)
        }
    }

    /// Number of stored runs (of one athlete when given).
    public func runCount(athleteID: String?) throws -> Int {
        try database.reading { c in
            let count =
                try athleteID.map {
                    try c.value(
                        c.dialect.statement("SELECT count(*) FROM run WHERE athlete_id = ?"), [.text($0)], as: .integer)
                } ?? c.value("SELECT count(*) FROM run", as: .integer)
            if case .integer(let n) = count { return n }
            return 0
        }
    }

    /// The ids of an athlete's runs.
    public func runIDs(athleteID: String) throws -> Set<String> {
        try database.reading { c in
            var ids = Set<String>()
            try c.forEachRow(c.dialect.statement("SELECT id FROM run WHERE athlete_id = ?"), [.text(athleteID)]) {
                if case .text(let id) = $0.value(0, .text) { ids.insert(id) }
            }
            return ids
        }
    }

    /// A stored run.
    public func run(id: String) throws -> RunRecord? {
        try database.reading { c in try runs(c, declaredRunSelect("WHERE id = ?"), [.text(id)]).first }
    }

    /// Runs whose id starts with `prefix`, whatever its case (ids are long; a
    /// unique prefix is enough); LIKE's wildcards in it are matched literally.
    public func runs(idPrefix prefix: String) throws -> [RunRecord] {
        // "!" escapes: a backslash in a literal depends on a PostgreSQL setting.
        let escaped = prefix.uppercased().replacingOccurrences(of: "!", with: "!!")
            .replacingOccurrences(of: "%", with: "!%").replacingOccurrences(of: "_", with: "!_")
        return try database.reading { c in
            try runs(
                c, declaredRunSelect("WHERE upper(id) LIKE ? ESCAPE '!' ORDER BY id\(c.dialect.bytewise) LIMIT 5"),
                [.text(escaped + "%")])
        }
    }

    /// The runs analysed by an older analysis or another physiology (all of the athlete's with `force`).
    public func staleRuns(athleteID: String, currentProfile: String, force: Bool) throws -> [RunRecord] {
        try database.reading { c in
            var sql = "WHERE athlete_id = ?"
            var arguments: [StoreValue] = [.text(athleteID)]
            if !force {
                sql += " AND (analysis_version < ? OR analysis_profile IS NULL OR analysis_profile <> ?)"
                arguments += [.integer(RunAnalyzer.version(registry)), .text(currentProfile)]
            }
            return try runs(c, declaredRunSelect(sql + " ORDER BY started_at, id\(c.dialect.bytewise)"), arguments)
        }
    }

    /// The samples of a run.
    public func samples(runID: String) throws -> SampleSeries? {
        let blob = try database.reading { c in
            try c.value(c.dialect.statement("SELECT data FROM run_samples WHERE run_id = ?"), [.text(runID)], as: .blob)
        }
        return try SampleCodec.decode(stored: blob, runID: runID)
    }

    public func storedSamples(runIDs: [String]) throws -> [String: StoreValue] {
        try database.reading { c in
            var found: [String: StoreValue] = [:]
            for start in stride(from: 0, to: runIDs.count, by: 500) {
                let ids = runIDs[start..<min(start + 500, runIDs.count)]
                let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
                try c.forEachRow(
                    c.dialect.statement("SELECT run_id, data FROM run_samples WHERE run_id IN (\(marks))"),
                    ids.map(StoreValue.text)
                ) { row in
                    if case .text(let id) = row.value(0, .text) { found[id] = row.value(1, .blob) }
                }
            }
            return found
        }
    }

    /// The cleaned activity of a stored run, for analysis.
    public func activity(of r: RunRecord) throws -> Activity {
        let stored: (data: [UInt8], segments: String)? = try database.reading { c in
            let rows = try c.rows(
                c.dialect.statement("SELECT data, segments FROM run_samples WHERE run_id = ?"), [.text(r.id)]
            ) { row -> (data: [UInt8], segments: String)? in
                guard case .blob(let data) = row.value(0, .blob), case .text(let segments) = row.value(1, .text) else {
                    return nil
                }
                return (data, segments)
            }
            return rows.first ?? nil
        }
        guard let stored else { throw StoreError.corruptSamples(runID: r.id, reason: "no samples stored") }
        let samples: SampleSeries, segments: [Int]
        do {
            samples = try SampleCodec.decode(stored.data)
            segments = try JSONDecoder().decode([Int].self, from: Data(stored.segments.utf8))
        } catch {
            throw StoreError.corruptSamples(runID: r.id, reason: "\(error)")
        }
        var activity = Activity(
            sport: r.sport, sportDeclared: r.sportDeclared, name: r.name, creator: r.creator, format: r.sourceFormat,
            samples: samples, segmentStarts: segments, distanceSource: r.distanceSource,
            distanceMeters: r.distanceMeters, laps: [], isIndoor: r.runType == .treadmill, repairs: RepairReport())
        activity.stored = r.metrics
        return activity
    }

    /// A run's time in zones.
    public func zones(runID: String) throws -> [ZoneTime] {
        try database.reading { c in
            try c.rows(
                c.dialect.statement(
                    "SELECT \(DeclaredRow.columnList(ZoneTime.table)) FROM run_zone WHERE run_id = ? ORDER BY zone"),
                [.text(runID)]
            ) { try ZoneTime(row: DeclaredRow(ZoneTime.table, $0)) }
        }
    }

    /// A run's best efforts, shortest distance first.
    public func bestEfforts(runID: String) throws -> [BestEffort] {
        try database.reading { c in
            try c.rows(
                c.dialect.statement(
                    "SELECT \(DeclaredRow.columnList(BestEffort.table)) FROM best_effort WHERE run_id = ? "
                        + "ORDER BY distance_m"),
                [.text(runID)]
            ) { try BestEffort(row: DeclaredRow(BestEffort.table, $0)) }
        }
    }

    /// Time in zones of all of an athlete's runs started at `since` or later, by run id.
    public func zonesByRun(athleteID: String, since: Double?, until: Double?) throws -> [String: [ZoneTime]] {
        try rowsByRun(
            ZoneTime.table, athleteID: athleteID, since: since, until: until, orderedBy: "zone", ZoneTime.init(row:))
    }

    /// Best efforts of an athlete's runs started from `since` to `until`, by run id.
    public func bestEffortsByRun(athleteID: String, since: Double?, until: Double?) throws -> [String: [BestEffort]] {
        try rowsByRun(
            BestEffort.table, athleteID: athleteID, since: since, until: until, orderedBy: "distance_m",
            BestEffort.init(row:))
    }

    /// The rows of a per-run `table` (zones, best efforts) of an athlete's runs
    /// started from `since` to `until`, by run id, each run's in `orderedBy` order.
    private func rowsByRun<T: Sendable>(
        _ table: TableSpec, athleteID: String, since: Double?, until: Double?, orderedBy column: String,
        _ make: (DeclaredRow) throws -> T
    ) throws -> [String: [T]] {
        try database.reading { c in
            try c.grouped(
                table, from: c.dialect.rowsPerRun(of: table.name, as: "t"),
                where: "r.athlete_id = ? AND r.started_at >= ? AND r.started_at <= ?",
                [
                    .text(athleteID), .real(since ?? -.greatestFiniteMagnitude),
                    .real(until ?? .greatestFiniteMagnitude)
                ], orderedBy: column, make)
        }
    }

    /// The fastest time per best-effort distance of an athlete's running runs started before `before`.
    public func fastestEfforts(athleteID: String, before: Double) throws -> [Double: Double] {
        try database.reading { c in try fastestEfforts(c, athleteID: athleteID, before: before) }
    }

    func fastestEfforts(_ c: any SQLConnection, athleteID: String, before: Double) throws -> [Double: Double] {
        var out: [Double: Double] = [:]
        let sql =
            "SELECT e.distance_m, min(e.elapsed_s) FROM " + c.dialect.rowsPerRun(of: "best_effort", as: "e")
            + " WHERE r.athlete_id = ? AND r.sport = 'running' AND r.started_at < ? GROUP BY e.distance_m"
        try c.forEachRow(c.dialect.statement(sql), [.text(athleteID), .real(before)]) { row in
            guard let d = row.value(0, .real).number, let t = row.value(1, .real).number else { return }
            out[d] = min(out[d] ?? t, t)
        }
        return out
    }

    /// What the athlete's running history says (for estimates).
    public func history(athleteID: String) throws -> Physiology.History {
        try database.reading { c in
            let high = try c.value(
                c.dialect.statement("SELECT max(max_hr) FROM run WHERE athlete_id = ? AND sport = 'running'"),
                [.text(athleteID)], as: .real)
            let highest = high?.number
            let efforts = try fastestEfforts(c, athleteID: athleteID, before: .infinity)
            return Physiology.History(highestHeartRate: highest, bestEfforts: efforts.byDistance)
        }
    }

    /// The fastest effort per standard distance (or the `limit` fastest over
    /// `distance`), over running runs (started at `since` or later, when given).
    public func personalRecords(athleteID: String?, distance: Double?, limit: Int, since: Double?) throws
        -> [PersonalRecord]
    {
        try database.reading { c in
            let join = c.dialect.rowsPerRun(of: "best_effort", as: "e", oneAthlete: athleteID != nil)
            let id = "r.id" + c.dialect.bytewise
            var filters = ""
            var arguments: [StoreValue] = []
            if let athleteID { filters += " AND r.athlete_id = ?"; arguments.append(.text(athleteID)) }
            if let since { filters += " AND r.started_at >= ?"; arguments.append(.real(since)) }
            let sql: String
            if let distance {
                sql =
                    runSelect(
                        extra: "e.distance_m AS effort_m, e.elapsed_s AS effort_s, "
                            + "e.start_offset_s AS effort_offset_s", from: join)
                    + " WHERE r.sport = 'running'\(filters) AND abs(e.distance_m - ?) < 0.01"
                    + " ORDER BY effort_s, r.started_at, \(id) LIMIT ?"
                arguments += [.real(distance), .integer(max(0, limit))]
            } else {
                // The fastest effort per distance; on a tie the run that set it first.
                // Ranked on the efforts alone, then the winners' runs read: ranking
                // rows that carried their whole run sorted megabytes for a few rows.
                let ranked = """
                    (SELECT e.run_id, e.distance_m AS effort_m, e.elapsed_s AS effort_s,
                        e.start_offset_s AS effort_offset_s,
                        row_number() OVER (PARTITION BY e.distance_m ORDER BY e.elapsed_s, r.started_at, \(id)) AS rank
                    FROM \(join) WHERE r.sport = 'running'\(filters)) w JOIN run r ON r.id = w.run_id
                    """
                sql =
                    runSelect(
                        extra: "w.effort_m, w.effort_s, w.effort_offset_s", from: ranked)
                    + " WHERE w.rank = 1 ORDER BY w.effort_m"
            }
            let columns = runColumns
            let n = columns.count
            return try c.rows(c.dialect.statement(sql), arguments) { row in
                // The effort's three columns follow the run's.
                guard let d = row.value(n, .real).number, let t = row.value(n + 1, .real).number,
                    let o = row.value(n + 2, .real).number
                else { throw StoreError.database("best_effort row: a required column is missing or of another type") }
                return PersonalRecord(
                    distanceMeters: d, elapsedSeconds: t, startOffsetSeconds: o,
                    run: try RunRecord(row: row, columns: columns, registry: registry))
            }
        }
    }

    /// `SELECT <run columns of r>, <extra> FROM <from>`.
    private func runSelect(extra: String, from: String) -> String {
        "SELECT \(runColumns.map { "r." + $0.spec.name }.joined(separator: ", ")), \(extra) FROM \(from)"
    }
}

extension SQLConnection {
    /// The rows (as `t`) of a per-run `table` that `from` and `where` select, by
    /// run id, each run's in `orderedBy` order.
    func grouped<T>(
        _ table: TableSpec, from: String, where condition: String, _ arguments: [StoreValue],
        orderedBy column: String, _ make: (DeclaredRow) throws -> T
    ) throws -> [String: [T]] {
        var out: [String: [T]] = [:]
        let sql =
            "SELECT \(DeclaredRow.columnList(table, prefix: "t.")) FROM \(from) WHERE \(condition) "
            + "ORDER BY t.run_id, t.\(column)"
        try forEachRow(dialect.statement(sql), arguments) {
            let row = DeclaredRow(table, $0)
            out[try row.text("run_id"), default: []].append(try make(row))
        }
        return out
    }
}

extension SQLDialect {
    /// The rows of `table` (a run's zones or best efforts, as `alias`) joined to
    /// their run (`r`). On PostgreSQL, for one athlete, each run's rows are
    /// fetched through the table's primary key (a nested loop that `OFFSET 0`
    /// keeps the planner from flattening): its work grows with the athlete's
    /// runs, where the hash join the planner prefers scans the whole table,
    /// every athlete's rows (measured with 40 athletes x 3,000 runs: 156 and 135
    /// ms for the zones and the best efforts of one athlete, 85 and 47 ms this
    /// way, on a loaded machine). SQLite's planner does this by itself.
    func rowsPerRun(of table: String, as alias: String, oneAthlete: Bool = true) -> String {
        self == .postgres && oneAthlete
            ? "run r CROSS JOIN LATERAL (SELECT * FROM \(table) WHERE run_id = r.id OFFSET 0) AS \(alias)"
            : "\(table) \(alias) JOIN run r ON r.id = \(alias).run_id"
    }
}

/// The ORDER BY of a run order, the same on every backend: its key (unknown
/// values last), then start time and id (bytewise, whatever the database's
/// collation); every term flipped when reversed.
enum RunOrdering {
    static func terms(_ order: RunOrder, reversed: Bool, _ dialect: SQLDialect) -> String {
        var terms: [(String, ascending: Bool)]
        switch order {
        case .startedAt: terms = []
        case .distance: terms = [("coalesce(distance_m, -1)", false)]
        case .elapsedTime: terms = [("elapsed_s", false)]
        case .load: terms = [("coalesce(load, -1)", false)]
        case .pace:
            let seconds = "coalesce(moving_s, elapsed_s)"
            let pace = "(CASE WHEN distance_m > 0 AND \(seconds) > 0 THEN \(seconds) / (distance_m / 1000.0) END)"
            terms = [("(\(pace) IS NULL)", true), (pace, true)]
        }
        terms += [("started_at", true), ("id" + dialect.bytewise, true)]
        return terms.map { $0.0 + ($0.ascending != reversed ? " ASC" : " DESC") }.joined(separator: ", ")
    }
}

extension ZoneTime {
    static let table = StoreSchema.zones

    init(row: DeclaredRow) throws {
        guard case .integer(let zone) = row.value("zone") else { throw row.missing("zone") }
        self.init(
            zone: zone, name: try row.text("name"), lowBpm: try row.real("low_bpm"),
            highBpm: try row.optionalReal("high_bpm"), seconds: try row.real("seconds"))
    }
}

extension BestEffort {
    static let table = StoreSchema.bestEfforts

    init(row: DeclaredRow) throws {
        self.init(
            distanceMeters: try row.real("distance_m"), elapsedSeconds: try row.real("elapsed_s"),
            startOffsetSeconds: try row.real("start_offset_s"))
    }
}
