import RaceKitModel

/// Elevation gain and loss without the noise of GPS altitude.
///
/// 1. Smoothing in the distance domain: each elevation becomes the mean of the
///    elevations recorded within ±`smoothingMeters` of distance (a runner standing
///    still does not create hills); without a distance stream, within
///    ±`smoothingSeconds` of time.
/// 2. Hysteresis: a climb or descent counts only once the smoothed elevation has
///    moved `hysteresisMeters` from the last turning point.
///
/// Parameters: ±20 m and 2 m, chosen so that a flat course with 1.5 m of GPS noise
/// gains under 2 m per km while barometric climbs keep 85-100% of their raw sum
/// (checked on the conformance corpus, docs/numbers.md, "Accuracy").
public enum ElevationProfile {
    public static let smoothingMeters = 20.0
    public static let smoothingSeconds = 10.0
    public static let hysteresisMeters = 2.0

    /// Gain and loss per step (`gainAtStep[k]` is registered on the step from k
    /// to k+1), for splits.
    public struct Steps: Sendable {
        public var gainAtStep: [Double]
        public var lossAtStep: [Double]
    }

    /// Total gain and loss; nil when the run has no elevation.
    public struct Totals: Sendable, Equatable {
        public var gain: Double
        public var loss: Double
    }

    /// Gain and loss in one streaming pass (no per-point arrays).
    public static func totals(_ s: SampleSeries, hasDistance: Bool) -> Totals? {
        var totals = Totals(gain: 0, loss: 0)
        let any = walk(s, hasDistance: hasDistance) { _, gain, loss in
            totals.gain += gain; totals.loss += loss
        }
        return any ? totals : nil
    }

    /// Gain and loss attributed to steps, for splits; nil without elevation.
    public static func steps(_ s: SampleSeries, hasDistance: Bool) -> Steps? {
        var steps = Steps(
            gainAtStep: [Double](repeating: 0, count: max(0, s.count - 1)),
            lossAtStep: [Double](repeating: 0, count: max(0, s.count - 1)))
        let any = walk(s, hasDistance: hasDistance) { step, gain, loss in
            steps.gainAtStep[step] += gain
            steps.lossAtStep[step] += loss
        }
        return any ? steps : nil
    }

    /// Smooths (sliding mean within ±radius of x over points with elevation) and
    /// applies the hysteresis, calling `body(step, gain, loss)` for each counted
    /// change. Returns false when fewer than two points have elevation.
    static func walk(_ s: SampleSeries, hasDistance: Bool, _ body: (Int, Double, Double) -> Void) -> Bool {
        let n = s.count
        let radius = hasDistance ? smoothingMeters : smoothingSeconds
        let ele = s.elevation
        let xs = hasDistance ? s.distance : s.time
        var valid = 0
        for v in ele where !v.isNaN { valid += 1; if valid >= 2 { break } }
        guard valid >= 2 else { return false }
        var lo = 0, hi = 0, sum = 0.0, count = 0
        var reference = Double.nan
        for i in 0..<n where !ele[i].isNaN {
            let x = xs[i]
            while hi < n, xs[hi] <= x + radius { if !ele[hi].isNaN { sum += ele[hi]; count += 1 }; hi += 1 }
            while xs[lo] < x - radius { if !ele[lo].isNaN { sum -= ele[lo]; count -= 1 }; lo += 1 }
            let smoothed = sum / Double(count)
            if reference.isNaN { reference = smoothed; continue }
            let step = max(0, i - 1)
            if smoothed - reference >= hysteresisMeters {
                body(step, smoothed - reference, 0); reference = smoothed
            } else if reference - smoothed >= hysteresisMeters {
                body(step, 0, reference - smoothed); reference = smoothed
            }
        }
        return true
    }
}
