import Foundation
import RaceKitImport
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitStore

/// The sports with a critical power (the options that name one).
public enum PowerSport: String, CaseIterable, Sendable {
    case running, cycling
    public var sport: Sport { self == .running ? .running : .cycling }
}

/// A critical power set by hand (`athlete set --cp`), as given; `problem` says
/// what is wrong with it (a usage error, exit 64).
public struct PowerChange: Sendable {
    /// Watts.
    public var criticalPower: Double?
    /// W′ in kilojoules.
    public var wPrimeKJ: Double?
    public var sport: Sport
    /// The first day it is in force, `YYYY-MM-DD` in the athlete's time zone; nil: from now.
    public var from: String?
    /// Forget the values set for `sport`: fits take over.
    public var clear: Bool

    public init(criticalPower: Double?, wPrimeKJ: Double?, sport: Sport = .running, from: String?, clear: Bool) {
        self.criticalPower = criticalPower; self.wPrimeKJ = wPrimeKJ; self.sport = sport; self.from = from
        self.clear = clear
    }

    public var isEmpty: Bool { criticalPower == nil && wPrimeKJ == nil && !clear && from == nil }

    public var problem: String? {
        for (flag, v) in [("--cp", criticalPower), ("--w-prime", wPrimeKJ)] {
            if let v, !v.isFinite { return "\(flag): \(v) is not a number" }
        }
        if !PowerHistory.sports.contains(sport) {
            return "--cp-sport: \(sport.rawValue) has no critical power (running or cycling)"
        }
        if clear, criticalPower != nil || wPrimeKJ != nil || from != nil {
            return "--clear-cp forgets the set values: give it without --cp, --w-prime and --cp-from"
        }
        if criticalPower == nil, wPrimeKJ != nil || from != nil {
            return "\(wPrimeKJ != nil ? "--w-prime" : "--cp-from") needs --cp"
        }
        if let w = criticalPower, !CriticalPower.plausibleWatts.contains(w) {
            return "--cp: \(TextFormat.plain(w)) W is out of range "
                + "(\(TextFormat.plain(CriticalPower.plausibleWatts.lowerBound)) to \(TextFormat.plain(CriticalPower.plausibleWatts.upperBound)) W)"
        }
        let kj = CriticalPower.plausibleWPrime.lowerBound / 1000...CriticalPower.plausibleWPrime.upperBound / 1000
        if let k = wPrimeKJ, !kj.contains(k) {
            return "--w-prime: \(TextFormat.plain(k)) kJ is out of range "
                + "(\(TextFormat.plain(kj.lowerBound)) to \(TextFormat.plain(kj.upperBound)) kJ)"
        }
        if let f = from, LocalCalendar.day(parsing: f) == nil {
            return "--cp-from: '\(f)' is not a date like 2026-11-01"
        }
        return nil
    }
}

/// Critical power: set by hand, in force on a day, and shown.
public enum PowerJobs {
    /// The source of a critical power set by hand.
    public static let source = DailyMeasurement.manualSource

