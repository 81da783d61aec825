import Foundation
import RaceKitFormats
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput

/// One row of a race plan: a pace-plan split with the course under it.
public struct PlannedSplit: Sendable, Equatable {
    public var split: PlanSplit
    /// Smoothed elevation at the end of the split (nil without a course with elevation).
    public var elevationMeters: Double?
    /// Net grade over the split, percent.
    public var gradePercent: Double?
    /// A power plan's watts over the split (nil for other strategies).
    public var powerWatts: Double?
}

/// A race plan: splits, cues, warnings, and the course it was made on.
public struct RacePlan: Sendable {
    public var setup: RaceSetup
    public var pacePlan: PacePlan
    public var course: CourseProfile?
    public var unitMeters: Double
    public var splits: [PlannedSplit]
    public var cues: CuePlan
    public var warnings: [String]
    /// What the weather costs (nil: no `weather:`), and the lines the plan's
    /// summary adds for the heat and the fluids.
    public var heat: HeatCost?
    public var notes: [String] = []
    /// A power plan's watts and the time they give (nil: another strategy).
    public var power: PowerPacing?
    /// The planned finish: the target, or the target slowed for the heat
    /// (`weather:` with `adjust: plan`). The band, exports, script and review use it.
    public var plannedSeconds: Double { pacePlan.targetSeconds }
}

/// Makes a race plan from a setup: reads the course, builds the cost profile,
/// solves the strategy over it, splits it, places the cues.
public enum RacePlanner {
    public static func plan(_ setup: RaceSetup, unitMeters: Double = 1000) throws -> RacePlan {
        var warnings: [String] = []
        var course: CourseProfile?
        if let path = setup.coursePath {
            course = try readCourse(setup, path: path)
        }
        return try plan(setup, course: course, unitMeters: unitMeters, warnings: &warnings)
    }

    /// Plans on an already read course (benchmarks and tests).
    public static func plan(_ setup: RaceSetup, course: CourseProfile?, unitMeters: Double, warnings: inout [String])
        throws -> RacePlan
    {
        let d = setup.distanceMeters
        warnings += setup.warnings
        if let c = course {
            if abs(c.courseMeters - d) >= 10 {
                warnings.append(
                    "course: the course file measures \(CuePlan.distance(c.courseMeters, 3, unitMeters)), the race \(CuePlan.distance(d, 3, unitMeters)) (\(c.courseMeters > d ? "+" : "")\(TextFormat.fixed((c.courseMeters / d - 1) * 100, 2))%): the course was scaled to the race distance"
                )
            }
            if c.ignoredElevations > 0 {
                warnings.append(
                    "course: \(c.ignoredElevations) impossible elevation value\(c.ignoredElevations == 1 ? "" : "s") (outside -500...9000 m, no-data sentinels such as -32768, or placeholder zeros at an end) ignored"
                )
            }
            if !c.hasElevation {
                warnings.append("course: the course file has no elevation; planned as flat")
            }
        }
        let cost = course?.cost(setup.gradeModel)
        var notes: [String] = []
        var power: PowerPacing?
        var target = setup.targetSeconds
        if case .power(let p) = setup.strategy {
            let resolved = try PowerPacing.resolve(setup, p, cost: cost ?? CostProfile.flat(d))
            power = resolved
            target = resolved.seconds
            notes.append(
                PowerPacing.line(
                    resolved, targetSeconds: setup.targetSeconds, course: course != nil,
                    heat: setup.weather?.adjust == .plan))
        }
        var pace: PacePlan
        do {
            pace = try PacePlan(distanceMeters: d, targetSeconds: target, strategy: setup.strategy, cost: cost)
        } catch let e as PacePlanError {
            if let power {
                throw SetupError(
                    kind: .invalid, file: setup.file, line: setup.pacingLine,
                    key: power.target.watts != nil ? "pacing.watts" : "pacing.cp_percent",
                    message:
                        "\(TextFormat.fixed(power.watts, 0)) W at \(TextFormat.fixed(power.wattsPerMps, 1)) W per m/s is "
                        + "\(TextFormat.duration(1000 * power.wattsPerMps / power.watts))/km on the flat and "
                        + "\(TextFormat.duration(power.seconds)) for the race\(course != nil ? " over this course" : ""): "
                        + "a plan's pace must lie between 2:00/km and 20:00/km (\(e.description))")
            }
            throw SetupError(
                kind: .invalid, file: setup.file, line: setup.pacingLine, key: "pacing",
                message: e.description + (course != nil ? " over this course" : ""))
        }
        var heat: HeatCost?
        if let w = setup.weather {
            let (weatherCost, slowed) = w.cost(of: pace, startOfDay: setup.startSecondsOfDay) { t in
                try PacePlan(distanceMeters: d, targetSeconds: t, strategy: setup.strategy, cost: cost)
            }
            heat = weatherCost
            notes.append(weatherCost.line)
            warnings += weatherCost.warnings
            if w.adjust == .plan { pace = slowed }
            try checkCoverage(w, setup: setup, finish: pace.targetSeconds)
        }
        var hydration = setup.hydration
        var fluidWarnings: [String] = []
        if let h = hydration { (hydration, fluidWarnings) = FluidPlan.settle(h, plan: pace) }
        let raw = pace.splits(everyMeters: unitMeters, checkpoints: setup.checkpointsMeters)
        let splits = raw.map { s -> PlannedSplit in
            var row = PlannedSplit(split: s)
            if let c = course, c.hasElevation, let e0 = c.elevation(at: s.startMeters),
                let e1 = c.elevation(at: s.endMeters)
            {
                row.elevationMeters = e1
                row.gradePercent = (e1 - e0) / (s.endMeters - s.startMeters) * 100
            }
            if let power {
                row.powerWatts = PowerPacing.watts(
                    pace, cost: cost ?? CostProfile.flat(d), from: s.startMeters, to: s.endMeters,
                    wattsPerMps: power.wattsPerMps)
            }
            return row
        }
        let cues = CuePlan(plan: pace, fueling: setup.fueling, hydration: hydration, unitMeters: unitMeters)
        warnings += fluidWarnings + cues.warnings
        if let h = hydration {
            let fluids = FluidPlan.summary(h, cues: cues, raceSeconds: pace.targetSeconds)
            if let line = fluids.line { notes.append(line) }
            warnings += fluids.warnings
        }
        // The plan's setup holds the fluid it plans (a sweat rate sets it), and
        // a power plan's target is the time its watts give (the setup's
        // target_time is compared with it in the plan's notes).
        var planned = setup
        planned.hydration = hydration
        if let power { planned.targetSeconds = power.seconds }
        return RacePlan(
            setup: planned, pacePlan: pace, course: course, unitMeters: unitMeters, splits: splits,
            cues: cues, warnings: warnings, heat: heat, notes: notes, power: power)
    }

