import RaceKitModel
import RaceKitOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a run's training load comes from.
public enum LoadSource: String, Sendable, Codable {
    /// Banister TRIMP from the heart-rate samples (resting HR known).
    case heartRate = "heart-rate"
    /// Edwards' zone TRIMP from the heart-rate samples (resting HR unknown).
    case heartRateZones = "heart-rate-zones"
    /// Pace relative to threshold pace (rTSS without grade adjustment).
    case pace
}

/// A run's training load, on a scale where one hour at threshold is 100.
public struct TrainingLoad: Sendable, Equatable, Codable {
    public var value: Double
    public var source: LoadSource
    /// Inputs that were estimated rather than set (e.g. `maxHeartRate`, `sex`).
    public var estimated: [String]
}

/// Banister's TRIMP and a pace-based fallback, both normalised so that one hour
/// at threshold scores 100.
///
/// TRIMP = Σ minutes × HRr × a·e^(b·HRr), HRr = (HR − rest) / (max − rest) clamped
/// to [0, 1.1], with a = 0.64, b = 1.92 for men and a = 0.86, b = 1.67 for women
/// (Banister 1991; Morton et al. 1990); with the sex unknown, the mean of the two
/// weightings (flagged). Each sample holds until the next, at most 25 s. The
/// normaliser is the TRIMP of 60 minutes at threshold HR.
///
/// Without a resting HR (runs never show one, and RaceKit does not invent one),
/// Edwards' TRIMP (1993) is used instead: minutes in the %HRmax zones 50-60, 60-70,
/// 70-80, 80-90 and 90-100 weighted 1 to 5, normalised the same way.
///
/// Pace load = moving hours × (distance / moving time / threshold speed)² × 100.
public enum TrainingLoadModel {
    /// Heart-rate load is used when heart rate covers at least this share of the run.
    public static let minimumCoverage = 0.5

    static func weighting(_ hrr: Double, sex: Sex?) -> Double {
        switch sex {
        case .male: return 0.64 * exp(1.92 * hrr)
        case .female: return 0.86 * exp(1.67 * hrr)
        case nil: return (0.64 * exp(1.92 * hrr) + 0.86 * exp(1.67 * hrr)) / 2
        }
    }

    /// Normalised TRIMP (Banister, or Edwards without resting HR); nil without
    /// heart rate or without max and threshold HR.
    public static func heartRate(_ s: SampleSeries, physiology p: Physiology) -> TrainingLoad? {
        guard let maxHR = p.maxHeartRate, let threshold = p.thresholdHeartRate, threshold < maxHR else { return nil }
        guard let rest = p.restingHeartRate, maxHR > rest, threshold > rest else {
            return edwards(s, maxHR: maxHR, threshold: threshold, physiology: p)
        }
        var trimp = 0.0
        let any = HeartRateZones.forEachHeldSample(s) { hr, seconds in
            let hrr = min(1.1, max(0, (hr - rest) / (maxHR - rest)))
            trimp += seconds / 60 * hrr * weighting(hrr, sex: p.sex)
        }
        guard any else { return nil }
        let xt = (threshold - rest) / (maxHR - rest)
        let hour = 60 * xt * weighting(xt, sex: p.sex)
        var estimated = [String]()
        if p.maxHeartRateEstimated { estimated.append("maxHeartRate") }
        if p.thresholdHeartRateEstimated { estimated.append("thresholdHeartRate") }
        if p.sex == nil { estimated.append("sex") }
        return TrainingLoad(value: 100 * trimp / hour, source: .heartRate, estimated: estimated)
    }

    /// Edwards' weight for a heart rate: 0 below 50% of max, then 1 to 5 per 10%.
    static func edwardsWeight(_ hr: Double, maxHR: Double) -> Double {
        let f = hr / maxHR
        return f < 0.5 ? 0 : min(5, (f * 10).rounded(.down) - 4)
    }

    static func edwards(_ s: SampleSeries, maxHR: Double, threshold: Double, physiology p: Physiology) -> TrainingLoad?
    {
        var trimp = 0.0
        let any = HeartRateZones.forEachHeldSample(s) { hr, seconds in
            trimp += seconds / 60 * edwardsWeight(hr, maxHR: maxHR)
        }
        let hour = 60 * edwardsWeight(threshold, maxHR: maxHR)
        guard any, hour > 0 else { return nil }
        var estimated = [String]()
        if p.maxHeartRateEstimated { estimated.append("maxHeartRate") }
        if p.thresholdHeartRateEstimated { estimated.append("thresholdHeartRate") }
        return TrainingLoad(value: 100 * trimp / hour, source: .heartRateZones, estimated: estimated)
    }

    /// Pace-based load; nil without a threshold pace or without moving distance.
    /// The fastest average a pace load is worked out for, as a multiple of the threshold speed.
    public static let maximumIntensity = 2.0

    public static func pace(movingSeconds: Double?, movingMeters: Double, physiology p: Physiology) -> TrainingLoad? {
        guard let pace = p.thresholdPaceSecondsPerKm, pace > 0, let moving = movingSeconds, moving > 0,
            movingMeters > 0
        else { return nil }
        let intensity = (movingMeters / moving) / (1000 / pace)
        // Twice the threshold speed on average is no run (a 400 m race is about
        // 1.4 times it): a 333 m "run" in 3 s scored 37.
        guard intensity <= maximumIntensity else { return nil }
        return TrainingLoad(
            value: moving / 3600 * intensity * intensity * 100, source: .pace,
            estimated: p.thresholdPaceEstimated ? ["thresholdPace"] : [])
    }
}

/// Written by the JSON writer's one-pass path as its raw value.
extension LoadSource: FlatWritable {}
