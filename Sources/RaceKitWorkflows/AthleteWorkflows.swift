import Foundation
import RaceKitImport
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitStore

/// `athlete show`: an athlete's profile with the estimates used where values
/// are not set, and the heart-rate zones they give.
public struct AthleteProfile {
    public let athlete: Athlete
    public let physiology: Physiology
    /// The athlete's stored runs.
    public let runs: Int
    /// The newest day of wellness and its readiness (its baselines), if any.
    public let wellness: (day: WellnessDay, readiness: Readiness)?
    /// Each sport's critical power (with power runs or a value set).
    public let power: [PowerJobs.Current]

    public init(_ store: any Store, id: String) throws {
        guard let a = try store.athlete(id: id) else { throw StoreError.unknownAthlete(id) }
        athlete = a
        physiology = try store.physiology(athleteID: id)
        runs = try store.runCount(athleteID: id)
        wellness = try WellnessJobs.latest(store, athleteID: id)
        power = try PowerJobs.current(store, athleteID: id)
    }

    /// `athlete show --format json` (docs/contracts/json.md, "Athletes and predictions").
    public func json() throws -> String { try JSONOutput.string(record) }

    var record: AthleteJSON {
        let (a, p) = (athlete, physiology)
        return AthleteJSON(
            id: a.id, name: a.name, timeZone: a.timeZone, sex: a.sex, zoneModel: a.zoneModel,
            maxHeartRate: p.maxHeartRate,
            maxHeartRateEstimated: p.maxHeartRateEstimated, restingHeartRate: p.restingHeartRate,
            thresholdHeartRate: p.thresholdHeartRate,
            thresholdHeartRateEstimated: p.thresholdHeartRateEstimated,
            thresholdPaceSecondsPerKm: TextFormat.round(p.thresholdPaceSecondsPerKm, 1),
            thresholdPaceEstimated: p.thresholdPaceEstimated, runs: runs, sourceOrder: a.sourceOrder,
            wellness: wellness.map { WellnessBaselineJSON($0.day, $0.readiness) },
            criticalPower: power.map { CriticalPowerJSON.Sport($0) })
    }

    func hr(_ v: Double?, _ est: Bool) -> String {
        guard let v else { return "unknown" }
        return "\(Int(v.rounded())) bpm"
            + (est ? " (estimated from \(runs) runs; set it for accurate zones and load)" : "")
    }

    /// The profile, one fact a line, then the zones' table when there are zones.
    public func text() -> String {
        let (a, p) = (athlete, physiology)
        let pace =
            p.thresholdPaceSecondsPerKm.map {
                "\(TextFormat.pace($0)) /km" + (p.thresholdPaceEstimated ? " (estimated from best efforts)" : "")
            } ?? "unknown"
        let model = HeartRateZones.resolve(a.zoneModel, physiology: p)
        let rows: [(String, String)] =
            [
                ("Athlete", "\(a.id) (\(a.name))"), ("Time zone", a.timeZone),
                ("Sex", a.sex?.rawValue ?? "not set (TRIMP uses the mean of both weightings)"),
                ("Max HR", hr(p.maxHeartRate, p.maxHeartRateEstimated)),
                (
                    "Resting HR",
                    p.restingHeartRate.map { "\(Int($0.rounded())) bpm" }
                        ?? "not set (load uses Edwards' zone TRIMP until it is)"
                ),
                (
                    "Threshold HR",
                    p.thresholdHeartRateEstimated
                        ? "\(hr(p.thresholdHeartRate, false)) (estimated: 89% of max HR)"
                        : hr(p.thresholdHeartRate, false)
                ),
                ("Threshold pace", pace),
                ("Zone model", "\(a.zoneModel.rawValue)\(a.zoneModel == .auto ? " (\(model.rawValue))" : "")"),
                ("Runs", String(runs))
            ] + wellnessLines
            + power.map { ("CP \($0.sport.rawValue)", PowerJobs.describe($0, timeZone: a.timeZone)) }
        var lines = rows.map { k, v in k.padding(toLength: 16, withPad: " ", startingAt: 0) + v }
        if let zones = HeartRateZones.zones(model, physiology: p) {
            lines.append("")
            lines.append(
                TextFormat.table(
                    header: ["zone", "bpm"],
                    rows: zones.map { z in
                        [z.name, TextFormat.zoneRange(z.lowBpm, z.highBpm)]
                    }))
        }
        for c in power {
            guard let cp = c.inForce?.value.watts, let zones = PowerZones.zones(c.sport, criticalPower: cp) else {
                continue
            }
            lines.append("")
            lines.append(
                TextFormat.table(
                    header: ["\(c.sport.rawValue) power zone", "W"],
                    rows: zones.map { z in
                        [z.name, TextFormat.zoneRange(z.lowWatts, z.highWatts)]
                    }))
        }
        return lines.joined(separator: "\n")
    }
}

