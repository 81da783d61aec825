import RaceKitMetrics
import RaceKitModel

/// One `<Workout>` of an export, as small as it can be: its samples are built
/// only when it is imported (`AppleHealthExport.activity(of:route:)`).
public struct HealthWorkout: Sendable {
    /// Line of the `<Workout>` start tag.
    public var line: Int
    /// `workoutActivityType` without its `HKWorkoutActivityType` prefix (`Running`).
    public var activityType: String
    /// The sport RaceKit stores it as (`AppleHealthSport`).
    public var sport: Sport { AppleHealthSport.sport(activityType) }
    /// The app or watch that recorded it (`sourceName`).
    public var sourceName: String?
    /// `startDate` as written (for messages and the workout's identity).
    public var startText: String
    /// `endDate` as written.
    public var endText: String
    /// Start and end, seconds since the epoch; nil when unparseable.
    public var start: Int64?
    public var end: Int64?
    /// Declared duration in seconds (`duration` + `durationUnit`).
    public var durationSeconds: Double?
    /// Declared distance in metres: the workout's `totalDistance` (before iOS 16)
    /// or its distance statistic (`WorkoutStatistics`, since iOS 16).
    public var distanceMeters: Double?
    /// Active energy in kilocalories: the workout's `totalEnergyBurned` (before
    /// iOS 16) or its `ActiveEnergyBurned` statistic (since iOS 16).
    public var energyKcal: Double?
    /// Why an energy the workout declares was left out.
    public var energyNote: String?
    /// `HKIndoorWorkout` metadata: true indoor (treadmill), false outdoor, nil unknown.
    public var indoor: Bool?
    /// Metadata entries (`key`, `value`), at most `AppleHealthExport.maxMetadata`.
    public var metadata: [HealthMetadata] = []
    /// Pause, resume, lap, segment and marker events, in file order.
    public var events: [HealthWorkoutEvent] = []
    /// Statistics (iOS 16 and later).
    public var statistics: [HealthWorkoutStatistic] = []
    /// Inline `<Location>` points (before iOS 16): a range of the export's locations.
    public var locations: Range<Int> = 0..<0
    /// `FileReference` paths of the workout's route (since iOS 16).
    public var routeFiles: [String] = []
    /// Why it cannot be imported (a hostile date, an unknown unit), or nil.
    public var problem: String?

    /// A stable identity (hex SHA-256 of its source, type, start and end as
    /// written): the same workout in a later export has the same one, so that
    /// importing a newer export stores only the workouts that are new.
    public var identity: String {
        let text = "apple-health-workout\n\(sourceName ?? "")\n\(activityType)\n\(startText)\n\(endText)"
        return ContentDigest.hex(of: text)
    }

    /// The workout as messages name it: `Running workout of 2019-07-01 07:00:00 +0200 (line 812)`.
    public var label: String { "\(activityType) workout of \(startText) (line \(line))" }
}

/// A metadata entry of a workout.
public struct HealthMetadata: Sendable, Equatable {
    public var key: String
    public var value: String
}

/// A `<WorkoutEvent>`.
public struct HealthWorkoutEvent: Sendable, Equatable {
    /// The type without its `HKWorkoutEventType` prefix: `Pause`, `Resume`,
    /// `MotionPaused`, `MotionResumed`, `Lap`, `Segment`, `Marker`.
    public var type: String
    /// Seconds since the epoch; nil when unparseable.
    public var date: Int64?
    /// Seconds (segments and laps carry one).
    public var durationSeconds: Double?

    /// The types that pause a workout, and those that resume it: the only events
    /// kept (`AppleHealthReader`).
    public static let pauseTypes: Set<String> = ["Pause", "MotionPaused"]
    public static let resumeTypes: Set<String> = ["Resume", "MotionResumed"]
    /// Most pause and resume events kept per workout (a real one has a few dozen).
    public static let maxPerWorkout = 10_000
}

/// A `<WorkoutStatistics>` entry.
public struct HealthWorkoutStatistic: Sendable, Equatable {
    /// The type without `HKQuantityTypeIdentifier`: `DistanceWalkingRunning`, `HeartRate`, ...
    public var type: String
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var unit: String?
}