    /// Applies `change` to the athlete and brings their runs' intensities to
    /// it; what to say.
    public static func apply(_ change: PowerChange, store: any Store, athleteID: String, now: Double) throws -> [String]
    {
        guard let athlete = try store.athlete(id: athleteID) else { throw StoreError.unknownAthlete(athleteID) }
        let (cpKind, wKind) = PowerRefresh.kinds(change.sport)
        var said: [String] = []
        if change.clear {
            var gone: [DailyMeasurement] = []
            for kind in [cpKind, wKind] {
                gone += try store.measurements(athleteID: athleteID, kind: kind, from: nil, until: nil)
            }
            let removed = try store.removeMeasurements(gone)
            said.append(
                removed == 0
                    ? "No critical power was set for \(change.sport.rawValue)."
                    : "Forgot the critical power set for \(change.sport.rawValue): fits of the efforts take over.")
        } else if let watts = change.criticalPower {
            let calendar = LocalCalendar(identifier: athlete.timeZone)
            // From the start of the day given, else of today, in the athlete's time zone:
            // a test run this morning is under the value set after it.
            let day = change.from.flatMap(LocalCalendar.day(parsing:)) ?? calendar.day(of: now)
            let start = calendar.instant(day: day, seconds: 0)
            var rows = [
                DailyMeasurement(
                    athleteID: athleteID, kind: DailyKind.named(cpKind)!, value: watts, start: start, source: source,
                    importedAt: now)
            ]
            if let kj = change.wPrimeKJ {
                rows.append(
                    DailyMeasurement(
                        athleteID: athleteID, kind: DailyKind.named(wKind)!, value: kj * 1000, start: start,
                        source: source, importedAt: now))
            }
            // A W′ set before at this start does not belong to the new value.
            let staleWPrime = try store.measurements(athleteID: athleteID, kind: wKind, from: start, until: start)
                .filter { $0.source == source && change.wPrimeKJ == nil }
            if !staleWPrime.isEmpty { try store.removeMeasurements(staleWPrime) }
            try store.addMeasurements(rows, replacing: true)
            said.append(
                "Critical power for \(change.sport.rawValue): \(TextFormat.plain(watts)) W"
                    + (change.wPrimeKJ.map { ", W′ \(TextFormat.plain($0)) kJ" } ?? "")
                    + ", in force from \(LocalCalendar.dateString(day)).")
        }
        let changed = try PowerRefresh.run(store, athleteID: athleteID)
        if changed > 0 {
            said.append("Updated the intensity and power stress of \(changed) run\(changed == 1 ? "" : "s").")
        }
        return said
    }

    /// One sport's critical power as `athlete show` gives it: in force at the
    /// athlete's newest power run of the sport or newest setting, whichever is later.
    public struct Current: Sendable {
        public var sport: Sport
        /// The day it is told for (epoch seconds).
        public var at: Double
        public var inForce: PowerHistory.InForce?
        /// The efforts of the 90 days to `at`.
        public var bests: [PowerHistory.Best]
    }

    /// Each sport with power runs or a setting.
    public static func current(_ store: any Store, athleteID: String) throws -> [Current] {
        let (history, runs) = try PowerRefresh.history(store, athleteID: athleteID)
        let settings = try PowerRefresh.settings(store, athleteID: athleteID)
        return PowerHistory.sports.compactMap { sport in
            let newestRun = runs.last { $0.sport == sport && PowerRefresh.hasPower($0) }?.startedAt
            let newestSetting = settings.filter { $0.sport == sport }.map(\.from).max()
            guard let at = [newestRun, newestSetting].compactMap({ $0 }).max() else { return nil }
            return Current(
                sport: sport, at: at, inForce: history.criticalPower(sport, at: at),
                bests: history.recentBests(sport, at: at))
        }
    }

    /// "285 W, W′ 14.2 kJ, Pmax 640 W (3-parameter fit of 9 efforts, the 90 days
    /// to 2026-11-15; RMS residual 4 W)" or "300 W (set by hand, in force from 2026-10-01)".
    public static func describe(_ c: Current, timeZone: String) -> String {
        let calendar = LocalCalendar(identifier: timeZone)
        func day(_ t: Double) -> String { LocalCalendar.dateString(calendar.day(of: t)) }
        guard let f = c.inForce else {
            let curve = c.bests.map { (seconds: Double($0.seconds), watts: $0.watts) }
            return "not known: no fit of the efforts of the 90 days to \(day(c.at)) holds ("
                + CriticalPower.refusal(curve) + "); set it with athlete set --cp"
        }
        let v = f.value
        var text = "\(Int(v.watts.rounded())) W"
        if let w = v.wPrimeJoules { text += ", W′ \(TextFormat.fixed(w / 1000, 1)) kJ" }
        if let p = v.maxPowerWatts { text += ", Pmax \(Int(p.rounded())) W" }
        if let from = f.setFrom { return text + " (set by hand, in force from \(day(from)))" }
        return text
            + " (\(v.model.rawValue) fit of \(v.efforts) efforts from \(f.runs) run\(f.runs == 1 ? "" : "s"), the 90 days to \(day(c.at)); "
            + "RMS residual \(Int(v.residualWatts.rounded())) W)"
    }
}

