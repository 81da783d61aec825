import Foundation
import GRDB
import RaceKitCore

/// The GRDB side of the domain types (declared in RaceKitCore, see
/// `Repositories.swift` there): each type's table, its columns named once, and
/// `RunRecord`'s fast row reader. Only the SQLite store uses these.
extension Athlete: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "athlete"
}

extension RunRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "run"

    /// Columns in the order `init(row:)` reads them (by index: listing 10,000 runs
    /// through Codable's name lookups costs more than the query).
    public static var databaseSelection: [any SQLSelectable] { CodingKeys.allCases.map { Column($0.rawValue) } }

    /// The same columns for raw SQL: `SELECT \(columnList) FROM run ...`.
    static let columnList = CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")
}

extension RaceLink: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "race_link"

    /// The race_link table's columns, named once.
    public enum Columns {
        public static let setupKey = Column(CodingKeys.setupKey)
        public static let setupSlug = Column(CodingKeys.setupSlug)
        public static let runID = Column(CodingKeys.runID)
        public static let reviewPath = Column(CodingKeys.reviewPath)
    }
}

extension RunRecord {
    static func unknown<E>(_ type: E.Type, _ text: String, column: Int) -> StoreError {
        .database(
            "run column \(CodingKeys.allCases[column].rawValue): '\(text.prefix(40))' is not a \(E.self) this racekit knows"
        )
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
        // Arguments are evaluated left to right: the columns in `CodingKeys` order.
        try self.init(
            id: next(), athleteID: next(), sport: next(), sportDeclared: next(), name: nextOptional(),
            sourceFile: next(), sourceFormat: next(), sourceSHA256: next(), activityIndex: next(),
            creator: nextOptional(), startedAt: next(), endedAt: next(), elapsedSeconds: next(),
            movingSeconds: nextOptional(), distanceMeters: nextOptional(), distanceSource: next(),
            ascentMeters: nextOptional(), descentMeters: nextOptional(), avgHeartRate: nextOptional(),
            maxHeartRate: nextOptional(), heartRateCoveragePercent: nextOptional(), avgCadence: nextOptional(),
            load: nextOptional(), loadSource: nextOptional(), label: nextOptional(), mode: next(),
            runType: next(), perceivedEffort: nextOptional(), notes: nextOptional(), pointCount: next(),
            repairs: next(), analysisVersion: next(), importedAt: next(), zoneModel: nextOptional(),
            loadEstimated: nextOptional(), analysisProfile: nextOptional(),
            gradeAdjustedPaceSecondsPerKm: nextOptional())
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

// Written column by column, not through Encodable: an import writes several of
// each per run, and GRDB's Encoder path cost more than the insert itself.
extension ZoneRecord {
    func encode(to container: inout PersistenceContainer) {
        container[CodingKeys.runID.rawValue] = runID
        container[CodingKeys.zone.rawValue] = zone
        container[CodingKeys.name.rawValue] = name
        container[CodingKeys.lowBpm.rawValue] = lowBpm
        container[CodingKeys.highBpm.rawValue] = highBpm
        container[CodingKeys.seconds.rawValue] = seconds
    }
}

extension BestEffortRecord {
    func encode(to container: inout PersistenceContainer) {
        container[CodingKeys.runID.rawValue] = runID
        container[CodingKeys.distanceMeters.rawValue] = distanceMeters
        container[CodingKeys.elapsedSeconds.rawValue] = elapsedSeconds
        container[CodingKeys.startOffsetSeconds.rawValue] = startOffsetSeconds
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