    /// An hourly forecast must reach from the start to the planned finish.
    static func checkCoverage(_ w: WeatherSettings, setup: RaceSetup, finish: Double) throws {
        guard w.isHourly, let start = setup.startSecondsOfDay, let first = w.readings.first?.secondsOfDay,
            let last = w.readings.last?.secondsOfDay
        else { return }
        let end = start + finish
        guard first > start || last < end else { return }
        let what =
            first > start
            ? "starts at \(WeatherSettings.clock(first)), after the start at \(WeatherSettings.clock(start))"
            : "ends at \(WeatherSettings.clock(last)), before the planned finish at \(WeatherSettings.clock(end)) (\(TextFormat.duration(finish)) after the start)"
        throw SetupError(
            kind: .invalid, file: setup.file, line: w.hourlyLine, key: "weather.hourly",
            message: "the forecast \(what): give hours that cover the whole race")
    }

    /// The longest a course may jump between a recording's segments.
    static let maximumSegmentGapMeters = 200.0

    /// Why the segments of `a` cannot be joined into one course (the first gap
    /// longer than `maximumSegmentGapMeters`), or nil.
    static func segmentGap(_ a: RawActivity) -> String? {
        let s = a.samples
        for (k, start) in a.segmentStarts.filter({ $0 > 0 }).sorted().enumerated() where start < s.count {
            // The last point with a position before the segment, the first in it.
            guard let before = (0..<start).last(where: { s.latitude[$0].isFinite && s.longitude[$0].isFinite }),
                let after = (start..<s.count).first(where: { s.latitude[$0].isFinite && s.longitude[$0].isFinite })
            else { continue }
            let d = Geodesy.distance(
                lat1: s.latitude[before], lon1: s.longitude[before], lat2: s.latitude[after], lon2: s.longitude[after])
            guard d > maximumSegmentGapMeters else { continue }
            let dt = s.time[after] - s.time[before]
            let when = dt.isFinite && dt > 0 ? " and \(TextFormat.duration(dt.rounded())) apart" : ""
            return
                "its track's segments \(k + 1) and \(k + 2) are \(TextFormat.fixed(d / 1000, 2)) km\(when): a course would cross the gap in a straight line; give the course as one route or track (or cut the file at the gap)"
        }
        return nil
    }

    /// Reads a course: a GPX route or track, a TCX course, or a recorded activity.
    public static func readCourse(_ setup: RaceSetup, path: String) throws -> CourseProfile {
        let fail = { (kind: SetupError.Kind, message: String) in
            SetupError(kind: kind, file: setup.file, line: setup.courseLine, key: "course", message: message)
        }
        guard FileManager.default.fileExists(atPath: path) else { throw fail(.unreadable, "no such file: \(path)") }
        let result: ReadResult
        do {
            result = try ActivityFileReader.read(path: path)
        } catch {
            throw fail(.invalid, "cannot read the course: \(error)")
        }
        guard case .document(let doc) = result.outcome else { throw fail(.invalid, "the course file \(path) is empty") }
        let samples: SampleSeries
        if let c = doc.courses.max(by: { $0.samples.count < $1.samples.count }), c.samples.count >= 2 {
            samples = c.samples
        } else if let a = doc.activities.max(by: { $0.samples.count < $1.samples.count }), a.samples.count >= 2 {
            // A recording's segments are joined end to start: refused where that
            // would be a straight line across a gap (a pause with the watch on the
            // move: a 6.9 km line was part of a course).
            if let gap = Self.segmentGap(a) { throw fail(.invalid, "\(path): \(gap)") }
            samples = a.samples
        } else {
            throw fail(.invalid, "\(path) holds no route, course or track")
        }
        do {
            return try CourseProfile(
                samples: samples, raceMeters: setup.distanceMeters, smoothingMeters: setup.smoothingMeters)
        } catch let e as CourseError {
            throw fail(.invalid, "\(path): \(e)")
        }
    }
}
