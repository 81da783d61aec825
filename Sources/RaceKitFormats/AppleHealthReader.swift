@preconcurrency internal import CLibXML2
import RaceKitModel

/// Reads an Apple Health `export.xml` in one streaming pass with libxml2's SAX2
/// push parser (no tree, no node objects: attribute values are read where the
/// parser holds them). The bytes go through `AppleHealthByteFilter` first.
///
/// Kept: every `<Workout>` (small structs), the heart-rate and walking/running
/// distance records packed and sorted by time, inline route points, and the
/// sleep and wellness records (sleep analysis, HRV, resting heart rate,
/// respiratory rate, VO2max, body mass) packed. The rest of the file (other
/// record types, activity summaries) is only parsed.
public enum AppleHealthReader {
    /// Bytes handed to libxml2 at a time.
    public static let chunkSize = 256 * 1024

    /// Reads an export from any byte source: a file now, an archive entry later.
    /// Throws `HealthExportError` or `FormatError` naming `stream.name` (and the
    /// line) when the document as a whole is refused or not well-formed.
    public static func read(_ stream: any ByteStream) throws -> AppleHealthExport {
        _ = LibXML.ready
        return try HealthSAXParser(name: stream.name).parse(AppleHealthByteFilter(stream))
    }

    /// Reads the export at `path` (plain or gzip).
    public static func read(path: String) throws -> AppleHealthExport {
        try read(FileByteStream(path: path))
    }