/// A route point written inline (`<Location>`), packed to 16 bytes: an export
/// before iOS 16 holds every route in the file.
struct PackedLocation: Sendable {
    /// Seconds since the epoch.
    var time: UInt32
    /// Degrees times 10^7 (about 1 cm).
    var latitude: Int32
    var longitude: Int32
    /// Metres; NaN when absent.
    var altitude: Float32
}

/// A distance sample (`HKQuantityTypeIdentifierDistanceWalkingRunning`): the
/// metres covered between `start` and `end`, and the app or device that counted them.
struct DistanceRecord: Sendable {
    var start: UInt32
    var end: UInt32
    var meters: Float32
    var source: UInt16
}

/// A sleep span or a wellness reading of the export: a daily measurement
/// waiting for its athlete (`AppleHealthExport.measurements`).
struct HealthWellnessRecord: Sendable {
    /// The index of its kind in `DailyKind.all`.
    var kind: UInt8
    var start: Int64
    var end: Int64
    var value: Double
    var source: UInt16
}

/// The record types read as daily measurements.
enum HealthWellnessKind: Equatable {
    case sleep, hrv, restingHR, respiratoryRate, vo2max, bodyMass

    init?(_ type: UnsafeRawBufferPointer) {
        if type.equals("HKCategoryTypeIdentifierSleepAnalysis") {
            self = .sleep
        } else if type.equals("HKQuantityTypeIdentifierHeartRateVariabilitySDNN") {
            self = .hrv
        } else if type.equals("HKQuantityTypeIdentifierRestingHeartRate") {
            self = .restingHR
        } else if type.equals("HKQuantityTypeIdentifierRespiratoryRate") {
            self = .respiratoryRate
        } else if type.equals("HKQuantityTypeIdentifierVO2Max") {
            self = .vo2max
        } else if type.equals("HKQuantityTypeIdentifierBodyMass") {
            self = .bodyMass
        } else {
            return nil
        }
    }

    var daily: DailyKind {
        let key: String
        switch self {
        case .sleep: key = "sleep_asleep"
        case .hrv: key = "hrv_sdnn"
        case .restingHR: key = "resting_hr"
        case .respiratoryRate: key = "respiratory_rate"
        case .vo2max: key = "vo2max"
        case .bodyMass: key = "body_mass"
        }
        return DailyKind.named(key)!
    }

    /// The factor from an export unit to the kind's unit; nil for a unit RaceKit does not know.
    func factor(_ unit: String) -> Double? {
        switch self {
        case .sleep: return 1
        case .hrv: return unit == "ms" ? 1 : unit == "s" ? 1000 : nil
        case .restingHR, .respiratoryRate: return unit == "count/min" ? 1 : unit == "count/s" ? 60 : nil
        case .vo2max:
            // HealthKit writes `mL/min·kg` (a middle dot).
            let plain = String(unit.map { $0 == "\u{00B7}" ? "*" : $0 }).lowercased()
            return ["ml/min*kg", "ml/kg*min", "ml/(kg*min)", "ml/kg/min"].contains(plain) ? 1 : nil
        case .bodyMass:
            switch unit {
            case "kg": return 1
            case "g": return 0.001
            case "lb": return 0.45359237
            case "st": return 6.35029318
            default: return nil
            }
        }
    }

    /// The kind of a sleep value (`HKCategoryValueSleepAnalysisAsleepCore`, or
    /// the plain number older exports write); nil for one RaceKit does not know.
    static func sleepKind(_ value: UnsafeRawBufferPointer) -> DailyKind? {
        var text = value.string
        if text.hasPrefix("HKCategoryValueSleepAnalysis") { text.removeFirst(28) }
        let key: String
        switch text {
        case "InBed", "0": key = "sleep_in_bed"
        case "Asleep", "AsleepUnspecified", "1": key = "sleep_asleep"
        case "Awake", "2": key = "sleep_awake"
        case "AsleepCore", "3": key = "sleep_core"
        case "AsleepDeep", "4": key = "sleep_deep"
        case "AsleepREM", "5": key = "sleep_rem"
        default: return nil
        }
        return DailyKind.named(key)
    }
}

