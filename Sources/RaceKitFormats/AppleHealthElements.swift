import RaceKitMetrics

/// Turns `<Record>` and `<Location>` start tags into packed values, range-checked:
/// a record with a bad date, value or unit is left out and counted.
struct HealthRecordParser {
    var heartRate: [UInt64] = []
    var distance: [DistanceRecord] = []
    var locations: [PackedLocation] = []
    var wellness: [HealthWellnessRecord] = []
    var sources: [String] = []
    var issues = HealthRecordIssues()
    private var sourceIndex: [String: UInt16] = [:]
    private var lastSource: [UInt8] = []
    private var lastSourceIndex: UInt16 = 0

    /// Metres one distance record may hold (a record covers seconds to minutes).
    static let maxRecordMeters = 100_000.0
    /// Longest interval one distance record may cover.
    static let maxRecordSeconds: Int64 = 86_400

    mutating func record(_ attributes: HealthAttributes) {
        var type = UnsafeRawBufferPointer(start: nil, count: 0)
        var unit = type, start = type, end = type, value = type, source = type
        attributes.each { name, bytes in
            switch name {
            case .type: type = bytes
            case .unit: unit = bytes
            case .startDate: start = bytes
            case .endDate: end = bytes
            case .value: value = bytes
            case .sourceName: source = bytes
            default: break
            }
        }
        if let kind = HealthWellnessKind(type) {
            wellnessRecord(kind, unit: unit, start: start, end: end, value: value, source: source)
        } else if type.equals("HKQuantityTypeIdentifierHeartRate") {
            guard unit.equals("count/min") else { issues.unknownUnit += 1; return }
            guard let time = AppleHealthDate.parse(start), time >= 0 else { issues.badDate += 1; return }
            guard let bpm = value.number, TrackRepair.heartRateRange.contains(bpm) else {
                issues.badValue += 1
                return
            }
            heartRate.append(UInt64(time) << 32 | UInt64(Float32(bpm).bitPattern))
        } else if type.equals("HKQuantityTypeIdentifierDistanceWalkingRunning") {
            guard let factor = HealthUnit.meters(unit.string) else { issues.unknownUnit += 1; return }
            guard let from = AppleHealthDate.parse(start), let to = AppleHealthDate.parse(end), from >= 0,
                to >= from, to - from <= Self.maxRecordSeconds
            else {
                issues.badDate += 1
                return
            }
            guard let v = value.number, v >= 0, v * factor <= Self.maxRecordMeters else {
                issues.badValue += 1
                return
            }
            distance.append(
                DistanceRecord(
                    start: UInt32(from), end: UInt32(to), meters: Float32(v * factor), source: index(of: source)))
        }
    }

    /// A sleep span or a wellness reading, checked against its kind's range
    /// (`DailyKind`): a bad one is left out and counted, an unknown sleep value named.
    private mutating func wellnessRecord(
        _ kind: HealthWellnessKind, unit: UnsafeRawBufferPointer, start: UnsafeRawBufferPointer,
        end: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, source: UnsafeRawBufferPointer
    ) {
        guard let from = AppleHealthDate.parse(start), from >= 0 else { issues.badDate += 1; return }
        // A sleep span needs its end; a reading without one is an instant.
        let to = end.count == 0 && kind != .sleep ? from : AppleHealthDate.parse(end) ?? -1
        guard to >= 0 else { issues.badDate += 1; return }
        var daily: DailyKind
        var v: Double
        if kind == .sleep {
            guard let stage = HealthWellnessKind.sleepKind(value) else {
                issues.unknownSleep(value.string)
                return
            }
            daily = stage
            v = Double(to - from)
            guard to > from, v <= DailyKind.maxSpanSeconds else { issues.badSleepSpan += 1; return }
        } else {
            daily = kind.daily
            guard let factor = kind.factor(unit.string) else { issues.unknownUnit += 1; return }
            guard let n = value.number else { issues.badWellness += 1; return }
            v = n * factor
            guard to >= from else { issues.badDate += 1; return }
        }
        guard daily.range.contains(v) else { issues.badWellness += 1; return }
        // A record without a source is still the athlete's: told as "unknown source".
        let who = source.count == 0 ? index(named: "unknown source") : index(of: source)
        wellness.append(
            HealthWellnessRecord(
                kind: UInt8(DailyKind.all.firstIndex(of: daily)!), start: from, end: to, value: v, source: who))
    }

    /// The index of a source name; the last one is remembered (records come in runs).
    private mutating func index(of source: UnsafeRawBufferPointer) -> UInt16 {
        if source.elementsEqual(lastSource) { return lastSourceIndex }
        let index = self.index(named: source.string)
        lastSource = Array(source)
        lastSourceIndex = index
        return index
    }

    /// The index of a source name (a new one is added while there is room).
    private mutating func index(named text: String) -> UInt16 {
        let index: UInt16
        if let known = sourceIndex[text] {
            index = known
        } else if sources.count < Int(UInt16.max) {
            index = UInt16(sources.count)
            sources.append(text)
            sourceIndex[text] = index
        } else {
            index = UInt16.max
        }
        return index
    }