/// `athlete list`, `athlete set`.
public enum AthleteJobs {
    /// Every athlete with their profile and run count, as a table.
    /// Why `id` is no athlete id (lower-case letters, digits and dashes, not
    /// starting with a dash), nil when it is one.
    public static func idProblem(_ id: String) -> String? {
        guard !id.isEmpty, id.allSatisfy({ ($0.isLetter && $0.isLowercase) || $0.isNumber || $0 == "-" }),
            id.first != "-"
        else { return "athlete id '\(id)' must be lower-case letters, digits and dashes" }
        return nil
    }

    public static func roster(_ store: any Store) throws -> String {
        TextFormat.table(
            header: ["id", "name", "time zone", "max HR", "rest HR", "LTHR", "sex", "runs"],
            rows: try store.athletes().map { a in
                [
                    a.id, a.name, a.timeZone, TextFormat.fixed(a.maxHeartRate, 0),
                    TextFormat.fixed(a.restingHeartRate, 0),
                    TextFormat.fixed(a.thresholdHeartRate, 0), a.sex?.rawValue ?? TextFormat.unknown,
                    String(try store.runCount(athleteID: a.id))
                ]
            })
    }

    /// Changes an athlete's profile (`change`) and, unless `recompute` is false,
    /// analyses their runs again. Results go to `say` as they happen, failures
    /// of single runs to `note`.
    public static func update(
        _ store: any Store, id: String, change: (inout Athlete) -> Void, recompute: Bool,
        say: (String) -> Void, note: (String) -> Void
    ) throws {
        guard var athlete = try store.athlete(id: id) else { throw StoreError.unknownAthlete(id) }
        let before = athlete.sourceOrder
        change(&athlete)
        if let m = athlete.maxHeartRate, let r = athlete.restingHeartRate, r >= m {
            throw Failure(.usage, "resting HR \(Int(r)) must be below max HR \(Int(m))")
        }
        let sources =
            athlete.sourceOrder == before ? nil : try sourceOrder(athlete.sourceOrder, store: store, athleteID: id)
        if let sources { athlete.sourceOrder = sources.order }
        try store.updateAthlete(athlete)
        say("Updated athlete \(id).")
        if let sources {
            say(sources.line)
            sources.unknown.forEach(note)
        }
        guard recompute else { return }
        let outcome = try Recompute(store: store).run(athleteID: id, force: false)
        if outcome.checked > 0 { say("Recomputed \(outcome.updated) runs.") }
        for f in outcome.failed { note("failed: \(f)") }
    }
}

extension AthleteJobs {
    /// `order` with each name spelt as the athlete's stored sources spell it
    /// (matched without regard to case), the line that says the order, and a
    /// note for each name no stored measurement comes from (kept: a source to come).
    static func sourceOrder(_ order: [String]?, store: any Store, athleteID: String) throws
        -> (order: [String]?, line: String, unknown: [String])
    {
        guard let order else { return (nil, "Wellness sources: the one with the most records tells each value.", []) }
        let sources = try store.measurementSources(athleteID: athleteID)
        let known = sources.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\(DisplayText.line($0.key)) (\($0.value) records)" }
        var unknown: [String] = []
        var spelt: [String] = []
        var i = 0
        while i < order.count {
            // The longest run of parts that names a stored source: a name with a comma in it ("Polar, Inc.").
            let match = (i..<order.count).reversed().lazy.compactMap { j in
                Self.storedName(order[i...j].joined(separator: ", "), in: sources.keys).map { ($0, j) }
            }.first
            if let (name, j) = match {
                spelt.append(name)
                i = j + 1
                continue
            }
            unknown.append(
                "note: no wellness data from '\(DisplayText.line(order[i]))' yet"
                    + (known.isEmpty ? "" : "; the sources stored: " + known.joined(separator: ", ")))
            spelt.append(order[i])
            i += 1
        }
        let line =
            "Wellness sources in order: \(spelt.map(DisplayText.line).joined(separator: ", ")); "
            + "then the one with the most records."
        return (spelt, line, unknown)
    }

