import RaceKitMetrics

/// The table of daily measurements and its statements: one table for every
/// kind (`DailyKind`), in both backends.
extension DailyMeasurement {
    /// Two rows of the same athlete, kind, source, start and end are one
    /// measurement: a second import of the same export adds nothing.
    public static let table = TableSpec(
        name: "daily_measurement",
        columns: [
            ColumnSpec("athlete_id", .text, references: StoreSchema.ref("athlete")), ColumnSpec("kind", .text),
            ColumnSpec("source", .text), ColumnSpec("start_at", .real), ColumnSpec("end_at", .real),
            ColumnSpec("value", .real), ColumnSpec("unit", .text), ColumnSpec("source_file", .text, nullable: true),
            ColumnSpec("imported_at", .real)
        ],
        primaryKey: ["athlete_id", "kind", "source", "start_at", "end_at"],
        indexes: [IndexSpec(name: "daily_by_athlete_kind_start", columns: ["athlete_id", "kind", "start_at"])])

    /// The table's columns, in order: what a row holds and a statement binds.
    public static let columns = table.columns.map(\.name)

    /// The statements both backends run, in their dialect.
    public enum SQL {
        /// The insert: a measurement stored already (same key) is kept as it is,
        /// or with `replacing`, given the new value (a correction by hand).
        public static func insert(_ d: SQLDialect, replacing: Bool = false) -> String {
            let conflict: TableSpec.OnConflict =
                replacing
                ? .update(key: table.primaryKey, columns: ["value", "unit", "source_file", "imported_at"]) : .keep()
            return d.statement(table.insert(conflict))
        }

        /// The start of an athlete's newest measurement (one parameter, the athlete).
        public static func newest(_ d: SQLDialect) -> String {
            "SELECT MAX(start_at) FROM daily_measurement WHERE athlete_id = \(d.placeholder(1))"
        }

        /// An athlete's sources and their record counts (one parameter, the athlete).
        public static func sources(_ d: SQLDialect) -> String {
            "SELECT source, count(*) FROM daily_measurement WHERE athlete_id = \(d.placeholder(1)) GROUP BY source"
        }

        /// Deletes one measurement by its key (athlete, kind, source, start, end).
        public static func delete(_ d: SQLDialect) -> String {
            let key = table.primaryKey.enumerated().map { "\($1) = \(d.placeholder($0 + 1))" }
            return "DELETE FROM daily_measurement WHERE " + key.joined(separator: " AND ")
        }

        /// The parameters of `delete`, in order.
        public static func key(_ m: DailyMeasurement) -> [StoreValue] {
            [.text(m.athleteID), .text(m.kind), .text(m.source), .real(m.start), .real(m.end)]
        }

        /// The select and its parameters' order: athlete, then kind, from and
        /// until where given.
        public static func select(_ d: SQLDialect, kind: Bool, from: Bool, until: Bool) -> String {
            var sql =
                "SELECT \(columns.joined(separator: ", ")) FROM daily_measurement WHERE athlete_id = \(d.placeholder(1))"
            var n = 1
            func next() -> String {
                n += 1
                return d.placeholder(n)
            }
            if kind { sql += " AND kind = \(next())" }
            if from { sql += " AND start_at >= \(next())" }
            if until { sql += " AND start_at <= \(next())" }
            return sql + " ORDER BY start_at, kind, source, end_at"
        }

        /// The parameters of `select`, in order.
        public static func parameters(athleteID: String, kind: String?, from: Double?, until: Double?) -> [StoreValue] {
            [.text(athleteID)]
                + [kind.map(StoreValue.text), from.map(StoreValue.real), until.map(StoreValue.real)]
                .compactMap { $0 }
        }
    }

    public var storeValues: [StoreValue] {
        [
            .text(athleteID), .text(kind), .text(source), .real(start), .real(end), .real(value), .text(unit),
            sourceFile.map(StoreValue.text) ?? .null, .real(importedAt)
        ]
    }

    /// A measurement from a row holding `columns` in order from `offset`.
    public init(row: some StoreRow, offset: Int = 0) throws {
        var which = ""
        if case .text(let a) = row.value(offset, .text), case .text(let k) = row.value(offset + 1, .text) {
            which = " \(k.prefix(40)) of \(a.prefix(40))"
        }
        func fail(_ k: Int, _ what: String) -> StoreError {
            .database("daily_measurement\(which), column \(Self.columns[k]): \(what)")
        }
        func text(_ k: Int) throws -> String {
            guard case .text(let s) = row.value(offset + k, .text) else { throw fail(k, "missing or not text") }
            return s
        }
        func real(_ k: Int) throws -> Double {
            switch row.value(offset + k, .real) {
            case .real(let v): return v
            case .integer(let i): return Double(i)
            default: throw fail(k, "missing or not a number")
            }
        }
        let athleteID = try text(0), kind = try text(1), source = try text(2), start = try real(3)
        let end = try real(4), value = try real(5), unit = try text(6)
        var sourceFile: String?
        if case .text(let s) = row.value(offset + 7, .text) { sourceFile = s }
        self.init(
            athleteID: athleteID, kind: kind, value: value, unit: unit, start: start, end: end, source: source,
            sourceFile: sourceFile, importedAt: try real(8))
    }
}
