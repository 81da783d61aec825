/// The fastest stretch of a standard distance inside a run.
public struct BestEffort: Sendable, Equatable, Codable {
    public var distanceMeters: Double
    public var elapsedSeconds: Double
    /// Seconds from the run's start to the start of the effort.
    public var startOffsetSeconds: Double
    public init(distanceMeters: Double, elapsedSeconds: Double, startOffsetSeconds: Double) {
        self.distanceMeters = distanceMeters; self.elapsedSeconds = elapsedSeconds; self.startOffsetSeconds = startOffsetSeconds
    }
}

/// Best efforts by a two-pointer scan over the cumulative distance.
public enum BestEfforts {
    /// 400 m, 1 km, 1 mile, 5 km, 10 km, half marathon, marathon.
    public static let standardDistances: [(name: String, meters: Double)] = [
        ("400m", 400), ("1k", 1000), ("1mi", 1609.344), ("5k", 5000), ("10k", 10_000),
        ("half", 21_097.5), ("marathon", 42_195),
    ]

    /// The name of a standard distance (`5k`), or its metres as text.
    public static func name(of meters: Double) -> String {
        standardDistances.first { abs($0.meters - meters) < 0.01 }?.name ?? "\(meters) m"
    }

    /// The fastest time for each standard distance that fits in the run. O(n) per
    /// distance: for every end point, the start pointer only moves forward; the
    /// start is interpolated so the effort covers exactly the distance.
    public static func compute(_ s: SampleSeries, distances: [Double] = standardDistances.map(\.meters)) -> [BestEffort] {
        let n = s.count
        guard n > 1, let total = s.distance.last, !total.isNaN else { return [] }
        var out: [BestEffort] = []
        for target in distances where target <= total + 1e-6 {
            var best: BestEffort?
            var i = 0
            for j in 1..<n {
                let startDistance = s.distance[j] - target
                guard startDistance >= -1e-9 else { continue }
                // Largest i with d[i] <= startDistance.
                while i + 1 < j, s.distance[i + 1] <= startDistance { i += 1 }
                let d0 = s.distance[i], d1 = s.distance[i + 1]
                let t0 = s.time[i], t1 = s.time[i + 1]
                let startTime = d1 > d0 ? t0 + (t1 - t0) * min(1, max(0, (startDistance - d0) / (d1 - d0))) : t0
                let elapsed = s.time[j] - startTime
                // Faster by more than 1 ms (stored distances are Float32): among equal
                // efforts the earliest stands, before and after a recompute.
                if best == nil || elapsed < best!.elapsedSeconds - 1e-3 {
                    best = BestEffort(distanceMeters: target, elapsedSeconds: elapsed, startOffsetSeconds: startTime - s.time[0])
                }
            }
            if let best { out.append(best) }
        }
        return out
    }
}
