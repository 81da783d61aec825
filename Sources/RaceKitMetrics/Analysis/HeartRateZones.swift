import RaceKitModel
import RaceKitOutput

/// How heart-rate zones are drawn.
public enum ZoneModel: String, Sendable, CaseIterable, Codable {
    /// Friel's LTHR zones when the athlete's threshold HR is known, %HRmax otherwise.
    case auto
    /// Five zones by % of maximum HR: <60, 60-70, 70-80, 80-90, >=90.
    case hrmax5
    /// Joe Friel's running zones by % of lactate-threshold HR: <85, 85-89, 90-94,
    /// 95-99, 100-102 (5a), 103-106 (5b), >106 (5c).
    case friel
    /// Seiler's three zones by % of maximum HR: <82, 82-87, >=87.
    case seiler3
}

/// Time spent in one zone.
public struct ZoneTime: Sendable, Equatable, Codable {
    public var zone: Int
    public var name: String
    /// Lower bound, inclusive (bpm).
    public var lowBpm: Double
    /// Upper bound, exclusive (bpm); nil for the top zone.
    public var highBpm: Double?
    public var seconds: Double
    public init(zone: Int, name: String, lowBpm: Double, highBpm: Double?, seconds: Double) {
        self.zone = zone; self.name = name; self.lowBpm = lowBpm; self.highBpm = highBpm; self.seconds = seconds
    }
}

/// Zones and the time a run spent in each.
public enum HeartRateZones {
    /// Zone boundaries for a model: (name, lower bound as a fraction of the reference).
    public static func fractions(_ model: ZoneModel) -> [(String, Double)] {
        switch model {
        case .hrmax5, .auto: return [("1", 0), ("2", 0.60), ("3", 0.70), ("4", 0.80), ("5", 0.90)]
        case .friel: return [("1", 0), ("2", 0.85), ("3", 0.90), ("4", 0.95), ("5a", 1.00), ("5b", 1.03), ("5c", 1.065)]
        case .seiler3: return [("1", 0), ("2", 0.82), ("3", 0.87)]
        }
    }

    /// The model actually used: `auto` resolves to Friel with a threshold HR, else %HRmax.
    public static func resolve(_ model: ZoneModel, physiology: Physiology) -> ZoneModel {
        guard model == .auto else { return model }
        return physiology.thresholdHeartRate != nil && !physiology.thresholdHeartRateEstimated ? .friel : .hrmax5
    }

    /// Zones with empty times, or nil when the reference HR is unknown.
    public static func zones(_ model: ZoneModel, physiology: Physiology) -> [ZoneTime]? {
        let reference = model == .friel ? physiology.thresholdHeartRate : physiology.maxHeartRate
        guard let reference, reference > 0 else { return nil }
        let f = fractions(model)
        return f.enumerated().map { i, entry in
            ZoneTime(
                zone: i + 1, name: entry.0, lowBpm: (entry.1 * reference).rounded(),
                highBpm: i + 1 < f.count ? (f[i + 1].1 * reference).rounded() : nil, seconds: 0)
        }
    }

    /// Time in zones: each HR sample holds until the next point, for at most
    /// `RunSummary.stepCapSeconds`, so pauses and dropouts are not credited.
    /// Bounds are half-open: [low, high).
    public static func timeInZones(_ s: SampleSeries, zones: [ZoneTime]) -> [ZoneTime] {
        var out = zones
        forEachHeldSample(s) { hr, seconds in
            var z = 0
            while z + 1 < out.count, hr >= out[z + 1].lowBpm { z += 1 }
            out[z].seconds += seconds
        }
        return out
    }

    /// Calls `body` with each heart-rate sample and how long it holds: until the
    /// next point, at most `RunSummary.stepCapSeconds` (the last point holds for
    /// nothing). Returns false when the run has no heart rate.
    @discardableResult
    static func forEachHeldSample(_ s: SampleSeries, _ body: (_ bpm: Double, _ seconds: Double) -> Void) -> Bool {
        var any = false
        for k in 0..<max(0, s.count - 1) {
            let hr = s.heartRate[k]
            guard !hr.isNaN else { continue }
            any = true
            body(hr, min(s.time[k + 1] - s.time[k], RunSummary.stepCapSeconds))
        }
        return any
    }
}

/// Written by the JSON writer's one-pass path as its raw value.
extension ZoneModel: FlatWritable {}
