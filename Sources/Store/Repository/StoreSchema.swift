import RaceKitMetrics

/// The store's tables, described once: both backends' DDL (a new store) and
/// their migrations (what an existing store lacks) come from this description,
/// and a test checks each backend's live schema against it.
public enum ColumnType: String, Sendable, Equatable {
    case text, real, integer, boolean, blob
}

/// A column's declared default.
public enum ColumnDefault: Sendable, Equatable {
    case text(String)
    case number(Double)
}

public struct ForeignKey: Sendable, Equatable {
    public enum Action: String, Sendable { case cascade = "CASCADE", setNull = "SET NULL" }
    public var table: String
    public var column: String
    public var onDelete: Action
}

public struct ColumnSpec: Sendable, Equatable {
    public var name: String
    public var type: ColumnType
    public var nullable: Bool
    public var defaultValue: ColumnDefault?
    public var references: ForeignKey?

    public init(
        _ name: String, _ type: ColumnType, nullable: Bool = false, default defaultValue: ColumnDefault? = nil,
        references: ForeignKey? = nil
    ) {
        self.name = name; self.type = type; self.nullable = nullable; self.defaultValue = defaultValue
        self.references = references
    }
}

public struct IndexSpec: Sendable, Equatable {
    public var name: String
    public var columns: [String]
}

public struct TableSpec: Sendable, Equatable {
    public var name: String
    public var columns: [ColumnSpec]
    public var primaryKey: [String]
    public var unique: [[String]] = []
    public var indexes: [IndexSpec] = []

    public func column(_ name: String) -> ColumnSpec? { columns.first { $0.name == name } }
}

/// Where the two backends' SQL differs: types, placeholders, quoting of
/// defaults. Everything else in the DDL is the same text.
public enum SQLDialect: Sendable {
    case sqlite, postgres

    /// The type a column is declared with (SQLite's are GRDB's names, as the
    /// historical migrations declared them).
    public func type(_ t: ColumnType) -> String {
        switch (self, t) {
        case (.sqlite, .text): return "TEXT"
        case (.sqlite, .real): return "DOUBLE"
        case (.sqlite, .integer): return "INTEGER"
        case (.sqlite, .boolean): return "BOOLEAN"
        case (.sqlite, .blob): return "BLOB"
        case (.postgres, .text): return "text"
        case (.postgres, .real): return "double precision"
        case (.postgres, .integer): return "bigint"
        case (.postgres, .boolean): return "boolean"
        case (.postgres, .blob): return "bytea"
        }
    }

    /// The `n`th (1-based) statement parameter.
    public func placeholder(_ n: Int) -> String { self == .sqlite ? "?" : "$\(n)" }

    public static func literal(_ d: ColumnDefault) -> String {
        switch d {
        case .text(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .number(let v): return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
        }
    }

    /// A column's definition, as in CREATE TABLE and ALTER TABLE ... ADD COLUMN.
    public func definition(_ c: ColumnSpec, primaryKey: Bool = false) -> String {
        var s = "\"\(c.name)\" \(type(c.type))"
        if primaryKey { s += " PRIMARY KEY" }
        if !c.nullable && !primaryKey { s += " NOT NULL" }
        if let d = c.defaultValue { s += " DEFAULT \(Self.literal(d))" }
        if let r = c.references { s += " REFERENCES \"\(r.table)\"(\"\(r.column)\") ON DELETE \(r.onDelete.rawValue)" }
        return s
    }

    /// The statements that create `t` and its indexes.
    public func create(_ t: TableSpec) -> [String] {
        let single = t.primaryKey.count == 1 ? t.primaryKey[0] : nil
        var parts = t.columns.map { definition($0, primaryKey: $0.name == single) }
        if single == nil { parts.append("PRIMARY KEY (\(t.primaryKey.map { "\"\($0)\"" }.joined(separator: ", ")))") }
        for u in t.unique { parts.append("UNIQUE (\(u.map { "\"\($0)\"" }.joined(separator: ", ")))") }
        var out = ["CREATE TABLE \"\(t.name)\" (\n    " + parts.joined(separator: ",\n    ") + "\n)"]
        out += t.indexes.map(createIndex(on: t.name))
        return out
    }

    public func createIndex(on table: String) -> (IndexSpec) -> String {
        { i in
            "CREATE INDEX \"\(i.name)\" ON \"\(table)\" (\(i.columns.map { "\"\($0)\"" }.joined(separator: ", ")))"
        }
    }

    /// The statement that adds `c` to `table`.
    public func addColumn(_ c: ColumnSpec, to table: String) -> String {
        "ALTER TABLE \"\(table)\" ADD COLUMN \(definition(c))"
    }
}

/// The store's schema: every table, in creation order (a table after those it references).
public enum StoreSchema {
    public static func tables(_ registry: MetricRegistry = .standard) -> [TableSpec] {
        [athlete, run(registry), samples, zones, bestEfforts, raceLinks, DailyMeasurement.table, FileStamp.table]
    }

    static func ref(_ table: String, _ column: String = "id", _ action: ForeignKey.Action = .cascade) -> ForeignKey {
        ForeignKey(table: table, column: column, onDelete: action)
    }

