import Foundation
import GRDB
import RaceKitCore

/// An athlete: the physiology that zones and load need, and the time zone weeks use.
public struct Athlete: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "athlete"
    /// The athlete a solo runner gets without creating one.
    public static let defaultID = "default"

    public var id: String
    public var name: String
    public var maxHeartRate: Double?
    public var restingHeartRate: Double?
    public var thresholdHeartRate: Double?
    /// Threshold pace in seconds per km.
    public var thresholdPaceSecondsPerKm: Double?
    /// nil when not set.
    public var sex: Sex?
    /// IANA time-zone name.
    public var timeZone: String
    public var zoneModel: ZoneModel
    /// Seconds since the epoch.
    public var createdAt: Double

    public init(id: String, name: String, timeZone: String = "UTC", zoneModel: ZoneModel = .auto, createdAt: Double) {
        self.id = id; self.name = name; self.timeZone = timeZone; self.zoneModel = zoneModel; self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name, sex
        case maxHeartRate = "max_hr", restingHeartRate = "resting_hr", thresholdHeartRate = "threshold_hr"
        case thresholdPaceSecondsPerKm = "threshold_pace_s_per_km", timeZone = "time_zone"
        case zoneModel = "zone_model", createdAt = "created_at"
    }
}

/// A stored run: where it came from and its summary.
public struct RunRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "run"

    /// Columns in the order `init(row:)` reads them (by index: listing 10,000 runs
    /// through Codable's name lookups costs more than the query).
    public static var databaseSelection: [any SQLSelectable] { CodingKeys.allCases.map { Column($0.rawValue) } }

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
    /// Zone model used for `run_zone`.
    public var zoneModel: ZoneModel?
    /// JSON array of the load inputs that were estimated.
    public var loadEstimated: String?
    /// JSON of the physiology the analysis used.
    public var analysisProfile: String?
    /// Grade-adjusted pace, seconds per km (analysis version 4 on).
    public var gradeAdjustedPaceSecondsPerKm: Double?

    /// Declaration order is `init(row:)`'s column order.
    enum CodingKeys: String, CodingKey, CaseIterable {
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
}

extension RunRecord {
    static func unknown<E>(_ type: E.Type, _ text: String, column: Int) -> StoreError {
        .database(
            "run column \(CodingKeys.allCases[column].rawValue): '\(text.prefix(40))' is not a \(E.self) this racekit knows"
        )
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

    /// Every column through GRDB's throwing `decode`: a stored value of the
    /// wrong type or an unknown enum value is a store error, never a trap.
    public init(row: Row) throws {
        var i = 0
        // Plain columns through GRDB's fast path (StatementColumnConvertible);
        // enum columns read as text and checked against the enum's cases.
        func next<T: DatabaseValueConvertible & StatementColumnConvertible>() throws -> T {
            defer { i += 1 }
            return try row.decode(atIndex: i)
        }
        func nextOptional<T: DatabaseValueConvertible & StatementColumnConvertible>() throws -> T? {
            defer { i += 1 }
            return try row.decode(atIndex: i)
        }
        func next<E: RawRepresentable>() throws -> E where E.RawValue == String {
            let text: String = try next()
            guard let value = E(rawValue: text) else { throw Self.unknown(E.self, text, column: i - 1) }
            return value
        }
        func nextOptional<E: RawRepresentable>() throws -> E? where E.RawValue == String {
            guard let text: String = try nextOptional() else { return nil }
            guard let value = E(rawValue: text) else { throw Self.unknown(E.self, text, column: i - 1) }
            return value
        }
        id = try next(); athleteID = try next(); sport = try next(); sportDeclared = try next();
        name = try nextOptional()
        sourceFile = try next(); sourceFormat = try next(); sourceSHA256 = try next(); activityIndex = try next()
        creator = try nextOptional(); startedAt = try next(); endedAt = try next(); elapsedSeconds = try next()
        movingSeconds = try nextOptional(); distanceMeters = try nextOptional(); distanceSource = try next()
        ascentMeters = try nextOptional(); descentMeters = try nextOptional(); avgHeartRate = try nextOptional()
        maxHeartRate = try nextOptional(); heartRateCoveragePercent = try nextOptional();
        avgCadence = try nextOptional()
        load = try nextOptional(); loadSource = try nextOptional(); label = try nextOptional(); mode = try next()
        runType = try next(); perceivedEffort = try nextOptional(); notes = try nextOptional(); pointCount = try next()
        repairs = try next(); analysisVersion = try next(); importedAt = try next(); zoneModel = try nextOptional()
        loadEstimated = try nextOptional(); analysisProfile = try nextOptional()
        gradeAdjustedPaceSecondsPerKm = try nextOptional()
    }
}

/// The store's enum columns hold the Core enums' raw values.
extension Sport: DatabaseValueConvertible {}
extension SourceFormat: DatabaseValueConvertible {}
extension DistanceSource: DatabaseValueConvertible {}
extension LoadSource: DatabaseValueConvertible {}
extension RunMode: DatabaseValueConvertible {}
extension RunType: DatabaseValueConvertible {}
extension ZoneModel: DatabaseValueConvertible {}
extension Sex: DatabaseValueConvertible {}

extension RunRecord {
    /// The run table's columns, named once.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let athleteID = Column(CodingKeys.athleteID)
        public static let sport = Column(CodingKeys.sport)
        public static let startedAt = Column(CodingKeys.startedAt)
        public static let elapsedSeconds = Column(CodingKeys.elapsedSeconds)
        public static let movingSeconds = Column(CodingKeys.movingSeconds)
        public static let distanceMeters = Column(CodingKeys.distanceMeters)
        public static let load = Column(CodingKeys.load)
        public static let analysisVersion = Column(CodingKeys.analysisVersion)
        public static let analysisProfile = Column(CodingKeys.analysisProfile)
    }
}

extension Athlete {
    /// The athlete table's columns, named once.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
    }
}

/// The packed samples of one run.
struct SamplesRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "run_samples"
    var runID: String
    var data: Data
    /// JSON array of segment start indices.
    var segments: String
    enum CodingKeys: String, CodingKey { case runID = "run_id", data, segments }
}

/// Time in one heart-rate zone of a run.
struct ZoneRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "run_zone"
    var runID: String
    var zone: Int
    var name: String
    var lowBpm: Double
    var highBpm: Double?
    var seconds: Double
    enum CodingKeys: String, CodingKey {
        case runID = "run_id", zone, name, lowBpm = "low_bpm", highBpm = "high_bpm", seconds
    }
}

/// A best effort of a run.
struct BestEffortRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "best_effort"
    var runID: String
    var distanceMeters: Double
    var elapsedSeconds: Double
    var startOffsetSeconds: Double
    enum CodingKeys: String, CodingKey {
        case runID = "run_id", distanceMeters = "distance_m", elapsedSeconds = "elapsed_s"
        case startOffsetSeconds = "start_offset_s"
    }
}

extension ZoneRecord {
    enum Columns {
        static let runID = Column(CodingKeys.runID)
        static let zone = Column(CodingKeys.zone)
    }
}

extension BestEffortRecord {
    enum Columns {
        static let runID = Column(CodingKeys.runID)
        static let distanceMeters = Column(CodingKeys.distanceMeters)
    }
}