    /// The stored source `name` means: itself, else the one that differs only in
    /// case, spaces around commas or a straight apostrophe for a typographic one.
    static func storedName(_ name: String, in sources: Dictionary<String, Int>.Keys) -> String? {
        if sources.contains(name) { return name }
        func loose(_ s: String) -> String {
            s.lowercased().replacingOccurrences(of: "\u{2019}", with: "'").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ",")
        }
        let key = loose(name)
        return sources.sorted().first { loose($0) == key }
    }
}

/// `athlete show --format json` (docs/contracts/json.md, "Athletes and predictions").
struct AthleteJSON: Encodable {
    var id, name, timeZone: String
    @Null var sex: Sex?
    var zoneModel: ZoneModel
    @Null var maxHeartRate: Double?
    var maxHeartRateEstimated: Bool
    @Null var restingHeartRate: Double?
    @Null var thresholdHeartRate: Double?
    var thresholdHeartRateEstimated: Bool
    @Null var thresholdPaceSecondsPerKm: Double?
    var thresholdPaceEstimated: Bool
    var runs: Int
    /// The athlete's wellness source order; null: the source with the most records.
    @Null var sourceOrder: [String]?
    /// The baselines of the newest day with wellness data; null without any.
    @Null var wellness: WellnessBaselineJSON?
    /// Each sport with power runs or a value set: its critical power (null
    /// when the efforts allow no fit).
    var criticalPower: [CriticalPowerJSON.Sport]
}

/// `athlete show`'s `wellness`: the newest day with data, its band and the
/// baselines it was read against (docs/numbers.md, "Wellness and readiness").
struct WellnessBaselineJSON: Encodable {
    struct Measure: Encodable {
        @Null var sevenDay: Double?
        var normalLow, normalHigh, mean: Double
        var days: Int
    }
    struct Sleep: Encodable {
        var baselineMinutes, debtMinutes: Int
    }
    var date, band: String
    var reasons: [String]
    @Null var hrvMeasure: String?
    @Null var hrv: Measure?
    @Null var restingHeartRate: Measure?
    @Null var sleep: Sleep?

    init(_ d: WellnessDay, _ r: Readiness) {
        func m(_ b: MeasureBaseline?) -> Measure? {
            b.map {
                Measure(
                    sevenDay: TextFormat.round($0.rolling, 1), normalLow: TextFormat.round($0.normalLow, 1)!,
                    normalHigh: TextFormat.round($0.normalHigh, 1)!, mean: TextFormat.round($0.mean, 1)!, days: $0.days)
            }
        }
        date = LocalCalendar.dateString(d.day)
        band = r.band.rawValue
        reasons = r.reasons
        hrvMeasure = r.baselines.hrv == nil ? nil : d.hrvMeasure?.rawValue
        hrv = m(r.baselines.hrv)
        restingHeartRate = m(r.baselines.restingHeartRate)
        sleep = r.baselines.sleep.map {
            Sleep(
                baselineMinutes: Int(($0.meanSeconds / 60).rounded()), debtMinutes: Int(($0.debtSeconds / 60).rounded())
            )
        }
    }
}

extension AthleteProfile {
    /// `athlete show`'s wellness lines: the newest day's band and baselines.
    var wellnessLines: [(String, String)] {
        let sources = (
            "Sources",
            (athlete.sourceOrder.map { $0.map(DisplayText.line).joined(separator: ", ") + ", then " } ?? "")
                + "the one with the most records of each kind"
        )
        guard let (d, r) = wellness else {
            return [("Wellness", "no data (racekit wellness add, or import an Apple Health export)"), sources]
        }
        func measure(_ b: MeasureBaseline?, _ unit: String) -> String {
            guard let b else { return "fewer than \(ReadinessModel.minimumBaselineValues) days in the last 60" }
            let seven = b.rolling.map { "7-day \(TextFormat.fixed($0, 0)) \(unit), " } ?? ""
            return seven
                + "normal range \(TextFormat.fixed(b.normalLow, 0))-\(TextFormat.fixed(b.normalHigh, 0)) \(unit) "
                + "(\(b.days) days)"
        }
        var lines: [(String, String)] = [
            (
                "Readiness",
                "\(r.band.rawValue) on \(LocalCalendar.dateString(d.day))"
                    + (r.reasons.isEmpty ? "" : ": " + r.reasons.joined(separator: "; "))
            ),
            ("HRV range", measure(r.baselines.hrv, d.hrvMeasure.map { "ms \($0.rawValue.uppercased())" } ?? "ms")),
            ("Rest HR range", measure(r.baselines.restingHeartRate, "bpm"))
        ]
        if let s = r.baselines.sleep {
            lines.append(
                (
                    "Sleep",
                    "baseline \(ReadinessModel.hm(s.meanSeconds)) a night, debt \(ReadinessModel.hm(s.debtSeconds)) over 7 nights"
                ))
        }
        return lines + [sources]
    }
}

