import RaceKitCore

/// Locale-free, deterministic number and time formatting for report files
/// (reruns must give byte-identical files).
enum ReportFormat {
    /// Fixed decimals; `TextFormat.unknown` for nil or a non-finite value.
    static func fixed(_ v: Double?, _ digits: Int) -> String {
        guard let v, v.isFinite else { return TextFormat.unknown }
        return TextFormat.fixed(v, digits)
    }

    static func two(_ v: Int) -> String { TextFormat.two(v) }

    /// `h:mm:ss` or `m:ss`.
    static func duration(_ seconds: Double) -> String { TextFormat.duration(seconds) }

    /// `4:37` from seconds per km, `TextFormat.unknown` when unknown.
    static func pace(_ secondsPerKm: Double?) -> String {
        guard let p = secondsPerKm, p.isFinite, p > 0 else { return TextFormat.unknown }
        return TextFormat.pace(p)
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun 15 Nov`.
    static func day(_ day: Int) -> String {
        let (_, m, d) = civil(day)
        return "\(weekdays[ISOWeek.weekday(day)]) \(d) \(months[m - 1])"
    }

    static func civil(_ day: Int) -> (Int, Int, Int) { TimestampParser.civilFromDays(day) }
}
