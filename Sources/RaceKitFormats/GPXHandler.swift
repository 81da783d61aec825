import RaceKitModel

/// Builds a `ParsedDocument` from GPX 1.0 / 1.1 element events.
///
/// Every timed `trk` goes into one activity (each `trkseg` a segment); a `trk`
/// without any timestamp is a planned route, kept as a course, like every `rte`.
/// Point extensions are matched by namespace URI and local name, at any depth
/// inside the point, in any number of `<extensions>` blocks; the first value of
/// a channel wins.
final class GPXHandler: ElementHandler {
    private enum Capture: UInt8 {
        case none, ele, time, hr, cadence, speed, power, temperature, distance
        case docName, docTime, trackName, trackType, routeName
    }

    private var document = ParsedDocument(format: .gpx)
    private var activity = RawActivity()
    private var elements = ElementStack<Capture>(none: .none)

    private var point = SamplePoint()
    private var pointIsRoute = false
    private var inPoint = false
    private var inTrack = false
    private var trackStart = 0
    private var trackSegmentStartCount = 0
    private var trackTimed = false
    private var trackName: String?
    private var trackType: String?
    private var route: RawCourse?
    private var documentName: String?
    private var documentTime: Double?
    private var sawTimedTrack = false
    private let vocabulary: Vocabulary

    init(vocabulary: Vocabulary) {
        self.vocabulary = vocabulary
    }

    var wantsText: Bool { elements.wantsText }
    var openElements: Int { elements.depth }
    private(set) var pointCount = 0
    private(set) var partCount = 0

    func text(_ bytes: UnsafeRawBufferPointer) { elements.append(bytes) }

    func start<S: NodeStream>(_ local: Local, _ stream: S) {
        var next = Capture.none
        let parent = elements.parent
        if inPoint {
            // ele and time as children of the point need no namespace check; only
            // extension values do, so the namespace is resolved only for them.
            let ns: Namespace =
                local.namespaceMatters(under: parent)
                ? stream.namespace
                : (local == .ele || local == .time) ? .none : .other
            switch local {
            case .ele where ns.isPlainGPX: next = .ele
            case .time where ns.isPlainGPX: next = .time
            case .hr where ns.isGarminTrackPoint || ns == .gpxData || ns.isPlainGPX,
                .heartrate where ns.isPlainGPX, .heartRate where ns.isPlainGPX:
                next = .hr
            case .cad where ns.isGarminTrackPoint || ns.isPlainGPX,
                .cadence where ns == .gpxData || ns.isPlainGPX:
                next = .cadence
            case .speed where ns == .trackPointV2 || ns.isPlainGPX: next = .speed
            case .power where ns.isPlainGPX || ns == .gpxData, .powerInWatts where ns == .powerV1: next = .power
            case .atemp where ns.isGarminTrackPoint || ns.isPlainGPX, .temp where ns == .gpxData || ns.isPlainGPX,
                .temperature where ns == .gpxx:
                next = .temperature
            case .distance where ns == .gpxData: next = .distance
            default: break
            }
        } else {
            switch local {
            case .trk:
                partCount += 1
                inTrack = true
                trackStart = activity.samples.count
                trackSegmentStartCount = activity.segmentStarts.count
                trackTimed = false
                trackName = nil
                trackType = nil
            case .trkseg where inTrack:
                partCount += 1
                activity.segmentStarts.append(activity.samples.count)
            case .trkpt where inTrack, .rtept where route != nil:
                if activity.samples.time.capacity == 0 { activity.samples.reserveCapacity(stream.expectedPoints) }
                beginPoint(stream, isRoute: local == .rtept)
            case .rte:
                partCount += 1
                route = RawCourse(kind: .gpxRoute)
            case .wpt:
                document.waypointCount += 1
            case .name:
                if parent == .trk {
                    next = .trackName
                } else if parent == .rte {
                    next = .routeName
                } else if parent == .metadata || parent == .gpx {
                    next = .docName
                }
            case .type where parent == .trk:
                next = .trackType
            case .time where parent == .metadata || parent == .gpx:
                next = .docTime
            case .heartRate where stream.namespace == .spoq:
                readDocumentHeartRate(stream)
            case .gpx where elements.depth == 0:
                stream.forEachAttribute { name, value in
                    if vocabulary.local(name) == .creator {
                        let s = String(decoding: value, as: UTF8.self).trimmingBlanks()
                        if !s.isEmpty { document.creator = s }
                    }
                }
            default:
                break
            }
        }
        elements.push(local, capture: next)
    }

