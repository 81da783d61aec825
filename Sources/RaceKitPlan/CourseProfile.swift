import RaceKitMetrics
import RaceKitModel
import RaceKitOutput

/// Why a course cannot be used for a plan.
public enum CourseError: RaceKitError, Equatable {
    public var exitClass: ExitClass { .dataError }
    case tooFewPoints(Int)
    case lengthMismatch(courseMeters: Double, raceMeters: Double)

    public var description: String {
        switch self {
        case .tooFewPoints(let n):
            return "the course has \(n) usable point\(n == 1 ? "" : "s") with a position; it needs at least 2"
        case .lengthMismatch(let c, let r):
            return
                "the course is \(TextFormat.fixed(c / 1000, 2)) km but the race is \(TextFormat.fixed(r / 1000, 2)) km "
                + "(more than 10% apart): is it the right file?"
        }
    }
}

/// A course's elevation over the race distance, smoothed in the distance domain.
///
/// The path is measured (device distance when every point has one, else the
/// geodesic sum), resampled on a `step` grid by linear interpolation, and its
/// elevation smoothed by a moving average over `smoothingMeters`, applied twice
/// (a triangular kernel twice that wide): GPS and barometric noise of a few
/// metres point to point, which sums to hundreds of metres of fake climb, is
/// gone, while real hills longer than the window stay. The course is then
/// stretched or shrunk to the race distance (`scale`): a course file drawn on a
/// map or recorded by GPS rarely measures exactly the certified distance.
public struct CourseProfile: Sendable {
    /// The course's measured length.
    public let courseMeters: Double
    /// Race distance over course length.
    public let scale: Double
    public let raceMeters: Double
    public let hasElevation: Bool
    /// Sum of rises between consecutive raw points.
    public let rawClimbMeters: Double
    public let rawDescentMeters: Double
    /// The same after smoothing.
    public let climbMeters: Double
    public let descentMeters: Double
    public let smoothingMeters: Double
    /// Grid in race metres (0, step, ..., raceMeters) and the smoothed elevation there.
    public let grid: [Double]
    public let elevation: [Double]
    /// Positions along the grid (course order), for exports.
    public let latitude: [Double]
    public let longitude: [Double]
    /// Elevation values left out as impossible (outside -500...9,000 m, no-data
    /// sentinels, placeholder zeros at either end).
    public let ignoredElevations: Int

    public init(samples: SampleSeries, raceMeters: Double, step: Double = 10, smoothingMeters: Double = 200) throws {
        var track = Self.positionedPoints(samples)
        guard track.latitude.count >= 2, track.total > 0 else { throw CourseError.tooFewPoints(track.latitude.count) }
        guard abs(track.total - raceMeters) <= 0.10 * raceMeters else {
            throw CourseError.lengthMismatch(courseMeters: track.total, raceMeters: raceMeters)
        }
        courseMeters = track.total
        self.raceMeters = raceMeters
        scale = raceMeters / track.total
        self.smoothingMeters = smoothingMeters

        // Impossible elevations and no-data sentinels are no hills (Plausibility).
        var checked = ContiguousArray(track.elevation)
        let dropped = Plausibility.cleanElevation(
            &checked, along: ContiguousArray(track.distance), maxRate: Plausibility.maxCourseGrade,
            floor: Plausibility.courseGradeFloorMeters)
        ignoredElevations = dropped.outOfRange + dropped.edgeZeros + dropped.tooSteep
        track.elevation = Array(checked)
        (rawClimbMeters, rawDescentMeters) = Self.rawClimb(track.elevation)
        hasElevation = track.elevation.filter { !$0.isNaN }.count >= 2

        let resampled = Self.resample(
            track, raceMeters: raceMeters, scale: scale, step: step, withElevation: hasElevation)
        grid = resampled.grid
        latitude = resampled.latitude
        longitude = resampled.longitude
        var gEle = resampled.elevation
        if hasElevation {
            let half = max(0, Int((smoothingMeters / 2 / step).rounded()))
            gEle = Smoothing.movingAverage(Smoothing.movingAverage(gEle, half: half), half: half)
        }
        elevation = gEle
        (climbMeters, descentMeters) = Self.smoothedClimb(gEle)
    }

    /// The points with a position, in course order, with their elevation (NaN
    /// when none) and course distance: the device's when every point has one.
    struct Track {
        var latitude: [Double] = [], longitude: [Double] = [], elevation: [Double] = [], distance: [Double] = []
        var total = 0.0
    }

