internal import CLibXML2
import Foundation
import RaceKitModel
import RaceKitOutput

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

    public init(kind: Kind, name: String, notes: String, distanceMeters: Double, clockSeconds: Int) {
        self.kind = kind
        self.name = name
        self.notes = notes
        self.distanceMeters = distanceMeters
        self.clockSeconds = clockSeconds
    }
}

/// A course to write, independent of how it was planned: the track on a distance
/// grid with the planned time at each point, and the marks along it.
public struct CourseDocument: Sendable {
    public struct Point: Sendable {
        public var latitude: Double
        public var longitude: Double
        public var elevation: Double?
        public var distanceMeters: Double
        /// Planned time at this point, seconds since 1970.
        public var time: Double

        public init(latitude: Double, longitude: Double, elevation: Double?, distanceMeters: Double, time: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
            self.distanceMeters = distanceMeters
            self.time = time
        }
    }

    /// A mark with the position it is written at.
    public struct PlacedMark: Sendable {
        public var mark: CourseMark
        public var latitude: Double
        public var longitude: Double
        public var elevation: Double?
        /// Planned time at the mark, seconds since 1970.
        public var time: Double

        public init(mark: CourseMark, latitude: Double, longitude: Double, elevation: Double?, time: Double) {
            self.mark = mark
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
            self.time = time
        }
    }

    public var name: String
    public var notes: String
    public var totalSeconds: Double
    public var distanceMeters: Double
    /// Where the course starts and finishes (TCX lap begin and end).
    public var begin: PlacedPosition
    public var end: PlacedPosition
    public var points: [Point]
    public var marks: [PlacedMark]

    public struct PlacedPosition: Sendable {
        public var latitude: Double
        public var longitude: Double
        public var elevation: Double?

        public init(latitude: Double, longitude: Double, elevation: Double?) {
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
        }
    }

    public init(
        name: String, notes: String, totalSeconds: Double, distanceMeters: Double,
        begin: PlacedPosition, end: PlacedPosition, points: [Point], marks: [PlacedMark]
    ) {
        self.name = name
        self.notes = notes
        self.totalSeconds = totalSeconds
        self.distanceMeters = distanceMeters
        self.begin = begin
        self.end = end
        self.points = points
        self.marks = marks
    }
}

/// Why a document could not be written.
public struct WriteError: RaceKitError {
    public var exitClass: ExitClass { .ioError }
    public var description: String
}

/// Writes a course as a TCX v2 Course (with CoursePoints) or a GPX 1.1 track
/// (with waypoints), through libxml2's xmlTextWriter: the one place activity
/// XML is written, beside the readers.
public enum CourseWriter {
    /// TCX v2 Course document.
    public static func tcx(_ doc: CourseDocument) throws -> Data {
        let first = doc.begin, last = doc.end
        let w = try XMLWriter()
        w.start("TrainingCenterDatabase")
        w.attribute("xmlns", "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2")
        w.attribute("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance")
        w.attribute(
            "xsi:schemaLocation",
            "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd"
        )
        w.start("Courses")
        w.start("Course")
        w.element("Name", tcxName(doc.name, max: 15))
        w.start("Lap")
        w.element("TotalTimeSeconds", TextFormat.fixed(doc.totalSeconds, 0))
        w.element("DistanceMeters", TextFormat.fixed(doc.distanceMeters, 1))
        position(w, first.latitude, first.longitude, name: "BeginPosition")
        if let e = first.elevation { w.element("BeginAltitudeMeters", TextFormat.fixed(e, 1)) }
        position(w, last.latitude, last.longitude, name: "EndPosition")
        if let e = last.elevation { w.element("EndAltitudeMeters", TextFormat.fixed(e, 1)) }
        w.element("Intensity", "Active")
        w.end()
        w.start("Track")
        for p in doc.points {
            w.start("Trackpoint")
            w.element("Time", isoTime(p.time))
            position(w, p.latitude, p.longitude)
            if let e = p.elevation { w.element("AltitudeMeters", TextFormat.fixed(e, 1)) }
            w.element("DistanceMeters", TextFormat.fixed(p.distanceMeters, 1))
            w.end()
        }
        w.end()
        w.element("Notes", doc.notes)
        for m in doc.marks {
            w.start("CoursePoint")
            w.element("Name", tcxName(m.mark.name, max: 10))
            w.element("Time", isoTime(m.time))
            position(w, m.latitude, m.longitude)
            if let e = m.elevation { w.element("AltitudeMeters", TextFormat.fixed(e, 1)) }
            w.element("PointType", m.mark.kind.tcxPointType)
            w.element("Notes", m.mark.notes)
            w.end()
        }
        w.end(); w.end(); w.end()
        return try w.finish()
    }

    /// GPX 1.1: the marks as waypoints, the course as an untimed track.
    public static func gpx(_ doc: CourseDocument) throws -> Data {
        let w = try XMLWriter()
        w.start("gpx")
        w.attribute("version", "1.1")
        w.attribute("creator", "racekit")
        w.attribute("xmlns", "http://www.topografix.com/GPX/1/1")
        w.attribute("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance")
        w.attribute("xsi:schemaLocation", "http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd")
        w.start("metadata")
        w.element("name", doc.name)
        w.element("desc", doc.notes)
        w.end()
        for m in doc.marks {
            w.start("wpt")
            w.attribute("lat", TextFormat.fixed(m.latitude, 7))
            w.attribute("lon", TextFormat.fixed(m.longitude, 7))
            if let e = m.elevation { w.element("ele", TextFormat.fixed(e, 1)) }
            w.element("name", m.mark.name)
            w.element("cmt", m.mark.notes)
            w.element(
                "desc",
                "\(TextFormat.fixed(m.mark.distanceMeters / 1000, 2)) km, planned at \(TextFormat.duration(Double(m.mark.clockSeconds)))"
            )
            w.element("sym", m.mark.kind.gpxSymbol)
            w.element("type", m.mark.kind.rawValue)
            w.end()
        }
        w.start("trk")
        w.element("name", doc.name)
        w.start("trkseg")
        for p in doc.points {
            w.start("trkpt")
            w.attribute("lat", TextFormat.fixed(p.latitude, 7))
            w.attribute("lon", TextFormat.fixed(p.longitude, 7))
            if let e = p.elevation { w.element("ele", TextFormat.fixed(e, 1)) }
            w.end()
        }
        w.end(); w.end(); w.end()
        return try w.finish()
    }

    static func isoTime(_ epoch: Double) -> String { TimestampParser.format(epoch.rounded(), fractional: false) }

    static func position(_ w: XMLWriter, _ latitude: Double, _ longitude: Double, name: String = "Position") {
        w.start(name)
        w.element("LatitudeDegrees", TextFormat.fixed(latitude, 7))
        w.element("LongitudeDegrees", TextFormat.fixed(longitude, 7))
        w.end()
    }

    /// A TCX token: no leading, trailing or doubled blanks, at most `max` characters.
    public static func tcxName(_ s: String, max: Int) -> String {
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
        guard let b = xmlBufferCreate() else { throw WriteError(description: "libxml2 could not allocate a buffer") }
        guard let w = xmlNewTextWriterMemory(b, 0) else {
            xmlBufferFree(b)
            throw WriteError(description: "libxml2 could not create a writer")
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
        guard !failed, let content = xmlBufferContent(buffer) else {
            throw WriteError(description: "libxml2 failed to write the document")
        }
        return Data(bytes: content, count: Int(xmlBufferLength(buffer)))
    }
}