/// Counts of the records left out, by reason.
public struct HealthRecordIssues: Sendable, Equatable {
    /// Records whose date could not be parsed or lies outside `AppleHealthDate.years`.
    public var badDate = 0
    /// Records whose value is not a number or out of range (heart rate outside 25...250 bpm).
    public var badValue = 0
    /// Records in a unit RaceKit does not know.
    public var unknownUnit = 0
    /// Inline route points with a bad date or position.
    public var badLocation = 0
    /// Bytes XML forbids (e.g. `\x0b`) replaced by a space.
    public var replacedBytes = 0
    /// Wellness readings outside their kind's range (HRV <= 0 or > 300 ms,
    /// resting heart rate outside 25-150 bpm, ...) or not a number.
    public var badWellness = 0
    /// Sleep spans over 20 hours or ending before they start.
    public var badSleepSpan = 0
    /// Sleep values RaceKit does not know, by value (the first 8 named).
    public var unknownSleepValues: [String: Int] = [:]
    public init() {}

    mutating func unknownSleep(_ value: String) {
        let name = String(value.prefix(64))
        if unknownSleepValues[name] != nil || unknownSleepValues.count < 8 {
            unknownSleepValues[name, default: 0] += 1
        } else {
            unknownSleepValues["other", default: 0] += 1
        }
    }

    /// Short descriptions of the non-zero counts.
    public var descriptions: [String] {
        func count(_ n: Int, _ one: String, _ many: String) -> String { n == 1 ? "1 \(one)" : "\(n) \(many)" }
        var out: [String] = []
        if badDate > 0 {
            out.append(count(badDate, "record", "records") + " with an unreadable or implausible date left out")
        }
        if badValue > 0 { out.append(count(badValue, "record", "records") + " with an impossible value left out") }
        if unknownUnit > 0 { out.append(count(unknownUnit, "record", "records") + " in an unknown unit left out") }
        if badLocation > 0 {
            out.append(count(badLocation, "route point", "route points") + " with a bad date or position left out")
        }
        if badWellness > 0 {
            out.append(
                count(badWellness, "wellness reading", "wellness readings") + " with an impossible value left out")
        }
        if badSleepSpan > 0 {
            out.append(
                count(badSleepSpan, "sleep span", "sleep spans") + " over 20 h or ending before it starts left out")
        }
        if !unknownSleepValues.isEmpty {
            let named = unknownSleepValues.sorted { $0.key < $1.key }.map { "\"\($0.key)\" (\($0.value))" }
            out.append("sleep records with a value RaceKit does not know left out: " + named.joined(separator: ", "))
        }
        if replacedBytes > 0 {
            out.append(
                count(replacedBytes, "character XML forbids", "characters XML forbids") + " replaced by a space")
        }
        return out
    }
}

/// Everything RaceKit keeps of an `export.xml` after one pass over it: the
/// workouts, and the heart-rate and distance records packed and sorted by time.
/// Memory: 8 bytes per heart-rate record, 16 per distance record and inline route
/// point, a few hundred bytes per workout; never the file.
public struct AppleHealthExport: Sendable {
    /// The export's name in messages (its path, or `archive.zip: export.xml`).
    public let name: String
    /// Every workout, in file order (running or not).
    public internal(set) var workouts: [HealthWorkout] = []
    /// Heart rate: `seconds << 32 | Float32(bpm).bitPattern`, sorted.
    var heartRate: [UInt64] = []
    /// Walking and running distance, sorted by start.
    var distance: [DistanceRecord] = []
    /// Source names of the distance records.
    var sources: [String] = []
    /// Inline route points of every workout.
    var locations: [PackedLocation] = []
    /// Sleep spans and wellness readings, in file order.
    var wellness: [HealthWellnessRecord] = []
    /// Records left out, by reason.
    public internal(set) var issues = HealthRecordIssues()

    /// Most metadata entries kept per workout.
    public static let maxMetadata = 64

    init(name: String) { self.name = name }

    /// Heart-rate records kept.
    public var heartRateCount: Int { heartRate.count }
    /// Sleep spans and wellness readings kept.
    public var wellnessCount: Int { wellness.count }