    mutating func location(_ attributes: HealthAttributes) {
        var time: Int64?
        var lat = Double.nan, lon = Double.nan, alt = Double.nan
        attributes.each { name, bytes in
            switch name {
            case .date: time = AppleHealthDate.parse(bytes)
            case .latitude: lat = bytes.number ?? .nan
            case .longitude: lon = bytes.number ?? .nan
            case .altitude: alt = bytes.number ?? .nan
            default: break
            }
        }
        guard let time, time >= 0, abs(lat) <= 90, abs(lon) <= 180 else {
            issues.badLocation += 1
            return
        }
        locations.append(
            PackedLocation(
                time: UInt32(time), latitude: Int32((lat * 1e7).rounded()), longitude: Int32((lon * 1e7).rounded()),
                altitude: abs(alt) < 100_000 ? Float32(alt) : .nan))
    }

    /// Hands what was collected to the export.
    mutating func move(into export: inout AppleHealthExport) {
        swap(&export.heartRate, &heartRate)
        swap(&export.distance, &distance)
        swap(&export.locations, &locations)
        swap(&export.wellness, &wellness)
        export.sources = sources
        export.issues = issues
    }
}

/// Collects one `<Workout>` and its children, checking every value: a workout
/// with a hostile date, number or unit gets a `problem` and is skipped later.
struct WorkoutParser {
    private(set) var workout: HealthWorkout
    private let locationStart: Int
    private var totalDistance: (value: Double?, text: String, unit: String?)?
    private var duration: (value: Double?, text: String, unit: String?)?
    private var energy: (value: Double?, text: String, unit: String?)?
    private var problems: [String] = []

    /// Longest workout accepted (the longest activity RaceKit stores).
    static let maxSeconds = Int64(Plausibility.maximumElapsedSeconds)
    /// Longest distance accepted for one workout, in metres.
    static let maxMeters = 1_000_000.0

    init(line: Int, attributes: HealthAttributes, locationStart: Int) {
        self.locationStart = locationStart
        workout = HealthWorkout(line: line, activityType: "", startText: "", endText: "")
        var start: Int64?, end: Int64?
        attributes.each { name, bytes in
            switch name {
            case .workoutActivityType:
                var type = bytes.string
                if type.hasPrefix("HKWorkoutActivityType") { type.removeFirst(21) }
                workout.activityType = type
            case .sourceName: workout.sourceName = bytes.string
            case .startDate: workout.startText = bytes.string; start = AppleHealthDate.parse(bytes)
            case .endDate: workout.endText = bytes.string; end = AppleHealthDate.parse(bytes)
            case .duration: duration = (bytes.number, bytes.string, duration?.unit)
            case .durationUnit: duration = (duration?.value, duration?.text ?? "", bytes.string)
            case .totalDistance: totalDistance = (bytes.number, bytes.string, totalDistance?.unit)
            case .totalDistanceUnit: totalDistance = (totalDistance?.value, totalDistance?.text ?? "", bytes.string)
            case .totalEnergyBurned: energy = (bytes.number, bytes.string, energy?.unit)
            case .totalEnergyBurnedUnit: energy = (energy?.value, energy?.text ?? "", bytes.string)
            default: break
            }
        }
        workout.start = start
        workout.end = end
        if workout.activityType.isEmpty { problems.append("no workoutActivityType") }
        if start == nil { problems.append("startDate \"\(workout.startText)\" is not a date RaceKit accepts") }
        if end == nil { problems.append("endDate \"\(workout.endText)\" is not a date RaceKit accepts") }
        if let start, let end {
            if end < start { problems.append("it ends before it starts") }
            if end - start > Self.maxSeconds { problems.append("it lasts more than \(Self.maxSeconds / 86_400) days") }
        }
        if let duration, !duration.text.isEmpty {
            workout.durationSeconds = seconds(duration.value, duration.text, unit: duration.unit, what: "duration")
        }
        if let totalDistance, !totalDistance.text.isEmpty {
            workout.distanceMeters = meters(
                totalDistance.value, totalDistance.text, unit: totalDistance.unit, what: "totalDistance")
        }
        if let energy, !energy.text.isEmpty {
            workout.energyKcal = kilocalories(energy.value, energy.text, unit: energy.unit, what: "totalEnergyBurned")
        }
    }

    /// Most energy accepted for one workout, in kilocalories (a week-long ultra burns about 60,000).
    static let maxKilocalories = 100_000.0

    /// An energy in kilocalories; a value that is not one is left out with a
    /// note (the workout is imported without it).
    private mutating func kilocalories(_ value: Double?, _ text: String, unit: String?, what: String) -> Double? {
        guard let value, value >= 0, value.isFinite else {
            workout.energyNote = "\(what) \"\(text)\" is not an energy (left out)"
            return nil
        }
        guard let unit, let factor = HealthUnit.kilocalories(unit) else {
            workout.energyNote = "unknown \(what) unit \"\(unit ?? "")\" (left out)"
            return nil
        }
        guard value * factor <= Self.maxKilocalories else {
            workout.energyNote = "\(what) \(text) \(unit) is more than \(Int(Self.maxKilocalories)) kcal (left out)"
            return nil
        }
        return value * factor
    }

