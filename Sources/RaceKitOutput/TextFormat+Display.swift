import Foundation
import RaceKitModel

/// The display side of `TextFormat`: times in a zone, distances and paces in a
/// unit, and the aligned tables of the terminal.
extension TextFormat {
    /// ISO-8601 UTC, e.g. 2026-03-01T07:12:00Z.
    public static func isoTime(_ seconds: Double) -> String { TimestampParser.format(seconds, fractional: false) }

    /// Distance in the unit, e.g. `21.10`.
    public static func distance(_ meters: Double?, _ unit: DistanceUnit, digits: Int = 2) -> String {
        fixed(meters.map { $0 / unit.meters }, digits)
    }

    /// Pace per unit from seconds per km.
    public static func pace(_ secondsPerKm: Double?, _ unit: DistanceUnit) -> String {
        pace(secondsPerKm.map { $0 * unit.meters / 1000 })
    }

    /// A local date and time in a time zone, e.g. `2026-11-15 08:06 (Sun)`.
    public static func localTime(_ seconds: Double, timeZone: String) -> String {
        let zone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
        // Gregorian years 1583-9999 by arithmetic (a DateFormatter costs a
        // millisecond to make); the formatter for the rest (it keeps the Julian
        // calendar before October 1582).
        if seconds.isFinite, abs(seconds) < 2.5e11 {
            let local = Int(seconds.rounded(.down)) + zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
            let days = Int((Double(local) / 86_400).rounded(.down)), rest = local - days * 86_400
            let (y, m, d) = TimestampParser.civilFromDays(days)
            if (1583...9999).contains(y) {
                let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
                let year = String(repeating: "0", count: 4 - String(y).count) + String(y)
                return "\(year)-\(two(m))-\(two(d)) \(two(rest / 3600)):\(two(rest / 60 % 60)) (\(weekday))"
            }
        }
        return localTimeFormatted(seconds, timeZone: zone)
    }

    public static func localTimeFormatted(_ seconds: Double, timeZone: TimeZone) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        f.dateFormat = "yyyy-MM-dd HH:mm (EEE)"
        return f.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// A zone's bounds: "140-151" (the upper bound exclusive), or "152+" for the top zone.
    public static func zoneRange(_ low: Double, _ high: Double?) -> String {
        high.map { "\(Int(low))-\(Int($0) - 1)" } ?? "\(Int(low))+"
    }

    /// The time-in-zones table of `runs show` (heart rate and power): zone,
    /// bounds in `unit`, time, share and a bar.
    public static func zoneTimes(unit: String, _ zones: [(name: String, low: Double, high: Double?, seconds: Double)])
        -> String
    {
        let total = zones.reduce(0) { $0 + $1.seconds }
        return table(
            header: ["zone", unit, "time", "share", ""],
            rows: zones.map { z in
                let share = total > 0 ? z.seconds / total : 0
                return [
                    z.name, zoneRange(z.low, z.high), duration(z.seconds), "\(Int((share * 100).rounded()))%",
                    String(repeating: "█", count: Int((share * 30).rounded()))
                ]
            }, rightAligned: [1, 2, 3])
    }

    /// A left/right aligned text table. Each cell is one line: control characters
    /// in it (a name from a file) are shown escaped (`DisplayText.line`).
    public static func table(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        let rows = rows.map { $0.map(DisplayText.line) }
        // Each cell's width counted once (counting Characters walks the text).
        let counts = rows.map { $0.map(\.count) }
        var widths = header.map(\.count)
        for row in counts { for (i, n) in row.enumerated() { widths[i] = max(widths[i], n) } }
        var out = ""
        func line(_ cells: [String], _ counts: [Int]) {
            var text = ""
            for (i, cell) in cells.enumerated() {
                if i > 0 { text += "  " }
                let pad = String(repeating: " ", count: widths[i] - counts[i])
                if rightAligned.contains(i) { text += pad + cell } else { text += cell + pad }
            }
            if !out.isEmpty { out += "\n" }
            out += text.trimmingTrailingSpaces()
        }
        line(header, header.map(\.count))
        line(widths.map { String(repeating: "-", count: $0) }, widths)
        for (row, n) in zip(rows, counts) { line(row, n) }
        return out
    }
}

extension String {
    /// The text without the spaces at its end. By bytes: a space is one, and
    /// counting characters from the end each time made a 3,000-row table's
    /// padding a fifth of `runs list`'s time.
    public func trimmingTrailingSpaces() -> String { trimmingTrailing(UInt8(ascii: " ")) }

    public func trimmingTrailing(_ byte: UInt8) -> String {
        guard let last = utf8.lastIndex(where: { $0 != byte }) else { return "" }
        let end = utf8.index(after: last)
        return end == utf8.endIndex ? self : String(Substring(utf8[..<end]))
    }
}

extension String {
    /// The text without the newlines at its end (a rendered document printed as lines).
    public func trimmingTrailingNewlines() -> String { trimmingTrailing(UInt8(ascii: "\n")) }
}
