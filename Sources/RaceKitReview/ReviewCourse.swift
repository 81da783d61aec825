import Foundation
import RaceKitModel
import RaceKitOutput
import RaceKitPlan

/// Whether a recorded run went over the setup's course (its course file's
/// points): a review of a run in Munich against a course in Berlin compares
/// numbers that have nothing to do with each other.
///
/// Off the course means either of:
/// - the run's first position is more than `startLimitMeters` from the course's start;
/// - more than `offTrackShareLimit` of its positions (one every
///   `sampleSpacingMeters` of its distance) are more than `trackLimitMeters`
///   from every point of the course.
///
/// GPS on a road course is within 20-50 m of a course drawn on a map; a watch
/// started in the start pen a few hundred metres before the line stays within
/// the start limit.
public struct CourseFit: Sendable, Equatable {
    /// The run's start may be this far from the course's start (metres).
    public static let startLimitMeters = 1000.0
    /// A run position farther than this from the course is off it (metres).
    public static let trackLimitMeters = 300.0
    /// More than this share of the positions off the course: the run is not on it.
    public static let offTrackShareLimit = 0.10
    /// One position is checked every this many metres of the run's distance.
    public static let sampleSpacingMeters = 50.0

    /// The run's first position to the course's start, metres.
    public var startMeters: Double
    /// Positions checked, and how many of them were off the course.
    public var checked: Int
    public var offTrack: Int

    /// The share of the checked positions off the course (0...1).
    public var offTrackShare: Double { checked > 0 ? Double(offTrack) / Double(checked) : 0 }

    /// True when the run started near the course's start and kept to the course.
    public var isOnCourse: Bool {
        startMeters <= Self.startLimitMeters && offTrackShare <= Self.offTrackShareLimit
    }

    /// What is wrong, as a clause with its numbers; nil when on the course.
    public var problem: String? {
        guard !isOnCourse else { return nil }
        var parts: [String] = []
        if startMeters > Self.startLimitMeters {
            parts.append(
                "its start is \(Self.distanceText(startMeters)) from the course's start (limit \(Self.distanceText(Self.startLimitMeters)))"
            )
        }
        if offTrackShare > Self.offTrackShareLimit {
            parts.append(
                "\(TextFormat.fixed(offTrackShare * 100, 0))% of its track is more than \(TextFormat.fixed(Self.trackLimitMeters, 0)) m from the course (limit \(TextFormat.fixed(Self.offTrackShareLimit * 100, 0))%)"
            )
        }
        return parts.joined(separator: ", and ")
    }

    static func distanceText(_ m: Double) -> String {
        m >= 10_000 ? "\(TextFormat.fixed(m / 1000, 0)) km" : "\(TextFormat.fixed(m, 0)) m"
    }

    /// The fit of a run's positions to a course; nil when the run has no
    /// position (a treadmill run, a watch without GPS): nothing to compare.
    public static func check(_ s: SampleSeries, course: CourseProfile) -> CourseFit? {
        let n = s.count
        guard n > 0, s.latitude.count == n, s.longitude.count == n, !course.latitude.isEmpty else { return nil }
        var positions: [(lat: Double, lon: Double)] = []
        var lastDistance = -Double.infinity
        for i in 0..<n {
            let lat = s.latitude[i], lon = s.longitude[i]
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { continue }
            let d = s.distance.count == n && s.distance[i].isFinite ? s.distance[i] : .nan
            // One position per `sampleSpacingMeters` (every position without a distance stream).
            if positions.isEmpty || !d.isFinite || d - lastDistance >= sampleSpacingMeters {
                positions.append((lat, lon))
                if d.isFinite { lastDistance = d }
            }
        }
        guard let first = positions.first else { return nil }
        let grid = CourseGrid(course)
        let start = Geodesy.distance(
            lat1: first.lat, lon1: first.lon, lat2: course.latitude[0], lon2: course.longitude[0])
        let off = positions.reduce(0) { $0 + (grid.isNear($1.lat, $1.lon, within: trackLimitMeters) ? 0 : 1) }
        return CourseFit(startMeters: start, checked: positions.count, offTrack: off)
    }
}

/// The course's points in square cells of `trackLimitMeters` on a local flat
/// projection around its start: "is this position within the limit of the
/// course" looks at the 3 × 3 cells around it, not at every point.
struct CourseGrid {
    let lat0: Double, lon0: Double, metersPerDegreeLon: Double
    let cell: Double
    var cells: [Int64: [(x: Double, y: Double)]] = [:]

    static let metersPerDegreeLat = 111_195.0

    init(_ course: CourseProfile) {
        lat0 = course.latitude[0]
        lon0 = course.longitude[0]
        metersPerDegreeLon = Self.metersPerDegreeLat * max(0.01, cos(lat0 * .pi / 180))
        cell = CourseFit.trackLimitMeters
        for k in course.latitude.indices {
            let p = project(course.latitude[k], course.longitude[k])
            cells[key(p.x, p.y), default: []].append(p)
        }
    }

    func project(_ lat: Double, _ lon: Double) -> (x: Double, y: Double) {
        var dLon = lon - lon0
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return (dLon * metersPerDegreeLon, (lat - lat0) * Self.metersPerDegreeLat)
    }

    func index(_ v: Double) -> Int64 {
        Int64(max(-1e9, min(1e9, (v / cell).rounded(.down))))
    }

    func key(_ x: Double, _ y: Double) -> Int64 { key(index(x), index(y)) }
    func key(_ i: Int64, _ j: Int64) -> Int64 { i &* 4_000_000_007 &+ j }

    /// True when a course point lies within `limit` metres (limit <= cell size).
    func isNear(_ lat: Double, _ lon: Double, within limit: Double) -> Bool {
        let p = project(lat, lon)
        let i = index(p.x), j = index(p.y)
        for di in -1...1 {
            for dj in -1...1 {
                for q in cells[key(i + Int64(di), j + Int64(dj))] ?? []
                where (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y) <= limit * limit {
                    return true
                }
            }
        }
        return false
    }
}
