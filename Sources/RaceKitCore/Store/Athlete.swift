/// An athlete: the physiology that zones and load need, and the time zone weeks use.
public struct Athlete: Codable, Sendable, Equatable {
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

    /// The stored field names, the same in every backend's schema.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, sex
        case maxHeartRate = "max_hr", restingHeartRate = "resting_hr", thresholdHeartRate = "threshold_hr"
        case thresholdPaceSecondsPerKm = "threshold_pace_s_per_km", timeZone = "time_zone"
        case zoneModel = "zone_model", createdAt = "created_at"
    }

    /// The physiology the athlete has set (nothing estimated).
    public var physiology: Physiology {
        Physiology(
            maxHeartRate: maxHeartRate, restingHeartRate: restingHeartRate, thresholdHeartRate: thresholdHeartRate,
            thresholdPaceSecondsPerKm: thresholdPaceSecondsPerKm, sex: sex, zoneModel: zoneModel)
    }
}
