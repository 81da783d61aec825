import RaceKitOutput

/// Biological sex, for TRIMP's weighting constants.
public enum Sex: String, Sendable, CaseIterable, Codable {
    case female, male
}

/// The physiology zones and load need, with what was estimated rather than set.
public struct Physiology: Sendable, Equatable, Codable {
    public var maxHeartRate: Double?
    public var restingHeartRate: Double?
    public var thresholdHeartRate: Double?
    /// Threshold pace in seconds per km.
    public var thresholdPaceSecondsPerKm: Double?
    public var sex: Sex?
    public var zoneModel: ZoneModel
    public var maxHeartRateEstimated = false
    public var thresholdHeartRateEstimated = false
    public var thresholdPaceEstimated = false

    public init(
        maxHeartRate: Double? = nil, restingHeartRate: Double? = nil, thresholdHeartRate: Double? = nil,
        thresholdPaceSecondsPerKm: Double? = nil, sex: Sex? = nil, zoneModel: ZoneModel = .auto
    ) {
        self.maxHeartRate = maxHeartRate; self.restingHeartRate = restingHeartRate
        self.thresholdHeartRate = thresholdHeartRate; self.thresholdPaceSecondsPerKm = thresholdPaceSecondsPerKm
        self.sex = sex; self.zoneModel = zoneModel
    }

    /// What the athlete's history says, for values the athlete has not set.
    public struct History: Sendable {
        /// Highest robust maximum HR over the athlete's runs.
        public var highestHeartRate: Double?
        /// Best efforts (distance in metres, seconds) over the athlete's runs.
        public var bestEfforts: [(meters: Double, seconds: Double)]
        public init(highestHeartRate: Double? = nil, bestEfforts: [(meters: Double, seconds: Double)] = []) {
            self.highestHeartRate = highestHeartRate; self.bestEfforts = bestEfforts
        }
        /// The history with one more run in it.
        public func adding(maxHeartRate: Double?, bestEfforts: [BestEffort]) -> History {
            var h = self
            if let m = maxHeartRate { h.highestHeartRate = max(h.highestHeartRate ?? m, m) }
            for e in bestEfforts {
                if let i = h.bestEfforts.firstIndex(where: { $0.meters == e.distanceMeters }) {
                    h.bestEfforts[i].seconds = min(h.bestEfforts[i].seconds, e.elapsedSeconds)
                } else {
                    h.bestEfforts.append((e.distanceMeters, e.elapsedSeconds))
                    h.bestEfforts.sort { $0.meters < $1.meters }
                }
            }
            return h
        }
    }

    /// Threshold HR as a fraction of maximum HR, when it must be estimated
    /// (Friel: lactate threshold lies near 89% of maximum HR in trained runners).
    public static let thresholdFractionOfMax = 0.89

    /// Fills unset values from the history, flagging each estimate:
    /// - maximum HR: the highest robust maximum recorded;
    /// - resting HR: never estimated (no run shows it); load then uses Edwards' TRIMP;
    /// - threshold HR: 89% of maximum HR;
    /// - threshold pace: the pace for one hour predicted from each best effort of
    ///   5 km or more by Riegel's formula (exponent 1.06), the fastest of them.
    public func completed(with history: History) -> Physiology {
        var p = self
        if p.maxHeartRate == nil, let h = history.highestHeartRate {
            p.maxHeartRate = h; p.maxHeartRateEstimated = true
        }
        if p.thresholdHeartRate == nil, let m = p.maxHeartRate {
            p.thresholdHeartRate = (m * Self.thresholdFractionOfMax).rounded()
            p.thresholdHeartRateEstimated = true
        }
        if p.thresholdPaceSecondsPerKm == nil {
            let speeds = history.bestEfforts.filter { $0.meters >= 5000 && $0.seconds > 0 }.map { effort in
                // Distance covered in 3600 s: D2 = D1 * (3600 / T1)^(1 / 1.06).
                effort.meters * pow(3600 / effort.seconds, 1 / 1.06) / 3600
            }
            if let best = speeds.max(), best > 0 {
                p.thresholdPaceSecondsPerKm = 1000 / best
                p.thresholdPaceEstimated = true
            }
        }
        return p
    }

    /// Names of the estimated values, for output.
    public var estimates: [String] {
        var out: [String] = []
        if maxHeartRateEstimated { out.append("maxHeartRate") }
        if thresholdHeartRateEstimated { out.append("thresholdHeartRate") }
        if thresholdPaceEstimated { out.append("thresholdPace") }
        return out
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Written by the JSON writer's one-pass path as its raw value.
extension Sex: FlatWritable {}
