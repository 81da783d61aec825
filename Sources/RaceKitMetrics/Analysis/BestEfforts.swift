import RaceKitModel

/// The fastest stretch of a standard distance inside a run.
public struct BestEffort: Sendable, Equatable, Codable {
    public var distanceMeters: Double
    public var elapsedSeconds: Double
    /// Seconds from the run's start to the start of the effort.
    public var startOffsetSeconds: Double
    public init(distanceMeters: Double, elapsedSeconds: Double, startOffsetSeconds: Double) {
        self.distanceMeters = distanceMeters; self.elapsedSeconds = elapsedSeconds;
        self.startOffsetSeconds = startOffsetSeconds
    }
}

/// Best efforts by a two-pointer scan over the cumulative distance.
public enum BestEfforts {
    /// The distances of track, road and ultra records: 400 m, 800 m, 1 km,
    /// 1 mile, 3 km, 5 km, 10 km, 15 km, 10 miles, half marathon, 30 km,
    /// marathon, 50 km.
    public static let standardDistances: [(name: String, meters: Double)] = [
        ("400m", 400), ("800m", 800), ("1k", 1000), ("1mi", Units.metersPerMile), ("3k", 3000), ("5k", 5000),
        ("10k", 10_000), ("15k", 15_000), ("10mi", 10 * Units.metersPerMile), ("half", 21_097.5), ("30k", 30_000),
        ("marathon", 42_195), ("50k", 50_000)
    ]

    /// The metres of the standard distance `text` names (`5k`, `half`, `1609.344`), nil for any other.
    public static func standardDistance(_ text: String) -> Double? {
        guard let m = Units.parseDistance(text) else { return nil }
        return standardDistances.first { abs($0.meters - m) < 0.01 }?.meters
    }

    /// The name of a standard distance (`5k`), or its metres as text.
    public static func name(of meters: Double) -> String {
        standardDistances.first { abs($0.meters - meters) < 0.01 }?.name ?? "\(meters) m"
    }

    /// The fastest time for each standard distance that fits in the run. O(n) per
    /// distance: for every end point, the start pointer only moves forward; the
    /// start is interpolated so the effort covers exactly the distance.
    ///
    /// `excluding[k]` true: the step from point k-1 to point k is not running (see
    /// `inhumanSteps`); no effort may contain it.
    public static func compute(
        _ s: SampleSeries, distances: [Double] = standardDistances.map(\.meters),
        excluding: [Bool] = []
    ) -> [BestEffort] {
        let n = s.count
        guard n > 1, let total = s.distance.last, !total.isNaN else { return [] }
        // excludedBefore[k]: excluded steps among points 1...k (prefix count).
        var excludedBefore = ContiguousArray<Int>(repeating: 0, count: n)
        if excluding.count == n {
            for k in 1..<n { excludedBefore[k] = excludedBefore[k - 1] + (excluding[k] ? 1 : 0) }
        }
        var out: [BestEffort] = []
        s.time.withUnsafeBufferPointer { time in
            s.distance.withUnsafeBufferPointer { distance in
                excludedBefore.withUnsafeBufferPointer { excluded in
                    let scan = Scan(
                        time: time.baseAddress!, distance: distance.baseAddress!,
                        excludedBefore: excluded.baseAddress!, count: n)
                    for target in distances where target <= total + 1e-6 {
                        if let best = scan.best(target) { out.append(best) }
                    }
                }
            }
        }
        return out
    }

    /// One run's series, read in place by `best`.
    private struct Scan {
        let time: UnsafePointer<Double>
        let distance: UnsafePointer<Double>
        let excludedBefore: UnsafePointer<Int>
        let count: Int

        /// The fastest stretch of `target` metres, if any.
        func best(_ target: Double) -> BestEffort? {
            var best: BestEffort?
            // An effort must beat this to replace the best (infinite until one is found).
            var toBeat = Double.infinity
            var i = 0
            for j in 1..<count {
                let startDistance = distance[j] - target
                guard startDistance >= -1e-9 else { continue }
                // Largest i with d[i] <= startDistance.
                while i + 1 < j, distance[i + 1] <= startDistance { i += 1 }
                let t0 = time[i], t1 = time[i + 1]
                // The effort starts between t0 and t1, so it lasts at least
                // time[j] - max(t0, t1): when that cannot beat the best (with a
                // microsecond to spare for rounding, four ulps of a time in
                // seconds since 1970), the exact start is not worked out.
                if time[j] - max(t0, t1) >= toBeat + 1e-6 { continue }
                let d0 = distance[i], d1 = distance[i + 1]
                let startTime = d1 > d0 ? t0 + (t1 - t0) * min(1, max(0, (startDistance - d0) / (d1 - d0))) : t0
                // Steps i+1...j are inside the effort.
                if excludedBefore[j] != excludedBefore[i] { continue }
                let elapsed = time[j] - startTime
                // Faster by more than 1 ms (stored distances are Float32): among equal
                // efforts the earliest stands, before and after a recompute.
                if best == nil || elapsed < toBeat {
                    best = BestEffort(
                        distanceMeters: target, elapsedSeconds: elapsed, startOffsetSeconds: startTime - time[0])
                    toBeat = elapsed - 1e-3
                }
            }
            return best
        }
    }

    /// No human runs faster than this (m/s) for this long (s): the 400 m world
    /// record averages 9.3 m/s over 43 s, the 1,500 m record 7.3 m/s over 3:26.
    public static let humanLimits: [(seconds: Double, metersPerSecond: Double)] = [(60, 9.0), (300, 7.3)]

    /// Steps inside a stretch faster than `humanLimits` allow (a bus, a bike, a
    /// watch left running in a car), for an activity that is a run: flagged
    /// per point (`flags[k]`: the step from k-1 to k), to be left out of best
    /// efforts while the run itself is kept. Windows are measured in time
    /// (between one and two times the limit's duration).
    public static func inhumanSteps(_ s: SampleSeries) -> [Bool] {
        let n = s.count
        guard n > 1 else { return [] }
        var cover = [Int](repeating: 0, count: n + 1)
        var any = false
        for limit in humanLimits {
            var i = 0
            for j in 1..<n {
                while i + 1 < j, s.time[j] - s.time[i + 1] >= limit.seconds { i += 1 }
                let dt = s.time[j] - s.time[i]
                guard dt >= limit.seconds, dt <= 2 * limit.seconds else { continue }
                let dd = s.distance[j] - s.distance[i]
                if dd.isFinite, dd / dt > limit.metersPerSecond {
                    cover[i + 1] += 1; cover[j + 1] -= 1
                    any = true
                }
            }
        }
        guard any else { return [] }
        var flags = [Bool](repeating: false, count: n)
        var running = 0
        for k in 0..<n { running += cover[k]; flags[k] = running > 0 }
        return flags
    }
}
