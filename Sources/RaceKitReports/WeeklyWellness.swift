import RaceKitMetrics
import RaceKitOutput

/// A day of wellness with its band, as the weekly report shows it.
public struct DayWellness: Sendable, Equatable {
    public var day: WellnessDay
    public var readiness: Readiness
}

/// A week's wellness: the means of its days' values and how many days had each band.
public struct WeekWellness: Sendable, Equatable {
    public var sleepMinutes: Double?
    public var hrvMs: Double?
    public var restingHeartRate: Double?
    public var green = 0, amber = 0, red = 0, insufficient = 0

    init?(_ days: [DayWellness]) {
        guard !days.isEmpty else { return nil }
        func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
        sleepMinutes = mean(days.compactMap { $0.day.sleepSeconds.map { $0 / 60 } })
        hrvMs = mean(days.compactMap(\.day.hrvMs))
        restingHeartRate = mean(days.compactMap(\.day.restingHeartRate))
        for d in days {
            switch d.readiness.band {
            case .green: green += 1
            case .amber: amber += 1
            case .red: red += 1
            case .insufficient: insufficient += 1
            }
        }
    }
}

/// The weekly report's wellness: its CSV columns and its Markdown section.
public enum WeeklyWellness {
    /// The CSV columns after the load columns (empty cells without data).
    public static let csvHeader = [
        "sleep_avg_min", "hrv_avg_ms", "resting_hr_avg_bpm", "readiness_green_days", "readiness_amber_days",
        "readiness_red_days"
    ]

    static func csvCells(_ w: WeekWellness?) -> [CSV.Cell] {
        [
            .number(w?.sleepMinutes, digits: 0), .number(w?.hrvMs, digits: 1), .number(w?.restingHeartRate, digits: 1),
            .integer(w?.green), .integer(w?.amber), .integer(w?.red)
        ]
    }

    /// Reads the athlete's wellness for the report's weeks (and the 60 days
    /// before them, the baselines'; sources in the athlete's order) and sets each row's week.
    package static func attach(_ weeks: inout AthleteWeeks, measurements: [DailyMeasurement], sourceOrder: [String]) {
        let days = WellnessDays.build(measurements, timeZone: weeks.timeZone, sourceOrder: sourceOrder)
        let readiness = ReadinessModel.evaluate(days)
        guard let first = weeks.rows.first?.week.monday, let last = weeks.rows.last?.week.sunday else { return }
        for d in days where d.day >= first && d.day <= last {
            weeks.wellness[d.day] = DayWellness(day: d, readiness: readiness[d.day]!)
        }
        for k in weeks.rows.indices {
            let w = weeks.rows[k].week
            weeks.rows[k].wellness = WeekWellness((w.monday...w.sunday).compactMap { weeks.wellness[$0] })
        }
    }

    /// `## Wellness`: a line a day of the week (sleep, HRV, resting heart rate,
    /// the band and its reasons) and the bands of the weeks shown; nothing when
    /// the week has no wellness data.
    static func section(_ w: AthleteWeeks) -> [String] {
        guard let week = w.rows.last?.week, let summary = w.rows.last?.wellness else { return [] }
        let f = TextFormat.fixed
        var out = ["## Wellness", ""]
        out.append(
            "Readiness: \(summary.green) green, \(summary.amber) amber, \(summary.red) red"
                + (summary.insufficient > 0 ? ", \(summary.insufficient) without enough history" : "") + ".")
        out.append("")
        out.append("| day | band | sleep | HRV ms | rest HR | reasons |")
        out.append("|---|---|---:|---:|---:|---|")
        for day in week.monday...week.sunday {
            guard let d = w.wellness[day] else { continue }
            let sleep = d.day.sleepSeconds.map { ReadinessModel.hm($0) } ?? ""
            out.append(
                "| \(ISOWeek.dateString(day)) | \(mark(d.readiness.band)) \(d.readiness.band.rawValue) | \(sleep) | "
                    + "\(d.day.hrvMs.map { f($0, 0) } ?? "") | \(d.day.restingHeartRate.map { f($0, 0) } ?? "") | "
                    + "\(d.readiness.reasons.joined(separator: "; ").replacingOccurrences(of: "|", with: "/")) |")
        }
        out.append("")
        let bands = w.rows.compactMap { r in r.wellness.map { (r.week, $0) } }
        if bands.count > 1 {
            out.append(
                "Amber and red days a week, \(bands.first!.0) to \(bands.last!.0): `"
                    + bands.map { _, b in bar(b.amber + b.red) }.joined() + "`")
            out.append("")
        }
        return out
    }

    static func mark(_ band: Readiness.Band) -> String {
        switch band {
        case .green: return "🟢"
        case .amber: return "🟠"
        case .red: return "🔴"
        case .insufficient: return "⚪"
        }
    }

    /// A block for 0 to 7 days.
    static func bar(_ n: Int) -> String {
        let blocks = Array(" ▁▂▃▄▅▆█")
        return String(blocks[max(0, min(7, n))])
    }
}
