import RaceKitModel
import RaceKitOutput

/// The report files' dates: locale-free, so reruns give byte-identical files.
extension TextFormat {
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun 15 Nov` from days since 1970-01-01.
    static func day(_ day: Int) -> String {
        let (_, m, d) = TimestampParser.civilFromDays(day)
        return "\(weekdays[ISOWeek.weekday(day)]) \(d) \(months[m - 1])"
    }
}