    /// The sleep spans and wellness readings as `athleteID`'s daily measurements,
    /// `limit` at a time from `offset` (a long history is stored in pieces).
    public func measurements(
        athleteID: String, sourceFile: String, importedAt: Double, offset: Int = 0, limit: Int = .max
    ) -> [DailyMeasurement] {
        let end = min(wellness.count, offset + min(limit, wellness.count))
        guard offset < end else { return [] }
        return wellness[offset..<end].map { r in
            DailyMeasurement(
                athleteID: athleteID, kind: DailyKind.all[Int(r.kind)], value: r.value, start: Double(r.start),
                end: Double(r.end),
                source: DailyMeasurement.importedSource(r.source < sources.count ? sources[Int(r.source)] : "unknown"),
                sourceFile: sourceFile, importedAt: importedAt)
        }
    }
    /// Distance records kept.
    public var distanceCount: Int { distance.count }

    /// Heart-rate records from `from` to `to` (seconds since the epoch, inclusive).
    func heartRate(from: Int64, to: Int64) -> ArraySlice<UInt64> {
        let low = UInt64(UInt32(clamping: max(0, from))) << 32
        let high = to < 0 ? 0 : (UInt64(UInt32(clamping: to)) + 1) << 32
        return heartRate[lowerBound(heartRate, low)..<lowerBound(heartRate, high)]
    }

    /// Sorts what the parser appended (usually already in order: checked first).
    mutating func sortRecords() {
        if !isSorted(heartRate, by: <) { heartRate.sort() }
        if !isSorted(distance, by: { $0.start < $1.start }) { distance.sort { $0.start < $1.start } }
    }
}

/// Index of the first element not below `key`.
func lowerBound(_ a: [UInt64], _ key: UInt64) -> Int {
    var low = 0, high = a.count
    while low < high {
        let mid = (low + high) / 2
        if a[mid] < key { low = mid + 1 } else { high = mid }
    }
    return low
}

private func isSorted<T>(_ a: [T], by less: (T, T) -> Bool) -> Bool {
    var k = 1
    while k < a.count {
        if less(a[k], a[k - 1]) { return false }
        k += 1
    }
    return true
}

/// Apple's workout activity types as RaceKit's sports (docs/import.md, "Apple Health export").
public enum AppleHealthSport {
    /// The sport of a `workoutActivityType` without its prefix; unknown types are `other`.
    public static func sport(_ type: String) -> Sport {
        switch type {
        case "Running": return .running
        case "Walking": return .walking
        case "Hiking": return .hiking
        case "Cycling", "HandCycling": return .cycling
        case "Swimming": return .swimming
        case "DownhillSkiing", "CrossCountrySkiing", "Snowboarding", "SnowSports": return .skiing
        default: return .other
        }
    }

    /// The `WorkoutStatistics` type that carries a sport's distance.
    static func distanceStatistic(_ sport: Sport) -> String {
        switch sport {
        case .cycling: return "DistanceCycling"
        case .swimming: return "DistanceSwimming"
        case .skiing: return "DistanceDownhillSnowSports"
        default: return "DistanceWalkingRunning"
        }
    }
}

/// Apple's unit strings.
enum HealthUnit {
    /// Metres per unit of a length; nil for a unit RaceKit does not know.
    static func meters(_ unit: String) -> Double? {
        switch unit {
        case "m": return 1
        case "km": return 1000
        case "mi": return 1609.344
        case "ft": return 0.3048
        case "yd": return 0.9144
        case "cm": return 0.01
        case "mm": return 0.001
        default: return nil
        }
    }

    /// Seconds per unit of a duration; nil for a unit RaceKit does not know.
    static func seconds(_ unit: String) -> Double? {
        switch unit {
        case "s", "sec": return 1
        case "min": return 60
        case "hr", "h": return 3600
        case "ms": return 0.001
        case "d", "day": return 86_400
        default: return nil
        }
    }

    /// Kilocalories per unit of energy; nil for a unit RaceKit does not know
    /// (HealthKit writes `Cal` for the dietary calorie, a kilocalorie).
    static func kilocalories(_ unit: String) -> Double? {
        switch unit {
        case "kcal", "Cal": return 1
        case "cal": return 0.001
        case "kJ": return 1 / 4.184
        case "J": return 1 / 4184
        default: return nil
        }
    }
}
