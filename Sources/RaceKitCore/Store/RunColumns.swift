/// A value as a store column holds it (both backends, the content digest).
public enum StoreValue: Sendable, Equatable {
    case null
    case text(String)
    case real(Double)
    case integer(Int)
    case boolean(Bool)
    /// Bytes where a column should not hold them (a damaged store): never valid.
    case blob([UInt8])
}

/// A value that could not be read from a column: wrong type, unknown enum value.
public struct ColumnError: Error, Sendable {
    public var what: String
}

/// One column of the run table: its declaration and how a `RunRecord` gives and
/// takes its value. The run table is `RunColumns.of(registry)`: the fixed
/// columns below (their order is the content digest's, unchanged since 0.4.0),
/// then every metric of the registry not already among them.
public struct RunColumn: Sendable {
    public let spec: ColumnSpec
    public let get: @Sendable (RunRecord) -> StoreValue
    public let set: @Sendable (inout RunRecord, StoreValue) throws(ColumnError) -> Void
}

public enum RunColumns {
    public static func of(_ registry: MetricRegistry) -> [RunColumn] {
        if registry === MetricRegistry.standard { return standard }
        return build(registry)
    }

    static let standard = build(.standard)

    static func build(_ registry: MetricRegistry) -> [RunColumn] {
        var listed = Set<Int>()
        var out: [RunColumn] = []
        for entry in fixed {
            switch entry {
            case .field(let c): out.append(c)
            case .metric(let m):
                guard let i = registry.index(of: m) else { continue }
                listed.insert(i)
                out.append(metric(i, m))
            }
        }
        for (i, m) in registry.metrics.enumerated() where !listed.contains(i) { out.append(metric(i, m)) }
        return out
    }

    static func metric(_ i: Int, _ m: any RunMetric.Type) -> RunColumn {
        RunColumn(
            spec: ColumnSpec(m.column, .real, nullable: true),
            get: { r in r.metrics[index: i].map(StoreValue.real) ?? .null },
            set: { r, v throws(ColumnError) in r.metrics[index: i] = try real(v) })
    }

    /// The run table's columns as 0.4.0 created them (a metric among them needs no migration).
    public static let historical: Set<String> = Set(
        fixed.map { entry in
            switch entry {
            case .field(let c): return c.spec.name
            case .metric(let m): return m.column
            }
        })

    enum Entry {
        case field(RunColumn)
        case metric(any RunMetric.Type)
    }

    // MARK: The fixed columns

    static func text(_ v: StoreValue) throws(ColumnError) -> String? {
        switch v {
        case .null: return nil
        case .text(let s): return s
        default: throw ColumnError(what: "not text")
        }
    }
    static func real(_ v: StoreValue) throws(ColumnError) -> Double? {
        switch v {
        case .null: return nil
        case .real(let d): return d
        case .integer(let i): return Double(i)
        default: throw ColumnError(what: "not a number")
        }
    }
    static func integer(_ v: StoreValue) throws(ColumnError) -> Int? {
        switch v {
        case .null: return nil
        case .integer(let i): return i
        case .real(let d) where d == d.rounded() && abs(d) < 9e15: return Int(d)
        default: throw ColumnError(what: "not an integer")
        }
    }
    static func boolean(_ v: StoreValue) throws(ColumnError) -> Bool? {
        switch v {
        case .null: return nil
        case .boolean(let b): return b
        case .integer(let i): return i != 0
        default: throw ColumnError(what: "not a boolean")
        }
    }
    static func required<T>(_ v: T?) throws(ColumnError) -> T {
        guard let v else { throw ColumnError(what: "missing") }
        return v
    }
    static func known<E: RawRepresentable>(_ text: String?) throws(ColumnError) -> E? where E.RawValue == String {
        guard let text else { return nil }
        guard let e = E(rawValue: text) else {
            throw ColumnError(what: "'\(text.prefix(40))' is not a \(E.self) this racekit knows")
        }
        return e
    }

