import Foundation
import RaceKitMetrics
import RaceKitModel

/// Turns a stored run into the 1 Hz snapshots the engine consumes, as a watch
/// would have computed them live.
///
/// - Resampled to every second of the race clock from the first sample; the
///   clock keeps running through pauses, distance stands still.
/// - `current_pace`: the pace over the last `paceSmoothingSeconds` of *moving*
///   seconds (faster than 0.5 m/s); during a pause it keeps its last value, so
///   it does not jump to infinity and back.
/// - `avg_pace`: race clock over distance. `pace_3min_ratio`: distance of the
///   last 180 s of the clock over 180 s, divided by the target speed.
/// - Against the plan at the current distance: `target_pace` (the plan's pace
///   there), `plan_time` (its clock there), `time_vs_plan` (clock minus plan
///   clock: behind is positive), `grade`, `pace_vs_plan` (current over target
///   pace: above 1 is slower than planned).
/// - `projected_finish`: the target, plus the current gap, plus the gap's trend
///   over the last `trendSeconds` (seconds lost per planned second, clamped to
///   `trendRange`) times the plan's time still to run.
/// - The last split: the time between crossing the last two whole units;
///   `split_vs_plan`: that time minus the plan's time for the same unit (the
///   plan's clock at each end rounded to the whole second, as in the plan's
///   table), negative when quicker.
/// - `hr`, `cadence`: interpolated between samples at most 10 s apart, else unknown.
/// - `hr_zone`: the athlete's zone number (`zones` lower bounds, ascending).
/// - `power`: the last record's watts, held at most 30 s (as the run's power
///   figures; 0-3,000 W); `power_3min`: the mean of the seconds with power of
///   the last 3 minutes, once 30 of them are there.
/// - `time_of_day_hour`: local hour of the athlete's time zone.
public enum LiveMetrics {
    /// The window of the projected finish's trend, and its bounds (a runner
    /// losing more than 30% or gaining more than 20% is a stop or a GPS jump).
    public static let trendSeconds = 300
    public static let trendRange = -0.2...0.3

    public static func series(
        _ s: SampleSeries, startEpoch: Double, plan: ScriptPlan, zonesLowBpm: [Double]?,
        timeZone: TimeZone, paceSmoothingSeconds: Double = 30
    ) -> [Metrics] {
        guard s.count >= 2 else { return [] }
        let t0 = s.time[0]
        // Up to and including the last sample (its second rounded up).
        let total = Int((s.time[s.count - 1] - t0).rounded(.up))
        var distances = [Double](repeating: 0, count: total + 1)
        var hr = [Double](repeating: .nan, count: total + 1), cadence = hr, power = hr
        // Whether the columns hold anything: asked once, not every second.
        let hasDistance = !s.distance.isEmpty, hasHR = s.has(.heartRate), hasCadence = s.has(.cadence)
        let hasPower = s.has(.power)
        var j = 0
        for k in 0...total {
            let t = t0 + Double(k)
            while j < s.count - 2 && s.time[j + 1] <= t { j += 1 }
            let a = s.time[j], b = s.time[j + 1]
            let u = b > a ? min(1, max(0, (t - a) / (b - a))) : 0
            // The import stored a cumulative distance (device or GPS); none: standing still.
            let d0 = hasDistance ? s.distance[j] : .nan, d1 = hasDistance ? s.distance[j + 1] : .nan
            distances[k] = d0.isNaN ? (k > 0 ? distances[k - 1] : 0) : (d1.isNaN ? d0 : d0 + (d1 - d0) * u)
            if k > 0 { distances[k] = max(distances[k], distances[k - 1]) }
            if hasPower, b - a <= PowerSeries.maximumHold {
                // At the last record and after it, the last record's value.
                let p = t >= b ? s.power[j + 1] : s.power[j]
                if PowerSeries.plausibleWatts.contains(p) { power[k] = p }
            }
            if b - a <= 10 {
                if hasHR, !s.heartRate[j].isNaN, !s.heartRate[j + 1].isNaN {
                    hr[k] = s.heartRate[j] + (s.heartRate[j + 1] - s.heartRate[j]) * u
                }
                if hasCadence, !s.cadence[j].isNaN, !s.cadence[j + 1].isNaN {
                    cadence[k] = s.cadence[j] + (s.cadence[j + 1] - s.cadence[j]) * u
                }
            }
        }
        let start = distances[0]
        for k in distances.indices { distances[k] -= start }
        return series(
            distances: distances, hr: hr, cadence: cadence, power: hasPower ? power : [], startEpoch: startEpoch,
            plan: plan, zonesLowBpm: zonesLowBpm, timeZone: timeZone, paceSmoothingSeconds: paceSmoothingSeconds)
    }

