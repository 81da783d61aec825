import RaceKitModel

/// Builds a `ParsedDocument` from TCX (Training Center Database v2) element events.
///
/// Each `Activity` (under `Activities`, or `FirstSport`/`NextSport` of a
/// `MultiSportSession`) is one activity with its own sport. Garmin writes one
/// `Track` per lap: a new lap is not a pause, but a second `Track` inside a lap
/// is (the timer was stopped), so only that starts a new segment. `Courses/Course` are kept as courses. `ActivityExtension` values
/// (`Speed`, `RunCadence`, `Watts`) are matched by namespace URI, under any prefix
/// or as the default namespace.
final class TCXHandler: ElementHandler {
    private enum Capture: UInt8 {
        case none, time, latitude, longitude, altitude, distance, heartRate, cadence, runCadence, speed, watts
        case activityId, lapTime, lapDistance, lapCalories, creatorName, authorName, courseName, notes
    }

    private var document = ParsedDocument(format: .tcx)
    private var activity: RawActivity?
    private var course: RawCourse?
    private var lap: Lap?
    private var tracksInLap = 0
    private var elements = ElementStack<Capture>(none: .none)
    private var point = SamplePoint()
    private var inPoint = false
    private var inCreator = false
    private var inAuthor = false
    private var scratchIssues = ReadIssues()
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
        let parent = elements.parent
        var next = Capture.none
        if inPoint {
            let ns = local.namespaceMatters(under: parent) ? stream.namespace : .other
            switch local {
            case .timeTCX: next = .time
            case .latitudeDegrees: next = .latitude
            case .longitudeDegrees: next = .longitude
            case .altitudeMeters: next = .altitude
            case .distanceMeters where parent == .trackpoint: next = .distance
            case .value where parent == .heartRateBpm: next = .heartRate
            case .cadenceTCX where parent == .trackpoint: next = .cadence
            case .runCadence where ns == .activityExtension || ns.isTCX: next = .runCadence
            case .speedTCX where ns == .activityExtension || ns.isTCX: next = .speed
            case .watts where ns == .activityExtension || ns.isTCX: next = .watts
            default: break
            }
        } else {
            switch local {
            case .activity where activity == nil && course == nil:
                partCount += 1
                var a = RawActivity()
                stream.forEachAttribute { name, value in
                    if vocabulary.local(name) == .sport {
                        let s = String(decoding: value, as: UTF8.self).trimmingBlanks()
                        a.sport = s.isEmpty ? nil : s
                    }
                }
                activity = a
            case .course where parent == .courses:
                partCount += 1
                course = RawCourse(kind: .tcxCourse)
            case .id where parent == .activity: next = .activityId
            case .notes where parent == .activity: next = .notes
            case .lap where activity != nil:
                partCount += 1
                var l = Lap()
                stream.forEachAttribute { name, value in
                    if vocabulary.local(name) == .startTime {
                        l.startTime = TimestampParser.parse(value)?.secondsSinceEpoch
                    }
                }
                lap = l
                tracksInLap = 0
            case .totalTimeSeconds where parent == .lap: next = .lapTime
            case .distanceMeters where parent == .lap: next = .lapDistance
            case .calories where parent == .lap: next = .lapCalories
            case .track:
                partCount += 1
                if activity != nil, tracksInLap > 0 || activity!.samples.count == 0 {
                    activity!.segmentStarts.append(activity!.samples.count)
                }
                tracksInLap += 1
            case .trackpoint where activity != nil || course != nil:
                // The file's expected points for its first activity only: each of
                // 20,000 tiny activities reserving them took 830 MB.
                if pointCount == 0, let a = activity, a.samples.time.capacity == 0 {
                    activity!.samples.reserveCapacity(stream.expectedPoints)
                }
                point = SamplePoint()
                inPoint = true
            case .coursePoint:
                document.waypointCount += 1
            case .creatorTCX where activity != nil: inCreator = true
            case .author where parent == .trainingCenterDatabase: inAuthor = true
            case .nameTCX:
                if inCreator, parent == .creatorTCX {
                    next = .creatorName
                } else if inAuthor, parent == .author {
                    next = .authorName
                } else if course != nil, parent == .course {
                    next = .courseName
                }
            default: break
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
        case .trackpoint where inPoint:
            inPoint = false
            pointCount += 1
            if activity != nil { activity!.samples.append(point) } else { course?.samples.append(point) }
        case .lap:
            if let l = lap { activity?.laps.append(l) }
            lap = nil
        case .activity where activity != nil:
            document.activities.append(activity!)
            activity = nil
        case .course where course != nil:
            document.courses.append(course!)
            course = nil
        case .creatorTCX: inCreator = false
        case .author: inAuthor = false
        default: break
        }
    }

    private func store(_ capture: Capture) {
        var issues = activity?.issues ?? scratchIssues
        defer { if activity != nil { activity!.issues = issues } else { scratchIssues = issues } }
        switch capture {
        case .none: break
        case .time: point.time = elements.time(&issues)
        case .latitude: point.latitude = elements.number(&issues)
        case .longitude: point.longitude = elements.number(&issues)
        case .altitude: point.elevation = elements.number(&issues)
        case .distance: point.distance = elements.number(&issues)
        case .heartRate: point.heartRate = elements.number(&issues)
        case .cadence: if point.cadence.isNaN { point.cadence = elements.number(&issues) }
        case .runCadence:
            point.cadence = elements.number(&issues)
            activity?.cadenceIsPerLeg = true
        case .speed: point.speed = elements.number(&issues)
        case .watts: point.power = elements.number(&issues)
        case .activityId:
            let t = elements.time(&issues)
            if t.isFinite { activity?.declaredStart = t }
        case .lapTime: lap?.totalTimeSeconds = finite(elements.number(&issues))
        case .lapDistance: lap?.distanceMeters = finite(elements.number(&issues))
        case .lapCalories:
            // A negative energy is no energy (the lap then has none: the laps' sum is no total).
            lap?.energyKcal = finite(elements.number(&issues)).flatMap { $0 >= 0 ? $0 : nil }
        case .creatorName: activity?.creator = elements.string
        case .authorName: if document.creator == nil { document.creator = elements.string }
        case .courseName: course?.name = elements.string
        case .notes: activity?.notes = elements.string.map { String($0.prefix(RawActivity.maxNotes)) }
        }
    }

    private func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }

    func finish() -> ParsedDocument {
        for i in document.activities.indices where document.activities[i].creator == nil {
            document.activities[i].creator = document.creator
        }
        return document
    }
}
