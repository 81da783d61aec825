import RaceKitModel

/// Grade-adjusted pace (GAP): the pace on the flat that would have cost the
/// same effort as the pace run over the recorded hills.
///
/// The recorded elevation is put on a 10 m grid over the run's distance and
/// smoothed exactly as a race plan smooths its course (`CourseProfile`: a moving
/// average over 200 m applied twice), so the grades are those a plan would use
/// and GPS or barometric noise makes no hills. Each grid cell gets the cost
/// factor of its grade under `GradeCostModel.road`, the plans' default: even
/// effort is even metabolic power, so a pace p over a stretch whose mean cost
/// factor is c equals a flat pace of p / c. GAP over a split or a run is its
/// pace divided by the mean cost factor of the distance it covered.
public struct GradeProfile: Sendable {
    /// Grid step, in metres (as `CourseProfile`).
    public static let stepMeters = 10.0
    /// Smoothing window, in metres (a race setup's default `smoothing_m`).
    public static let smoothingMeters = 200.0
    /// The grade cost model (a race setup's default `grade_model`).
    public static let model = GradeCostModel.road
    /// Longest distance profiled (1,000 km): beyond it a run gets no GAP rather
    /// than an allocation per 10 m of a corrupt distance.
    public static let maxMeters = 1_000_000.0

    /// Grid positions in metres (0, step, ..., length) and the smoothed elevation there.
    public let grid: [Double]
    public let elevation: [Double]
    /// The cost factor of each grid cell, with its prefix integrals.
    public let cost: CostProfile

    /// The profile of a run's recorded elevation over its distance, the distance
    /// multiplied by `scale` (a race review aligns the watch's distance on the
    /// course's); nil without a distance stream, without two elevations, or
    /// beyond `maxMeters`.
    /// `model` is `GradeProfile.model` except for comparisons (docs/numbers.md).
    public init?(_ s: SampleSeries, scale: Double = 1, model: GradeCostModel = GradeProfile.model) {
        guard scale.isFinite, scale > 0, s.count >= 2, s.distance.count == s.count, s.elevation.count == s.count
        else { return nil }
        var xs: [Double] = [], es: [Double] = []
        xs.reserveCapacity(s.count)
        es.reserveCapacity(s.count)
        var last = -Double.infinity
        for i in 0..<s.count {
            let d = s.distance[i] * scale, e = s.elevation[i]
            guard d.isFinite, e.isFinite, d >= last else { continue }
            xs.append(d)
            es.append(e)
            last = d
        }
        guard xs.count >= 2, let first = xs.first, let total = xs.last, total - first > 0, total <= Self.maxMeters
        else { return nil }
        let cells = max(1, Int((total / Self.stepMeters).rounded(.up)))
        var g = [Double](repeating: 0, count: cells + 1)
        var ele = g
        var j = 0
        for k in 0...cells {
            let x = min(Double(k) * Self.stepMeters, total)
            g[k] = x
            while j < xs.count - 2 && xs[j + 1] < x { j += 1 }
            let span = xs[j + 1] - xs[j]
            let u = span > 0 ? min(1, max(0, (x - xs[j]) / span)) : 0
            ele[k] = es[j] + (es[j + 1] - es[j]) * u
        }
        let half = Int((Self.smoothingMeters / 2 / Self.stepMeters).rounded())
        ele = Smoothing.movingAverage(Smoothing.movingAverage(ele, half: half), half: half)
        var f = [Double](repeating: 1, count: cells)
        for k in 0..<cells {
            let run = g[k + 1] - g[k]
            f[k] = run > 0 ? model.cost(grade: (ele[k + 1] - ele[k]) / run) : 1
        }
        grid = g
        elevation = ele
        cost = CostProfile(bounds: g, factor: f)
    }

    /// Length of the profile, in metres.
    public var length: Double { cost.length }

    /// Mean cost factor over [a, b] (1 for an empty stretch).
    public func meanCost(from a: Double, to b: Double) -> Double {
        guard b > a else { return 1 }
        let fa = cost.integrals(a).f, fb = cost.integrals(b).f
        let covered = min(b, length) - max(0, min(a, length))
        guard covered > 0 else { return 1 }
        let mean = (fb - fa) / covered
        return mean.isFinite && mean > 0 ? mean : 1
    }

    /// The grade-adjusted pace of `paceSecondsPerKm` run over [a, b].
    public func adjusted(_ paceSecondsPerKm: Double?, from a: Double, to b: Double) -> Double? {
        guard let p = paceSecondsPerKm, p.isFinite, p > 0 else { return nil }
        return p / meanCost(from: a, to: b)
    }

    /// Smoothed elevation at x, in metres.
    public func elevation(at x: Double) -> Double {
        let x = min(max(0, x), length)
        let k = min(grid.count - 2, Int(x / Self.stepMeters))
        let span = grid[k + 1] - grid[k]
        let u = span > 0 ? (x - grid[k]) / span : 0
        return elevation[k] + (elevation[k + 1] - elevation[k]) * u
    }

    /// Net grade over [a, b], percent.
    public func gradePercent(from a: Double, to b: Double) -> Double? {
        guard b > a else { return nil }
        return (elevation(at: b) - elevation(at: a)) / (b - a) * 100
    }
}
