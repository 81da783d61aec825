import Foundation
import RaceKitFormats
import RaceKitModel
import RaceKitOutput

/// Why an export failed.
public struct ExportError: RaceKitError {
    /// The setup lacks what the export needs: a usage problem.
    public var exitClass: ExitClass { .usage }
    public var description: String
}

/// Writes a plan's course as a TCX Course (with CoursePoints) or a GPX 1.1 track
/// (with waypoints), through libxml2's xmlTextWriter.
///
/// Times in the TCX course are the plan's: the race date (2000-01-01 without one)
/// at `start_time` (00:00 without one), written as UTC, plus the planned clock
/// time at each point, so a watch's virtual partner runs the plan.
public enum CourseExport {
    /// The marks of a plan: every cue (an aid station with its drink as one mark)
    /// and a marker at every `unitMeters`.
    public static func marks(_ plan: RacePlan, unitMeters: Double) -> [CourseMark] {
        var out: [CourseMark] = []
        let cues = plan.cues.cues
        let drinksAtStations = Dictionary(
            cues.filter { $0.kind == .drink && $0.atAidStation }.map { ($0.distanceMeters, $0) },
            uniquingKeysWith: { a, _ in a })
        for c in cues {
            switch c.kind {
            case .aid:
                var notes = "Aid station \(c.number) at \(TextFormat.fixed(c.distanceMeters / 1000, 1)) km"
                if let d = drinksAtStations[c.distanceMeters] { notes += ": " + drinkNote(d) }
                out.append(
                    CourseMark(
                        kind: .aid, name: "Aid \(c.number)", notes: notes, distanceMeters: c.distanceMeters,
                        clockSeconds: c.clockSeconds))
            case .drink where c.atAidStation:
                continue
            case .drink:
                out.append(
                    CourseMark(
                        kind: .drink, name: "Drink \(c.number)", notes: drinkNote(c), distanceMeters: c.distanceMeters,
                        clockSeconds: c.clockSeconds))
            case .gel, .caffeine:
                var notes = "Gel \(c.number): \(TextFormat.fixed(c.carbsGrams ?? 0, 0)) g carbohydrate"
                if let mg = c.caffeineMg { notes += ", \(TextFormat.fixed(mg, 0)) mg caffeine" }
                notes += " at \(TextFormat.duration(Double(c.clockSeconds)))"
                out.append(
                    CourseMark(
                        kind: c.kind == .gel ? .gel : .caffeine, name: "Gel \(c.number)", notes: notes,
                        distanceMeters: c.distanceMeters, clockSeconds: c.clockSeconds))
            }
        }
        let unitName = unitMeters == 1000 ? "Km" : "Mile"
        var x = unitMeters, n = 1
        while x < plan.setup.distanceMeters - 1 {
            let clock = Int(plan.pacePlan.clockSeconds(at: x).rounded())
            out.append(
                CourseMark(
                    kind: .marker, name: "\(unitName) \(n)",
                    notes: "\(unitName) \(n) at \(TextFormat.duration(Double(clock)))",
                    distanceMeters: x, clockSeconds: clock))
            x += unitMeters; n += 1
        }
        out.sort { ($0.distanceMeters, $0.kind.rawValue) < ($1.distanceMeters, $1.kind.rawValue) }
        return out
    }

    static func drinkNote(_ c: Cue) -> String {
        var s = "drink \(TextFormat.fixed(c.fluidMl ?? 0, 0)) ml"
        if let na = c.sodiumMg, na > 0 { s += " with \(TextFormat.fixed(na, 0)) mg sodium" }
        return s + " at \(TextFormat.duration(Double(c.clockSeconds)))"
    }

    /// Seconds since 1970 of the plan's start.
    static func startEpoch(_ setup: RaceSetup) -> Double {
        let midnight =
            TimestampParser.parse("\(setup.date ?? "2000-01-01")T00:00:00Z")?.secondsSinceEpoch ?? 946_684_800
        return midnight + (Units.parseDuration(setup.startTime ?? "0:00") ?? 0) * 60
    }

    static func requireCourse(_ plan: RacePlan, _ format: String) throws -> CourseProfile {
        guard let c = plan.course else {
            throw ExportError(
                description: "a \(format) export needs a course file: add `course:` to \(plan.setup.file)")
        }
        return c
    }

    /// The plan's course as a document the writers take: the course grid with
    /// the planned time at each point, and the marks placed on the course.
    static func document(_ plan: RacePlan, unitMeters: Double, format: String) throws -> CourseDocument {
        let course = try requireCourse(plan, format)
        let start = startEpoch(plan.setup)
        func placed(_ x: Double) -> CourseDocument.PlacedPosition {
            let p = course.position(at: x)
            return .init(latitude: p.latitude, longitude: p.longitude, elevation: course.elevation(at: x))
        }
        let points = course.grid.enumerated().map { k, x in
            CourseDocument.Point(
                latitude: course.latitude[k], longitude: course.longitude[k],
                elevation: course.hasElevation ? course.elevation[k] : nil,
                distanceMeters: x, time: start + plan.pacePlan.clockSeconds(at: x))
        }
        let marks = marks(plan, unitMeters: unitMeters).map { m in
            let p = placed(m.distanceMeters)
            return CourseDocument.PlacedMark(
                mark: m, latitude: p.latitude, longitude: p.longitude, elevation: p.elevation,
                time: start + Double(m.clockSeconds))
        }
        return CourseDocument(
            name: plan.setup.name, notes: notes(plan), totalSeconds: plan.pacePlan.targetSeconds,
            distanceMeters: course.raceMeters, begin: placed(0), end: placed(course.raceMeters),
            points: points, marks: marks)
    }

    /// TCX v2 Course document; the times are the plan's, so a watch's virtual partner runs it.
    public static func tcx(_ plan: RacePlan, unitMeters: Double = 1000) throws -> Data {
        try CourseWriter.tcx(document(plan, unitMeters: unitMeters, format: "TCX"))
    }

    /// GPX 1.1: the marks as waypoints, the course as an untimed track.
    public static func gpx(_ plan: RacePlan, unitMeters: Double = 1000) throws -> Data {
        try CourseWriter.gpx(document(plan, unitMeters: unitMeters, format: "GPX"))
    }

    static func notes(_ plan: RacePlan) -> String {
        "\(plan.setup.name): \(TextFormat.fixed(plan.setup.distanceMeters / 1000, 3)) km in \(TextFormat.duration(plan.plannedSeconds)), planned by racekit"
    }
}
