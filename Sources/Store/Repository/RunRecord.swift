import Foundation
import RaceKitMetrics
import RaceKitModel

/// A stored run: where it came from, what the user set, and its metrics.
///
/// The fixed fields are declared once, with their columns, in `RunColumns`;
/// every per-run figure is a metric of the registry (`metrics`), read and
/// written through it. The typed properties below the fixed ones are the
/// standard metrics' values, for the code that reads them by name.
public struct RunRecord: Sendable, Equatable {
    public var id: String
    public var athleteID: String
    public var sport: Sport
    public var sportDeclared: Bool
    public var name: String?
    public var sourceFile: String
    public var sourceFormat: SourceFormat
    /// SHA-256 (hex, `ContentDigest`) of the document's bytes after gzip
    /// decompression, or an Apple Health workout's identity: what tells the same
    /// file imported again.
    public var sourceSHA256: String
    /// Position of the activity in its file (several TCX activities per file).
    public var activityIndex: Int
    public var creator: String?
    /// Seconds since the epoch (UTC).
    public var startedAt: Double
    public var endedAt: Double
    public var elapsedSeconds: Double
    public var distanceSource: DistanceSource
    public var loadSource: LoadSource?
    public var label: String?
    public var mode: RunMode
    /// outdoor or treadmill.
    public var runType: RunType
    public var perceivedEffort: Int?
    public var notes: String?
    public var pointCount: Int
    /// What the repair step changed, as JSON.
    public var repairs: String
    public var analysisVersion: Int
    public var importedAt: Double
    /// Zone model used for the run's zones.
    public var zoneModel: ZoneModel?
    /// JSON array of the load inputs that were estimated.
    public var loadEstimated: String?
    /// JSON of the physiology the analysis used (`Physiology.profileKey`).
    public var analysisProfile: String?
    /// Every metric's value (`MetricRegistry`).
    public var metrics: RunMetrics

    // The standard metrics by name, at their index in `MetricRegistry.standard`
    // (a test checks each index names its metric).

    public var movingSeconds: Double? {
        get { metrics.standard(0, Metric.MovingSeconds.self) }
        set { metrics.setStandard(0, Metric.MovingSeconds.self, newValue) }
    }
    public var distanceMeters: Double? {
        get { metrics.standard(1, Metric.DistanceMeters.self) }
        set { metrics.setStandard(1, Metric.DistanceMeters.self, newValue) }
    }
    public var ascentMeters: Double? {
        get { metrics.standard(2, Metric.AscentMeters.self) }
        set { metrics.setStandard(2, Metric.AscentMeters.self, newValue) }
    }
    public var descentMeters: Double? {
        get { metrics.standard(3, Metric.DescentMeters.self) }
        set { metrics.setStandard(3, Metric.DescentMeters.self, newValue) }
    }
    public var avgHeartRate: Double? {
        get { metrics.standard(4, Metric.AvgHeartRate.self) }
        set { metrics.setStandard(4, Metric.AvgHeartRate.self, newValue) }
    }
    public var maxHeartRate: Double? {
        get { metrics.standard(5, Metric.MaxHeartRate.self) }
        set { metrics.setStandard(5, Metric.MaxHeartRate.self, newValue) }
    }
    public var heartRateCoveragePercent: Double? {
        get { metrics.standard(6, Metric.HeartRateCoverage.self) }
        set { metrics.setStandard(6, Metric.HeartRateCoverage.self, newValue) }
    }
    public var avgCadence: Double? {
        get { metrics.standard(7, Metric.AvgCadence.self) }
        set { metrics.setStandard(7, Metric.AvgCadence.self, newValue) }
    }
    public var load: Double? {
        get { metrics.standard(8, Metric.Load.self) }
        set { metrics.setStandard(8, Metric.Load.self, newValue) }
    }
    /// Grade-adjusted pace, seconds per km (analysis version 4 on).
    public var gradeAdjustedPaceSecondsPerKm: Double? {
        get { metrics.standard(9, Metric.GradeAdjustedPace.self) }
        set { metrics.setStandard(9, Metric.GradeAdjustedPace.self, newValue) }
    }

