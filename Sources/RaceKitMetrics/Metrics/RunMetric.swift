import RaceKitModel

/// A per-run metric: one type in one file, named once in `MetricRegistry.standard`.
///
/// Everything else follows from the type (docs/development.md, "Extending"): the
/// run table's column in both store backends (added to an existing store by a
/// migration the schema derives), reading and writing it, `store copy`, the
/// content digest, the `runs list` / `runs show` JSON key and CSV column, the
/// contracts' JSON schemas (generated, checked by a test), and `runs recompute`
/// of the runs analysed before `since`.
public protocol RunMetric: Sendable {
    /// The JSON key (camelCase). The column name is its snake_case form unless
    /// `column` says otherwise.
    static var key: StaticString { get }
    /// The store column (default: `key` in snake_case).
    static var column: String { get }
    /// The CSV column (default: `column`).
    static var csvColumn: String { get }
    /// Multiplies the stored value in CSV (1; distance is written in km).
    static var csvScale: Double { get }
    /// Decimal places in CSV (default: `digits`).
    static var csvDigits: Int { get }
    static var unit: MetricUnit { get }
    /// Decimal places in JSON and CSV.
    static var digits: Int { get }
    /// The values a run can have: outside it the metric is unknown (nil), never stored.
    static var plausible: ClosedRange<Double> { get }
    /// The analysis version that introduced the metric (or last changed how it
    /// is computed): runs analysed by an older version are recomputed.
    static var since: Int { get }
    /// One line for the docs and the JSON schema.
    static var summary: String { get }
    /// The value over the run's samples and the analysis so far; nil when the
    /// run cannot tell it (no such channel, too short).
    static func compute(_ context: MetricContext) -> Double?
    /// True when the value is the file's own (the device's timer, its energy),
    /// read from its laps, not worked out from the samples: the store keeps no
    /// laps, so a recompute keeps the stored value (default false).
    static var isReported: Bool { get }
}

extension RunMetric {
    public static var column: String { MetricNames.snakeCase("\(key)") }
    public static var csvColumn: String { column }
    public static var csvScale: Double { 1 }
    public static var csvDigits: Int { digits }
    public static var isReported: Bool { false }
}

/// What a metric's value is measured in.
public enum MetricUnit: String, Sendable, CaseIterable {
    case seconds = "s", meters = "m", secondsPerKm = "s/km", bpm, percent = "%", perMinute = "1/min"
    case watts = "W", milliseconds = "ms", millimeters = "mm", kilocalories = "kcal", points, ratio, count
}

/// What `compute` sees: the cleaned samples, the run's figures so far (the
/// summary), the moving steps, the physiology and the load; the file's laps (at
/// import) and the run's stored values (at a recompute).
public struct MetricContext: Sendable {
    public let samples: SampleSeries
    public let sport: Sport
    public let summary: RunSummary
    /// `moving[k]`: whether the step from point k to k+1 is movement.
    public let moving: [Bool]
    public let physiology: Physiology
    public let load: TrainingLoad?
    /// The device's laps (or a session's totals as one lap); empty for a stored
    /// run, and when their totals describe more than the points hold (an excerpt).
    public let laps: [Lap]
    /// The device's totals for the whole activity (FIT session, Apple Health
    /// workout); nil for a stored run and where they describe more than the points.
    public let session: Lap?
    /// The run's values before this analysis (a recompute of a stored run), nil at import.
    public let stored: RunMetrics?
    /// The critical power in force on the run's day for its sport (`PowerHistory`);
    /// nil where none is known yet (an import: the refresh after it tells).
    public var criticalPower: CriticalPower?

    public init(
        samples: SampleSeries, sport: Sport, summary: RunSummary, moving: [Bool], physiology: Physiology,
        load: TrainingLoad?, laps: [Lap] = [], session: Lap? = nil, stored: RunMetrics? = nil
    ) {
        self.samples = samples; self.sport = sport; self.summary = summary; self.moving = moving
        self.physiology = physiology; self.load = load; self.laps = laps; self.session = session
        self.stored = stored
    }

    /// A total the device reports: the session's when above 0, else the sum of
    /// the laps' when every lap has one (a lap without it makes the sum a part,
    /// not the total); nil otherwise. 0 is what devices (and Strava's TCX) write
    /// when they counted nothing.
    public func deviceTotal(_ value: (Lap) -> Double?) -> Double? {
        if let session, let v = value(session), v > 0 { return v }
        guard !laps.isEmpty else { return nil }
        var sum = 0.0
        for lap in laps {
            guard let v = value(lap), v >= 0 else { return nil }
            sum += v
        }
        return sum > 0 ? sum : nil
    }

    /// The time-weighted average of extra channel `key` over its positive values
    /// (each held until the next, at most 25 s, as heart rate); nil without it.
    public func extraAverage(_ key: String) -> Double? {
        guard let values = samples.extra(key) else { return nil }
        return RunSummary.weightedAverage(values, time: samples.time) { $0 > 0 }.average
    }

    /// The run's power, one value per second: worked out once per context,
    /// however many power metrics ask.
    public var power: PowerSeries { powerCache.series(samples) }
    private let powerCache = PowerCache()
}

