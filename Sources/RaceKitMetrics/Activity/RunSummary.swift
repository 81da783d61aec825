/// The numbers stored with every run.
public struct RunSummary: Sendable, Equatable, Codable {
    /// First point, seconds since the epoch (UTC).
    public var startedAt: Double
    /// Last point, seconds since the epoch (UTC).
    public var endedAt: Double
    /// Seconds from the first to the last point.
    public var elapsedSeconds: Double
    /// Total distance in metres, nil when unknown.
    public var distanceMeters: Double?
    /// Time-weighted average heart rate in bpm, nil without heart rate.
    public var avgHeartRate: Double?
    /// Highest heart rate in bpm ignoring isolated spikes, nil without heart rate.
    public var maxHeartRate: Double?
    /// Seconds in motion (see `MovingTime`), nil for a single point.
    public var movingSeconds: Double?
    /// Elevation gain and loss in metres (see `ElevationProfile`), nil without elevation.
    public var ascentMeters: Double?
    public var descentMeters: Double?
    /// Share of the recorded time covered by heart-rate samples, in percent.
    public var heartRateCoveragePercent: Double?
    /// Time-weighted average cadence over non-zero values (steps per minute for running).
    public var avgCadence: Double?
    /// Number of stored points.
    public var pointCount: Int
    /// Grade-adjusted pace over the run (`GradeProfile`), seconds per km; nil
    /// without distance or elevation.
    public var gradeAdjustedPaceSecondsPerKm: Double?

    /// Longest time step, in seconds, that counts at full weight in averages; a
    /// longer step (a pause, a dropout) counts as this long. The same cap is used
    /// for heart-rate zones (issue: analytics).
    public static let stepCapSeconds = 25.0

    /// A summary with only the times set (the rest filled by the caller).
    public init(startedAt: Double, endedAt: Double, elapsedSeconds: Double, pointCount: Int) {
        self.startedAt = startedAt; self.endedAt = endedAt; self.elapsedSeconds = elapsedSeconds;
        self.pointCount = pointCount
    }

    /// Summarises a cleaned activity.
    public init(_ activity: Activity) {
        let s = activity.samples
        startedAt = s.time[0]
        endedAt = s.time[s.count - 1]
        elapsedSeconds = endedAt - startedAt
        distanceMeters = activity.distanceMeters
        pointCount = s.count
        let breaks = activity.segmentStarts.filter { $0 > 0 }
        let hr = Self.weightedAverage(s.heartRate, time: s.time, segmentStarts: breaks) { _ in true }
        avgHeartRate = hr.average
        heartRateCoveragePercent = hr.average == nil ? nil : hr.coverage * 100
        maxHeartRate = Self.robustMaximum(s.heartRate, time: s.time)
        avgCadence = Self.weightedAverage(s.cadence, time: s.time, segmentStarts: breaks) { $0 > 0 }.average
    }

    /// A heart-rate sample this much above both its neighbours, each within
    /// `spikeNeighbourSeconds`, is an isolated spike (an optical sensor locking onto
    /// cadence, a strap losing contact) and cannot set the maximum.
    public static let spikeBpm = 10.0
    public static let spikeNeighbourSeconds = 10.0

    /// The highest heart rate that is not an isolated spike (one pass, no copies).
    static func robustMaximum(_ hr: ContiguousArray<Double>, time: ContiguousArray<Double>) -> Double? {
        var best: Double?
        var previous = -1, current = -1
        func judge(_ i: Int, before: Int, after: Int) {
            let v = hr[i]
            let spike =
                before >= 0 && after >= 0 && time[i] - time[before] <= spikeNeighbourSeconds
                && time[after] - time[i] <= spikeNeighbourSeconds && v - hr[before] > spikeBpm
                && v - hr[after] > spikeBpm
            if !spike { best = max(best ?? v, v) }
        }
        for i in hr.indices where !hr[i].isNaN {
            if current >= 0 { judge(current, before: previous, after: i) }
            previous = current
            current = i
        }
        if current >= 0 { judge(current, before: previous, after: -1) }
        return best
    }

    /// Time-weighted mean, sample-and-hold: each valid value holds until the next
    /// valid value, for at most `stepCapSeconds`, and never across a segment break
    /// (`segmentStarts`, ascending: the watch was paused, nothing was recorded).
    /// Falls back to the plain mean when no step has positive length. `coverage` is
    /// the held time over all (capped) steps inside segments.
    static func weightedAverage(
        _ values: ContiguousArray<Double>, time: ContiguousArray<Double>,
        segmentStarts: [Int] = [],
        include: (Double) -> Bool
    ) -> (average: Double?, coverage: Double) {
        var area = 0.0, weight = 0.0, count = 0, plainSum = 0.0
        var allWeight = 0.0
        var lastIndex = -1
        var nextBreak = 0
        for i in 0..<values.count {
            if nextBreak < segmentStarts.count, segmentStarts[nextBreak] == i {
                nextBreak += 1
                lastIndex = -1
            } else if i > 0 {
                allWeight += min(time[i] - time[i - 1], stepCapSeconds)
            }
            let v = values[i]
            guard !v.isNaN, include(v) else { continue }
            count += 1
            plainSum += v
            if lastIndex >= 0 {
                let dt = min(time[i] - time[lastIndex], stepCapSeconds)
                area += values[lastIndex] * dt
                weight += dt
            }
            lastIndex = i
        }
        guard count > 0 else { return (nil, 0) }
        let average = weight > 0 ? area / weight : plainSum / Double(count)
        let coverage = allWeight > 0 ? min(1, weight / allWeight) : 1
        return (average, coverage)
    }
}
