import RaceKitCore

/// Locale-free, deterministic number and time formatting for report files
/// (reruns must give byte-identical files).
enum ReportFormat {
    /// Fixed decimals, no negative zero, empty for nil.
    static func fixed(_ v: Double?, _ digits: Int) -> String {
        guard let v, v.isFinite else { return "" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((abs(v) * scale).rounded())
        let sign = v < 0 && scaled != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(scaled) }
        var fraction = String(scaled % Int64(scale))
        while fraction.count < digits { fraction = "0" + fraction }
        return "\(sign)\(scaled / Int64(scale)).\(fraction)"
    }

    static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }

    /// `h:mm:ss` or `m:ss`.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
    }

    /// `4:37` from seconds per km.
    static func pace(_ secondsPerKm: Double?) -> String {
        guard let p = secondsPerKm, p.isFinite, p > 0 else { return "–" }
        let s = Int(p.rounded())
        return "\(s / 60):\(two(s % 60))"
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