    private mutating func seconds(_ value: Double?, _ text: String, unit: String?, what: String) -> Double? {
        guard let value, value >= 0, value.isFinite else {
            problems.append("\(what) \"\(text)\" is not a duration")
            return nil
        }
        guard let unit, let factor = HealthUnit.seconds(unit) else {
            problems.append("unknown \(what) unit \"\(unit ?? "")\"")
            return nil
        }
        guard value * factor <= Double(Self.maxSeconds) else {
            problems.append("\(what) \(text) \(unit) is longer than \(Self.maxSeconds / 86_400) days")
            return nil
        }
        return value * factor
    }

    private mutating func meters(_ value: Double?, _ text: String, unit: String?, what: String) -> Double? {
        guard let value, value >= 0 else {
            problems.append("\(what) \"\(text)\" is not a distance")
            return nil
        }
        guard let unit, let factor = HealthUnit.meters(unit) else {
            problems.append("unknown \(what) unit \"\(unit ?? "")\"")
            return nil
        }
        guard value * factor <= Self.maxMeters else {
            problems.append("\(what) \(text) \(unit) is more than \(Int(Self.maxMeters / 1000)) km")
            return nil
        }
        return value * factor
    }

    mutating func metadata(_ attributes: HealthAttributes) {
        var key = "", value = ""
        attributes.each { name, bytes in
            switch name {
            case .key: key = String(bytes.string.prefix(128))
            case .value: value = String(bytes.string.prefix(256))
            default: break
            }
        }
        if key == "HKIndoorWorkout" {
            workout.indoor = value == "1" ? true : value == "0" ? false : workout.indoor
        }
        if workout.metadata.count < AppleHealthExport.maxMetadata {
            workout.metadata.append(HealthMetadata(key: key, value: value))
        }
    }

    mutating func event(_ attributes: HealthAttributes) {
        var event = HealthWorkoutEvent(type: "", date: nil, durationSeconds: nil)
        var duration: Double?, unit: String?
        attributes.each { name, bytes in
            switch name {
            case .type:
                event.type = bytes.string
                if event.type.hasPrefix("HKWorkoutEventType") { event.type.removeFirst(18) }
            case .date: event.date = AppleHealthDate.parse(bytes)
            case .duration: duration = bytes.number
            case .durationUnit: unit = bytes.string
            default: break
            }
        }
        if let duration, let factor = HealthUnit.seconds(unit ?? "min"), duration >= 0 {
            event.durationSeconds = duration * factor
        }
        // Only pauses and resumes are used (laps, segments and markers are not laps
        // here): the others are not kept, so a flood of them costs nothing.
        guard HealthWorkoutEvent.pauseTypes.contains(event.type) || HealthWorkoutEvent.resumeTypes.contains(event.type)
        else { return }
        if workout.events.count < HealthWorkoutEvent.maxPerWorkout { workout.events.append(event) }
    }

    mutating func statistic(_ attributes: HealthAttributes) {
        var s = HealthWorkoutStatistic(type: "")
        attributes.each { name, bytes in
            switch name {
            case .type:
                s.type = bytes.string
                if s.type.hasPrefix("HKQuantityTypeIdentifier") { s.type.removeFirst(24) }
            case .sum: s.sum = bytes.number
            case .average: s.average = bytes.number
            case .minimum: s.minimum = bytes.number
            case .maximum: s.maximum = bytes.number
            case .unit: s.unit = bytes.string
            default: break
            }
        }
        if workout.statistics.count < 64 { workout.statistics.append(s) }
    }

    mutating func fileReference(_ attributes: HealthAttributes) {
        attributes.each { name, bytes in
            if name == .path, workout.routeFiles.count < 16 { workout.routeFiles.append(bytes.string) }
        }
    }

    /// Settles the declared distance and the problems once the workout ends.
    mutating func finish(locationEnd: Int) {
        workout.locations = locationStart..<locationEnd
        let wanted = AppleHealthSport.distanceStatistic(workout.sport)
        if let stat = workout.statistics.first(where: { $0.type == wanted && $0.sum != nil }) {
            let text = stat.sum.map { "\($0)" } ?? ""
            if let m = meters(stat.sum, text, unit: stat.unit, what: "\(wanted) statistic") {
                workout.distanceMeters = m
            }
        }
        if let stat = workout.statistics.first(where: { $0.type == "ActiveEnergyBurned" && $0.sum != nil }) {
            let text = stat.sum.map { "\($0)" } ?? ""
            if let kcal = kilocalories(stat.sum, text, unit: stat.unit, what: "ActiveEnergyBurned statistic") {
                workout.energyKcal = kcal
                workout.energyNote = nil
            }
        }
        if !problems.isEmpty { workout.problem = problems.joined(separator: "; ") }
    }
}
