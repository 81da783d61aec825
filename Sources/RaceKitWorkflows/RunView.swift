import Foundation
import RaceKitMetrics
import RaceKitOutput
import RaceKitStore

/// A run as `runs list` and `runs show` print it; the JSON keys are the contract in
/// docs/contracts/json.md: the fixed fields below and one key per metric of the
/// registry (`RunMetric`), in sorted order; the CSV has the fixed columns with
/// 0.4.0's metrics in their places, then every newer metric.
public struct RunView: Sendable {
    public var record: RunRecord

    public init(_ r: RunRecord) { record = r }

    public var id: String { record.id }
    public var startedAt: String { TextFormat.isoTime(record.startedAt) }
    /// Moving time (elapsed when unknown) over distance; nil without either, so
    /// an activity without pace sorts last and never reads "0:00", and nil for
    /// an average faster than the sport allows (a 333 m "run" in 3 s read 0:09/km).
    public var avgPaceSecondsPerKm: Double? {
        let seconds = record.movingSeconds ?? record.elapsedSeconds
        guard let d = record.distanceMeters, d > 0, seconds > 0,
            d / seconds <= SportLimits.of(record.sport, declared: true).maxPlausibleSpeed
        else { return nil }
        return seconds / (d / 1000)
    }

    /// The run as the JSON contract has it.
    public var json: RunJSON { RunJSON(record: record, avgPace: avgPaceSecondsPerKm) }

    // MARK: CSV

    enum CSVColumn {
        case fixed(String, @Sendable (RunView) -> CSV.Cell)
        case metric(any RunMetric.Type)
    }

    /// 0.4.0's columns, in order (metrics in their places).
    static let legacyCSV: [CSVColumn] = [
        .fixed("id") { .text($0.record.id) }, .fixed("athlete") { .text($0.record.athleteID) },
        .fixed("sport") { .text($0.record.sport.rawValue) }, .fixed("name") { .text($0.record.name ?? "") },
        .fixed("source_file") { .text($0.record.sourceFile) },
        .fixed("source_format") { .text($0.record.sourceFormat.rawValue) },
        .fixed("creator") { .text($0.record.creator ?? "") }, .fixed("started_at") { .text($0.startedAt) },
        .fixed("ended_at") { .text(TextFormat.isoTime($0.record.endedAt)) },
        .fixed("elapsed_time_s") { .number($0.record.elapsedSeconds, digits: 3) },
        .metric(Metric.MovingSeconds.self), .metric(Metric.DistanceMeters.self), .metric(Metric.AscentMeters.self),
        .metric(Metric.DescentMeters.self), .fixed("avg_pace_s_per_km") { .number($0.avgPaceSecondsPerKm, digits: 1) },
        .metric(Metric.GradeAdjustedPace.self), .metric(Metric.AvgHeartRate.self), .metric(Metric.MaxHeartRate.self),
        .metric(Metric.HeartRateCoverage.self), .metric(Metric.AvgCadence.self), .metric(Metric.Load.self),
        .fixed("load_source") { .text($0.record.loadSource?.rawValue ?? "") },
        .fixed("label") { .text($0.record.label ?? "") }, .fixed("mode") { .text($0.record.mode.rawValue) },
        .fixed("run_type") { .text($0.record.runType.rawValue) },
        .fixed("perceived_effort") { .integer($0.record.perceivedEffort) },
        .fixed("notes") { .text($0.record.notes ?? "") }
    ]

    /// The CSV's columns for `registry`: 0.4.0's, then each newer metric.
    static func csvColumns(_ registry: MetricRegistry) -> [CSVColumn] {
        let listed = Set(
            legacyCSV.compactMap { c -> ObjectIdentifier? in
                if case .metric(let m) = c { return ObjectIdentifier(m) }
                return nil
            })
        return legacyCSV.filter {
            if case .metric(let m) = $0 { return registry.index(of: m) != nil }
            return true
        } + registry.metrics.filter { !listed.contains(ObjectIdentifier($0)) }.map(CSVColumn.metric)
    }

    public static func csvHeader(_ registry: MetricRegistry = .standard) -> [String] {
        csvColumns(registry).map {
            switch $0 {
            case .fixed(let name, _): return name
            case .metric(let m): return m.csvColumn
            }
        }
    }

    /// The run as a CSV record, in `csvHeader`'s order.
    public var csvCells: [CSV.Cell] {
        Self.csvColumns(record.metrics.registry).map {
            switch $0 {
            case .fixed(_, let cell): return cell(self)
            case .metric(let m): return .number(record.metrics[m].map { $0 * m.csvScale }, digits: m.csvDigits)
            }
        }
    }
}

/// A run in `runs list --format json` and `runs show --format json` (docs/contracts/json.md,
/// "Runs"): every key always present, unknown as null; the fixed keys and one
/// per metric, sorted.
public struct RunJSON: FlatFieldsWritable, Sendable {
    let record: RunRecord
    let avgPace: Double?

    /// The keys that are not metrics.
    enum Fixed: CaseIterable {
        case athlete, avgPaceSecondsPerKm, creator, elapsedSeconds, endedAt, id, label, loadSource, mode, name
        case notes, perceivedEffort, runType, sourceFile, sourceFormat, sport, sportInferred, startedAt

