import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitStore

/// One day of `wellness list` (docs/contracts/json.md, "Wellness").
public struct WellnessRow: Encodable, Sendable {
    public struct Stages: Encodable, Sendable, Equatable {
        public var core: Int, deep: Int, rem: Int, awake: Int, unspecified: Int
    }
    public struct Band: Encodable, Sendable, Equatable {
        public var band: String
        public var reasons: [String]
    }

    // Every key is written, null where the day has no value (`Null`).
    public var date: String
    @Null public var sleepMinutes: Int?
    @Null public var inBedMinutes: Int?
    @Null public var sleepStages: Stages?
    @Null public var sleepBasis: String?
    @Null public var sleepSource: String?
    @Null public var hrvMs: Double?
    @Null public var hrvMeasure: String?
    @Null public var restingHeartRate: Double?
    @Null public var respiratoryRate: Double?
    @Null public var vo2max: Double?
    @Null public var bodyMassKg: Double?
    public var readiness: Band

    init(_ d: WellnessDay, _ r: Readiness) {
        func minutes(_ s: Double?) -> Int? { s.map { Int(($0 / 60).rounded()) } }
        date = LocalCalendar.dateString(d.day)
        sleepMinutes = minutes(d.sleepSeconds)
        inBedMinutes = minutes(d.inBedSeconds)
        sleepStages = d.stages.map {
            Stages(
                core: minutes($0.coreSeconds)!, deep: minutes($0.deepSeconds)!, rem: minutes($0.remSeconds)!,
                awake: minutes($0.awakeSeconds)!, unspecified: minutes($0.unspecifiedSeconds)!)
        }
        sleepBasis = d.sleepBasis?.rawValue
        sleepSource = d.sleepSource
        hrvMs = TextFormat.round(d.hrvMs, 1)
        hrvMeasure = d.hrvMeasure?.rawValue
        restingHeartRate = TextFormat.round(d.restingHeartRate, 1)
        respiratoryRate = TextFormat.round(d.respiratoryRate, 1)
        vo2max = TextFormat.round(d.vo2max, 1)
        bodyMassKg = TextFormat.round(d.bodyMassKg, 1)
        readiness = Band(band: r.band.rawValue, reasons: r.reasons)
    }
}

/// `wellness list`, `wellness add`, and the wellness the weekly report, race
/// plans and `athlete show` use.
public enum WellnessJobs {
    /// Days of history read before the first day shown (the normal range's 60
    /// days, and the evening a first night starts).
    static let historyDays = ReadinessModel.baselineDays + 2

    /// The athlete's days from `from` through `until` (local calendar days;
    /// open when nil), each with its readiness, and the readiness of every day read.
    public static func days(_ store: any Store, athleteID: String, from: Int? = nil, until: Int? = nil) throws
        -> [(day: WellnessDay, readiness: Readiness)]
    {
        guard let athlete = try store.athlete(id: athleteID) else { throw StoreError.unknownAthlete(athleteID) }
        let calendar = LocalCalendar(identifier: athlete.timeZone)
        let start = from.map { calendar.instant(day: $0 - historyDays, seconds: 0) }
        let end = until.map { calendar.instant(day: $0 + 1, seconds: 0) }
        let measurements = try store.measurements(athleteID: athleteID, kind: nil, from: start, until: end)
        let days = WellnessDays.build(measurements, timeZone: athlete.timeZone, sourceOrder: athlete.sourceOrder ?? [])
        let readiness = ReadinessModel.evaluate(days)
        return days.filter { d in (from.map { d.day >= $0 } ?? true) && (until.map { d.day <= $0 } ?? true) }
            .map { ($0, readiness[$0.day]!) }
    }

    /// The newest day with wellness data and its readiness; nil without any.
    public static func latest(_ store: any Store, athleteID: String) throws -> (day: WellnessDay, readiness: Readiness)?
    {
        guard let athlete = try store.athlete(id: athleteID) else { throw StoreError.unknownAthlete(athleteID) }
        // The newest measurement's day, then that day's readiness from the history before it.
        let newest = try store.newestMeasurementStart(athleteID: athleteID)
        guard let newest else { return nil }
        let day = LocalCalendar(identifier: athlete.timeZone).day(of: newest + WellnessDays.wakeDayShiftSeconds)
        let window = try days(store, athleteID: athleteID, from: day - historyDays, until: day)
        guard var latest = window.last else { return nil }
        // The day's HRV measure is the history's, also on a day without HRV (its baselines are of that measure).
        if latest.day.hrvMeasure == nil, latest.readiness.baselines.hrv != nil {
            latest.day.hrvMeasure = window.lazy.compactMap(\.day.hrvMeasure).last
        }
        return latest
    }

