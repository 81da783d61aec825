#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a run's training load comes from.
public enum LoadSource: String, Sendable, Codable {
    /// Banister TRIMP from the heart-rate samples.
    case heartRate = "heart-rate"
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
/// Pace load = moving hours × (average moving speed / threshold speed)² × 100.
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

    /// Normalised TRIMP; nil without heart rate or without max, resting and threshold HR.
    public static func heartRate(_ s: SampleSeries, physiology p: Physiology) -> TrainingLoad? {
        guard let maxHR = p.maxHeartRate, let rest = p.restingHeartRate, let threshold = p.thresholdHeartRate,
              maxHR > rest, threshold > rest else { return nil }
        var trimp = 0.0
        var any = false
        for k in 0..<max(0, s.count - 1) {
            let hr = s.heartRate[k]
            guard !hr.isNaN else { continue }
            any = true
            let minutes = min(s.time[k + 1] - s.time[k], RunSummary.stepCapSeconds) / 60
            let hrr = min(1.1, max(0, (hr - rest) / (maxHR - rest)))
            trimp += minutes * hrr * weighting(hrr, sex: p.sex)
        }
        guard any else { return nil }
        let xt = (threshold - rest) / (maxHR - rest)
        let hour = 60 * xt * weighting(xt, sex: p.sex)
        var estimated = [String]()
        if p.maxHeartRateEstimated { estimated.append("maxHeartRate") }
        if p.restingHeartRateEstimated { estimated.append("restingHeartRate") }
        if p.thresholdHeartRateEstimated { estimated.append("thresholdHeartRate") }
        if p.sex == nil { estimated.append("sex") }
        return TrainingLoad(value: 100 * trimp / hour, source: .heartRate, estimated: estimated)
    }

    /// Pace-based load; nil without a threshold pace or without moving distance.
    public static func pace(movingSeconds: Double?, movingMeters: Double, physiology p: Physiology) -> TrainingLoad? {
        guard let pace = p.thresholdPaceSecondsPerKm, pace > 0, let moving = movingSeconds, moving > 0,
              movingMeters > 0 else { return nil }
        let intensity = (movingMeters / moving) / (1000 / pace)
        return TrainingLoad(value: moving / 3600 * intensity * intensity * 100, source: .pace,
                            estimated: p.thresholdPaceEstimated ? ["thresholdPace"] : [])
    }
}