/// `runs bests --power SPORT`: the power-duration curve, each duration's best
/// ever and its best of the 90 days to the newest power run, with the critical
/// power those 90 days give.
public struct PowerCurveReport {
    public let sport: Sport
    public let timeZone: String
    public let current: PowerJobs.Current?
    public let allTime: [PowerHistory.Best]

    public init(_ store: any Store, athlete: String, sport: Sport) throws {
        guard let a = try store.athlete(id: athlete) else { throw StoreError.unknownAthlete(athlete) }
        guard PowerHistory.sports.contains(sport) else {
            throw Failure(.usage, "--power: \(sport.rawValue) has no power-duration curve (running or cycling)")
        }
        self.sport = sport
        timeZone = a.timeZone
        let history = try PowerRefresh.history(store, athleteID: athlete).history
        allTime = history.bests(sport, in: -Double.infinity...Double.infinity)
        current = try PowerJobs.current(store, athleteID: athlete).first { $0.sport == sport }
    }

    func recent(_ seconds: Int) -> PowerHistory.Best? { current?.bests.first { $0.seconds == seconds } }

    func day(_ t: Double) -> String {
        LocalCalendar.dateString(LocalCalendar(identifier: timeZone).day(of: t))
    }

    public func text() -> String {
        guard !allTime.isEmpty else { return "No \(sport.rawValue) with power yet." }
        let days = current.map { "90 days to \(day($0.at))" } ?? "90 days"
        var lines = [
            TextFormat.table(
                header: ["duration", "best W", "run", "date", days, "run", "date"],
                rows: allTime.map { b in
                    let r = recent(b.seconds)
                    return [
                        PeakPowerCurve.spoken(b.seconds), TextFormat.fixed(b.watts, 0), b.runID, day(b.start),
                        r.map { TextFormat.fixed($0.watts, 0) } ?? "-", r?.runID ?? "-",
                        r.map { day($0.start) } ?? "-"
                    ]
                }, rightAligned: [1, 4])
        ]
        if let c = current { lines += ["", "Critical power: " + PowerJobs.describe(c, timeZone: timeZone)] }
        return lines.joined(separator: "\n")
    }

    public static let csvHeader = [
        "sport", "seconds", "best_w", "best_run_id", "best_started_at", "recent_w", "recent_run_id", "recent_started_at"
    ]

    public func csv() -> String {
        CSV.document(
            header: Self.csvHeader,
            rows: allTime.map { b in
                let r = recent(b.seconds)
                return [
                    .text(sport.rawValue), .number(Double(b.seconds), digits: 0), .number(b.watts, digits: 1),
                    .text(b.runID), .text(TextFormat.isoTime(b.start)), .number(r?.watts, digits: 1),
                    .text(r?.runID ?? ""), .text(r.map { TextFormat.isoTime($0.start) } ?? "")
                ]
            })
    }

    struct JSON: Encodable {
        struct Point: Encodable {
            var seconds: Int
            var watts: Double
            var runId, startedAt: String
        }
        struct Duration: Encodable {
            var seconds: Int
            var best: Point
            @Null var recent: Point?
        }
        var sport: String
        var curve: [Duration]
        /// The critical power of the 90 days (null when none is known).
        @Null var criticalPower: CriticalPowerJSON.Sport?
    }