/// A context's power series, made on first use (the context is a value; the
/// cache is its one shared, lock-guarded box).
final class PowerCache: @unchecked Sendable {
    private let lock = Locked<PowerSeries?>(nil)
    func series(_ samples: SampleSeries) -> PowerSeries {
        lock.withLock { cached in
            if let cached { return cached }
            let made = PowerSeries(samples)
            cached = made
            return made
        }
    }
}

public enum MetricNames {
    /// `avgHeartRate` -> `avg_heart_rate`.
    public static func snakeCase(_ key: String) -> String {
        var out = ""
        for c in key {
            if c.isUppercase {
                if !out.isEmpty { out.append("_") }
                out.append(contentsOf: c.lowercased())
            } else {
                out.append(c)
            }
        }
        return out
    }
}

/// The metrics a store and an analysis know, in order: the standard list, or
/// the standard list and more (a test's made-up metric). Shared, never changed.
public final class MetricRegistry: Sendable, Equatable {
    public let metrics: [any RunMetric.Type]
    let indexByType: [ObjectIdentifier: Int]
    /// True when the list starts with the standard list: each standard metric
    /// is then at its standard index (`RunRecord`'s typed accessors read it
    /// there, without a lookup: `runs list` and the weekly report read them
    /// for every run).
    let extendsStandard: Bool

    public init(_ metrics: [any RunMetric.Type]) {
        self.metrics = metrics
        var index: [ObjectIdentifier: Int] = [:]
        for (i, m) in metrics.enumerated() {
            precondition(index[ObjectIdentifier(m)] == nil, "\(m) is in the metric registry twice")
            index[ObjectIdentifier(m)] = i
        }
        precondition(Set(metrics.map { $0.column }).count == metrics.count, "two metrics share a column")
        precondition(Set(metrics.map { "\($0.key)" }).count == metrics.count, "two metrics share a JSON key")
        indexByType = index
        let standard = MetricRegistry.standardList
        extendsStandard =
            metrics.count >= standard.count
            && zip(metrics, standard).allSatisfy { ObjectIdentifier($0) == ObjectIdentifier($1) }
    }

    /// The standard list and `extra` after it.
    public func adding(_ extra: [any RunMetric.Type]) -> MetricRegistry { MetricRegistry(metrics + extra) }

    public func index(of metric: any RunMetric.Type) -> Int? { indexByType[ObjectIdentifier(metric)] }

    /// The newest analysis version any metric needs: stored runs analysed before
    /// it are stale (`runs recompute`).
    public var version: Int { metrics.map { $0.since }.max() ?? 0 }

    public static func == (a: MetricRegistry, b: MetricRegistry) -> Bool {
        a === b || a.metrics.map(ObjectIdentifier.init) == b.metrics.map(ObjectIdentifier.init)
    }

    /// Every metric's value over `context`, each checked against its plausible range.
    public func compute(_ context: MetricContext) -> RunMetrics {
        var values = RunMetrics(self)
        for (i, m) in metrics.enumerated() {
            if let v = m.compute(context), v.isFinite, m.plausible.contains(v) {
                values[index: i] = v
            } else if m.isReported, let kept = context.stored?[m] {
                values[index: i] = kept
            }
        }
        return values
    }
}

/// A run's metric values, one per metric of its registry (nil: unknown).
public struct RunMetrics: Sendable, Equatable {
    public let registry: MetricRegistry
    /// NaN for unknown: one allocation per run, no optionals.
    var values: ContiguousArray<Double>

    public init(_ registry: MetricRegistry = .standard) {
        self.registry = registry
        values = ContiguousArray(repeating: .nan, count: registry.metrics.count)
    }

    public subscript(index i: Int) -> Double? {
        get { values[i].isNaN ? nil : values[i] }
        set { values[i] = newValue ?? .nan }
    }

    /// The value of `metric`; nil when unknown or not in this registry (setting one
    /// not in the registry is a programming error).
    public subscript(_ metric: any RunMetric.Type) -> Double? {
        get { registry.index(of: metric).flatMap { self[index: $0] } }
        set {
            guard let i = registry.index(of: metric) else { preconditionFailure("\(metric) is not in the registry") }
            self[index: i] = newValue
        }
    }

    /// The same values in `registry`'s order: each metric of both keeps its
    /// value, one only `registry` has is unknown (a copy between stores).
    public func converted(to registry: MetricRegistry) -> RunMetrics {
        guard registry !== self.registry else { return self }
        var out = RunMetrics(registry)
        for (i, m) in registry.metrics.enumerated() { out[index: i] = self[m] }
        return out
    }

    /// The value of `metric`, the standard list's `index`th (a typed accessor).
    @inline(__always)
    package func standard(_ index: Int, _ metric: any RunMetric.Type) -> Double? {
        registry.extendsStandard ? self[index: index] : self[metric]
    }

    @inline(__always)
    package mutating func setStandard(_ index: Int, _ metric: any RunMetric.Type, _ value: Double?) {
        if registry.extendsStandard { self[index: index] = value } else { self[metric] = value }
    }

    public static func == (a: RunMetrics, b: RunMetrics) -> Bool {
        a.registry == b.registry
            && a.values.indices.allSatisfy { i in
                a.values[i] == b.values[i] || (a.values[i].isNaN && b.values[i].isNaN)
            }
    }
}
