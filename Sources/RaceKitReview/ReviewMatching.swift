import Foundation

/// Which stored run a race became: the athlete's runs on the setup's date
/// (local day in the athlete's time zone) whose distance is within
/// `RaceReview.alignmentTolerance` of the race distance; one is the race, none
/// or several is an error that lists them.
public enum ReviewMatching {
    /// The UTC epoch bounds [start, end) of a local calendar day; nil for a date
    /// that is not one.
    public static func dayBounds(_ date: String, timeZone: TimeZone) -> (start: Double, end: Double)? {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...9999).contains(parts[0]), (1...12).contains(parts[1]),
            (1...31).contains(parts[2])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let day = DateComponents(year: parts[0], month: parts[1], day: parts[2])
        guard let start = calendar.date(from: day), let end = calendar.date(byAdding: .day, value: 1, to: start)
        else { return nil }
        return (start.timeIntervalSince1970, end.timeIntervalSince1970)
    }

    /// A warning when the run did not start on the setup's race date (local day in
    /// `timeZone`): a run given with `--run` a month after the race was reviewed
    /// without a word. Nil when the dates agree or the setup has none.
    public static func dateWarning(raceDate: String?, runStart: Double, timeZone: TimeZone) -> String? {
        guard let raceDate, let day = dayBounds(raceDate, timeZone: timeZone) else { return nil }
        guard runStart < day.start || runStart >= day.end else { return nil }
        let days = Int(((runStart - day.start) / 86_400).rounded(.down))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: runStart))
        let started = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
        let gap = days >= 0 ? "\(days) day\(days == 1 ? "" : "s") after" : "\(-days) day\(days == -1 ? "" : "s") before"
        return "the run started on \(started), \(gap) the race date \(raceDate): is it the race?"
    }

    /// The one run of the day near the race distance, nearest first.
    public static func choose(
        _ sameDay: [ReviewCandidate], raceMeters: Double, file: String, date: String, athlete: String
    ) throws -> ReviewCandidate {
        let near = sameDay.filter { c in
            c.distanceMeters.map { abs($0 / raceMeters - 1) <= RaceReview.alignmentTolerance } ?? false
        }.sorted { abs($0.distanceMeters! - raceMeters) < abs($1.distanceMeters! - raceMeters) }
        if near.count == 1 { return near[0] }
        if near.isEmpty {
            throw ReviewError.noCandidate(
                file: file, date: date, athlete: athlete, sameDay: sameDay.map(\.line).joined(separator: "; "))
        }
        throw ReviewError.severalCandidates(
            file: file, date: date, athlete: athlete, candidates: near.map(\.line).joined(separator: "; "))
    }
}
