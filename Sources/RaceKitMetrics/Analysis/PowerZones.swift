import RaceKitModel

/// Power zones as shares of critical power (docs/numbers.md, "Power zones"):
/// for running Stryd's five zones, for cycling Coggan's seven levels with
/// critical power in the place of threshold power. The lowest zone starts at
/// 0 W and the top one has no upper bound.
public enum PowerZones {
    /// Each zone's name and lower bound as a share of critical power.
    public static func model(_ sport: Sport) -> [(name: String, from: Double)]? {
        switch sport {
        case .running:
            return [("Easy", 0), ("Moderate", 0.80), ("Threshold", 0.90), ("Interval", 1.00), ("Repetition", 1.15)]
        case .cycling:
            return [
                ("Active recovery", 0), ("Endurance", 0.56), ("Tempo", 0.76), ("Threshold", 0.91), ("VO2max", 1.06),
                ("Anaerobic", 1.21), ("Neuromuscular", 1.51)
            ]
        default: return nil
        }
    }

    /// A zone with its bounds in watts and the time in it.
    public struct Time: Sendable, Equatable {
        public var zone: Int
        public var name: String
        /// Lower bound, inclusive (W).
        public var lowWatts: Double
        /// Upper bound, exclusive (W); nil for the top zone.
        public var highWatts: Double?
        public var seconds: Double
    }

    /// The zones of `sport` at `criticalPower` watts, with no time yet; nil for a sport without them.
    public static func zones(_ sport: Sport, criticalPower: Double) -> [Time]? {
        guard let m = model(sport), criticalPower > 0 else { return nil }
        return m.enumerated().map { i, z in
            Time(
                zone: i + 1, name: z.name, lowWatts: (z.from * criticalPower).rounded(),
                highWatts: i + 1 < m.count ? (m[i + 1].from * criticalPower).rounded() : nil, seconds: 0)
        }
    }

    /// The seconds of `series` in each zone; nil when the sport has no zones or
    /// the run's power is not usable.
    public static func time(_ series: PowerSeries, sport: Sport, criticalPower: Double) -> [Time]? {
        guard series.isUsable, var zones = zones(sport, criticalPower: criticalPower) else { return nil }
        for w in series.watts {
            var k = zones.count - 1
            while k > 0, w < zones[k].lowWatts { k -= 1 }
            zones[k].seconds += 1
        }
        return zones
    }
}
