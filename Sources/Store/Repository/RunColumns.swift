import RaceKitMetrics

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
        for m in registry.metrics where !historical.contains(m.column) {
            // A new metric must make today's runs stale, or it stays unknown on every one of them.
            precondition(m.since > RunAnalyzer.baseVersion, "\(m).since must be above \(RunAnalyzer.baseVersion)")
            precondition(!fixedNames.contains(m.column), "\(m).column is a fixed column of the run table")
        }
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

    /// The names of the fixed columns (no metric may take one).
    static let fixedNames: Set<String> = Set(
        fixed.compactMap { entry in
            if case .field(let c) = entry { return c.spec.name }
            return nil
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

    // Each column reads and writes its field through two closures, not a key
    // path: a key path's access is a runtime call, and `runs list` reads every
    // column of thousands of runs.
    typealias Get<T> = @Sendable (RunRecord) -> T
    typealias Put<T> = @Sendable (inout RunRecord, T) -> Void

    static func text(
        _ name: String, references: ForeignKey? = nil, _ get: @escaping Get<String>, _ set: @escaping Put<String>
    ) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .text, references: references), get: { .text(get($0)) },
                set: { r, v throws(ColumnError) in set(&r, try required(text(v))) }))
    }
    static func optionalText(_ name: String, _ get: @escaping Get<String?>, _ set: @escaping Put<String?>) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .text, nullable: true), get: { get($0).map(StoreValue.text) ?? .null },
                set: { r, v throws(ColumnError) in set(&r, try text(v)) }))
    }
    static func real(_ name: String, _ get: @escaping Get<Double>, _ set: @escaping Put<Double>) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .real), get: { .real(get($0)) },
                set: { r, v throws(ColumnError) in set(&r, try required(real(v))) }))
    }
    static func integer(_ name: String, _ get: @escaping Get<Int>, _ set: @escaping Put<Int>) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .integer), get: { .integer(get($0)) },
                set: { r, v throws(ColumnError) in set(&r, try required(integer(v))) }))
    }
    static func optionalInteger(_ name: String, _ get: @escaping Get<Int?>, _ set: @escaping Put<Int?>) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .integer, nullable: true), get: { get($0).map(StoreValue.integer) ?? .null },
                set: { r, v throws(ColumnError) in set(&r, try integer(v)) }))
    }
    static func boolean(_ name: String, _ get: @escaping Get<Bool>, _ set: @escaping Put<Bool>) -> Entry {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .boolean), get: { .boolean(get($0)) },
                set: { r, v throws(ColumnError) in set(&r, try required(boolean(v))) }))
    }
    static func value<E: RawRepresentable & Sendable>(
        _ name: String, default d: E? = nil, _ get: @escaping Get<E>, _ set: @escaping Put<E>
    ) -> Entry where E.RawValue == String {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .text, default: d.map { .text($0.rawValue) }), get: { .text(get($0).rawValue) },
                set: { r, v throws(ColumnError) in set(&r, try required(known(text(v)))) }))
    }
    static func optionalValue<E: RawRepresentable & Sendable>(
        _ name: String, _ get: @escaping Get<E?>, _ set: @escaping Put<E?>
    ) -> Entry where E.RawValue == String {
        .field(
            RunColumn(
                spec: ColumnSpec(name, .text, nullable: true), get: { get($0).map { .text($0.rawValue) } ?? .null },
                set: { r, v throws(ColumnError) in set(&r, try known(text(v))) }))
    }

    /// The run table as 0.4.0 had it, column for column: the fixed fields and,
    /// in their places, the metrics stored then.
    static let fixed: [Entry] = [
        text("id", { $0.id }, { $0.id = $1 }),
        text("athlete_id", references: StoreSchema.ref("athlete"), { $0.athleteID }, { $0.athleteID = $1 }),
        value("sport", { $0.sport }, { $0.sport = $1 }),
        boolean("sport_declared", { $0.sportDeclared }, { $0.sportDeclared = $1 }),
        optionalText("name", { $0.name }, { $0.name = $1 }),
        text("source_file", { $0.sourceFile }, { $0.sourceFile = $1 }),
        value("source_format", { $0.sourceFormat }, { $0.sourceFormat = $1 }),
        text("source_sha256", { $0.sourceSHA256 }, { $0.sourceSHA256 = $1 }),
        integer("activity_index", { $0.activityIndex }, { $0.activityIndex = $1 }),
        optionalText("creator", { $0.creator }, { $0.creator = $1 }),
        real("started_at", { $0.startedAt }, { $0.startedAt = $1 }),
        real("ended_at", { $0.endedAt }, { $0.endedAt = $1 }),
        real("elapsed_s", { $0.elapsedSeconds }, { $0.elapsedSeconds = $1 }),
        .metric(Metric.MovingSeconds.self), .metric(Metric.DistanceMeters.self),
        value("distance_source", { $0.distanceSource }, { $0.distanceSource = $1 }), .metric(Metric.AscentMeters.self),
        .metric(Metric.DescentMeters.self), .metric(Metric.AvgHeartRate.self), .metric(Metric.MaxHeartRate.self),
        .metric(Metric.HeartRateCoverage.self), .metric(Metric.AvgCadence.self), .metric(Metric.Load.self),
        optionalValue("load_source", { $0.loadSource }, { $0.loadSource = $1 }),
        optionalText("label", { $0.label }, { $0.label = $1 }),
        value("mode", default: .free, { $0.mode }, { $0.mode = $1 }),
        value("run_type", default: .outdoor, { $0.runType }, { $0.runType = $1 }),
        optionalInteger("perceived_effort", { $0.perceivedEffort }, { $0.perceivedEffort = $1 }),
        optionalText("notes", { $0.notes }, { $0.notes = $1 }),
        integer("point_count", { $0.pointCount }, { $0.pointCount = $1 }),
        text("repairs", { $0.repairs }, { $0.repairs = $1 }),
        integer("analysis_version", { $0.analysisVersion }, { $0.analysisVersion = $1 }),
        real("imported_at", { $0.importedAt }, { $0.importedAt = $1 }),
        optionalValue("zone_model", { $0.zoneModel }, { $0.zoneModel = $1 }),
        optionalText("load_estimated", { $0.loadEstimated }, { $0.loadEstimated = $1 }),
        optionalText("analysis_profile", { $0.analysisProfile }, { $0.analysisProfile = $1 }),
        .metric(Metric.GradeAdjustedPace.self)
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
