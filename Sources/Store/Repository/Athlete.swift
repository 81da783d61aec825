import Foundation
import RaceKitMetrics

/// An athlete: the physiology that zones and load need, and the time zone weeks use.
public struct Athlete: Sendable, Equatable {
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
    /// The wellness sources that tell a value first, in order (source names
    /// as stored); nil: the source with the most records of the kind
    /// (docs/numbers.md, "Wellness and readiness").
    public var sourceOrder: [String]?

    public init(id: String, name: String, timeZone: String = "UTC", zoneModel: ZoneModel = .auto, createdAt: Double) {
        self.id = id; self.name = name; self.timeZone = timeZone; self.zoneModel = zoneModel; self.createdAt = createdAt
    }

    /// The stored field names, the same in every backend's schema.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, sex
        case maxHeartRate = "max_hr", restingHeartRate = "resting_hr", thresholdHeartRate = "threshold_hr"
        case thresholdPaceSecondsPerKm = "threshold_pace_s_per_km", timeZone = "time_zone"
        case zoneModel = "zone_model", createdAt = "created_at", sourceOrder = "source_order"
    }

    /// `sourceOrder` as stored: a JSON array of names.
    public static func encoded(_ order: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(order)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// A stored `source_order`; nil when it is no JSON array of names.
    public static func sourceOrder(decoding text: String) -> [String]? {
        (try? JSONDecoder().decode([String].self, from: Data(text.utf8)))?.filter { !$0.isEmpty }
    }

    /// The physiology the athlete has set (nothing estimated).
    public var physiology: Physiology {
        Physiology(
            maxHeartRate: maxHeartRate, restingHeartRate: restingHeartRate, thresholdHeartRate: thresholdHeartRate,
            thresholdPaceSecondsPerKm: thresholdPaceSecondsPerKm, sex: sex, zoneModel: zoneModel)
    }
}