        var key: StaticString {
            switch self {
            case .athlete: "athlete"
            case .avgPaceSecondsPerKm: "avgPaceSecondsPerKm"
            case .creator: "creator"
            case .elapsedSeconds: "elapsedSeconds"
            case .endedAt: "endedAt"
            case .id: "id"
            case .label: "label"
            case .loadSource: "loadSource"
            case .mode: "mode"
            case .name: "name"
            case .notes: "notes"
            case .perceivedEffort: "perceivedEffort"
            case .runType: "runType"
            case .sourceFile: "sourceFile"
            case .sourceFormat: "sourceFormat"
            case .sport: "sport"
            case .sportInferred: "sportInferred"
            case .startedAt: "startedAt"
            }
        }
    }

    enum Slot {
        case fixed(Fixed)
        case metric(Int, any RunMetric.Type)

        var key: StaticString {
            switch self {
            case .fixed(let f): f.key
            case .metric(_, let m): m.key
            }
        }
    }

    static func order(_ registry: MetricRegistry) -> [Slot] {
        let slots = Fixed.allCases.map(Slot.fixed) + registry.metrics.enumerated().map { Slot.metric($0, $1) }
        return slots.sorted { "\($0.key)".precedesBytewise("\($1.key)") }
    }

    static let standardOrder = order(.standard)

    static func slots(_ registry: MetricRegistry) -> [Slot] {
        registry === MetricRegistry.standard ? standardOrder : order(registry)
    }

    /// Every key, sorted, for `registry`.
    public static func keys(_ registry: MetricRegistry = .standard) -> [String] {
        slots(registry).map { "\($0.key)" }
    }

    /// The same fields as `encode(to:)`, in the same sorted order, without an
    /// encoder (a test checks the two agree).
    public func writeFields(_ f: inout FlatFields) {
        let r = record
        for slot in Self.slots(r.metrics.registry) {
            switch slot {
            case .metric(let i, let m):
                f.field(m.key, Null(wrappedValue: TextFormat.round(r.metrics[index: i], m.digits)))
            case .fixed(let k):
                switch k {
                case .athlete: f.field(k.key, r.athleteID)
                case .avgPaceSecondsPerKm: f.field(k.key, Null(wrappedValue: TextFormat.round(avgPace, 1)))
                case .creator: f.field(k.key, Null(wrappedValue: r.creator))
                case .elapsedSeconds: f.field(k.key, Null(wrappedValue: TextFormat.round(r.elapsedSeconds, 3)))
                case .endedAt: f.field(k.key, TextFormat.isoTime(r.endedAt))
                case .id: f.field(k.key, r.id)
                case .label: f.field(k.key, Null(wrappedValue: r.label))
                case .loadSource: f.field(k.key, Null(wrappedValue: r.loadSource))
                case .mode: f.field(k.key, r.mode)
                case .name: f.field(k.key, Null(wrappedValue: r.name))
                case .notes: f.field(k.key, Null(wrappedValue: r.notes))
                case .perceivedEffort: f.field(k.key, Null(wrappedValue: r.perceivedEffort))
                case .runType: f.field(k.key, r.runType)
                case .sourceFile: f.field(k.key, r.sourceFile)
                case .sourceFormat: f.field(k.key, r.sourceFormat)
                case .sport: f.field(k.key, r.sport)
                case .sportInferred: f.field(k.key, !r.sportDeclared)
                case .startedAt: f.field(k.key, TextFormat.isoTime(r.startedAt))
                }
            }
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// The reference encoding (`writeFields` is the fast path of the same text).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        let r = record
        for slot in Self.slots(r.metrics.registry) {
            let key = Key("\(slot.key)")
            switch slot {
            case .metric(let i, let m):
                try c.encode(Null(wrappedValue: TextFormat.round(r.metrics[index: i], m.digits)), forKey: key)
            case .fixed(let k):
                switch k {
                case .athlete: try c.encode(r.athleteID, forKey: key)
                case .avgPaceSecondsPerKm: try c.encode(Null(wrappedValue: TextFormat.round(avgPace, 1)), forKey: key)
                case .creator: try c.encode(Null(wrappedValue: r.creator), forKey: key)
                case .elapsedSeconds:
                    try c.encode(Null(wrappedValue: TextFormat.round(r.elapsedSeconds, 3)), forKey: key)
                case .endedAt: try c.encode(TextFormat.isoTime(r.endedAt), forKey: key)
                case .id: try c.encode(r.id, forKey: key)
                case .label: try c.encode(Null(wrappedValue: r.label), forKey: key)
                case .loadSource: try c.encode(Null(wrappedValue: r.loadSource), forKey: key)
                case .mode: try c.encode(r.mode, forKey: key)
                case .name: try c.encode(Null(wrappedValue: r.name), forKey: key)
                case .notes: try c.encode(Null(wrappedValue: r.notes), forKey: key)
                case .perceivedEffort: try c.encode(Null(wrappedValue: r.perceivedEffort), forKey: key)
                case .runType: try c.encode(r.runType, forKey: key)
                case .sourceFile: try c.encode(r.sourceFile, forKey: key)
                case .sourceFormat: try c.encode(r.sourceFormat, forKey: key)
                case .sport: try c.encode(r.sport, forKey: key)
                case .sportInferred: try c.encode(!r.sportDeclared, forKey: key)
                case .startedAt: try c.encode(TextFormat.isoTime(r.startedAt), forKey: key)
                }
            }
        }
    }
}
