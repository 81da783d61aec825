import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput

/// The performance a prediction or a suggested target starts from: the
/// athlete's best record (a mile or more, by VDOT) of the last `withinMonths`
/// months, or, when there is none, the best of the `withinMonths` months up to
/// the athlete's latest record, named with its age and a warning.
public struct RecentForm: Sendable {
    public var record: PersonalRecord
    /// Whole days between the record's run and now.
    public var ageDays: Int
    /// The window asked for, in months (a month is 365.25 / 12 days).
    public var withinMonths: Int
    /// The record is inside the window.
    public var isRecent: Bool
    /// "half marathon in 1:36:17 (2026-03-10, 7 days ago, run 01J...)".
    public var origin: String
    /// Why the record deserves less trust (an old record used), if it does.
    public var warnings: [String]

    /// The default window: a year.
    public static let defaultMonths = 12
    /// The windows `--within-months` accepts.
    public static let monthsRange: ClosedRange<Int> = 1...600
    static let daysPerMonth = 365.25 / 12

    /// The basis for `athleteID` at `now` (epoch seconds); nil without any record.
    public static func find(
        in store: any AthleteRepository & RunRepository, athleteID: String, now: Double,
        withinMonths: Int = defaultMonths
    )
        throws -> RecentForm?
    {
        guard try store.athlete(id: athleteID) != nil else { throw StoreError.unknownAthlete(athleteID) }
        let window = Double(withinMonths) * daysPerMonth * 86_400
        if let recent = try store.bestPerformance(athleteID: athleteID, since: now - window) {
            return RecentForm(record: recent, now: now, withinMonths: withinMonths, isRecent: true)
        }
        // Nothing recent: the best of the window up to the latest record.
        guard
            let latest = try store.personalRecords(athleteID: athleteID, distance: nil)
                .filter({ $0.distanceMeters >= RacePredictor.shortestFittedMeters - 0.5 })
                .map(\.run.startedAt).max(),
            let old = try store.bestPerformance(athleteID: athleteID, since: latest - window)
        else { return nil }
        return RecentForm(record: old, now: now, withinMonths: withinMonths, isRecent: false)
    }

    init(record: PersonalRecord, now: Double, withinMonths: Int, isRecent: Bool) {
        self.record = record
        self.withinMonths = withinMonths
        self.isRecent = isRecent
        ageDays = max(0, Int(((now - record.run.startedAt) / 86_400).rounded(.down)))
        let date = String(TimestampParser.format(record.run.startedAt, fractional: false).prefix(10))
        let what = "\(BestEfforts.name(of: record.distanceMeters)) in \(TextFormat.duration(record.elapsedSeconds))"
        origin = "\(what) (\(date), \(Self.age(days: ageDays)), run \(record.run.id))"
        warnings =
            isRecent
            ? []
            : [
                "no record in the last \(Self.months(withinMonths)): using the \(what) of \(date), \(Self.age(days: ageDays)); form changes over that time, so give --from DISTANCE=TIME with a recent race, or --within-months to widen the window"
            ]
    }

    /// "12 months", "1 month".
    static func months(_ n: Int) -> String { n == 1 ? "month" : "\(n) months" }

    /// An age as a coach says it: days under two months, months under two
    /// years, then years.
    public static func age(days: Int) -> String {
        if days < 1 { return "today" }
        if days < 61 { return days == 1 ? "1 day ago" : "\(days) days ago" }
        let months = Int((Double(days) / daysPerMonth).rounded(.down))
        if months < 24 { return "\(months) months ago" }
        return "\(Int((Double(days) / 365.25).rounded(.down))) years ago"
    }
}

extension RecentForm {
    /// A target for `distance` from this record (`race new`), and the sentence
    /// that says where it comes from: the record with its age, the models'
    /// range, Riegel's caveat where it applies, and the warnings.
    public func suggestTarget(to distance: Double) -> (seconds: Double, text: String) {
        let s = RacePredictor.suggestTarget(
            seconds: record.elapsedSeconds, meters: record.distanceMeters, to: distance)
        var text =
            "suggested from \(origin): models give \(TextFormat.duration(s.fastestSeconds)) to \(TextFormat.duration(s.slowestSeconds))"
        if RacePredictor.riegelNote(fromMeters: record.distanceMeters, toMeters: distance) != nil {
            text += " (the slower end: Riegel tends to be optimistic for recreational marathoners)"
        }
        return (s.seconds, text)
    }
}

/// "Now" for choosing recent records: `RACEKIT_NOW` (ISO-8601) when set, for
/// tests and reproducible runs; else the system clock.
public enum FormClock {
    public static func now(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double? {
        guard let text = environment["RACEKIT_NOW"], !text.isEmpty else { return Date().timeIntervalSince1970 }
        return TimestampParser.parse(text)?.secondsSinceEpoch
    }

    /// `now()`, or a usage failure naming a `RACEKIT_NOW` that is not an ISO-8601 time.
    public static func checkedNow(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> Double
    {
        guard let now = now(environment: environment) else {
            throw Failure(.usage, "RACEKIT_NOW='\(environment["RACEKIT_NOW"] ?? "")' is not an ISO-8601 time")
        }
        return now
    }
}
