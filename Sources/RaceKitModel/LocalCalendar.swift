import Foundation

/// Local calendar days in an IANA time zone (DST included).
public struct LocalCalendar: Sendable {
    public let timeZone: TimeZone

    public init(identifier: String) {
        timeZone = TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC")!
    }

    /// The local calendar day (days since 1970-01-01) of an instant.
    public func day(of seconds: Double) -> Int {
        let offset = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        return Int(((seconds + offset) / 86_400).rounded(.down))
    }
}

extension LocalCalendar {
    /// The instant a local wall-clock time of a calendar day is (`seconds` after
    /// local midnight; in a DST gap or overlap, the offset of the instant found).
    public func instant(day: Int, seconds: Double) -> Double {
        let guess = Double(day) * 86_400 + seconds
        var t = guess - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: guess)))
        t = guess - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: t)))
        return t
    }

    /// `2026-11-09` for a calendar day (days since 1970-01-01).
    public static func dateString(_ day: Int) -> String {
        let (y, m, d) = TimestampParser.civilFromDays(day)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        return "\(y)-\(two(m))-\(two(d))"
    }

    /// The calendar day of `YYYY-MM-DD`; nil for text that is not a date (years 1900-2200).
    public static func day(parsing text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1900...2200).contains(y),
            (1...12).contains(m), d >= 1
        else { return nil }
        let day = TimestampParser.daysFromCivil(year: y, month: m, day: d)
        guard TimestampParser.civilFromDays(day) == (y, m, d) else { return nil }
        return day
    }
}
