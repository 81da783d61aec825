import RaceKitModel

/// One split of a run.
public struct Split: Sendable, Equatable, Codable {
    public var index: Int
    public var startMeters: Double
    public var endMeters: Double
    public var elapsedSeconds: Double
    public var movingSeconds: Double
    /// Pace over moving time, in seconds per km.
    public var paceSecondsPerKm: Double?
    /// The flat pace of equal effort (`GradeProfile`), nil without elevation.
    public var gradeAdjustedPaceSecondsPerKm: Double?
    public var ascentMeters: Double?
    public var descentMeters: Double?
    public var avgHeartRate: Double?
    public var avgCadence: Double?
    /// Time-weighted average power in watts, zeros kept (as the run's, `PowerSeries`).
    public var avgPowerWatts: Double?
    /// True for the last split when it is shorter than the unit.
    public var partial: Bool
}

/// Splits at every km or mile, with times interpolated at the exact boundary.
public enum Splits {
    /// Most splits of one run: 100,000 km is no single activity. Memory here
    /// grows with distance, not with points, so a distance no repair caught (a
    /// corrupt file; make fuzz found one of 10^14 km) gets no splits rather
    /// than an allocation for each of its kilometres.
    public static let maxSplits = 100_000

    /// Shortest last partial split, in metres; a shorter rest belongs to the split before.
    public static let minimumPartialMeters = 10.0

    /// The splits of an analysed run; empty without a distance stream, or
    /// beyond `maxSplits`.
    public static func compute(
        _ s: SampleSeries, unit: DistanceUnit, moving: [Bool],
        elevation: ElevationProfile.Steps?, grade: GradeProfile? = nil
    ) -> [Split] {
        let n = s.count
        guard n > 1, let total = s.distance.last, total > 0, !total.isNaN,
            total / unit.meters <= Double(maxSplits)
        else { return [] }
        var bounds: [Double] = []
        var d = unit.meters
        // A last stretch shorter than `minimumPartialMeters` joins the split
        // before it (a "0.00 km" partial row told nothing).
        while d < total - minimumPartialMeters { bounds.append(d); d += unit.meters }
        bounds.append(total)

        var splits: [Split] = []
        var k = 0   // current step (k -> k+1)
        var start = 0.0
        var startTime = s.time[0]
        for (index, end) in bounds.enumerated() {
            let isLast = index == bounds.count - 1
            var endTime = isLast ? s.time[n - 1] : startTime
            var movingTime = 0.0, ascent = 0.0, descent = 0.0
            var hr = WeightedMean(), cad = WeightedMean(), power = WeightedMean()
            while k < n - 1 {
                let d0 = s.distance[k], d1 = s.distance[k + 1]
                let t0 = s.time[k], t1 = s.time[k + 1]
                // A point exactly on the boundary closes the split; standing still
                // there belongs to the next one.
                if !isLast, d0 >= end { endTime = t0; break }
                // The share of this step inside [start, end], by distance (a step
                // without distance lies wholly where it stands).
                let fraction = d1 > d0 ? min(1, max(0, (min(d1, end) - max(d0, start)) / (d1 - d0))) : 1
                let dt = (t1 - t0) * fraction
                if moving[k] { movingTime += dt }
                hr.add(s.heartRate[k], weight: min(dt, RunSummary.stepCapSeconds))
                if s.cadence[k] > 0 { cad.add(s.cadence[k], weight: min(dt, RunSummary.stepCapSeconds)) }
                if PowerSeries.plausibleWatts.contains(s.power[k]), t1 - t0 <= PowerSeries.maximumHold {
                    power.add(s.power[k], weight: dt)
                }
                if let e = elevation { ascent += e.gainAtStep[k] * fraction; descent += e.lossAtStep[k] * fraction }
                if !isLast, d1 > end {
                    // The boundary lies inside this step: interpolate its time; the
                    // rest of the step belongs to the next split.
                    endTime = t0 + (t1 - t0) * (end - d0) / (d1 - d0)
                    break
                }
                endTime = t1
                k += 1
            }
            let length = end - start
            let pace = length > 0 && movingTime > 0 ? movingTime / (length / 1000) : nil
            splits.append(
                Split(
                    index: index + 1, startMeters: start, endMeters: end, elapsedSeconds: endTime - startTime,
                    movingSeconds: movingTime,
                    paceSecondsPerKm: pace,
                    gradeAdjustedPaceSecondsPerKm: grade?.adjusted(pace, from: start, to: end),
                    ascentMeters: elevation == nil ? nil : ascent, descentMeters: elevation == nil ? nil : descent,
                    avgHeartRate: hr.value, avgCadence: cad.value, avgPowerWatts: power.value,
                    partial: isLast && length < unit.meters - 1e-6))
            start = end
            startTime = endTime
        }
        return splits
    }
}

/// A weighted mean that ignores NaN.
struct WeightedMean {
    private var sum = 0.0, weight = 0.0
    mutating func add(_ v: Double, weight w: Double) {
        guard !v.isNaN, w > 0 else { return }
        sum += v * w; weight += w
    }
    var value: Double? { weight > 0 ? sum / weight : nil }
}