    static func text(
        _ name: String, _ path: WritableKeyPath<RunRecord, String> & Sendable, default d: String? = nil
    ) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .text, default: d.map(ColumnDefault.text)), get: { .text($0[keyPath: path]) },
                set: { r, v throws(ColumnError) in r[keyPath: path] = try required(text(v)) }))
    }
    static func optionalText(_ name: String, _ path: WritableKeyPath<RunRecord, String?> & Sendable) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .text, nullable: true), get: { $0[keyPath: path].map(StoreValue.text) ?? .null },
                set: { r, v throws(ColumnError) in r[keyPath: path] = try text(v) }))
    }
    static func real(_ name: String, _ path: WritableKeyPath<RunRecord, Double> & Sendable) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .real), get: { .real($0[keyPath: path]) },
                set: { r, v throws(ColumnError) in r[keyPath: path] = try required(real(v)) }))
    }
    static func integer(_ name: String, _ path: WritableKeyPath<RunRecord, Int> & Sendable) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .integer), get: { .integer($0[keyPath: path]) },
                set: { r, v throws(ColumnError) in r[keyPath: path] = try required(integer(v)) }))
    }
    static func optionalInteger(_ name: String, _ path: WritableKeyPath<RunRecord, Int?> & Sendable) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .integer, nullable: true),
                get: { $0[keyPath: path].map(StoreValue.integer) ?? .null },
                set: { r, v throws(ColumnError) in r[keyPath: path] = try integer(v) }))
    }
    static func boolean(_ name: String, _ path: WritableKeyPath<RunRecord, Bool> & Sendable) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .boolean), get: { .boolean($0[keyPath: path]) },
                set: { r, v throws(ColumnError) in r[keyPath: path] = try required(boolean(v)) }))
    }
    static func value<E: RawRepresentable & Sendable>(
        _ name: String, _ path: WritableKeyPath<RunRecord, E> & Sendable, default d: E? = nil
    ) -> Entry where E.RawValue == String {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .text, default: d.map { .text($0.rawValue) }),
                get: { .text($0[keyPath: path].rawValue) },
                set: { r, v throws(ColumnError) in r[keyPath: path] = try required(known(text(v))) }))
    }
    static func optionalValue<E: RawRepresentable & Sendable>(
        _ name: String, _ path: WritableKeyPath<RunRecord, E?> & Sendable
    ) -> Entry where E.RawValue == String {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .text, nullable: true),
                get: { $0[keyPath: path].map { .text($0.rawValue) } ?? .null },
                set: { r, v throws(ColumnError) in r[keyPath: path] = try known(text(v)) }))
    }

    /// The run table as 0.4.0 had it, column for column: the fixed fields and,
    /// in their places, the metrics stored then.
    static let fixed: [Entry] = [
        text("id", \.id), text("athlete_id", \.athleteID), value("sport", \.sport),
        boolean("sport_declared", \.sportDeclared), optionalText("name", \.name), text("source_file", \.sourceFile),
        value("source_format", \.sourceFormat), text("source_sha256", \.sourceSHA256),
        integer("activity_index", \.activityIndex), optionalText("creator", \.creator),
        real("started_at", \.startedAt), real("ended_at", \.endedAt), real("elapsed_s", \.elapsedSeconds),
        .metric(Metric.MovingSeconds.self), .metric(Metric.DistanceMeters.self),
        value("distance_source", \.distanceSource), .metric(Metric.AscentMeters.self),
        .metric(Metric.DescentMeters.self), .metric(Metric.AvgHeartRate.self), .metric(Metric.MaxHeartRate.self),
        .metric(Metric.HeartRateCoverage.self), .metric(Metric.AvgCadence.self), .metric(Metric.Load.self),
        optionalValue("load_source", \.loadSource), optionalText("label", \.label),
        value("mode", \.mode, default: .free), value("run_type", \.runType, default: .outdoor),
        optionalInteger("perceived_effort", \.perceivedEffort), optionalText("notes", \.notes),
        integer("point_count", \.pointCount), text("repairs", \.repairs),
        integer("analysis_version", \.analysisVersion), real("imported_at", \.importedAt),
        optionalValue("zone_model", \.zoneModel), optionalText("load_estimated", \.loadEstimated),
        optionalText("analysis_profile", \.analysisProfile), .metric(Metric.GradeAdjustedPace.self)
    ]
}

/// A row a backend read, column by column in `RunColumns` order from `offset`.
public protocol StoreRow {
    /// The value of column `i` (0-based in the row), as stored; `type` is the
    /// declared type (for a backend whose values do not carry theirs).
    func value(_ i: Int, _ type: ColumnType) -> StoreValue
}

extension RunRecord {
    /// A run from a row holding `RunColumns.of(registry)` from `offset` on:
    /// every column checked, a value of the wrong type or an unknown enum value
    /// is a store error naming the run and the column.
    public init(row: some StoreRow, offset: Int = 0, columns: [RunColumn], registry: MetricRegistry) throws {
        self.init(blank: registry)
        for (k, c) in columns.enumerated() {
            do { try c.set(&self, row.value(offset + k, c.spec.type)) } catch {
                let id: String
                if case .text(let s) = row.value(offset, .text) { id = s } else { id = "?" }
                throw StoreError.database("run \(id), column \(c.spec.name): \(error.what)")
            }
        }
    }

    /// The run with its metrics in `registry`'s order (`RunMetrics.converted`).
    public func with(_ registry: MetricRegistry) -> RunRecord {
        guard metrics.registry !== registry else { return self }
        var r = self
        r.metrics = metrics.converted(to: registry)
        return r
    }

    /// The run's values in `columns` order.
    public func storeValues(_ columns: [RunColumn]) -> [StoreValue] { columns.map { $0.get(self) } }
}
