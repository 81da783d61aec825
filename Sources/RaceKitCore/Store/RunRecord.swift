import Foundation

/// A stored run: where it came from and its summary.
public struct RunRecord: Codable, Sendable, Equatable {
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
    public var movingSeconds: Double?
    public var distanceMeters: Double?
    public var distanceSource: DistanceSource
    public var ascentMeters: Double?
    public var descentMeters: Double?
    public var avgHeartRate: Double?
    public var maxHeartRate: Double?
    public var heartRateCoveragePercent: Double?
    public var avgCadence: Double?
    public var load: Double?
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
    /// Grade-adjusted pace, seconds per km (analysis version 4 on).
    public var gradeAdjustedPaceSecondsPerKm: Double?

    /// Every field, in declaration order (a backend reading a row builds the run with it).
    public init(
        id: String, athleteID: String, sport: Sport, sportDeclared: Bool, name: String?, sourceFile: String,
        sourceFormat: SourceFormat, sourceSHA256: String, activityIndex: Int, creator: String?,
        startedAt: Double, endedAt: Double, elapsedSeconds: Double, movingSeconds: Double?,
        distanceMeters: Double?, distanceSource: DistanceSource, ascentMeters: Double?, descentMeters: Double?,
        avgHeartRate: Double?, maxHeartRate: Double?, heartRateCoveragePercent: Double?, avgCadence: Double?,
        load: Double?, loadSource: LoadSource?, label: String?, mode: RunMode, runType: RunType,
        perceivedEffort: Int?, notes: String?, pointCount: Int, repairs: String, analysisVersion: Int,
        importedAt: Double, zoneModel: ZoneModel? = nil, loadEstimated: String? = nil,
        analysisProfile: String? = nil, gradeAdjustedPaceSecondsPerKm: Double? = nil
    ) {
        self.id = id; self.athleteID = athleteID; self.sport = sport; self.sportDeclared = sportDeclared
        self.name = name; self.sourceFile = sourceFile; self.sourceFormat = sourceFormat
        self.sourceSHA256 = sourceSHA256; self.activityIndex = activityIndex; self.creator = creator
        self.startedAt = startedAt; self.endedAt = endedAt; self.elapsedSeconds = elapsedSeconds
        self.movingSeconds = movingSeconds; self.distanceMeters = distanceMeters
        self.distanceSource = distanceSource; self.ascentMeters = ascentMeters; self.descentMeters = descentMeters
        self.avgHeartRate = avgHeartRate; self.maxHeartRate = maxHeartRate
        self.heartRateCoveragePercent = heartRateCoveragePercent; self.avgCadence = avgCadence
        self.load = load; self.loadSource = loadSource; self.label = label; self.mode = mode
        self.runType = runType; self.perceivedEffort = perceivedEffort; self.notes = notes
        self.pointCount = pointCount; self.repairs = repairs; self.analysisVersion = analysisVersion
        self.importedAt = importedAt; self.zoneModel = zoneModel; self.loadEstimated = loadEstimated
        self.analysisProfile = analysisProfile; self.gradeAdjustedPaceSecondsPerKm = gradeAdjustedPaceSecondsPerKm
    }

    /// The stored field names, the same in every backend's schema. Declaration
    /// order is the order of `init`'s parameters (the SQLite store reads its
    /// columns by index in this order).
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, athleteID = "athlete_id", sport, sportDeclared = "sport_declared", name, sourceFile = "source_file"
        case sourceFormat = "source_format", sourceSHA256 = "source_sha256", activityIndex = "activity_index", creator
        case startedAt = "started_at", endedAt = "ended_at", elapsedSeconds = "elapsed_s", movingSeconds = "moving_s"
        case distanceMeters = "distance_m", distanceSource = "distance_source", ascentMeters = "ascent_m"
        case descentMeters = "descent_m", avgHeartRate = "avg_hr", maxHeartRate = "max_hr"
        case heartRateCoveragePercent = "hr_coverage_pct", avgCadence = "avg_cadence", load, loadSource = "load_source"
        case label, mode, runType = "run_type", perceivedEffort = "perceived_effort", notes, pointCount = "point_count"
        case repairs, analysisVersion = "analysis_version", importedAt = "imported_at"
        case zoneModel = "zone_model", loadEstimated = "load_estimated"
        case analysisProfile = "analysis_profile", gradeAdjustedPaceSecondsPerKm = "gap_pace_s_per_km"
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