    public static func rows(_ store: any Store, athleteID: String, from: Int? = nil, until: Int? = nil) throws
        -> [WellnessRow]
    {
        try days(store, athleteID: athleteID, from: from, until: until).map { WellnessRow($0.day, $0.readiness) }
    }

    public static func json(_ rows: [WellnessRow]) throws -> String { try JSONOutput.string(rows) }

    /// The CSV columns (docs/contracts/csv.md, "wellness list").
    public static let csvHeader = [
        "date", "sleep_min", "in_bed_min", "core_min", "deep_min", "rem_min", "awake_min", "sleep_basis",
        "sleep_source", "hrv_ms", "hrv_measure", "resting_hr", "respiratory_rate", "vo2max", "body_mass_kg",
        "readiness", "reasons"
    ]

    public static func csv(_ rows: [WellnessRow]) -> String {
        CSV.document(
            header: csvHeader,
            rows: rows.map { r in
                [
                    .text(r.date), .integer(r.sleepMinutes), .integer(r.inBedMinutes), .integer(r.sleepStages?.core),
                    .integer(r.sleepStages?.deep), .integer(r.sleepStages?.rem), .integer(r.sleepStages?.awake),
                    .text(r.sleepBasis ?? ""), .text(r.sleepSource ?? ""), .number(r.hrvMs, digits: 1),
                    .text(r.hrvMeasure ?? ""), .number(r.restingHeartRate, digits: 1),
                    .number(r.respiratoryRate, digits: 1), .number(r.vo2max, digits: 1),
                    .number(r.bodyMassKg, digits: 1), .text(r.readiness.band),
                    .text(r.readiness.reasons.joined(separator: "; "))
                ]
            })
    }

    /// A row a day, the band and its reasons last.
    public static func table(_ rows: [WellnessRow]) -> String {
        guard !rows.isEmpty else { return "No wellness data (import an Apple Health export, or racekit wellness add)." }
        func hm(_ m: Int?) -> String { m.map { "\($0 / 60):\($0 % 60 < 10 ? "0" : "")\($0 % 60)" } ?? "-" }
        func num(_ v: Double?, _ digits: Int = 0) -> String { v.map { TextFormat.fixed($0, digits) } ?? "-" }
        let body = rows.map { r -> [String] in
            [
                r.date, hm(r.sleepMinutes), hm(r.inBedMinutes),
                r.sleepStages.map { "\(hm($0.deep))/\(hm($0.rem))/\(hm($0.core))" } ?? "-",
                num(r.hrvMs), num(r.restingHeartRate), num(r.respiratoryRate, 1), num(r.bodyMassKg, 1),
                r.readiness.band
                    + (r.readiness.reasons.isEmpty ? "" : ": " + r.readiness.reasons.joined(separator: "; "))
            ].map(DisplayText.line)
        }
        let measure = rows.lazy.compactMap(\.hrvMeasure).first.map { " \($0.uppercased())" } ?? ""
        return TextFormat.table(
            header: [
                "date", "sleep", "in bed", "deep/REM/core", "HRV\(measure) ms", "rest HR", "resp", "kg", "readiness"
            ], rows: body)
    }

    /// `wellness add` of a checked entry: how many values were stored, and a
    /// note for each one the day does not show (another source tells it).
    public static func add(_ store: any Store, athleteID: String, _ e: WellnessEntry) throws
        -> (stored: Int, notes: [String])
    {
        let day = LocalCalendar.day(parsing: e.date)!
        let sleep = e.sleep.flatMap(WellnessEntry.sleepSeconds)
        let stored = try add(
            store, athleteID: athleteID, day: day, hrvMs: e.hrvMs, restingHeartRate: e.restingHeartRate,
            sleepSeconds: sleep, bodyMassKg: e.bodyMassKg)
        guard let athlete = try store.athlete(id: athleteID) else { return (stored, []) }
        // The whole history: the athlete's HRV measure is the one of all their days.
        let recent = try days(store, athleteID: athleteID)
        let shown = recent.last { $0.day.day == day }?.day ?? WellnessDay(day: day)
        let measure = recent.lazy.compactMap(\.day.hrvMeasure).first
        return (stored, hidden(shown, e, sleepSeconds: sleep, athlete: athlete, measure: measure))
    }