    /// A run with its fixed fields empty, for a backend to fill column by column.
    init(blank registry: MetricRegistry) {
        id = ""; athleteID = ""; sport = .other; sportDeclared = false; sourceFile = ""; sourceFormat = .gpx
        sourceSHA256 = ""; activityIndex = 0; startedAt = 0; endedAt = 0; elapsedSeconds = 0
        distanceSource = .none; mode = .free; runType = .outdoor; pointCount = 0; repairs = "{}"
        analysisVersion = 0; importedAt = 0; metrics = RunMetrics(registry)
    }

    /// Every field (tests and the row of a new activity); the standard metrics
    /// by name, the others nil.
    public init(
        id: String, athleteID: String, sport: Sport, sportDeclared: Bool, name: String?, sourceFile: String,
        sourceFormat: SourceFormat, sourceSHA256: String, activityIndex: Int, creator: String?,
        startedAt: Double, endedAt: Double, elapsedSeconds: Double, movingSeconds: Double?,
        distanceMeters: Double?, distanceSource: DistanceSource, ascentMeters: Double?, descentMeters: Double?,
        avgHeartRate: Double?, maxHeartRate: Double?, heartRateCoveragePercent: Double?, avgCadence: Double?,
        load: Double?, loadSource: LoadSource?, label: String?, mode: RunMode, runType: RunType,
        perceivedEffort: Int?, notes: String?, pointCount: Int, repairs: String, analysisVersion: Int,
        importedAt: Double, zoneModel: ZoneModel? = nil, loadEstimated: String? = nil,
        analysisProfile: String? = nil, gradeAdjustedPaceSecondsPerKm: Double? = nil,
        registry: MetricRegistry = .standard
    ) {
        self.id = id; self.athleteID = athleteID; self.sport = sport; self.sportDeclared = sportDeclared
        self.name = name; self.sourceFile = sourceFile; self.sourceFormat = sourceFormat
        self.sourceSHA256 = sourceSHA256; self.activityIndex = activityIndex; self.creator = creator
        self.startedAt = startedAt; self.endedAt = endedAt; self.elapsedSeconds = elapsedSeconds
        self.distanceSource = distanceSource; self.loadSource = loadSource; self.label = label; self.mode = mode
        self.runType = runType; self.perceivedEffort = perceivedEffort; self.notes = notes
        self.pointCount = pointCount; self.repairs = repairs; self.analysisVersion = analysisVersion
        self.importedAt = importedAt; self.zoneModel = zoneModel; self.loadEstimated = loadEstimated
        self.analysisProfile = analysisProfile
        metrics = RunMetrics(registry)
        self.movingSeconds = movingSeconds; self.distanceMeters = distanceMeters
        self.ascentMeters = ascentMeters; self.descentMeters = descentMeters
        self.avgHeartRate = avgHeartRate; self.maxHeartRate = maxHeartRate
        self.heartRateCoveragePercent = heartRateCoveragePercent; self.avgCadence = avgCadence
        self.load = load; self.gradeAdjustedPaceSecondsPerKm = gradeAdjustedPaceSecondsPerKm
    }

    /// The load inputs that were estimated; a stored value that is not a JSON
    /// array of strings is reported as a damaged run, not read as "none".
    public func estimatedLoadInputs() throws -> [String] {
        guard let text = loadEstimated else { return [] }
        do { return try JSONDecoder().decode([String].self, from: Data(text.utf8)) } catch {
            throw StoreError.corruptSamples(
                runID: id, reason: "load_estimated is not a list of names: \(text.prefix(40))")
        }
    }
}

extension Physiology {
    /// What identifies the physiology an analysis used (its JSON, keys sorted):
    /// a run whose `analysisProfile` differs from its athlete's current key is stale.
    public var profileKey: String { StoredJSON.text(self) }
}

/// The JSON text the store keeps in text fields (string lists, integer lists,
/// the physiology, repair counts), keys sorted so equal values give equal text.
public enum StoredJSON {
    /// Used for values that always encode (lists of strings or integers, the
    /// range-checked physiology, integer counts): the "null" fallback is
    /// unreachable (try? on purpose, not a swallowed error).
    public static func text<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