/// The profile fields `athlete add` and `athlete set` change, as given;
/// `problem` says what is wrong with them (a usage error, exit 64).
public struct ProfileChange: Sendable {
    public var name: String?
    public var maxHr: Double?, restingHr: Double?, thresholdHr: Double?
    /// `4:15/km`, `6:50/mi`.
    public var thresholdPace: String?
    public var sex: Sex?
    public var timeZone: String?
    public var zoneModel: ZoneModel?
    /// Wellness source names, comma-separated, first preferred; empty: back to
    /// the source with the most records.
    public var sourceOrder: String?

    public init(
        name: String?, maxHr: Double?, restingHr: Double?, thresholdHr: Double?, thresholdPace: String?, sex: Sex?,
        timeZone: String?, zoneModel: ZoneModel?, sourceOrder: String? = nil
    ) {
        self.name = name; self.maxHr = maxHr; self.restingHr = restingHr; self.thresholdHr = thresholdHr
        self.thresholdPace = thresholdPace; self.sex = sex; self.timeZone = timeZone; self.zoneModel = zoneModel
        self.sourceOrder = sourceOrder
    }

    public var isEmpty: Bool {
        name == nil && maxHr == nil && restingHr == nil && thresholdHr == nil && thresholdPace == nil && sex == nil
            && timeZone == nil && zoneModel == nil && sourceOrder == nil
    }

    /// The most names a source order holds, and the longest name.
    public static let maxSources = 20, maxSourceNameLength = 1000

    /// `--source-order`'s names: split at commas, trimmed, empty parts left out.
    public static func sourceNames(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    public var problem: String? {
        let range = Plausibility.heartRateBpm
        for (flag, value) in [("--max-hr", maxHr), ("--resting-hr", restingHr), ("--threshold-hr", thresholdHr)] {
            if let v = value, !range.contains(v) {
                return "\(flag): \(WellnessEntry.shown(v)) is out of range "
                    + "(\(TextFormat.plain(range.lowerBound)) to \(TextFormat.plain(range.upperBound)) bpm)"
            }
        }
        if let m = maxHr, let r = restingHr, r >= m { return "--resting-hr must be below --max-hr" }
        if let m = maxHr, let t = thresholdHr, t >= m { return "--threshold-hr must be below --max-hr" }
        if let p = thresholdPace, !(Units.parsePace(p).map(PacePlan.paceRange.contains) ?? false) {
            return "--threshold-pace: '\(p)' is not a pace like 4:15/km or 6:50/mi (2:00/km to 20:00/km)"
        }
        if let tz = timeZone, TimeZone(identifier: tz) == nil {
            return "--time-zone: '\(tz)' is not an IANA time zone (e.g. Europe/Berlin)"
        }
        if let order = sourceOrder { return Self.sourceOrderProblem(Self.sourceNames(order)) }
        return nil
    }

    static func sourceOrderProblem(_ names: [String]) -> String? {
        if names.count > Self.maxSources { return "--source-order: \(names.count) sources; at most \(Self.maxSources)" }
        for name in names {
            if name.count > Self.maxSourceNameLength {
                return "--source-order: a name of \(name.count) characters; at most \(Self.maxSourceNameLength)"
            }
            if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                return "--source-order: '\(DisplayText.line(name))' holds a control character"
            }
        }
        var seen: Set<String> = []
        for name in names where !seen.insert(name.lowercased()).inserted {
            return "--source-order: '\(name)' is named twice"
        }
        return nil
    }

    public func apply(to a: inout Athlete) {
        if let name { a.name = name }
        if let maxHr { a.maxHeartRate = maxHr }
        if let restingHr { a.restingHeartRate = restingHr }
        if let thresholdHr { a.thresholdHeartRate = thresholdHr }
        if let thresholdPace { a.thresholdPaceSecondsPerKm = Units.parsePace(thresholdPace) }
        if let sex { a.sex = sex }
        if let timeZone { a.timeZone = timeZone }
        if let zoneModel { a.zoneModel = zoneModel }
        if let sourceOrder {
            let names = Self.sourceNames(sourceOrder)
            a.sourceOrder = names.isEmpty ? nil : names
        }
    }
}
