import Foundation
import RaceKitCore
import RaceKitFormats

/// One row of a race plan: a pace-plan split with the course under it.
public struct PlannedSplit: Sendable, Equatable {
    public var split: PlanSplit
    /// Smoothed elevation at the end of the split (nil without a course with elevation).
    public var elevationMeters: Double?
    /// Net grade over the split, percent.
    public var gradePercent: Double?
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
        if let c = course {
            if abs(c.courseMeters - d) >= 10 {
                warnings.append(
                    "course: the course file measures \(TextFormat.fixed(c.courseMeters / 1000, 3)) km, the race \(TextFormat.fixed(d / 1000, 3)) km (\(c.courseMeters > d ? "+" : "")\(TextFormat.fixed((c.courseMeters / d - 1) * 100, 2))%): the course was scaled to the race distance"
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
        let pace: PacePlan
        do {
            pace = try PacePlan(
                distanceMeters: d, targetSeconds: setup.targetSeconds, strategy: setup.strategy, cost: cost)
        } catch let e as PacePlanError {
            throw SetupError(
                kind: .invalid, file: setup.file, line: setup.pacingLine, key: "pacing",
                message: e.description + (course != nil ? " over this course" : ""))
        }
        let raw = pace.splits(everyMeters: unitMeters, checkpoints: setup.checkpointsMeters)
        let splits = raw.map { s -> PlannedSplit in
            var row = PlannedSplit(split: s)
            if let c = course, c.hasElevation, let e0 = c.elevation(at: s.startMeters),
                let e1 = c.elevation(at: s.endMeters)
            {
                row.elevationMeters = e1
                row.gradePercent = (e1 - e0) / (s.endMeters - s.startMeters) * 100
            }
            return row
        }
        let cues = CuePlan(plan: pace, fueling: setup.fueling, hydration: setup.hydration)
        warnings += cues.warnings
        return RacePlan(
            setup: setup, pacePlan: pace, course: course, unitMeters: unitMeters, splits: splits,
            cues: cues, warnings: warnings)
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
