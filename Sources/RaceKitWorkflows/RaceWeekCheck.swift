import RaceKitModel
import RaceKitOutput
import RaceKitReports
import RaceKitStore

/// Race week: is the athlete recovered and fresh? A race within 7 days is
/// checked against the newest readiness band and the training form
/// (docs/race-plans.md, "Race week").
public enum RaceWeekCheck {
    /// Days before the race the check applies.
    public static let windowDays = 7
    /// Form (fitness minus fatigue) below this is far from race-ready: a rested
    /// athlete stands at +5 to +25 (Coggan's training stress balance, as the
    /// training logs chart it).
    public static let formFloor = -10.0
    /// Least history (days since the first run) for a form worth reading:
    /// fitness underestimates the athlete until it has warmed up (126 days).
    public static var minimumHistoryDays: Int { LoadModel.warmupDays }

    /// The warnings for a race on `raceDate` (`YYYY-MM-DD`, the athlete's time
    /// zone) planned at `now`; none outside the window, for an unknown
    /// athlete, or without the data.
    public static func warnings(_ store: any Store, athleteID: String, raceDate: String?, now: Double) throws
        -> [String]
    {
        guard let raceDate, let raceDay = LocalCalendar.day(parsing: raceDate),
            let athlete = try store.athlete(id: athleteID)
        else { return [] }
        let calendar = LocalCalendar(identifier: athlete.timeZone)
        let today = calendar.day(of: now)
        let left = raceDay - today
        guard (0...windowDays).contains(left) else { return [] }
        let when = left == 0 ? "on race day" : left == 1 ? "the day before the race" : "\(left) days before the race"
        var out: [String] = []
        // Today's band, or yesterday's when today has no data yet.
        if let (day, readiness) = try WellnessJobs.days(store, athleteID: athleteID, from: today - 1, until: today)
            .last,
            readiness.band == .amber || readiness.band == .red
        {
            out.append(
                "readiness \(readiness.band.rawValue) on \(LocalCalendar.dateString(day.day)), \(when): "
                    + readiness.reasons.joined(separator: "; "))
        }
        var filter = RunFilter()
        filter.athleteID = athleteID
        filter.sport = .running
        filter.until = now
        let runs = try store.runs(matching: filter)
        var loads: [Int: Double] = [:]
        for r in runs { loads[calendar.day(of: r.startedAt), default: 0] += r.load ?? 0 }
        if let first = loads.keys.min(), today - first >= minimumHistoryDays,
            let d = LoadModel.days(loads: loads, first: first, last: today).last, d.form < formFloor
        {
            out.append(
                "form \(TextFormat.fixed(d.form, 0)) (fitness \(TextFormat.fixed(d.fitness, 0)), fatigue "
                    + "\(TextFormat.fixed(d.fatigue, 0))) \(when), far below the +5 to +25 of a rested athlete: "
                    + "the taper has not taken the fatigue off yet")
        }
        return out
    }
}
