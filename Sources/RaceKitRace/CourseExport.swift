import CLibXML2
import Foundation
import RaceKitCore

/// A point to mark on an exported course: cues, aid stations and distance markers.
public struct CourseMark: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case gel, caffeine, drink, aid, marker

        /// TCX CoursePoint `PointType`.
        var tcxPointType: String {
            switch self {
            case .gel, .caffeine: return "Food"
            case .drink, .aid: return "Water"
            case .marker: return "Generic"
            }
        }

        /// GPX waypoint `sym` (Garmin's symbol names).
        var gpxSymbol: String {
            switch self {
            case .gel, .caffeine: return "Food Source"
            case .drink, .aid: return "Drinking Water"
            case .marker: return "Flag, Blue"
            }
        }
    }
    public var kind: Kind
    /// Short name (at most 10 characters: TCX CoursePoint names).
    public var name: String
    public var notes: String
    public var distanceMeters: Double
    public var clockSeconds: Int
}

/// Why an export failed.
public struct ExportError: Error, CustomStringConvertible, Sendable {
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
        let drinksAtStations = Dictionary(cues.filter { $0.kind == .drink && $0.atAidStation }.map { ($0.distanceMeters, $0) },
                                          uniquingKeysWith: { a, _ in a })
        for c in cues {
            switch c.kind {
            case .aid:
                var notes = "Aid station \(c.number) at \(TextFormat.fixed(c.distanceMeters / 1000, 1)) km"
                if let d = drinksAtStations[c.distanceMeters] { notes += ": " + drinkNote(d) }
                out.append(CourseMark(kind: .aid, name: "Aid \(c.number)", notes: notes, distanceMeters: c.distanceMeters, clockSeconds: c.clockSeconds))
            case .drink where c.atAidStation:
                continue
            case .drink:
                out.append(CourseMark(kind: .drink, name: "Drink \(c.number)", notes: drinkNote(c), distanceMeters: c.distanceMeters, clockSeconds: c.clockSeconds))
            case .gel, .caffeine:
                var notes = "Gel \(c.number): \(TextFormat.fixed(c.carbsGrams ?? 0, 0)) g carbohydrate"
                if let mg = c.caffeineMg { notes += ", \(TextFormat.fixed(mg, 0)) mg caffeine" }
                notes += " at \(TextFormat.duration(Double(c.clockSeconds)))"
                out.append(CourseMark(kind: c.kind == .gel ? .gel : .caffeine, name: "Gel \(c.number)", notes: notes,
                                      distanceMeters: c.distanceMeters, clockSeconds: c.clockSeconds))
            }
        }
        let unitName = unitMeters == 1000 ? "Km" : "Mile"
        var x = unitMeters, n = 1
        while x < plan.setup.distanceMeters - 1 {
            let clock = Int(plan.pacePlan.clockSeconds(at: x).rounded())
            out.append(CourseMark(kind: .marker, name: "\(unitName) \(n)", notes: "\(unitName) \(n) at \(TextFormat.duration(Double(clock)))",
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
        let midnight = TimestampParser.parse("\(setup.date ?? "2000-01-01")T00:00:00Z")?.secondsSinceEpoch ?? 946_684_800
        return midnight + (Units.parseDuration(setup.startTime ?? "0:00") ?? 0) * 60
    }

    static func isoTime(_ epoch: Double) -> String { TimestampParser.format(epoch.rounded(), fractional: false) }

    static func requireCourse(_ plan: RacePlan, _ format: String) throws -> CourseProfile {
        guard let c = plan.course else {
            throw ExportError(description: "a \(format) export needs a course file: add `course:` to \(plan.setup.file)")
        }
        return c
    }

    /// TCX v2 Course document.
    public static func tcx(_ plan: RacePlan, unitMeters: Double = 1000) throws -> Data {
        let course = try requireCourse(plan, "TCX")
        let w = try XMLWriter()
        let start = startEpoch(plan.setup)
        w.start("TrainingCenterDatabase")
        w.attribute("xmlns", "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2")
        w.attribute("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance")
        w.attribute("xsi:schemaLocation", "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd")
        w.start("Courses")
        w.start("Course")
        w.element("Name", tcxName(plan.setup.name, max: 15))
        let first = course.position(at: 0), last = course.position(at: course.raceMeters)
        w.start("Lap")
        w.element("TotalTimeSeconds", TextFormat.fixed(plan.pacePlan.targetSeconds, 0))
        w.element("DistanceMeters", TextFormat.fixed(course.raceMeters, 1))
        position(w, first, name: "BeginPosition")
        if let e = course.elevation(at: 0) { w.element("BeginAltitudeMeters", TextFormat.fixed(e, 1)) }
        position(w, last, name: "EndPosition")
        if let e = course.elevation(at: course.raceMeters) { w.element("EndAltitudeMeters", TextFormat.fixed(e, 1)) }
        w.element("Intensity", "Active")
        w.end()
        w.start("Track")
        for (k, x) in course.grid.enumerated() {
            w.start("Trackpoint")
            w.element("Time", isoTime(start + plan.pacePlan.clockSeconds(at: x)))
            position(w, (course.latitude[k], course.longitude[k]))
            if course.hasElevation { w.element("AltitudeMeters", TextFormat.fixed(course.elevation[k], 1)) }
            w.element("DistanceMeters", TextFormat.fixed(x, 1))
            w.end()
        }
        w.end()
        w.element("Notes", notes(plan))
        for m in marks(plan, unitMeters: unitMeters) {
            w.start("CoursePoint")
            w.element("Name", tcxName(m.name, max: 10))
            w.element("Time", isoTime(start + Double(m.clockSeconds)))
            position(w, course.position(at: m.distanceMeters))
            if let e = course.elevation(at: m.distanceMeters) { w.element("AltitudeMeters", TextFormat.fixed(e, 1)) }
            w.element("PointType", m.kind.tcxPointType)
            w.element("Notes", m.notes)
            w.end()
        }
        w.end(); w.end(); w.end()
        return try w.finish()
    }

    /// GPX 1.1: the marks as waypoints, the course as an untimed track.
    public static func gpx(_ plan: RacePlan, unitMeters: Double = 1000) throws -> Data {
        let course = try requireCourse(plan, "GPX")
        let w = try XMLWriter()
        w.start("gpx")
        w.attribute("version", "1.1")
        w.attribute("creator", "racekit")
        w.attribute("xmlns", "http://www.topografix.com/GPX/1/1")
        w.attribute("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance")
        w.attribute("xsi:schemaLocation", "http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd")
        w.start("metadata")
        w.element("name", plan.setup.name)
        w.element("desc", notes(plan))
        w.end()
        for m in marks(plan, unitMeters: unitMeters) {
            let p = course.position(at: m.distanceMeters)
            w.start("wpt")
            w.attribute("lat", TextFormat.fixed(p.latitude, 7))
            w.attribute("lon", TextFormat.fixed(p.longitude, 7))
            if let e = course.elevation(at: m.distanceMeters) { w.element("ele", TextFormat.fixed(e, 1)) }
            w.element("name", m.name)
            w.element("cmt", m.notes)
            w.element("desc", "\(TextFormat.fixed(m.distanceMeters / 1000, 2)) km, planned at \(TextFormat.duration(Double(m.clockSeconds)))")
            w.element("sym", m.kind.gpxSymbol)
            w.element("type", m.kind.rawValue)
            w.end()
        }
        w.start("trk")
        w.element("name", plan.setup.name)
        w.start("trkseg")
        for k in course.grid.indices {
            w.start("trkpt")
            w.attribute("lat", TextFormat.fixed(course.latitude[k], 7))
            w.attribute("lon", TextFormat.fixed(course.longitude[k], 7))
            if course.hasElevation { w.element("ele", TextFormat.fixed(course.elevation[k], 1)) }
            w.end()
        }
        w.end(); w.end(); w.end()
        return try w.finish()
    }

    static func notes(_ plan: RacePlan) -> String {
        "\(plan.setup.name): \(TextFormat.fixed(plan.setup.distanceMeters / 1000, 3)) km in \(TextFormat.duration(plan.setup.targetSeconds)), planned by racekit"
    }

    static func position(_ w: XMLWriter, _ p: (latitude: Double, longitude: Double), name: String = "Position") {
        w.start(name)
        w.element("LatitudeDegrees", TextFormat.fixed(p.latitude, 7))
        w.element("LongitudeDegrees", TextFormat.fixed(p.longitude, 7))
        w.end()
    }

    /// A TCX token: no leading, trailing or doubled blanks, at most `max` characters.
    static func tcxName(_ s: String, max: Int) -> String {
        let words = s.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        let t = String(words.joined(separator: " ").prefix(max)).trimmingCharacters(in: .whitespaces)
        return t.isEmpty ? "Race" : t
    }
}

/// A thin wrapper over libxml2's xmlTextWriter writing into memory, indented.
final class XMLWriter {
    private let buffer: xmlBufferPtr
    private let writer: xmlTextWriterPtr
    private var failed = false

    init() throws {
        guard let b = xmlBufferCreate() else { throw ExportError(description: "libxml2 could not allocate a buffer") }
        guard let w = xmlNewTextWriterMemory(b, 0) else {
            xmlBufferFree(b)
            throw ExportError(description: "libxml2 could not create a writer")
        }
        buffer = b
        writer = w
        xmlTextWriterSetIndent(w, 1)
        xmlTextWriterSetIndentString(w, "  ")
        check(xmlTextWriterStartDocument(w, "1.0", "UTF-8", nil))
    }

    deinit {
        xmlFreeTextWriter(writer)
        xmlBufferFree(buffer)
    }

    private func check(_ rc: Int32) { if rc < 0 { failed = true } }

    func start(_ name: String) { check(xmlTextWriterStartElement(writer, name)) }
    func end() { check(xmlTextWriterEndElement(writer)) }
    func attribute(_ name: String, _ value: String) { check(xmlTextWriterWriteAttribute(writer, name, value)) }
    func element(_ name: String, _ text: String) { check(xmlTextWriterWriteElement(writer, name, text)) }

    func finish() throws -> Data {
        check(xmlTextWriterEndDocument(writer))
        check(xmlTextWriterFlush(writer))
        guard !failed, let content = xmlBufferContent(buffer) else { throw ExportError(description: "libxml2 failed to write the document") }
        return Data(bytes: content, count: Int(xmlBufferLength(buffer)))
    }
}
