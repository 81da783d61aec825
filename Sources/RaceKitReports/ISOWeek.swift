import Foundation
import RaceKitModel

/// An ISO-8601 week: Monday to Sunday, numbered in its ISO week-year (the year
/// of its Thursday), as `2026-W09`.
public struct ISOWeek: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The Monday, as days since 1970-01-01 (a local calendar date).
    public let monday: Int

    /// The week holding a local calendar day (days since 1970-01-01).
    public init(containing day: Int) { monday = day - ISOWeek.weekday(day) }

    init(monday: Int) { self.monday = monday }

    /// Monday = 0 ... Sunday = 6 (1970-01-01 was a Thursday).
    public static func weekday(_ day: Int) -> Int { ((day + 3) % 7 + 7) % 7 }

    /// The ISO week-year and week number.
    public var yearAndNumber: (year: Int, week: Int) {
        let thursday = monday + 3
        let year = TimestampParser.civilFromDays(thursday).year
        let jan1 = TimestampParser.daysFromCivil(year: year, month: 1, day: 1)
        return (year, (thursday - jan1) / 7 + 1)
    }

    public var description: String {
        let (y, w) = yearAndNumber
        return "\(y)-W\(w < 10 ? "0" : "")\(w)"
    }

    public var sunday: Int { monday + 6 }
    public func adding(weeks n: Int) -> ISOWeek { ISOWeek(monday: monday + 7 * n) }
    public static func < (a: ISOWeek, b: ISOWeek) -> Bool { a.monday < b.monday }

    /// Parses `YYYY-Www` (also `YYYYWww`); nil for text that is not a week of that year.
    public init?(_ text: String) {
        let t = text.trimmingBlanks().uppercased().replacingOccurrences(of: "-", with: "")
        guard t.count == 7, let w = t.firstIndex(of: "W"), t.distance(from: t.startIndex, to: w) == 4,
            let year = Int(t.prefix(4)), let week = Int(t.suffix(2)), week >= 1
        else { return nil }
        let jan4 = TimestampParser.daysFromCivil(year: year, month: 1, day: 4)
        let first = jan4 - ISOWeek.weekday(jan4)
        let candidate = ISOWeek(monday: first + 7 * (week - 1))
        guard candidate.yearAndNumber.year == year else { return nil }   // week 53 of a 52-week year
        self = candidate
    }

    /// `2026-11-09`.
    public static func dateString(_ day: Int) -> String { LocalCalendar.dateString(day) }
}
