import RaceKitCore

/// A recorded run on the course's distance: course metres and race clock per
/// sample, with the questions a review asks of them.
///
/// Alignment: the watch's distance is scaled to the course (course = watch ×
/// race distance / recorded distance), so a GPS track 1-2% long (normal: the
/// runner does not run the certified tangents, GPS adds jitter) is compared
/// with the plan at the same point of the course, and the finish line is the
/// end of the recording's distance.
struct ReviewTimeline {
    /// Course metres, non-decreasing.
    let x: [Double]
    /// Seconds from the first sample.
    let t: [Double]
    /// Time-weighted heart-rate prefix sums (value × capped step, and the steps).
    let hrArea: [Double]
    let hrWeight: [Double]

    init(_ s: SampleSeries, scale: Double) {
        let n = s.count
        var x = [Double](repeating: 0, count: n), t = x
        var area = x, weight = x
        let t0 = s.time[0]
        var last = 0.0
        for i in 0..<n {
            let d = s.distance[i] * scale
            if d.isFinite, d > last { last = d }
            x[i] = last
            t[i] = s.time[i] - t0
            if i > 0 {
                let dt = min(max(0, t[i] - t[i - 1]), RunSummary.stepCapSeconds)
                let h = s.heartRate.count == n ? s.heartRate[i - 1] : .nan
                let ok = h.isFinite && Plausibility.heartRateBpm.contains(h)
                area[i] = area[i - 1] + (ok ? h * dt : 0)
                weight[i] = weight[i - 1] + (ok ? dt : 0)
            }
        }
        self.x = x
        self.t = t
        hrArea = area
        hrWeight = weight
    }

    var finishMeters: Double { x[x.count - 1] }

    /// First index whose value is >= v in a non-decreasing array (count when none).
    static func firstIndex(_ a: [Double], atLeast v: Double) -> Int {
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Race clock when the runner first reached course metre `m`.
    func time(at m: Double) -> Double {
        let i = Self.firstIndex(x, atLeast: m)
        if i >= x.count { return t[t.count - 1] }
        if i == 0 { return t[0] }
        let span = x[i] - x[i - 1]
        let u = span > 0 ? (m - x[i - 1]) / span : 1
        return t[i - 1] + (t[i] - t[i - 1]) * u
    }

    /// Course metres reached at race clock `c`.
    func meters(at c: Double) -> Double {
        let i = Self.firstIndex(t, atLeast: c)
        if i >= t.count { return finishMeters }
        if i == 0 { return x[0] }
        let span = t[i] - t[i - 1]
        let u = span > 0 ? (c - t[i - 1]) / span : 1
        return x[i - 1] + (x[i] - x[i - 1]) * u
    }

    /// Time-weighted average heart rate between two clock times.
    func averageHeartRate(from a: Double, to b: Double) -> Double? {
        let i = min(Self.firstIndex(t, atLeast: a), t.count - 1)
        let j = min(Self.firstIndex(t, atLeast: b), t.count - 1)
        let w = hrWeight[j] - hrWeight[i]
        return w > 0 ? (hrArea[j] - hrArea[i]) / w : nil
    }

    /// Stops: runs of steps slower than `speed` (auto-pause gaps included)
    /// lasting `minimum` seconds or more, before the finish.
    func stops(speed: Double, minimum: Double, finish: Double) -> [ReviewStop] {
        var out: [ReviewStop] = []
        var start = -1
        var seconds = 0.0
        func close() {
            if start >= 0, seconds >= minimum, x[start] < finish - ReviewAnalyzer.finishZoneMeters {
                out.append(ReviewStop(atMeters: x[start], seconds: seconds, clockSeconds: t[start]))
            }
            start = -1
            seconds = 0
        }
        for i in 0..<max(0, x.count - 1) {
            let dt = t[i + 1] - t[i]
            guard dt > 0 else { continue }
            if (x[i + 1] - x[i]) / dt < speed {
                if start < 0 { start = i }
                seconds += dt
            } else {
                close()
            }
        }
        close()
        return out
    }
}
