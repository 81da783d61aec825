import RaceKitModel

/// A measurement of an athlete that is not a run: a night's sleep stage, a
/// morning's HRV, the day's resting heart rate, a weighing. One generic table
/// holds them all (`daily_measurement`); what each kind is lives in `DailyKind`.
public struct DailyMeasurement: Sendable, Equatable {
    public var athleteID: String
    /// A `DailyKind` key.
    public var kind: String
    public var value: Double
    /// The kind's unit, stored with the value (a later unit change cannot
    /// reinterpret old rows).
    public var unit: String
    /// Seconds since the epoch (UTC); `end == start` for an instant reading.
    public var start: Double
    public var end: Double
    /// The device or app that measured it (Apple Health's `sourceName`, "manual").
    public var source: String
    /// The file it was imported from (nil when entered by hand).
    public var sourceFile: String?
    public var importedAt: Double

    public init(
        athleteID: String, kind: DailyKind, value: Double, start: Double, end: Double? = nil, source: String,
        sourceFile: String? = nil, importedAt: Double
    ) {
        self.athleteID = athleteID; self.kind = kind.key; self.value = value; unit = kind.unit
        self.start = start; self.end = end ?? start; self.source = source; self.sourceFile = sourceFile
        self.importedAt = importedAt
    }

    /// A measurement as stored, its kind and unit as written (`problem` says
    /// whether they are valid): the store's row decoder.
    package init(
        athleteID: String, kind: String, value: Double, unit: String, start: Double, end: Double, source: String,
        sourceFile: String?, importedAt: Double
    ) {
        self.athleteID = athleteID; self.kind = kind; self.value = value; self.unit = unit
        self.start = start; self.end = end; self.source = source; self.sourceFile = sourceFile
        self.importedAt = importedAt
    }

    /// The source of what is entered by hand (`wellness add`, a critical power
    /// set with `athlete set`).
    public static let manualSource = "manual"

    /// An imported source's name as stored. A device or app that calls itself
    /// "manual" (in any case) would be taken for what was entered by hand:
    /// merged with a `wellness add` of the same day, removed as its stale night,
    /// ordered first by a source order that names "manual". It is stored as
    /// "NAME (imported)".
    public static func importedSource(_ name: String) -> String {
        name.lowercased() == manualSource ? name + " (imported)" : name
    }

    /// Why the store refuses this measurement: an unknown kind, a unit that is
    /// not the kind's, a value that is not a number or outside the kind's range,
    /// times that are not numbers or end before they start; nil when it is fine.
    public var problem: String? {
        let which = "\(kind) of \(athleteID) from \(source) at \(start)"
        guard let k = DailyKind.named(kind) else { return "\(which): no such kind of measurement" }
        guard unit == k.unit else { return "\(which): unit \(unit), not \(k.unit)" }
        guard value.isFinite, k.range.contains(value) else {
            return "\(which): \(value) \(unit) is outside \(k.range.lowerBound)...\(k.range.upperBound)"
        }
        guard start.isFinite, end.isFinite, end >= start else { return "\(which): ends (\(end)) before it starts" }
        guard !source.isEmpty else { return "\(which): no source" }
        return nil
    }

    /// Every measurement's problem, or nothing: what `addMeasurements` checks first.
    public static func check(_ measurements: [DailyMeasurement]) throws {
        if let problem = measurements.lazy.compactMap(\.problem).first {
            throw Failure(.dataError, "daily measurement \(problem)")
        }
    }
}

/// A kind of daily measurement: its key, unit, plausible range and how one
/// day's value is formed from the day's rows. A new kind is one line in `all`.
public struct DailyKind: Sendable, Equatable {
    /// How a day's rows become the day's value (the wellness issue applies them).
    public enum DayValue: String, Sendable {
        /// The time asleep or in bed: the spans' total, from one source.
        case spanTotal
        /// The mean of the readings taken during that night's sleep (readings
        /// outside it are kept, not used).
        case meanDuringSleep
        /// The mean of the day's readings, from one source.
        case mean
        /// The day's last reading.
        case last
    }

    public var key: String
    public var unit: String
    public var range: ClosedRange<Double>
    public var dayValue: DayValue
    public var summary: String

    public init(_ key: String, _ unit: String, _ range: ClosedRange<Double>, _ dayValue: DayValue, _ summary: String) {
        self.key = key; self.unit = unit; self.range = range; self.dayValue = dayValue; self.summary = summary
    }

    /// Longest sleep span accepted (20 h); a span's value is its length.
    public static let maxSpanSeconds = 72_000.0
    /// HRV accepted, ms: 0.01 to 300 (0 or less is no reading).
    public static let hrvRange = 0.01...300.0

    /// Every kind, by key.
    public static let all: [DailyKind] = [
        DailyKind("sleep_in_bed", "s", 0...maxSpanSeconds, .spanTotal, "A span in bed (Apple Health InBed)."),
        DailyKind(
            "sleep_asleep", "s", 0...maxSpanSeconds, .spanTotal,
            "A span asleep, stage not told (Asleep, AsleepUnspecified)."),
        DailyKind("sleep_core", "s", 0...maxSpanSeconds, .spanTotal, "A span of core (light) sleep."),
        DailyKind("sleep_deep", "s", 0...maxSpanSeconds, .spanTotal, "A span of deep sleep."),
        DailyKind("sleep_rem", "s", 0...maxSpanSeconds, .spanTotal, "A span of REM sleep."),
        DailyKind("sleep_awake", "s", 0...maxSpanSeconds, .spanTotal, "A span awake within the night: not sleep."),
        DailyKind("hrv_sdnn", "ms", hrvRange, .meanDuringSleep, "Heart-rate variability, SDNN (Apple Watch)."),
        DailyKind(
            "hrv_rmssd", "ms", hrvRange, .mean,
            "Heart-rate variability, RMSSD: a morning reading (HRV apps, entered by hand)."),
        DailyKind("resting_hr", "bpm", 25...150, .mean, "Resting heart rate."),
        DailyKind("respiratory_rate", "1/min", 4...60, .meanDuringSleep, "Breaths per minute."),
        DailyKind("vo2max", "ml/kg/min", 10...95, .last, "VO2max as the device estimates it."),
        DailyKind("body_mass", "kg", 20...300, .last, "Body mass."),
        DailyKind(
            "critical_power_running", "W", CriticalPower.plausibleWatts, .last,
            "Running critical power set by hand, in force from its start (athlete set --cp)."),
        DailyKind("w_prime_running", "J", CriticalPower.plausibleWPrime, .last, "Running W′ set with it."),
        DailyKind(
            "critical_power_cycling", "W", CriticalPower.plausibleWatts, .last,
            "Cycling critical power set by hand, in force from its start (athlete set --cp --cp-sport cycling)."),
        DailyKind("w_prime_cycling", "J", CriticalPower.plausibleWPrime, .last, "Cycling W′ set with it.")
    ]

    public static func named(_ key: String) -> DailyKind? { all.first { $0.key == key } }
}