    public func json() throws -> String {
        func point(_ b: PowerHistory.Best) -> JSON.Point {
            JSON.Point(
                seconds: b.seconds, watts: TextFormat.round(b.watts, 1) ?? b.watts, runId: b.runID,
                startedAt: TextFormat.isoTime(b.start))
        }
        return try JSONOutput.string(
            JSON(
                sport: sport.rawValue,
                curve: allTime.map {
                    JSON.Duration(seconds: $0.seconds, best: point($0), recent: recent($0.seconds).map(point))
                },
                criticalPower: current.map(CriticalPowerJSON.Sport.init)))
    }
}

/// A power plan's figures from the store (`pacing: strategy: power` without
/// `critical_power_w` or `watts_per_mps`): the athlete's running critical power
/// in force now, and the median watts per m/s of flat running (average power
/// times grade-adjusted speed) of their running power runs of the 90 days to
/// the newest. A review asks for them as they were before the race (`before`:
/// the race run's start), so that runs after it do not move an old review.
public enum PowerPlanning {
    /// Fills what the setup does not give; leaves it as it is when there is
    /// nothing to fill from (the planner then names the key that is missing).
    /// With `before`, only what was known before that time: settings and runs
    /// that start earlier.
    public static func fill(_ setup: inout RaceSetup, store: (any Store)?, before: Double? = nil) throws {
        guard case .power(var target) = setup.strategy, let store else { return }
        let athlete = setup.athlete ?? Athlete.defaultID
        guard try store.athlete(id: athlete) != nil else { return }
        if target.cpPercent != nil, target.criticalPowerWatts == nil,
            let f = try criticalPower(store, athleteID: athlete, before: before)
        {
            target.criticalPowerWatts = f.value.watts
            target.criticalPowerSource =
                (f.setFrom != nil
                    ? "athlete \(athlete)'s setting" : "the \(f.value.model.rawValue) fit of athlete \(athlete)'s runs")
                + (before != nil ? " before the race" : "")
        }
        if target.wattsPerMps == nil, let (k, runs) = try wattsPerMps(store, athleteID: athlete, before: before) {
            target.wattsPerMps = k
            target.wattsPerMpsSource =
                "athlete \(athlete)'s \(runs) run\(runs == 1 ? "" : "s") with power"
                + (before != nil ? " before the race" : "")
        }
        setup.strategy = .power(target)
    }

    /// The running critical power in force now (as `athlete show` gives it),
    /// or just before `before`.
    static func criticalPower(_ store: any Store, athleteID: String, before: Double?) throws -> PowerHistory.InForce? {
        guard let before else {
            return try PowerJobs.current(store, athleteID: athleteID).first(where: { $0.sport == .running })?.inForce
        }
        return try PowerRefresh.history(store, athleteID: athleteID, before: before).history.criticalPower(
            .running, at: before - 1)
    }

    /// The median of average power / grade-adjusted speed over the athlete's
    /// running power runs of the 90 days to the newest (the newest that starts
    /// before `before`, when given), and how many; nil without.
    public static func wattsPerMps(_ store: any Store, athleteID: String, before: Double? = nil) throws -> (
        Double, Int
    )? {
        var filter = RunFilter()
        filter.athleteID = athleteID
        filter.sport = .running
        filter.having = [Metric.AvgPower.self]
        let runs = try store.runs(matching: filter).filter {
            $0.metrics[Metric.AvgPower.self] != nil && $0.gradeAdjustedPaceSecondsPerKm != nil
                && $0.startedAt < (before ?? .infinity)
        }
        guard let newest = runs.map(\.startedAt).max() else { return nil }
        let ratios = runs.filter { $0.startedAt >= newest - PowerHistory.windowDays * 86_400 }.compactMap {
            r -> Double? in
            guard let w = r.metrics[Metric.AvgPower.self], let gap = r.gradeAdjustedPaceSecondsPerKm, gap > 0 else {
                return nil
            }
            let k = w * gap / 1000
            return PowerPacing.wattsPerMpsRange.contains(k) ? k : nil
        }.sorted()
        guard !ratios.isEmpty else { return nil }
        let n = ratios.count
        let median: Double = n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2
        return (median, n)
    }
}