    static func positionedPoints(_ samples: SampleSeries) -> Track {
        var t = Track()
        let deviceDistance = samples.has(.distance) && !samples.distance.contains(where: \.isNaN)
        for i in 0..<samples.count where !samples.latitude[i].isNaN && !samples.longitude[i].isNaN {
            if let last = t.latitude.indices.last {
                if deviceDistance {
                    t.total = max(t.total, samples.distance[i] - samples.distance[0])
                } else {
                    t.total += Geodesy.distance(
                        lat1: t.latitude[last], lon1: t.longitude[last], lat2: samples.latitude[i],
                        lon2: samples.longitude[i])
                }
            }
            t.latitude.append(samples.latitude[i])
            t.longitude.append(samples.longitude[i])
            t.elevation.append(samples.elevation.isEmpty ? .nan : samples.elevation[i])
            t.distance.append(t.total)
        }
        return t
    }

    /// Raw climb and descent over the points that carry an elevation.
    static func rawClimb(_ elevation: [Double]) -> (Double, Double) {
        var up = 0.0, down = 0.0, previous = Double.nan
        for e in elevation where !e.isNaN {
            if !previous.isNaN { if e > previous { up += e - previous } else { down += previous - e } }
            previous = e
        }
        return (up, down)
    }

    /// The track on a grid in race metres (course distance = race distance / scale);
    /// elevation interpolated between the nearest points that have one.
    static func resample(_ t: Track, raceMeters: Double, scale: Double, step: Double, withElevation: Bool)
        -> (grid: [Double], latitude: [Double], longitude: [Double], elevation: [Double])
    {
        let cells = max(1, Int((raceMeters / step).rounded(.up)))
        var g = [Double](repeating: 0, count: cells + 1)
        for k in 0...cells { g[k] = min(Double(k) * step, raceMeters) }
        var gLat = [Double](repeating: 0, count: cells + 1), gLon = gLat, gEle = gLat
        let dist = t.distance, ele = t.elevation
        var j = 0
        let eleIndex = ele.indices.filter { !ele[$0].isNaN }
        var je = 0
        for k in 0...cells {
            let c = g[k] / scale
            while j < dist.count - 2 && dist[j + 1] < c { j += 1 }
            let span = dist[j + 1] - dist[j]
            let u = span > 0 ? min(1, max(0, (c - dist[j]) / span)) : 0
            gLat[k] = t.latitude[j] + (t.latitude[j + 1] - t.latitude[j]) * u
            gLon[k] = t.longitude[j] + (t.longitude[j + 1] - t.longitude[j]) * u
            if withElevation {
                while je < eleIndex.count - 2 && dist[eleIndex[je + 1]] < c { je += 1 }
                let a = eleIndex[je], b = eleIndex[je + 1]
                let s = dist[b] - dist[a]
                let v = s > 0 ? min(1, max(0, (c - dist[a]) / s)) : 0
                gEle[k] = ele[a] + (ele[b] - ele[a]) * v
            }
        }
        return (g, gLat, gLon, gEle)
    }

    /// Climb of the smoothed profile, counted once it moves `climbThreshold` from
    /// the last counted level (what smoothing leaves of the noise is centimetres).
    static func smoothedClimb(_ profile: [Double]) -> (Double, Double) {
        guard let first = profile.first else { return (0, 0) }
        var up = 0.0, down = 0.0, level = first
        for e in profile {
            if e - level >= climbThreshold {
                up += e - level; level = e
            } else if level - e >= climbThreshold {
                down += level - e; level = e
            }
        }
        return (up, down)
    }

    /// Metres the smoothed profile must move before a climb or descent counts.
    public static let climbThreshold = 1.0

    /// Grade of grid cell k (fraction).
    public func grade(cell k: Int) -> Double {
        let run = grid[k + 1] - grid[k]
        return run > 0 ? (elevation[k + 1] - elevation[k]) / run : 0
    }

    /// Smoothed elevation at race distance x (nil without elevation).
    public func elevation(at x: Double) -> Double? {
        guard hasElevation else { return nil }
        return interpolate(elevation, at: x)
    }

    /// Position at race distance x.
    public func position(at x: Double) -> (latitude: Double, longitude: Double) {
        (interpolate(latitude, at: x), interpolate(longitude, at: x))
    }

    func interpolate(_ values: [Double], at x: Double) -> Double {
        let x = min(max(0, x), raceMeters)
        let step = grid.count > 1 ? grid[1] - grid[0] : 1
        let k = min(grid.count - 2, Int(x / step))
        let span = grid[k + 1] - grid[k]
        let u = span > 0 ? (x - grid[k]) / span : 0
        return values[k] + (values[k + 1] - values[k]) * u
    }

    /// The cost factor of every grid cell under `model`.
    public func cost(_ model: GradeCostModel) -> CostProfile {
        var f = [Double](repeating: 1, count: grid.count - 1)
        if hasElevation { for k in f.indices { f[k] = model.cost(grade: grade(cell: k)) } }
        return CostProfile(bounds: grid, factor: f)
    }
}
