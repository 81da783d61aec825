import RaceKitModel

/// How a sport's numbers are shown: a run's pace per km (or mile), a ride's
/// speed, a swim's pace per 100 m, cadence in steps, revolutions or strokes per
/// minute, and what a number of such activities is called ("3 rides").
public struct SportDisplay: Sendable, Equatable {
    /// How the average speed reads.
    public enum Speed: Sendable, Equatable {
        /// Time per km or mile (on foot, and anything else).
        case pacePerUnit
        /// km/h or mph (cycling, skiing, driving).
        case speed
        /// Time per 100 m (swimming).
        case pacePer100m
    }

    public var speed: Speed
    /// "spm", "rpm" or "strokes/min".
    public var cadenceUnit: String
    /// Singular and plural nouns for counts.
    public var one: String, many: String

    public init(_ sport: Sport) {
        switch sport {
        case .running: self.init(.pacePerUnit, "spm", "run", "runs")
        case .walking: self.init(.pacePerUnit, "spm", "walk", "walks")
        case .hiking: self.init(.pacePerUnit, "spm", "hike", "hikes")
        case .cycling: self.init(.speed, "rpm", "ride", "rides")
        case .swimming: self.init(.pacePer100m, "strokes/min", "swim", "swims")
        case .skiing: self.init(.speed, "rpm", "ski day", "ski days")
        case .driving: self.init(.speed, "rpm", "drive", "drives")
        case .other: self.init(.pacePerUnit, "spm", "other activity", "other activities")
        }
    }

    private init(_ speed: Speed, _ cadence: String, _ one: String, _ many: String) {
        self.speed = speed; cadenceUnit = cadence; self.one = one; self.many = many
    }

    /// "1 ride", "3 rides".
    public func count(_ n: Int) -> String { n == 1 ? "1 \(one)" : "\(n) \(many)" }

    /// The average speed of `meters` in `seconds`, as this sport reads it:
    /// "5:10/km", "28.4 km/h", "1:52/100m"; `-` when unknown (no distance or no
    /// time). `unitMeters` is 1000 (km) or a mile.
    public func speedText(meters: Double?, seconds: Double?, unitMeters: Double, unitName: String) -> String {
        guard let meters, let seconds, meters > 0, seconds > 0, meters.isFinite, seconds.isFinite else {
            return TextFormat.unknown
        }
        switch speed {
        case .pacePerUnit: return TextFormat.pace(seconds / (meters / unitMeters)) + "/" + unitName
        case .pacePer100m: return TextFormat.pace(seconds / (meters / 100)) + "/100m"
        case .speed:
            let perHour = unitName == "mi" ? "mph" : "km/h"
            return TextFormat.fixed(meters / unitMeters / (seconds / 3600), 1) + " " + perHour
        }
    }
}