    func end() {
        guard let frame = elements.pop() else { return }
        if frame.capture != .none {
            store(frame.capture)
            elements.clearText()
        }
        switch frame.local {
        case .trkpt where inPoint && !pointIsRoute:
            inPoint = false
            pointCount += 1
            if !point.time.isNaN { trackTimed = true }
            activity.samples.append(point)
        case .rtept where inPoint && pointIsRoute:
            inPoint = false
            pointCount += 1
            route?.samples.append(point)
        case .trk where inTrack:
            inTrack = false
            finishTrack()
        case .rte:
            if let r = route { document.courses.append(r) }
            route = nil
        default:
            break
        }
    }

    private func beginPoint<S: NodeStream>(_ stream: S, isRoute: Bool) {
        point = SamplePoint()
        inPoint = true
        pointIsRoute = isRoute
        var sawLat = false, sawLon = false
        stream.forEachAttribute { name, value in
            switch vocabulary.local(name) {
            case .lat: sawLat = true; point.latitude = parseNumber(value, &activity.issues)
            case .lon: sawLon = true; point.longitude = parseNumber(value, &activity.issues)
            default: break
            }
        }
        if !sawLat || !sawLon { activity.issues.missingPosition += 1 }
    }

    private func store(_ capture: Capture) {
        switch capture {
        case .none: break
        case .ele: point.elevation = elements.number(&activity.issues)
        case .time: point.time = elements.time(&activity.issues)
        case .hr: if point.heartRate.isNaN { point.heartRate = elements.number(&activity.issues) }
        case .cadence: if point.cadence.isNaN { point.cadence = elements.number(&activity.issues) }
        case .speed: if point.speed.isNaN { point.speed = elements.number(&activity.issues) }
        case .power: if point.power.isNaN { point.power = elements.number(&activity.issues) }
        case .temperature: if point.temperature.isNaN { point.temperature = elements.number(&activity.issues) }
        case .distance: if point.distance.isNaN { point.distance = elements.number(&activity.issues) }
        case .docName: documentName = elements.string
        case .docTime:
            let t = elements.time(&activity.issues)
            if t.isFinite { documentTime = t }
        case .trackName: trackName = elements.string
        case .trackType: trackType = elements.string
        case .routeName: route?.name = elements.string
        }
    }

    /// A `trk` without any timestamp is a planned route, not part of the activity.
    private func finishTrack() {
        if trackTimed {
            if !sawTimedTrack {
                activity.name = trackName
                activity.sport = trackType
                sawTimedTrack = true
            } else if activity.sport == nil {
                activity.sport = trackType
            }
            return
        }
        let count = activity.samples.count - trackStart
        guard count > 0 else {
            activity.segmentStarts.removeSubrange(trackSegmentStartCount...)
            return
        }
        var course = RawCourse(kind: .untimedTrack, name: trackName)
        course.samples.reserveCapacity(count)
        for i in trackStart..<activity.samples.count { course.samples.append(activity.samples[point: i]) }
        var trimmed = SampleSeries()
        trimmed.reserveCapacity(trackStart)
        for i in 0..<trackStart { trimmed.append(activity.samples[point: i]) }
        activity.samples = trimmed
        activity.segmentStarts.removeSubrange(trackSegmentStartCount...)
        document.courses.append(course)
    }

    private func readDocumentHeartRate<S: NodeStream>(_ stream: S) {
        var time = Double.nan, bpm = Double.nan
        stream.forEachAttribute { name, value in
            switch vocabulary.local(name) {
            case .time: time = TimestampParser.parse(value)?.secondsSinceEpoch ?? .nan
            case .bpm: bpm = NumberParser.parseDouble(value) ?? .nan
            default: break
            }
        }
        // Counted with the points: the point limit bounds this track too (10
        // million entries grew without bound).
        if time.isFinite, bpm.isFinite {
            document.documentHeartRate.append((time, bpm))
            pointCount += 1
        }
    }

    func finish() -> ParsedDocument {
        if activity.samples.count > 0 {
            activity.creator = document.creator
            if activity.name == nil { activity.name = documentName }
            activity.declaredStart = documentTime
            document.activities.append(activity)
        }
        return document
    }
}