    /// `wellness add`: what was stored to `say`, each value the day does not show to `note`.
    public static func add(
        _ store: any Store, athleteID: String, _ e: WellnessEntry, say: (String) -> Void, note: (String) -> Void
    ) throws {
        let (stored, notes) = try add(store, athleteID: athleteID, e)
        say("Stored \(stored) value\(stored == 1 ? "" : "s") for \(e.date) (\(athleteID)).")
        for n in notes { note("note: \(n)") }
    }

    /// Why each value of `e` is not the one `shown` (its day) gives.
    static func hidden(
        _ shown: WellnessDay, _ e: WellnessEntry, sleepSeconds: Double?, athlete: Athlete, measure: HRVMeasure?
    ) -> [String] {
        let order = athlete.sourceOrder ?? []
        let hint =
            order.contains { $0.lowercased() == manualSource }
            ? ""
            : "; `racekit athlete set \(athlete.id) --source-order \"\(([manualSource] + order).joined(separator: ", "))\"` "
                + "puts what you enter first"
        var notes: [String] = []
        func differs(_ a: Double?, _ b: Double?) -> Bool {
            guard let a else { return false }
            return b.map { abs($0 - a) > 0.05 } ?? true
        }
        if let sleepSeconds, shown.sleepSource != manualSource, let told = shown.sleepSource,
            let basis = shown.sleepBasis
        {
            let by = basis == .stages ? "'s sleep stages" : ""
            notes.append(
                "sleep \(ReadinessModel.hm(sleepSeconds)) is stored, but the night is told by "
                    + "\(DisplayText.line(told))\(by) (\(ReadinessModel.hm(shown.sleepSeconds ?? 0)))"
                    + (basis == .stages ? ": stages tell a night before a plain time asleep" : hint))
        }
        if let hrv = e.hrvMs {
            if measure == .sdnn {
                notes.append(
                    "HRV \(WellnessEntry.shown(hrv)) ms (RMSSD) is stored, but this athlete's days use the watch's "
                        + "SDNN (it tells at least as many of their days as RMSSD): the two scales are not mixed")
            } else if differs(hrv, shown.hrvMs) {
                notes.append(
                    "HRV \(WellnessEntry.shown(hrv)) ms is stored, but the day's value is "
                        + (shown.hrvMs.map { "\(TextFormat.fixed($0, 0)) ms from another source" + hint } ?? "not shown")
                )
            }
        }
        for (what, unit, entered, value) in [
            ("resting HR", "bpm", e.restingHeartRate, shown.restingHeartRate),
            ("body mass", "kg", e.bodyMassKg, shown.bodyMassKg)
        ] where differs(entered, value) {
            notes.append(
                "\(what) \(WellnessEntry.shown(entered!)) \(unit) is stored, but the day's value is "
                    + (value.map { "\(TextFormat.fixed($0, 1)) \(unit) from another source" + hint } ?? "not shown"))
        }
        return notes
    }

