import RaceKitMetrics
import RaceKitModel

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
    /// Power prefix sums likewise (steps over `PowerSeries.maximumHold` left out, zeros kept).
    let powerArea: [Double]
    let powerWeight: [Double]
    /// Positions (NaN where unknown) and cadence (NaN where unknown), for stops.
    let latitude: [Double]
    let longitude: [Double]
    let cadence: [Double]

    init(_ s: SampleSeries, scale: Double) {
        let n = s.count
        var x = [Double](repeating: 0, count: n), t = x
        var area = x, weight = x, pArea = x, pWeight = x
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
                let step = t[i] - t[i - 1]
                let w = s.power.count == n ? s.power[i - 1] : .nan
                let counts = PowerSeries.plausibleWatts.contains(w) && step > 0 && step <= PowerSeries.maximumHold
                pArea[i] = pArea[i - 1] + (counts ? w * step : 0)
                pWeight[i] = pWeight[i - 1] + (counts ? step : 0)
            }
        }
        self.x = x
        self.t = t
        hrArea = area
        hrWeight = weight
        powerArea = pArea
        powerWeight = pWeight
        latitude = s.latitude.count == n ? Array(s.latitude) : Array(repeating: .nan, count: n)
        longitude = s.longitude.count == n ? Array(s.longitude) : Array(repeating: .nan, count: n)
        cadence = s.cadence.count == n ? Array(s.cadence) : Array(repeating: .nan, count: n)
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

    /// Time-weighted average power between two clock times; nil with under 10 s of power.
    func averagePower(from a: Double, to b: Double) -> Double? {
        let i = min(Self.firstIndex(t, atLeast: a), t.count - 1)
        let j = min(Self.firstIndex(t, atLeast: b), t.count - 1)
        let w = powerWeight[j] - powerWeight[i]
        return w >= 10 ? (powerArea[j] - powerArea[i]) / w : nil
    }

    /// How long a window of positions must be to tell a stand from slow
    /// running through GPS jitter, and how much movement two stands may have
    /// between them and still be one.
    static let standWindowSeconds = 10.0
    static let standMergeSeconds = 10.0

    /// Stops: time spent standing, lasting `minimum` seconds or more, before
    /// the finish. A step is standing when it is slower than `speed` (by the
    /// distance; auto-pause gaps included), when the cadence is 0, or when it
    /// lies in a window of `standWindowSeconds` whose positions moved less than
    /// `speed` over it (net, so GPS jitter of a metre or two a second, which
    /// adds to the distance, is no movement). Standing runs less than
    /// `standMergeSeconds` of movement apart are one stop: a 40 s stand at a
    /// station with jitter was three stops, or none.
    func stops(speed: Double, minimum: Double, finish: Double) -> [ReviewStop] {
        let n = x.count
        guard n >= 2 else { return [] }
        var standing = [Bool](repeating: false, count: n - 1)   // step i -> i+1
        for i in 0..<(n - 1) {
            let dt = t[i + 1] - t[i]
            guard dt > 0 else { continue }
            if (x[i + 1] - x[i]) / dt < speed || cadence[i] == 0 { standing[i] = true }
        }
        // Windows of positions that stayed within `speed` x window: every step in them stands.
        var j = 0
        for i in 0..<n where latitude[i].isFinite && longitude[i].isFinite {
            if j < i { j = i }
            while j + 1 < n, t[j] - t[i] < Self.standWindowSeconds { j += 1 }
            let span = t[j] - t[i]
            guard span >= Self.standWindowSeconds, span <= 3 * Self.standWindowSeconds,
                latitude[j].isFinite, longitude[j].isFinite
            else { continue }
            let moved = Geodesy.distance(lat1: latitude[i], lon1: longitude[i], lat2: latitude[j], lon2: longitude[j])
            if moved < speed * span { for k in i..<j { standing[k] = true } }
        }
        var out: [ReviewStop] = []
        var start = -1
        var seconds = 0.0, moving = 0.0
        func close() {
            if start >= 0, seconds >= minimum, x[start] < finish - ReviewAnalyzer.finishZoneMeters {
                out.append(ReviewStop(atMeters: x[start], seconds: seconds, clockSeconds: t[start]))
            }
            start = -1
            seconds = 0
        }
        for i in 0..<(n - 1) {
            let dt = t[i + 1] - t[i]
            guard dt > 0 else { continue }
            if standing[i] {
                if start >= 0, moving > 0 {
                    // A short move between two stands: one stop, the move included.
                    seconds += moving
                }
                if start < 0 { start = i }
                seconds += dt
                moving = 0
            } else if start >= 0 {
                moving += dt
                if moving >= Self.standMergeSeconds {
                    moving = 0
                    close()
                }
            }
        }
        close()
        return out
    }
}
