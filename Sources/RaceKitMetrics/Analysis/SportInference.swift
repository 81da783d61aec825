import RaceKitModel

/// The sport of a file that declares none, from its speed profile (docs/numbers.md, "Sport
/// sanity"). Running is assumed unless the speeds rule it out:
///
/// Speeds are measured over windows of at least `windowSeconds` (at most
/// `maxWindowSeconds`, inside one segment) ending at every point; windows slower
/// than `movingSpeed` are stops and left out. With at least `minimumMovingSeconds`
/// (five minutes) covered by moving windows:
/// - **driving** when the median is above 15 m/s (54 km/h) or the 90th
///   percentile above 25 m/s (90 km/h);
/// - **skiing** when the moving windows faster than 6 m/s hold at least a
///   tenth of the moving distance (a ski tour climbs slowly for hours and skis
///   down in minutes: a tenth of its windows, most of its distance), four in
///   five of those go downhill steeper than 5%, and the activity descends at
///   least 300 m (lifts or skins up, runs down);
/// - **cycling** when the median is above 6.5 m/s (2:34/km: faster than the
///   marathon world record, 5.8 m/s, for half the moving time) or the 90th
///   percentile above 8.5 m/s (1:58/km for a tenth of it; the 400 m world record
///   averages 9.3 m/s for 43 s);
/// - **other** when the median is above 5 m/s (3:20/km for half the moving
///   time, a 2:21 marathon's pace): a navigation track or a ride too slow to
///   be called one, but no run of a file that names no sport, so that it sets
///   no running record (the athlete can set the sport);
/// - otherwise nil: it may be a run.
public enum SportInference {
    public static let windowSeconds = 60.0
    public static let maxWindowSeconds = 120.0
    public static let movingSpeed = 0.5
    public static let minimumMovingSeconds = 300.0
    public static let drivingMedian = 15.0, drivingP90 = 25.0
    public static let cyclingMedian = 6.5, cyclingP90 = 8.5
    public static let runningMedian = 5.0
    public static let skiFastSpeed = 6.0, skiFastShare = 0.1, skiDownhillShare = 0.8
    public static let skiGrade = -0.05, skiMinimumDescent = 300.0

    /// The evident sport, or nil when the profile is compatible with running.
    /// `s.distance` must be cumulative metres (device or GPS).
    public static func infer(_ s: SampleSeries, segmentStarts: [Int]) -> Sport? {
        let n = s.count
        guard n > 2 else { return nil }
        var segmentOf = [Int](repeating: 0, count: n)
        var seg = 0, next = 0
        let starts = segmentStarts.sorted()
        for i in 0..<n {
            while next < starts.count, starts[next] <= i { if starts[next] > 0 { seg += 1 }; next += 1 }
            segmentOf[i] = seg
        }
        var speeds: [Double] = []
        var fast = 0, fastDownhill = 0, fastDistance = 0.0, movingDistance = 0.0
        var covered = 0.0
        var i = 0
        for j in 1..<n {
            if segmentOf[i] != segmentOf[j] { i = j; continue }
            while i + 1 < j, s.time[j] - s.time[i + 1] >= windowSeconds { i += 1 }
            let dt = s.time[j] - s.time[i]
            guard dt >= windowSeconds, dt <= maxWindowSeconds else { continue }
            let dd = s.distance[j] - s.distance[i]
            guard dd.isFinite else { continue }
            let v = dd / dt
            guard v >= movingSpeed else { continue }
            speeds.append(v)
            let step = min(s.time[j] - s.time[j - 1], windowSeconds)
            covered += step
            movingDistance += v * step
            if v > skiFastSpeed {
                fast += 1
                fastDistance += v * step
                let de = s.elevation[j] - s.elevation[i]
                if de.isFinite, dd > 0, de / dd < skiGrade { fastDownhill += 1 }
            }
        }
        guard covered >= minimumMovingSeconds else { return nil }
        let p90 = OrderStatistic.select(&speeds, min(speeds.count - 1, speeds.count * 9 / 10))
        let median = OrderStatistic.select(&speeds, speeds.count / 2)
        if median > drivingMedian || p90 > drivingP90 { return .driving }
        if fastDistance >= skiFastShare * movingDistance, Double(fastDownhill) >= skiDownhillShare * Double(fast),
            descent(s.elevation) >= skiMinimumDescent
        {
            return .skiing
        }
        if median > cyclingMedian || p90 > cyclingP90 { return .cycling }
        if median > runningMedian { return .other }
        return nil
    }

    /// Raw descent in metres (sum of downward steps between known elevations).
    static func descent(_ e: ContiguousArray<Double>) -> Double {
        var total = 0.0
        var last = Double.nan
        for v in e where !v.isNaN {
            if !last.isNaN, v < last { total += last - v }
            last = v
        }
        return total
    }
}