    /// What `wellness add` stores for a day entered by hand (source `manual`):
    /// a sleep of `sleepSeconds` ending at 07:00 local time of the day, the
    /// morning readings at 07:00. A second entry for the day replaces the first.
    public static func add(
        _ store: any Store, athleteID: String, day: Int, hrvMs: Double?, restingHeartRate: Double?,
        sleepSeconds: Double?, bodyMassKg: Double?, now: Double = Date().timeIntervalSince1970
    ) throws -> Int {
        guard let athlete = try store.athlete(id: athleteID) else { throw StoreError.unknownAthlete(athleteID) }
        let morning = LocalCalendar(identifier: athlete.timeZone).instant(day: day, seconds: 7 * 3600)
        func m(_ kind: String, _ value: Double, start: Double = morning) -> DailyMeasurement {
            DailyMeasurement(
                athleteID: athleteID, kind: DailyKind.named(kind)!, value: value, start: start, end: morning,
                source: manualSource, importedAt: now)
        }
        var rows: [DailyMeasurement] = []
        if let sleepSeconds { rows.append(m("sleep_asleep", sleepSeconds, start: morning - sleepSeconds)) }
        if let hrvMs { rows.append(m("hrv_rmssd", hrvMs)) }
        if let restingHeartRate { rows.append(m("resting_hr", restingHeartRate)) }
        if let bodyMassKg { rows.append(m("body_mass", bodyMassKg)) }
        if sleepSeconds != nil {
            // One night a day: an earlier entry of another length is replaced, not added to.
            let earlier = try store.measurements(
                athleteID: athleteID, kind: "sleep_asleep", from: morning - DailyKind.maxSpanSeconds, until: morning)
            let stale = earlier.filter { $0.source == manualSource && $0.end == morning && $0.start != rows[0].start }
            if !stale.isEmpty { try store.removeMeasurements(stale) }
        }
        return try store.addMeasurements(rows, replacing: true)
    }

    /// The source of what is entered by hand.
    public static let manualSource = DailyMeasurement.manualSource
}

/// A day entered by hand (`wellness add`), as given; `problem` says what is
/// wrong with it (the command's usage error, exit 64).
public struct WellnessEntry: Sendable {
    public var date: String
    public var hrvMs: Double?
    public var restingHeartRate: Double?
    /// `H:MM`.
    public var sleep: String?
    public var bodyMassKg: Double?

    public init(date: String, hrvMs: Double?, restingHeartRate: Double?, sleep: String?, bodyMassKg: Double?) {
        self.date = date; self.hrvMs = hrvMs; self.restingHeartRate = restingHeartRate; self.sleep = sleep
        self.bodyMassKg = bodyMassKg
    }

    public var problem: String? {
        if LocalCalendar.day(parsing: date) == nil { return "<date>: '\(date)' is not a date (YYYY-MM-DD)" }
        if hrvMs == nil, restingHeartRate == nil, sleep == nil, bodyMassKg == nil {
            return "nothing to add: give --hrv, --resting-hr, --sleep or --body-mass"
        }
        if let v = hrvMs, !DailyKind.hrvRange.contains(v) {
            return "--hrv: \(Self.shown(v)) is out of range (0.01 to 300 ms)"
        }
        for (option, key, value) in [
            ("--resting-hr", "resting_hr", restingHeartRate), ("--body-mass", "body_mass", bodyMassKg)
        ] {
            let kind = DailyKind.named(key)!
            if let v = value, !kind.range.contains(v) {
                return "\(option): \(Self.shown(v)) is out of range (\(Self.shown(kind.range.lowerBound)) to "
                    + "\(Self.shown(kind.range.upperBound)) \(kind.unit))"
            }
        }
        if let sleep, Self.sleepSeconds(sleep) == nil {
            return "--sleep: '\(sleep)' is not a duration H:MM from 0:00 to 20:00 (e.g. 7:30)"
        }
        return nil
    }

    /// What is wrong with `wellness list --since/--until`, nil when nothing.
    public static func rangeProblem(_ since: String?, _ until: String?) -> String? {
        for (option, text) in [("--since", since), ("--until", until)] {
            if let text, LocalCalendar.day(parsing: text) == nil {
                return "\(option): '\(text)' is not a date (YYYY-MM-DD)"
            }
        }
        if let a = since.flatMap(LocalCalendar.day(parsing:)), let b = until.flatMap(LocalCalendar.day(parsing:)), b < a
        {
            return "--until is before --since"
        }
        return nil
    }

    /// `H:MM` (two-digit minutes) as seconds, 0:00 to 20:00; nil otherwise.
    public static func sleepSeconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), parts[0].count <= 2, let h = Int(parts[0]),
            let m = Int(parts[1]), m < 60
        else { return nil }
        let seconds = Double(h * 3600 + m * 60)
        return seconds <= DailyKind.maxSpanSeconds ? seconds : nil
    }

    /// A value as the user typed it, near enough: `300`, `1.5`, `1e+300`, `nan`.
    public static func shown(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }
}