    public static let athlete = TableSpec(
        name: "athlete",
        columns: [
            ColumnSpec("id", .text), ColumnSpec("name", .text),
            ColumnSpec("max_hr", .real, nullable: true), ColumnSpec("resting_hr", .real, nullable: true),
            ColumnSpec("threshold_hr", .real, nullable: true),
            ColumnSpec("threshold_pace_s_per_km", .real, nullable: true), ColumnSpec("sex", .text, nullable: true),
            ColumnSpec("time_zone", .text, default: .text("UTC")),
            ColumnSpec("zone_model", .text, default: .text(ZoneModel.auto.rawValue)),
            ColumnSpec("created_at", .real),
            // A JSON array of source names (v9, pg4).
            ColumnSpec("source_order", .text, nullable: true)
        ],
        primaryKey: ["id"])

    /// The run table: the fixed columns, then every metric's.
    public static func run(_ registry: MetricRegistry) -> TableSpec {
        TableSpec(
            name: "run", columns: RunColumns.of(registry).map(\.spec), primaryKey: ["id"],
            unique: [["athlete_id", "source_sha256", "activity_index"]],
            indexes: [IndexSpec(name: "run_by_athlete_start", columns: ["athlete_id", "started_at"])])
    }

    public static let samples = TableSpec(
        name: "run_samples",
        columns: [
            ColumnSpec("run_id", .text, references: ref("run")), ColumnSpec("segments", .text, default: .text("[0]")),
            ColumnSpec("data", .blob)
        ],
        primaryKey: ["run_id"])

    public static let zones = TableSpec(
        name: "run_zone",
        columns: [
            ColumnSpec("run_id", .text, references: ref("run")), ColumnSpec("zone", .integer),
            ColumnSpec("name", .text), ColumnSpec("low_bpm", .real), ColumnSpec("high_bpm", .real, nullable: true),
            ColumnSpec("seconds", .real)
        ],
        primaryKey: ["run_id", "zone"])

    public static let bestEfforts = TableSpec(
        name: "best_effort",
        columns: [
            ColumnSpec("run_id", .text, references: ref("run")), ColumnSpec("distance_m", .real),
            ColumnSpec("elapsed_s", .real), ColumnSpec("start_offset_s", .real)
        ],
        primaryKey: ["run_id", "distance_m"],
        indexes: [IndexSpec(name: "best_effort_by_distance", columns: ["distance_m", "elapsed_s"])])

    public static let raceLinks = TableSpec(
        name: "race_link",
        columns: [
            ColumnSpec("setup_key", .text), ColumnSpec("setup_slug", .text), ColumnSpec("setup_file", .text),
            ColumnSpec("race_name", .text), ColumnSpec("race_date", .text, nullable: true),
            ColumnSpec("target_s", .real),
            ColumnSpec("run_id", .text, nullable: true, references: ref("run", "id", .setNull)),
            ColumnSpec("actual_s", .real, nullable: true), ColumnSpec("review_path", .text, nullable: true)
        ],
        primaryKey: ["setup_key"],
        indexes: [IndexSpec(name: "race_link_by_run", columns: ["run_id"])])

    /// The columns of `registry` the run table of `existing` column names lacks,
    /// in registry order: what a derived migration adds.
    public static func missingRunColumns(_ registry: MetricRegistry, existing: Set<String>) -> [ColumnSpec] {
        run(registry).columns.filter { !existing.contains($0.name) }
    }
}

extension TableSpec {
    /// What an insert does with a row whose key is stored already.
    public enum OnConflict: Sendable, Equatable {
        /// The statement fails (the row is new by construction).
        case fail
        /// The stored row stays: `ON CONFLICT [(key)] DO NOTHING` (no key: any unique constraint).
        case keep(key: [String]? = nil)
        /// The new row's `columns` are written over the stored row's (nil: every
        /// column outside `key`).
        case update(key: [String], columns: [String]? = nil)
    }

    /// The repository's one INSERT, for every table: `rows` rows of every
    /// declared column in declared order, with `?` marks (`SQLDialect.statement`
    /// numbers them for PostgreSQL), and what a stored key does (`conflict`).
    public func insert(rows: Int = 1, _ conflict: OnConflict = .fail) -> String {
        Self.insert(into: name, columns: columns.map(\.name), rows: rows, conflict)
    }

    /// `insert(rows:_:)` for a table by its name and columns.
    public static func insert(into table: String, columns: [String], rows: Int = 1, _ conflict: OnConflict = .fail)
        -> String
    {
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        var sql =
            "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
            + Array(repeating: tuple, count: max(1, rows)).joined(separator: ", ")
        switch conflict {
        case .fail: break
        case .keep(let key):
            sql += " ON CONFLICT" + (key.map { " (\($0.joined(separator: ", ")))" } ?? "") + " DO NOTHING"
        case .update(let key, let set):
            let set = set ?? columns.filter { !key.contains($0) }
            sql +=
                " ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE SET "
                + set.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        }
        return sql
    }

    /// A table rebuild's copy (SQLite cannot change a column's type or order in
    /// place): `source`'s rows into `table`, `values` giving each of `columns`
    /// (default: the column of the same name). The frozen SQLite migrations
    /// run it: what it writes must never change (`SQLDialectTests` pins it).
    public static func copy(into table: String, columns: [String], from source: String, values: [String]? = nil)
        -> String
    {
        "INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT "
            + (values ?? columns).joined(separator: ", ") + " FROM \(source)"
    }
}

extension StoreSchema {
    /// The athlete every store holds from its first migration on, in both
    /// backends (`runs` without `--athlete` are its). Both backends' first,
    /// frozen migration runs it: it must never change (`SQLDialectTests` pins it).
    public static let defaultAthleteRow =
        "INSERT INTO athlete (id, name, created_at) VALUES ('default', 'Default athlete', 0)"
}