    /// From per-second distances (and optional HR and cadence).
    public static func series(
        distances: [Double], hr: [Double], cadence: [Double], power: [Double] = [], startEpoch: Double,
        plan: ScriptPlan, zonesLowBpm: [Double]?, timeZone: TimeZone, paceSmoothingSeconds: Double = 30
    ) -> [Metrics] {
        let n = distances.count
        var out: [Metrics] = []
        out.reserveCapacity(n)
        let targetSpeed = plan.distanceMeters / plan.targetSeconds
        let window = max(1, Int(paceSmoothingSeconds.rounded()))
        // Moving seconds so far and the distance each covered.
        var movingSteps: [Double] = []
        var movingSum = 0.0
        var lastPace = Double.nan
        let offset = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: startEpoch)))
        var gaps: [Double] = [], planTimes: [Double] = []
        gaps.reserveCapacity(n)
        planTimes.reserveCapacity(n)
        let unit = plan.unit
        var lastCrossing = 0.0, lastSplit = Double.nan, lastPlanned = Double.nan, nextUnit = unit
        // The last 3 minutes' power: its sum and how many seconds had power.
        var powerSum = 0.0, powerCount = 0
        for k in 0..<n {
            var m = Metrics()
            m.duration = Double(k)
            m.distance = distances[k]
            if k > 0 {
                let step = distances[k] - distances[k - 1]
                if step > 0.5 {
                    movingSteps.append(step)
                    movingSum += step
                    if movingSteps.count > window { movingSum -= movingSteps[movingSteps.count - window - 1] }
                    let count = min(window, movingSteps.count)
                    if count >= min(window, 10), movingSum > 0 { lastPace = Double(count) / movingSum * 1000 }
                }
            }
            m.currentPace = lastPace
            m.avgPace = m.distance > 10 ? m.duration / m.distance * 1000 : .nan
            m.targetPace = plan.pace(at: m.distance)
            m.planTime = plan.clock(at: m.distance)
            m.timeVsPlan = m.duration - m.planTime
            m.grade = plan.grade(at: m.distance)
            m.paceVsPlan = m.currentPace.isFinite && m.targetPace > 0 ? m.currentPace / m.targetPace : .nan
            gaps.append(m.timeVsPlan)
            planTimes.append(m.planTime)
            var trend = 0.0
            if k >= trendSeconds {
                let planned = m.planTime - planTimes[k - trendSeconds]
                if planned > 60 { trend = (m.timeVsPlan - gaps[k - trendSeconds]) / planned }
                trend = min(max(trend, trendRange.lowerBound), trendRange.upperBound)
            }
            m.projectedFinish = plan.targetSeconds + m.timeVsPlan + trend * max(0, plan.targetSeconds - m.planTime)
            // Splits: the time between crossing consecutive whole units.
            while k > 0, unit > 0, distances[k] >= nextUnit {
                let d0 = distances[k - 1], d1 = distances[k]
                let u = d1 > d0 ? min(1, max(0, (nextUnit - d0) / (d1 - d0))) : 1
                let at = Double(k - 1) + u
                lastSplit = at - lastCrossing
                lastPlanned = plan.clock(at: nextUnit).rounded() - plan.clock(at: nextUnit - unit).rounded()
                lastCrossing = at
                nextUnit += unit
            }
            m.splitSeconds = lastSplit
            m.splitPlanSeconds = lastPlanned
            m.splitVsPlan = lastSplit - lastPlanned
            if k >= 180 {
                m.pace3minRatio = (distances[k] - distances[k - 180]) / 180 / targetSpeed
            } else if k >= 30 {
                m.pace3minRatio = distances[k] / Double(k) / targetSpeed
            }
            m.hr = k < hr.count ? hr[k] : .nan
            m.cadence = k < cadence.count ? cadence[k] : .nan
            if k < power.count {
                m.power = power[k]
                if power[k].isFinite { powerSum += power[k]; powerCount += 1 }
                if k >= 180, k - 180 < power.count, power[k - 180].isFinite {
                    powerSum -= power[k - 180]; powerCount -= 1
                }
                if powerCount >= 30 { m.power3min = max(0, powerSum / Double(powerCount)) }
            }
            if m.hr.isFinite, let zones = zonesLowBpm, !zones.isEmpty {
                m.hrZone = Double(max(1, zones.lastIndex(where: { m.hr >= $0 }).map { $0 + 1 } ?? 1))
            }
            let local = startEpoch + Double(k) + offset
            m.timeOfDayHour = Double(
                Int((local.truncatingRemainder(dividingBy: 86_400) + 86_400).truncatingRemainder(dividingBy: 86_400))
                    / 3600)
            out.append(m)
        }
        return out
    }

    /// A run that follows the plan exactly (for `script simulate --race`), at 1 Hz.
    public static func onPlan(_ plan: ScriptPlan) -> [Double] {
        let total = Int(plan.targetSeconds.rounded(.up))
        var out = [Double](repeating: 0, count: total + 1)
        var lo = 0.0
        for k in 0...total {
            // Invert the plan's clock by bisection from the previous distance.
            var a = lo, b = plan.distanceMeters
            let t = Double(k)
            if plan.clock(at: b) <= t { out[k] = b; continue }
            for _ in 0..<50 {
                let mid = (a + b) / 2
                if plan.clock(at: mid) < t { a = mid } else { b = mid }
                if b - a < 0.01 { break }
            }
            out[k] = (a + b) / 2
            lo = a
        }
        out[total] = plan.distanceMeters
        return out
    }
}
