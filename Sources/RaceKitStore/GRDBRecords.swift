import Foundation
import GRDB
import RaceKitCore

/// The GRDB side of the run tables (the athletes, race links, daily
/// measurements and stamps are the repositories written once, `SQLStore`):
/// the run table's query interface and `RunRecord`'s fast row reader. Only the
/// SQLite store uses these.
///
/// The run table for GRDB's query interface (filters, orders, counts); rows
/// are read and written through the declared columns (`RunColumns`), never
/// Codable and never by a hand-kept position.
extension RunRecord: TableRecord {
    public static let databaseTableName = "run"
}

/// A GRDB row as the declared columns read it.
struct GRDBStoreRow: StoreRow {
    let row: Row
    func value(_ i: Int, _ type: ColumnType) -> StoreValue {
        let v: DatabaseValue = row[i]
        switch v.storage {
        case .null: return .null
        case .int64(let n): return type == .boolean ? .boolean(n != 0) : .integer(Int(n))
        case .double(let d): return .real(d)
        case .string(let s): return .text(s)
        case .blob(let b): return .blob([UInt8](b))
        }
    }
}

extension StoreValue {
    /// The value GRDB binds.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .text(let s): return s.databaseValue
        case .real(let d): return d.databaseValue
        case .integer(let i): return i.databaseValue
        case .boolean(let b): return b.databaseValue
        case .blob(let b): return Data(b).databaseValue
        }
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
        public static let id = Column("id")
        public static let athleteID = Column("athlete_id")
        public static let sport = Column("sport")
        public static let startedAt = Column("started_at")
        public static let elapsedSeconds = Column("elapsed_s")
        public static let movingSeconds = Column(Metric.MovingSeconds.column)
        public static let distanceMeters = Column(Metric.DistanceMeters.column)
        public static let load = Column(Metric.Load.column)
        public static let analysisVersion = Column("analysis_version")
        public static let analysisProfile = Column("analysis_profile")
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
