import Foundation

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

    /// Read as stored; a `source_order` that is no list of names is named as
    /// damaged (a list with an empty name is read without it).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        maxHeartRate = try c.decodeIfPresent(Double.self, forKey: .maxHeartRate)
        restingHeartRate = try c.decodeIfPresent(Double.self, forKey: .restingHeartRate)
        thresholdHeartRate = try c.decodeIfPresent(Double.self, forKey: .thresholdHeartRate)
        thresholdPaceSecondsPerKm = try c.decodeIfPresent(Double.self, forKey: .thresholdPaceSecondsPerKm)
        sex = try c.decodeIfPresent(Sex.self, forKey: .sex)
        timeZone = try c.decode(String.self, forKey: .timeZone)
        zoneModel = try c.decode(ZoneModel.self, forKey: .zoneModel)
        createdAt = try c.decode(Double.self, forKey: .createdAt)
        if let text = try c.decodeIfPresent(String.self, forKey: .sourceOrder) {
            guard let names = Self.sourceOrder(decoding: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .sourceOrder, in: c, debugDescription: "'\(text.prefix(40))' is not a JSON list of names")
            }
            sourceOrder = names.isEmpty ? nil : names
        }
    }

    /// Stored as read by `init(from:)`: the source order as its JSON text.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(maxHeartRate, forKey: .maxHeartRate)
        try c.encode(restingHeartRate, forKey: .restingHeartRate)
        try c.encode(thresholdHeartRate, forKey: .thresholdHeartRate)
        try c.encode(thresholdPaceSecondsPerKm, forKey: .thresholdPaceSecondsPerKm)
        try c.encode(sex, forKey: .sex)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(zoneModel, forKey: .zoneModel)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(sourceOrder.map(Self.encoded), forKey: .sourceOrder)
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