    /// A route resolver for an export in a folder: a `FileReference` path
    /// (`/workout-routes/route_2023-01-01_7.05am.gpx`) is looked up beside the
    /// `export.xml` at `exportPath` and read with the GPX reader; nil when the
    /// file is absent. Paths leaving the folder (`..`) or not ending in `.gpx` are refused.
    public static func folderRoutes(beside exportPath: String) -> HealthRouteResolver {
        let folder = exportPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        return { reference in
            let parts = reference.split(separator: "/")
            guard !parts.isEmpty, !parts.contains(".."), reference.lowercased().hasSuffix(".gpx") else {
                throw FormatError.cannotOpen(file: reference, reason: "not a route file inside the export folder")
            }
            let path = (folder.isEmpty ? "" : folder + "/") + parts.joined(separator: "/")
            guard access(path, R_OK) == 0 else { return nil }
            let read = try ActivityFileReader.read(path: path)
            guard case .document(let document) = read.outcome, let first = document.activities.first else {
                return RawActivity()
            }
            return first
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Names of the elements and attributes the reader acts on.
enum HealthName: UInt8 {
    case other
    // Elements
    case healthData, record, workout, metadataEntry, workoutEvent, workoutStatistics, workoutRoute
    case location, fileReference, workoutActivity
    // Attributes
    case type, unit, value, startDate, endDate, sourceName, workoutActivityType, duration, durationUnit
    case totalDistance, totalDistanceUnit, key, date, sum, average, minimum, maximum, latitude, longitude
    case altitude, path, totalEnergyBurned, totalEnergyBurnedUnit

    static let spellings: [(String, HealthName)] = [
        ("HealthData", .healthData), ("Record", .record), ("Workout", .workout),
        ("MetadataEntry", .metadataEntry), ("WorkoutEvent", .workoutEvent),
        ("WorkoutStatistics", .workoutStatistics), ("WorkoutRoute", .workoutRoute), ("Location", .location),
        ("FileReference", .fileReference), ("WorkoutActivity", .workoutActivity), ("type", .type), ("unit", .unit),
        ("value", .value),
        ("startDate", .startDate), ("endDate", .endDate), ("sourceName", .sourceName),
        ("workoutActivityType", .workoutActivityType), ("duration", .duration), ("durationUnit", .durationUnit),
        ("totalDistance", .totalDistance), ("totalDistanceUnit", .totalDistanceUnit), ("key", .key),
        ("date", .date), ("sum", .sum), ("average", .average), ("minimum", .minimum), ("maximum", .maximum),
        ("latitude", .latitude), ("longitude", .longitude), ("altitude", .altitude), ("path", .path),
        ("totalEnergyBurned", .totalEnergyBurned), ("totalEnergyBurnedUnit", .totalEnergyBurnedUnit)
    ]
}

/// The SAX2 callbacks' state for one export.
final class HealthSAXParser {
    let name: String
    private var export: AppleHealthExport
    private var context: xmlParserCtxtPtr?
    private let names = PointerTable<HealthName>(missing: .other)
    private var stack: [HealthName] = []
    private var failure: (any Error)?
    private var xmlError: (line: Int, message: String)?
    private var sawRoot = false
    var records = HealthRecordParser()
    private var workout: WorkoutParser?

    /// Most inline route points kept (16 bytes each: 640 MB).
    static let maxLocations = 40_000_000
    /// Most heart-rate records kept (8 bytes each: 800 MB).
    static let maxHeartRate = 100_000_000
    /// Most distance records kept (16 bytes each: 800 MB).
    static let maxDistance = 50_000_000
    /// Most sleep and wellness records kept (32 bytes each: 320 MB; ten years of
    /// a watch's nights and readings are about 200,000).
    static let maxWellness = 10_000_000
    /// Most workouts kept (a few hundred bytes each; real exports hold thousands).
    static let maxWorkouts = 500_000
    /// Most pause and resume events kept in all (about 50 bytes each: 50 MB; a
    /// real workout has a few dozen). Other events are not kept at all.
    static let maxEvents = 1_000_000
    private var eventsKept = 0

    init(name: String) {
        self.name = name
        export = AppleHealthExport(name: name)
    }

    func parse(_ input: AppleHealthByteFilter) throws -> AppleHealthExport {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { ctx, localname, _, _, _, _, count, _, attributes in
            guard let ctx, let localname else { return }
            Unmanaged<HealthSAXParser>.fromOpaque(ctx).takeUnretainedValue()
                .start(UnsafeRawPointer(localname), Int(count), attributes)
        }
        sax.endElementNs = { ctx, _, _, _ in
            guard let ctx else { return }
            Unmanaged<HealthSAXParser>.fromOpaque(ctx).takeUnretainedValue().end()
        }
        sax.serror = { ctx, error in
            guard let ctx, let error else { return }
            Unmanaged<HealthSAXParser>.fromOpaque(ctx).takeUnretainedValue().record(error.pointee)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let ctxt = xmlCreatePushParserCtxt(&sax, me, nil, 0, name) else {
            throw FormatError.cannotOpen(file: name, reason: "libxml2 could not create a parser")
        }
        defer { LibXML.free(ctxt) }
        context = ctxt
        xmlCtxtUseOptions(ctxt, Int32(XML_PARSE_NONET.rawValue))
        for (text, value) in HealthName.spellings {
            names.insert(UnsafeRawPointer(xmlDictLookup(ctxt.pointee.dict, text, -1)!), value)
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: AppleHealthReader.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try input.read(into: buffer, count: AppleHealthReader.chunkSize)
            let code = xmlParseChunk(ctxt, buffer.assumingMemoryBound(to: CChar.self), Int32(n), n == 0 ? 1 : 0)
            if let failure { throw failure }
            if let xmlError {
                throw FormatError.malformedXML(file: name, line: xmlError.line, message: xmlError.message)
            }
            if code != 0 {
                throw FormatError.malformedXML(file: name, line: line, message: "libxml2 error \(code)")
            }
            if n == 0 { break }
        }
        guard sawRoot else {
            throw FormatError.malformedXML(file: name, line: nil, message: "no root element: the document is empty")
        }
        records.move(into: &export)
        export.issues.replacedBytes = input.replacedBytes
        export.sortRecords()
        return export
    }

    private var line: Int { context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0 }

    private func record(_ error: xmlError) {
        guard xmlError == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = error.message.map { String(cString: $0) } ?? "XML error \(error.code)"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        xmlError = (Int(error.line), message)
        if let context { xmlStopParser(context) }
    }

    private func fail(_ error: any Error) {
        guard failure == nil else { return }
        failure = error
        if let context { xmlStopParser(context) }
    }

    private func start(
        _ localname: UnsafeRawPointer, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        let element = names[localname]
        let attributes = HealthAttributes(names: names, count: count, pointers: attributes)
        guard let parent = stack.last else {
            guard element == .healthData else {
                fail(
                    HealthExportError.notAnExport(
                        file: name, root: String(cString: localname.assumingMemoryBound(to: CChar.self))))
                return
            }
            sawRoot = true
            stack.append(element)
            return
        }
        switch element {
        case .record where parent == .healthData:
            records.record(attributes)
            if records.heartRate.count > Self.maxHeartRate || records.distance.count > Self.maxDistance
                || records.wellness.count > Self.maxWellness
            {
                fail(
                    HealthExportError.tooLarge(
                        file: name,
                        limit:
                            "more than \(Self.maxHeartRate) heart-rate, \(Self.maxDistance) distance or "
                            + "\(Self.maxWellness) sleep and wellness records"))
            }
        case .workout where parent == .healthData:
            if export.workouts.count >= Self.maxWorkouts {
                fail(HealthExportError.tooLarge(file: name, limit: "more than \(Self.maxWorkouts) workouts"))
            }
            workout = WorkoutParser(line: line, attributes: attributes, locationStart: records.locations.count)
        // iOS 16 and later may also nest them in a <WorkoutActivity> of the workout.
        case .metadataEntry where parent == .workout || parent == .workoutActivity:
            workout?.metadata(attributes)
        case .workoutEvent where parent == .workout || parent == .workoutActivity:
            let before = workout?.workout.events.count ?? 0
            workout?.event(attributes)
            eventsKept += (workout?.workout.events.count ?? 0) - before
            if eventsKept > Self.maxEvents {
                fail(
                    HealthExportError.tooLarge(file: name, limit: "more than \(Self.maxEvents) pause and resume events")
                )
            }
        case .workoutStatistics where parent == .workout || parent == .workoutActivity:
            workout?.statistic(attributes)
        case .location where parent == .workoutRoute && workout != nil:
            records.location(attributes)
            if records.locations.count > Self.maxLocations {
                fail(
                    HealthExportError.tooLarge(file: name, limit: "more than \(Self.maxLocations) inline route points"))
            }
        case .fileReference where parent == .workoutRoute:
            workout?.fileReference(attributes)
        default:
            break
        }
        stack.append(element)
    }

    private func end() {
        guard let element = stack.popLast() else { return }
        if element == .workout, stack.last == .healthData, var parsed = workout {
            parsed.finish(locationEnd: records.locations.count)
            export.workouts.append(parsed.workout)
            workout = nil
        }
    }
}

/// The attributes of one start tag as libxml2's SAX2 gives them: five pointers
/// each (local name, prefix, URI, value start, value end), names interned in the
/// parser's dictionary.
struct HealthAttributes {
    let names: PointerTable<HealthName>
    let count: Int
    let pointers: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?

    @inline(__always)
    func each(_ body: (HealthName, UnsafeRawBufferPointer) -> Void) {
        guard let pointers else { return }
        for k in 0..<count {
            guard let name = pointers[5 * k], let start = pointers[5 * k + 3], let end = pointers[5 * k + 4] else {
                continue
            }
            body(names[UnsafeRawPointer(name)], UnsafeRawBufferPointer(start: start, count: end - start))
        }
    }
}

extension UnsafeRawBufferPointer {
    /// True when the bytes are exactly `text`'s.
    @inline(__always)
    func equals(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, text.utf8Start, count) == 0)
    }

    /// The bytes as text, at most `maxAttributeBytes` of them: every attribute the
    /// reader keeps (types, units, sources, metadata, route paths) is short, and
    /// libxml2 allows 10 MB, which 64 metadata entries of thousands of workouts
    /// would otherwise keep.
    var string: String {
        let text = String(
            decoding: count > Self.maxAttributeBytes
                ? UnsafeRawBufferPointer(rebasing: self[..<Self.maxAttributeBytes]) : self, as: UTF8.self)
        // libxml2's SAX2 hands an attribute's `&amp;` on as `&#38;` (kept
        // escaped for a writer); every other reference arrives decoded.
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var out = "", rest = Substring(text)
        while let r = rest.range(of: "&#38;") {
            out += rest[..<r.lowerBound] + "&"
            rest = rest[r.upperBound...]
        }
        return out + rest
    }

    /// Most bytes of an attribute kept as text (a longer value is cut there).
    static var maxAttributeBytes: Int { 1024 }

    /// The bytes as a number, nil when they are not one or not finite.
    var number: Double? {
        guard let v = NumberParser.parseDouble(self), v.isFinite else { return nil }
        return v
    }
}
