/// The format a run was read from, stored with it (`source_format`). Open-ended:
/// the reader of a new format (`ActivityReader`, RaceKitFormats) names its own
/// value, so adding a format adds no case here.
public struct SourceFormat: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let gpx = SourceFormat(rawValue: "gpx")
    public static let tcx = SourceFormat(rawValue: "tcx")
    public static let fit = SourceFormat(rawValue: "fit")
    /// An Apple Health export (`export.xml`, its routes in `workout-routes/*.gpx`).
    public static let health = SourceFormat(rawValue: "health")
}

/// A lap as the device summarised it (start, timer time, distance, energy).
public struct Lap: Sendable, Equatable {
    /// Lap start, seconds since the epoch.
    public var startTime: Double?
    /// Timer time in seconds.
    public var totalTimeSeconds: Double?
    /// Lap distance in metres.
    public var distanceMeters: Double?
    /// Energy in kilocalories (FIT `total_calories`, TCX `Calories`, Apple Health's active energy).
    public var energyKcal: Double?
    /// A pool swim's pool length in metres, its active lengths (rests left out),
    /// their timer time in seconds, and the strokes (FIT session and `length`s).
    public var poolLengthMeters: Double?
    public var activeLengths: Double?
    public var activeLengthSeconds: Double?
    public var strokes: Double?
    public init(
        startTime: Double? = nil, totalTimeSeconds: Double? = nil, distanceMeters: Double? = nil,
        energyKcal: Double? = nil
    ) {
        self.startTime = startTime; self.totalTimeSeconds = totalTimeSeconds; self.distanceMeters = distanceMeters
        self.energyKcal = energyKcal
    }
}

/// Counts of the problems a reader met and worked around, by kind.
public struct ReadIssues: Sendable, Equatable {
    /// Points whose position attributes or elements were missing.
    public var missingPosition = 0
    /// Numbers that could not be parsed (e.g. `lat="abc"`, `<ele>n/a</ele>`).
    public var nonNumericValues = 0
    /// Timestamps that could not be parsed.
    public var unparseableTimes = 0
    /// Timestamps without a zone designator, taken as UTC.
    public var timesWithoutZone = 0
    public init() {}
}

/// An activity exactly as read from a file, before any repair.
public struct RawActivity: Sendable {
    /// Sport as written (`Running`, `running`, `9`, `Biking`, ...), nil when absent.
    public var sport: String?
    /// Activity or track name.
    public var name: String?
    /// Device or app that wrote the file.
    public var creator: String?
    /// The athlete's notes on the activity (TCX `Notes`), at most `maxNotes` characters.
    public var notes: String?
    /// Start declared by the file (TCX `Id`, GPX metadata time), seconds since the epoch.
    public var declaredStart: Double?
    /// Laps (TCX, FIT; an Apple Health workout's totals as one).
    public var laps: [Lap] = []
    /// The device's totals for the whole activity (a FIT session, an Apple Health
    /// workout), preferred to the laps' sum for its timer and energy.
    public var session: Lap?
    /// The points in file order.
    public var samples = SampleSeries()
    /// Index of the first point of each segment (GPX `trkseg`, TCX `Track`).
    public var segmentStarts: [Int] = []
    /// Problems met while reading.
    public var issues = ReadIssues()
    /// True when cadence came from a per-leg source (TCX `RunCadence`).
    public var cadenceIsPerLeg = false

    /// Most characters of notes kept from a file.
    public static let maxNotes = 10_000

    public init() {}
}

/// A course or route: a path meant to be followed, not an activity.
public struct RawCourse: Sendable {
    public enum Kind: String, Sendable {
        case gpxRoute = "route", untimedTrack = "track without timestamps", tcxCourse = "course"
    }
    public var kind: Kind
    public var name: String?
    public var samples = SampleSeries()
    public init(kind: Kind, name: String? = nil) { self.kind = kind; self.name = name }
}

/// Everything a reader found in one document.
public struct ParsedDocument: Sendable {
    public var format: SourceFormat
    /// Creator attribute (GPX) or Author/Creator name (TCX).
    public var creator: String?
    /// Timed activities, in file order.
    public var activities: [RawActivity] = []
    /// Routes, courses and untimed tracks.
    public var courses: [RawCourse] = []
    /// Number of waypoints (GPX `wpt`, TCX `CoursePoint`).
    public var waypointCount = 0
    /// Heart rate kept once per document keyed by time (a-rival SpoQ `heartRateTrack`).
    public var documentHeartRate: [(time: Double, bpm: Double)] = []
    /// What the reader worked around or left out, for the file's import result
    /// (e.g. "truncated at byte 12,345 (message 3,402): the first 3,400 records imported").
    public var notes: [String] = []

    public init(format: SourceFormat) { self.format = format }
}
