import Foundation
import RaceKitCore

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
